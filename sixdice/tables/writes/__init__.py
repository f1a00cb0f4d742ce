"""Writes: the ledger, the one checked write path, tables and seats, action receipts, and what runs after a commit.
"""
