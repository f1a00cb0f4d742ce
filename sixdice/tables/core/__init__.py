"""Layer 0 of the table app: what every layer above may use (refusals, secrets, the app's dice, names, languages, signals).

Imports nothing of the table app but its models.
"""
