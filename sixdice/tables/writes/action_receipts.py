"""Client action ids: an action frame sent twice is applied at most once.

Every ``action`` frame may carry ``action_id``, a string the client makes up
once per action (a tap) and keeps when it sends the same action again: a
double tap, the same seat in two tabs, a resend after a reconnect.  The first
answer (the ``ack`` with its ``seq``, or the refusal) is stored per sender
(seat number or ``host``) in :class:`~sixdice.tables.models.ActionReceipt`,
in the database so it holds across server processes; a frame whose id was
seen gets that answer again, marked ``duplicate``, instead of "someone else
moved first".  See ``docs/protocol.md``.

The ack's receipt is written in the transaction of the move itself, so the
move and its receipt commit together or not at all.  A twin sent at the same
moment loses on the game's ``seq`` (only one writer wins) and then finds the
winner's receipt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import ActionReceipt
from sixdice.tables.writes import checked_path
from sixdice.tables.writes.ledger import Applied

KEEP = 32  # receipts kept per sender and table (at least; older ones are pruned now and then)
PRUNE_EVERY = 16  # prune when a receipt's id is a multiple of this


@dataclass
class Outcome:
    """What an action frame is answered with; ``applied`` is None for a duplicate."""

    reply: dict[str, Any]
    applied: Applied | None


class _Seen(Exception):
    """The receipt for this id already exists: the action was answered before."""


def _earlier(table_id: int, sender: str, action_id: str) -> Outcome | None:
    receipt = ActionReceipt.objects.filter(table_id=table_id, sender=sender, action_id=action_id).first()
    if receipt is None:
        return None
    reply = receipt.reply
    if "code" in reply:
        raise ServiceError.of(reply["code"])(reply["message"], duplicate=True)
    return Outcome({"type": "ack", "seq": reply["seq"], "duplicate": True}, None)


def _insert_receipt(table_id: int, sender: str, action_id: str, reply: dict[str, Any]) -> int | None:
    """The receipt of an applied action; its id, or ``None`` when this sender's ``action_id`` has one already.

    One plain statement (``INSERT ... ON CONFLICT DO NOTHING RETURNING id``,
    SQLite 3.35+ and PostgreSQL alike, each value prepared by its model field
    as the ORM would): it runs with every move, where the ORM's ``create``
    inside a savepoint (to catch the clash) cost three statements and a
    fifth of the move's database work (docs/performance.md).
    """
    fields = {f.name: f for f in ActionReceipt._meta.concrete_fields}
    values = [
        table_id,
        sender,
        action_id,
        fields["reply"].get_db_prep_save(reply, connection),
        fields["created_at"].get_db_prep_save(timezone.now(), connection),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_RECEIPT_SQL, values)
        row = cursor.fetchone()
    return None if row is None else int(row[0])


_RECEIPT_COLUMNS = ", ".join(str(ActionReceipt._meta.get_field(name).column)  # type: ignore[union-attr]
                             for name in ("table", "sender", "action_id", "reply", "created_at"))
_RECEIPT_SQL = (
    f"INSERT INTO {ActionReceipt._meta.db_table} ({_RECEIPT_COLUMNS}) VALUES (%s, %s, %s, %s, %s)"
    f" ON CONFLICT DO NOTHING RETURNING {ActionReceipt._meta.pk.column}"
)


def _prune(table_id: int, sender: str) -> None:
    mine = ActionReceipt.objects.filter(table_id=table_id, sender=sender)
    cut = mine.order_by("-id").values_list("id", flat=True)[KEEP - 1 : KEEP].first()
    if cut is not None:
        mine.filter(id__lt=cut).delete()


def apply_once(
    *,
    table_id: int,
    sender: str | None,
    action_id: str | None,
    table_code: str,
    credentials: Credentials,
    action: dict[str, Any],
    expected_seq: int,
    as_host: bool,
) -> Outcome:
    """Apply an action frame, or answer it as before when its ``action_id`` was seen from ``sender``.

    ``sender`` is ``"host"`` for a host action, else the connection's seat
    number as a string; ``None`` (a spectator) or no ``action_id`` applies
    the action plainly.
    """
    kwargs: dict[str, Any] = {
        "table_code": table_code, "credentials": credentials, "action": action,
        "expected_seq": expected_seq, "as_host": as_host,
    }
    if action_id is None or sender is None:
        applied = checked_path.apply_action(**kwargs)
        return Outcome({"type": "ack", "seq": applied.game.seq}, applied)
    try:
        with transaction.atomic():
            # The move and its receipt in one transaction, with no savepoint: a refusal or a clash rolls both back.
            applied = checked_path.apply_action_in_transaction(**kwargs)
            receipt_id = _insert_receipt(table_id, sender, action_id, {"seq": applied.game.seq})
            if receipt_id is None:
                raise _Seen  # rolls the move back: it was answered before
    except _Seen:
        earlier = _earlier(table_id, sender, action_id)
        assert earlier is not None  # the receipt that clashed is there: receipts are only pruned far behind
        return earlier
    except ServiceError as exc:
        # The refusal is kept as this id's answer unless the id has one already (sent before, or by a twin
        # meanwhile): then that first answer wins.  One statement when the id is new, as for a stale flood.
        if _insert_receipt(table_id, sender, action_id, {"code": exc.code, "message": str(exc.message)}) is None:
            earlier = _earlier(table_id, sender, action_id)  # raises the first refusal, or returns the first ack
            if earlier is not None:
                return earlier
        raise
    if receipt_id % PRUNE_EVERY == 0:
        _prune(table_id, sender)
    return Outcome({"type": "ack", "seq": applied.game.seq}, applied)
