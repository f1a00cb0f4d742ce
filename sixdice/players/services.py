"""Every write to profiles, their links and their ratings goes through these functions."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core.errors import BadLink, Busy, ServiceError
from sixdice.tables.core.keys import hash_secret, new_secret
from sixdice.tables.models import Game, Seat
from sixdice.tables.writes.services import clean_name

from .models import (
    COLOURS,
    EMOJIS,
    DeviceKey,
    Participant,
    Profile,
    ProfileMerge,
    Rating,
    RatingUpdate,
    SeatProfile,
    TransferLink,
)
from .ranking import final_ranks
from .ratings import Skill, rate_match

TRANSFER_LIFETIME = timedelta(hours=24)


# ---------------------------------------------------------------- profiles and devices


def _clean_avatar(colour: str | None, emoji: str | None) -> tuple[str, str]:
    if colour not in COLOURS:
        colour = COLOURS[0]
    if emoji not in EMOJIS:
        emoji = EMOJIS[0]
    return colour, emoji


def _new_public_id() -> str:
    for _ in range(20):
        candidate = secrets.token_urlsafe(6)[:8]
        if not Profile.objects.filter(public_id=candidate).exists():
            return candidate
    raise Busy(gettext("Please try again."))  # pragma: no cover - 2^48 ids


@transaction.atomic
def create_profile(*, name: str, colour: str | None = None, emoji: str | None = None) -> tuple[Profile, str]:
    """A new profile bound to the calling browser; returns it with the browser's secret."""
    colour, emoji = _clean_avatar(colour, emoji)
    profile = Profile(public_id=_new_public_id(), display_name=clean_name(name), colour=colour, emoji=emoji)
    profile.full_clean()
    profile.save()
    secret = new_secret()
    DeviceKey.objects.create(profile=profile, secret_hash=hash_secret(secret))
    return profile, secret


def profile_for(secret: str | None) -> Profile | None:
    """The profile a browser holds, from the secret in its session."""
    if not secret:
        return None
    key = DeviceKey.objects.select_related("profile").filter(secret_hash=hash_secret(secret)).first()
    return key.profile if key else None


@transaction.atomic
def update_profile(*, profile: Profile, name: str | None = None, colour: str | None = None,
                   emoji: str | None = None, hidden: bool | None = None) -> Profile:
    """Rename, change the avatar, hide from public pages or show again."""
    profile = Profile.objects.select_for_update().get(pk=profile.pk)
    if name is not None:
        profile.display_name = clean_name(name)
    if colour is not None or emoji is not None:
        profile.colour, profile.emoji = _clean_avatar(colour or profile.colour, emoji or profile.emoji)
    if hidden is not None:
        profile.hidden = hidden
    profile.full_clean()
    profile.save()
    return profile


@transaction.atomic
def forget_device(*, secret: str) -> None:
    """This browser lets go of its profile (the profile and other browsers keep it)."""
    DeviceKey.objects.filter(secret_hash=hash_secret(secret)).delete()


@transaction.atomic
def issue_transfer(*, profile: Profile, now: datetime | None = None) -> str:
    """A one-use token that carries the profile to another browser; an earlier unused one stops working."""
    now = now or timezone.now()
    TransferLink.objects.filter(profile=profile).delete()
    token = new_secret()
    TransferLink.objects.create(profile=profile, token_hash=hash_secret(token), expires_at=now + TRANSFER_LIFETIME)
    return token


def transfer_target(token: str, *, now: datetime | None = None) -> Profile | None:
    """The profile a transfer link would bring (without using it up), or ``None``."""
    link = TransferLink.objects.select_related("profile").filter(token_hash=hash_secret(token or "")).first()
    if link is None or not token or link.expires_at <= (now or timezone.now()):
        return None
    return link.profile


@transaction.atomic
def claim_transfer(*, token: str, now: datetime | None = None) -> tuple[Profile, str]:
    """Bind the link's profile to this browser too; the link is then used up."""
    link = TransferLink.objects.select_for_update().select_related("profile").filter(
        token_hash=hash_secret(token or "")).first()
    if link is None or not token or link.expires_at <= (now or timezone.now()):
        raise BadLink(gettext("This profile link is not valid any more. Make a new one."))
    profile = link.profile
    link.delete()
    secret = new_secret()
    DeviceKey.objects.create(profile=profile, secret_hash=hash_secret(secret))
    return profile, secret


@transaction.atomic
def delete_profile(*, profile: Profile) -> None:
    """Delete a profile: its seats and games become a guest's; every game stays as it was played.

    Its rating updates go with it, and everyone's ratings are rebuilt without
    it (the games it played count as played with a guest).
    """
    Profile.objects.filter(pk=profile.pk).delete()
    rebuild_ratings()


@transaction.atomic
def merge_profiles(*, keep: Profile, remove: Profile, by: Any = None) -> ProfileMerge:
    """Move everything of ``remove`` to ``keep`` (devices, seats, games), delete ``remove``, record it.

    Refused when both sat in the same game or at the same table: one person
    cannot have played against themselves.
    """
    if keep.pk == remove.pk:
        raise SameProfile(gettext("A profile cannot be merged into itself."))
    keep = Profile.objects.select_for_update().get(pk=keep.pk)
    remove = Profile.objects.select_for_update().get(pk=remove.pk)
    shared_games = Participant.objects.filter(profile=remove, game__participants__profile=keep)
    shared_tables = SeatProfile.objects.filter(profile=remove, seat__table__seats__profile_link__profile=keep)
    if shared_games.exists() or shared_tables.exists():
        raise PlayedTogether(gettext(
            "%(a)s and %(b)s played at the same table, so they are two people.")
            % {"a": keep.display_name, "b": remove.display_name})
    moved = Participant.objects.filter(profile=remove).update(profile=keep)
    SeatProfile.objects.filter(profile=remove).update(profile=keep)
    DeviceKey.objects.filter(profile=remove).update(profile=keep)
    record = ProfileMerge.objects.create(
        kept=keep, kept_name=keep.display_name, removed_public_id=remove.public_id,
        removed_name=remove.display_name, games_moved=moved,
        merged_by=by if getattr(by, "pk", None) else None,
    )
    remove.delete()
    rebuild_ratings()
    return record


# ---------------------------------------------------------------- seats


@transaction.atomic
def link_seat(*, seat: Seat, profile: Profile | None) -> None:
    """Sit ``profile`` in ``seat`` (``None``: the seat becomes a guest's)."""
    if profile is None:
        SeatProfile.objects.filter(seat=seat).delete()
        return
    elsewhere = SeatProfile.objects.filter(profile=profile, seat__table_id=seat.table_id).exclude(seat=seat)
    if elsewhere.exists():
        raise ProfileSeated(gettext("%(name)s already has a seat at this table.")
                           % {"name": profile.display_name})
    SeatProfile.objects.update_or_create(seat=seat, defaults={"profile": profile})


# ---------------------------------------------------------------- results and ratings



class SameProfile(ServiceError):
    """A staff merge of a profile into itself."""

    code = "same_profile"


class PlayedTogether(ServiceError):
    """Two profiles that played in one game cannot be one person."""

    code = "played_together"


class ProfileSeated(ServiceError):
    """The profile already holds a seat at this table."""

    code = "profile_seated"


class NotFinished(ServiceError):
    """A game whose event log does not reach its recorded end."""

    code = "not_finished"


@dataclass(frozen=True)
class _Seat:
    position: int
    name: str
    profile_id: int | None
    is_bot: bool
    bot_strength: str


def _table_seats(game: Game) -> list[_Seat]:
    seats = Seat.objects.filter(table_id=game.table_id).select_related("profile_link").order_by("position")
    out = []
    for seat in seats:
        link = getattr(seat, "profile_link", None)
        out.append(_Seat(seat.position, seat.name, None if seat.is_bot or link is None else link.profile_id,
                         seat.is_bot, seat.bot_strength if seat.is_bot else ""))
    return out


def record_result(game: Game) -> None:
    """Fix who played a game that just ended and update the ratings, in the game's own transaction.

    Called by the table services where a game's end is saved.  A bot seat is
    never a profile's; a profile is rated only against other profiles.
    """
    with transaction.atomic():
        by_position = {s.position: s for s in _table_seats(game)}
        names = list(game.players)
        ranks = final_ranks(engine=game.engine, state=game.state, players=len(names))
        rows = []
        for position, name in enumerate(names):
            seat = by_position.get(position)
            rows.append(Participant(
                game=game, position=position, name=name[:24],
                profile_id=seat.profile_id if seat else None,
                is_bot=bool(seat and seat.is_bot), bot_strength=seat.bot_strength if seat else "",
                rank=ranks[position],
            ))
        Participant.objects.bulk_create(rows)
        _rate(game, {row.profile_id: row.rank for row in rows if row.profile_id is not None})


def _rate(game: Game, ranks: dict[int, int], *, rated_at: datetime | None = None) -> None:
    if len(ranks) < 2:
        return
    # Lock the ratings in one order (by profile) so that games sharing a profile queue up, never deadlock.
    for pid in sorted(ranks):
        Rating.objects.get_or_create(profile_id=pid, engine=game.engine,
                                     defaults={"mu": Skill().mu, "sigma": Skill().sigma})
    current = {r.profile_id: r for r in Rating.objects.select_for_update().filter(
        profile_id__in=sorted(ranks), engine=game.engine).order_by("profile_id")}
    before = {pid: Skill(current[pid].mu, current[pid].sigma) for pid in ranks}
    after = rate_match(before, ranks)
    when = rated_at or timezone.now()  # taken after the locks: a later game sharing a profile gets a later time
    updates = []
    for pid, skill in after.items():
        rating = current[pid]
        rating.mu, rating.sigma, rating.games = skill.mu, skill.sigma, rating.games + 1
        rating.save(update_fields=["mu", "sigma", "games"])
        updates.append(RatingUpdate(
            game_id=game.pk, profile_id=pid, engine=game.engine, rank=ranks[pid],
            mu_before=before[pid].mu, sigma_before=before[pid].sigma, mu_after=skill.mu,
            sigma_after=skill.sigma, rated_at=when,
        ))
    RatingUpdate.objects.bulk_create(updates)


def rating_order(games: Iterable[Game]) -> list[Game]:
    """Games in the order they are (or were) rated: their first rating time, else their finish time."""
    rated = dict(RatingUpdate.objects.values_list("game_id", "rated_at").order_by("game_id", "rated_at"))
    far_past = datetime.min.replace(tzinfo=timezone.get_current_timezone())

    def key(game: Game) -> tuple[datetime, int]:
        return (rated.get(game.pk) or game.finished_at or far_past, game.pk)

    return sorted(games, key=key)


@transaction.atomic
def rebuild_ratings(*, replay: bool = False) -> int:
    """Recompute every rating from the finished games, in the order they were rated.

    Who played comes from :class:`Participant`; the ranks come from the
    game's saved outcome, or, with ``replay``, from replaying its event log
    (a check that the saved outcome is the log's).  Returns how many games
    were rated.
    """
    finished = list(Game.objects.filter(status=Game.Status.FINISHED, participants__profile__isnull=False).distinct())
    ordered = rating_order(finished)
    times = dict(RatingUpdate.objects.values_list("game_id", "rated_at"))
    RatingUpdate.objects.all().delete()
    Rating.objects.all().delete()
    rated = 0
    for game in ordered:
        rows = list(game.participants.all())
        if replay:
            from sixdice.tables.writes.checked_path import replay as replay_game

            state = replay_game(game)
            outcome = get_engine(game.engine).outcome(state)
            if outcome is None:
                raise NotFinished(f"{game}: the event log does not finish the game")
            ranks = final_ranks(engine=game.engine, state=state, players=len(game.players))
            for row in rows:
                if row.rank != ranks[row.position]:
                    row.rank = ranks[row.position]
                    row.save(update_fields=["rank"])
        profiled = {row.profile_id: row.rank for row in rows if row.profile_id is not None}
        if len(profiled) >= 2:
            _rate(game, profiled, rated_at=times.get(game.pk) or game.finished_at)
            rated += 1
    return rated


def season_skills(engine: str, *, since: datetime | None, until: datetime | None) -> dict[int, tuple[Skill, int]]:
    """Ratings computed from the games of one date range only: profile id -> (skill, rated games)."""
    updates = RatingUpdate.objects.filter(engine=engine)
    if since:
        updates = updates.filter(game__finished_at__gte=since)
    if until:
        updates = updates.filter(game__finished_at__lt=until)
    by_game: dict[int, dict[int, int]] = {}
    for game_id, pid, rank in updates.order_by("rated_at", "game_id").values_list("game_id", "profile_id", "rank"):
        by_game.setdefault(game_id, {})[pid] = rank
    skills: dict[int, tuple[Skill, int]] = {}
    for ranks in by_game.values():
        after = rate_match({pid: skills.get(pid, (Skill(), 0))[0] for pid in ranks}, ranks)
        for pid, skill in after.items():
            skills[pid] = (skill, skills.get(pid, (Skill(), 0))[1] + 1)
    return skills


@transaction.atomic
def join_with_profile(*, table: Any, profile: Profile, host: bool = False) -> tuple[Seat, str]:
    """Take a seat at ``table`` under the profile's name, linked to the profile.

    ``host``: the host takes this seat on the host's own phone (also between games, as the host's plain
    "Take a seat" does); the table then records it as the host's seat (who hosted, for the review desk).
    """
    from sixdice.tables.models import Table
    from sixdice.tables.writes.services import join_table

    if SeatProfile.objects.filter(profile=profile, seat__table_id=table.pk).exists():
        raise ProfileSeated(gettext("%(name)s already has a seat at this table.")
                           % {"name": profile.display_name})
    seat, secret = join_table(table=table, name=profile.display_name, between_games=host)
    SeatProfile.objects.create(seat=seat, profile=profile)
    if host:
        Table.objects.filter(pk=table.pk).update(host_seat=seat.position)
    return seat, secret
