"""Reads: what each role at a table is shown, the shared table frame, the turn timer's clock.

Imports the wire format, the transport, the core and the models; never a write.
"""
