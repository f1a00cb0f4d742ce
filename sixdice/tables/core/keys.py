"""Secrets that bind a browser to a table: seat and host secrets, join key and PIN, table codes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.utils.crypto import salted_hmac

from sixdice.tables.models import Table

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 5


@dataclass(frozen=True)
class Credentials:
    """What a browser holds for one table: its seat secret and/or the host secret."""

    seat_secret: str | None = None
    host_secret: str | None = None


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str | None, digest: str) -> bool:
    return bool(secret) and bool(digest) and hmac.compare_digest(hash_secret(secret or ""), digest)


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


def is_host(table: Table, credentials: Credentials) -> bool:
    return matches(credentials.host_secret, table.host_secret_hash)


def join_key(table: Table) -> str:
    """The key in the join link and QR code: whoever opens it may take a seat without the PIN.

    Derived from the table's secret host hash, so it needs no column and cannot be guessed from the code.
    """
    return salted_hmac("sixdice.join-key", f"{table.pk}:{table.host_secret_hash}").hexdigest()[:20]


def join_pin(table: Table) -> str:
    """The 4-digit join PIN shown on the host's screen: with the table code, it lets a phone take a seat."""
    digest = salted_hmac("sixdice.join-pin", f"{table.pk}:{table.host_secret_hash}").hexdigest()
    return f"{int(digest, 16) % 10_000:04d}"
