"""The socket's transport: flood control, guessing limits, origins, socket sessions, the in-memory channel layer, presence.

Imports only the core and the models.
"""
