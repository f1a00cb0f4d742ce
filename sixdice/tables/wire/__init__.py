"""The wire format of the live connection: frames a client sends (incoming), what the server sends (outgoing), and what the page may offer.

Imports only the core and the models.
"""
