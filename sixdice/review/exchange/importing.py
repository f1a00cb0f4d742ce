"""Import checked documents: all the games of a file in one transaction, or none."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction

from sixdice.gamekit.engine import HOST, REGISTRY, SYSTEM, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.options import table_options as shared_options
from sixdice.gamekit.pins import pinned_values
from sixdice.tables.models import Event, Game, Seat, Table, TableChange
from sixdice.tables.writes import ledger, services

from .. import limits
from ..models import HintShown, ImportMark, save_note
from .checks import ImportRefused, NotSigned, check, load, need
from .export import CHANGED, VERIFIED


def write(c: dict[str, Any]) -> Game:
    """Write one checked game through the ledger, as a table that was played here: its seats joined and
    the game started (at its start), its events, then its end (a finished game's, or the table's close)."""
    abandoned = c["status"] == Game.Status.ABANDONED
    # The table is opened by the same service as a new table (its old code when free), then filled in.
    table, _host_secret = services.create_table(
        game=c["engine"], options=c["table_options"], capacity=len(c["names"]), code=c["code"],
        status=Table.Status.CLOSED if abandoned else Table.Status.FINISHED, host_name=c["host_name"],
    )
    if c["host_seat"] is not None:  # the host sat at the table on the host's own phone
        Table.objects.filter(pk=table.pk).update(host_seat=c["host_seat"])
        table.host_seat = c["host_seat"]
    events, outcome = c["events"], c["outcome"]
    times = [e["at"] for e in events if e["at"] is not None]
    result: dict[str, Any] = (
        {"winners": list(outcome.winners), "end_reason": outcome.end_reason, "places": list(outcome.places),
         "loser": outcome.loser}
        if outcome is not None else {"end_reason": c["end_reason"]}
    )
    game = ledger.open_game(table, Game(
        table=table, number=c["number"], engine=c["engine"], options=c["options"], players=c["names"],
        first=c["first"], initial_state=c["initial"], state=c["state"], seq=len(events),
        pinned=pinned_values([(e["actor"], e["action"]) for e in events], get_engine(c["engine"]), c["options"]),
        status=c["status"], finished_at=c["finished_at"], **result,
    ), kind=TableChange.Kind.START, actor=SYSTEM, payload={"imported": True},
        seats=[Seat(table=table, position=i, name=name, is_bot=bot)
               for i, (name, bot) in enumerate(zip(c["names"], c["bots"], strict=True))],
        at=c["started_at"] or (times[0] if times else None))
    ledger.append([
        Event(game=game, seq=e["seq"], actor=e["actor"], action=e["action"], text=e["text"],
              notation=e.get("notation") or [], stand_in=e.get("stand_in", ""), created_at=e["at"]) for e in events
    ])
    save_note(game, note=c["note"], disputed=c["disputed"])
    HintShown.objects.bulk_create(HintShown(game=game, **h) for h in c.get("hints", []))
    ImportMark.objects.create(game=game, source=c.get("source", "")[:200], content_hash=c["hash"],
                              verified=c["signature"] == VERIFIED)
    end = ledger.Change(TableChange.Kind.CLOSE, HOST, {"game": game.number, "imported": True}) if abandoned else \
        ledger.Change(TableChange.Kind.GAME_END, SYSTEM, {"game": game.number, "winners": game.winners, "imported": True})
    ledger.record_changes(table, [replace(end, at=c["finished_at"] or (times[-1] if times else None))])
    game.refresh_from_db()
    return game



def _already_here(c: dict[str, Any]) -> bool:
    """Whether this game is in the database: imported before, or played here (same fingerprint)."""
    if ImportMark.objects.filter(content_hash=c["hash"]).exists():
        return True
    candidates = Game.objects.filter(engine=c["engine"], seq=len(c["events"]), first=c["first"], import_mark=None)
    for game_id, players, options in candidates.values_list("pk", "players", "options"):
        if players != c["names"]:
            continue
        logged = list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("actor", "action"))
        # A game played here by an older version keeps its options in their old shape: compare both ways.
        for shape in (options, _cleaned(c["engine"], options, len(players))):
            if shape is not None and limits.content_hash(c["engine"], shape, players, c["first"], logged) == c["hash"]:
                return True
    return False


def _cleaned(slug: str, options: Any, players: int) -> dict[str, Any] | None:
    """Stored options as the engine cleans them today (an older game's lack a newer option), or ``None``."""
    engine = REGISTRY.get(slug)
    if engine is None or not isinstance(options, Mapping):
        return None
    try:
        return {**engine.clean_options(dict(options), players=players), **shared_options(options)}
    except GameError:
        return None


def import_documents(docs: Sequence[Any], *, source: str = "", unsigned: bool = False) -> list[Game]:
    """Check every document, then write them all in one transaction (or nothing).

    A game already in the database (imported before, or played here), or
    twice in the file, is refused.  Last, the signature: a document this
    install signed must be unchanged; one it did not sign (another install's,
    or an older export) is refused unless ``unsigned``, and is then marked
    not verified.  Every imported game gets an
    :class:`~sixdice.review.models.ImportMark` naming ``source``.
    """
    try:
        limits.check_count(docs)
    except limits.TooLarge as exc:
        raise ImportRefused(str(exc)) from None
    checked = [check(doc, f"game {i + 1}" if len(docs) > 1 else "the game") for i, doc in enumerate(docs)]
    seen: set[str] = set()
    for i, c in enumerate(checked):
        label = f"game {i + 1}" if len(docs) > 1 else "the game"
        need(c["hash"] not in seen, f"{label} appears twice in the file.")
        seen.add(c["hash"])
        need(not _already_here(c), f"{label} is already here (the same game was imported or played before).")
        need(c["signature"] != CHANGED,
              f"{label} was changed after it was exported (its signature does not match): who sent a move, a "
              f'seat\'s "bot" flag, a time or a name cannot be edited; export the game again.')
        if c["signature"] != VERIFIED and not unsigned:
            raise NotSigned(label)
        c["source"] = source
    with transaction.atomic():
        return [write(c) for c in checked]


def import_text(text: str | bytes, *, source: str = "", unsigned: bool = False) -> list[Game]:
    return import_documents(load(text), source=source, unsigned=unsigned)
