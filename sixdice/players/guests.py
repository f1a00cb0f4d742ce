"""Earlier guest seats linked to a profile by staff: one person, one row in the statistics.

Someone who played as a guest ("Hana" at three tables) before making a
profile, or whose phone held none that night, counts as three guests: the
statistics never merge two guests by name alone.  Staff can link those guest
seats to the person's profile, after seeing exactly which seats it would
link (:func:`guest_seats`), and confirm (:func:`link_guest_seats`).

A seat is offered when its name is the profile's name (or the name staff
searched for) without case or accents, it was a person's seat (not a bot)
in a finished game, and no profile holds it.  A seat is refused, with the
reason, when the profile already played that game or sat at that table (then
they are two people), or when two guest seats of one game both match.
Linking writes the game's ``Participant`` rows if it has none (a game
imported, or finished before profiles existed), and rebuilds the ratings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY
from sixdice.tables.models import Game, Seat

from .models import Participant, Profile, SeatProfile
from .ranking import final_ranks
from .services import rebuild_ratings
from .text import search_key


@dataclass(frozen=True)
class GuestSeat:
    """One seat of one finished game: who sat there as a guest, and why it cannot be linked (empty: it can)."""

    game: Game
    position: int
    name: str
    refused: str = ""

    @property
    def game_label(self) -> str:
        """The game's name (Six-Dice, Run Buster)."""
        engine = REGISTRY.get(self.game.engine)
        return engine.label if engine is not None else self.game.engine

    @property
    def key(self) -> str:
        """How the confirmation form names it: ``<game id>-<position>``."""
        return f"{self.game.pk}-{self.position}"


def guest_seats(profile: Profile, name: str | None = None) -> list[GuestSeat]:
    """Every finished game's guest seat named ``name`` (default: the profile's name), case and accents aside;
    each with the reason it cannot be linked to ``profile``, if any.  Oldest first."""
    wanted = search_key(name if name is not None else profile.display_name)
    if not wanted:
        return []
    games = list(Game.objects.filter(status=Game.Status.FINISHED).select_related("table").order_by("started_at", "pk"))
    rows: dict[int, dict[int, Participant]] = {}
    for participant in Participant.objects.filter(game__in=games):
        rows.setdefault(participant.game_id, {})[participant.position] = participant
    bots = set(Seat.objects.filter(table__games__in=games, is_bot=True).values_list("table_id", "position"))
    profile_games = set(Participant.objects.filter(profile=profile).values_list("game_id", flat=True))
    profile_tables = set(SeatProfile.objects.filter(profile=profile).values_list("seat__table_id", flat=True)) | set(
        Participant.objects.filter(profile=profile).values_list("game__table_id", flat=True))
    found: list[GuestSeat] = []
    for game in games:
        matches = []
        for position, seat_name in enumerate(game.players):
            row = rows.get(game.pk, {}).get(position)
            is_bot = row.is_bot if row is not None else (game.table_id, position) in bots
            if is_bot or (row is not None and row.profile_id is not None) or search_key(seat_name) != wanted:
                continue
            matches.append((position, seat_name))
        for position, seat_name in matches:
            reason = ""
            if game.pk in profile_games:
                reason = gettext("%(name)s already played this game on the profile.") % {"name": profile.display_name}
            elif game.table_id in profile_tables:
                reason = gettext("%(name)s sat at this table on the profile, so this guest is someone else.") % {
                    "name": profile.display_name}
            elif len(matches) > 1:
                reason = gettext("Two guest seats of this game have this name: link neither.")
            found.append(GuestSeat(game, position, seat_name, reason))
    return found


class NothingToLink(ValueError):
    """No seat chosen could be linked (the message is for a person, in the active language)."""


@transaction.atomic
def link_guest_seats(profile: Profile, keys: Iterable[str], name: str | None = None) -> list[GuestSeat]:
    """Link the chosen guest seats (``<game id>-<position>`` keys of :func:`guest_seats`) to ``profile``.

    Checked again here: only seats :func:`guest_seats` offers without a reason are linked, so a stale or
    forged form links nothing it should not.  Returns the seats linked; the ratings are then rebuilt.
    """
    chosen = set(keys)
    offered = [seat for seat in guest_seats(profile, name) if not seat.refused and seat.key in chosen]
    if not offered:
        raise NothingToLink(gettext("No guest seat was chosen that can be linked."))
    for seat in offered:
        try:
            _ensure_participants(seat.game)
        except ValueError:  # a damaged game that does not reach its end: nothing is linked (one transaction)
            raise NothingToLink(gettext("%(game)s cannot be read to its end, so nothing was linked.")
                                % {"game": str(seat.game)}) from None
        Participant.objects.filter(game=seat.game, position=seat.position, profile__isnull=True).update(
            profile=profile)
        table_seat = Seat.objects.filter(table_id=seat.game.table_id, position=seat.position, is_bot=False).first()
        if table_seat is not None and search_key(table_seat.name) == search_key(seat.name):
            SeatProfile.objects.get_or_create(seat=table_seat, defaults={"profile": profile})
    rebuild_ratings()
    return offered


def _ensure_participants(game: Game) -> None:
    """A finished game's ``Participant`` rows, written as its end would have written them, if it has none."""
    if Participant.objects.filter(game=game).exists():
        return
    bots = dict(Seat.objects.filter(table_id=game.table_id, is_bot=True).values_list("position", "bot_strength"))
    ranks = final_ranks(engine=game.engine, state=game.state, players=len(game.players))
    Participant.objects.bulk_create(
        Participant(game=game, position=position, name=name[:24], is_bot=position in bots,
                    bot_strength=bots.get(position, ""), rank=ranks[position])
        for position, name in enumerate(game.players))
