"""Reads for the player pages, the leaderboards and the statistics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY
from sixdice.tables.models import Game

from .models import Participant, Profile, Rating, RatingUpdate
from .ratings import Skill
from .services import season_skills
from .text import search_key

HEAD_TO_HEAD = 5  # opponents shown on a player page
RECENT = 10


def engine_label(slug: str) -> str:
    engine = REGISTRY.get(slug)
    return engine.label if engine else slug


def a_player() -> str:
    return gettext("a player")


def shown_name(profile: Profile | None, fallback: str) -> str:
    """The name public pages show: a hidden profile is "a player"."""
    if profile is None:
        return fallback
    return a_player() if profile.hidden else profile.display_name


@dataclass(frozen=True)
class Season:
    """A date range (both days included); either end may be open."""

    start: date | None = None
    end: date | None = None

    @property
    def since(self) -> datetime | None:
        return timezone.make_aware(datetime.combine(self.start, time.min)) if self.start else None

    @property
    def until(self) -> datetime | None:
        return timezone.make_aware(datetime.combine(self.end + timedelta(days=1), time.min)) if self.end else None

    @property
    def is_open(self) -> bool:
        return self.start is None and self.end is None

    def filter(self, qs: QuerySet, path: str = "game__finished_at") -> QuerySet:
        if self.since:
            qs = qs.filter(**{f"{path}__gte": self.since})
        if self.until:
            qs = qs.filter(**{f"{path}__lt": self.until})
        return qs


def parse_season(raw_from: str | None, raw_to: str | None) -> tuple[Season, str | None]:
    """The season of a page's ``?from=&to=`` (ISO dates); a bad value gives an error and no filter."""
    try:
        start = date.fromisoformat(raw_from) if raw_from else None
        end = date.fromisoformat(raw_to) if raw_to else None
    except ValueError:
        return Season(), gettext("Dates are written as YYYY-MM-DD; showing every game.")
    if start and end and end < start:
        return Season(), gettext("The season ends before it starts; showing every game.")
    return Season(start, end), None


# ---------------------------------------------------------------- player page


@dataclass
class EngineRecord:
    slug: str
    label: str
    games: int = 0
    wins: int = 0
    rating: Skill | None = None
    rated_games: int = 0
    place: tuple[int, int] | None = None  # on the leaderboard: (place, of), once rated often enough to be on it
    history: list[tuple[datetime, float]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Opponent:
    profile: Profile
    name: str
    games: int = 0
    ahead: int = 0  # games the page's player finished ahead
    behind: int = 0
    level: int = 0


@dataclass
class RecentGame:
    code: str
    number: int
    label: str
    finished_at: datetime | None
    rank: int
    players: int
    won: bool


@dataclass
class PlayerPage:
    profile: Profile
    games: int
    engines: list[EngineRecord]
    recent: list[RecentGame]
    opponents: list[Opponent]


def player_page(profile: Profile, season: Season = Season(), *, min_games: int = 3) -> PlayerPage:
    mine = season.filter(Participant.objects.filter(profile=profile, game__finished_at__isnull=False))
    mine = mine.select_related("game", "game__table").order_by("-game__finished_at", "-game_id")
    records: dict[str, EngineRecord] = {}
    recent: list[RecentGame] = []
    game_rank: dict[int, int] = {}
    for row in mine:
        game = row.game
        rec = records.setdefault(game.engine, EngineRecord(game.engine, engine_label(game.engine)))
        rec.games += 1
        rec.wins += row.rank == 1
        game_rank[game.pk] = row.rank
        if len(recent) < RECENT:
            recent.append(RecentGame(game.table.code, game.number, rec.label, game.finished_at, row.rank,
                                     len(game.players), row.rank == 1))
    for rating in Rating.objects.filter(profile=profile):
        rec = records.setdefault(rating.engine, EngineRecord(rating.engine, engine_label(rating.engine)))
        rec.rating = Skill(rating.mu, rating.sigma)
        rec.rated_games = rating.games
        if rating.games >= min_games:
            rec.place = leaderboard_place(rating.engine, profile.pk, min_games=min_games)
    updates = season.filter(RatingUpdate.objects.filter(profile=profile)).order_by("rated_at", "game_id")
    for update in updates:
        if (found := records.get(update.engine)) is not None:
            found.history.append((update.rated_at, Skill(update.mu_after, update.sigma_after).ordinal))
    opponents: dict[int, Opponent] = {}
    others = Participant.objects.filter(game_id__in=list(game_rank), profile__isnull=False).exclude(
        profile=profile).select_related("profile")
    for row in others:
        assert row.profile is not None
        opp = opponents.setdefault(row.profile_id or 0, Opponent(row.profile, shown_name(row.profile, row.name)))
        opp.games += 1
        mine_rank = game_rank[row.game_id]
        opp.ahead += mine_rank < row.rank
        opp.behind += mine_rank > row.rank
        opp.level += mine_rank == row.rank
    frequent = sorted(opponents.values(), key=lambda o: (-o.games, search_key(o.name)))[:HEAD_TO_HEAD]
    order = {slug: i for i, slug in enumerate(REGISTRY)}  # the order the games registered
    ordered = sorted(records.values(), key=lambda r: (order.get(r.slug, len(order)), r.slug))
    return PlayerPage(profile, sum(r.games for r in ordered), ordered, recent, frequent)


# ---------------------------------------------------------------- leaderboard


@dataclass
class Standing:
    profile: Profile
    name: str
    skill: Skill
    rated_games: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def leaderboard_place(engine: str, profile_id: int, *, min_games: int) -> tuple[int, int] | None:
    """Where a profile stands on a game's leaderboard (all time): ``(place, of)``, or ``None`` when it is not on it."""
    board = [s.profile.pk for s in leaderboard(engine, min_games=min_games)]
    return (board.index(profile_id) + 1, len(board)) if profile_id in board else None


def leaderboard(engine: str, *, season: Season = Season(), min_games: int = 3) -> list[Standing]:
    """Profiles ranked by rating (mu − 3σ) for one game; only those with ``min_games`` rated games.

    With a season, the ratings are computed from that season's games alone.
    """
    if season.is_open:
        skills = {r.profile_id: (Skill(r.mu, r.sigma), r.games) for r in Rating.objects.filter(engine=engine)}
    else:
        skills = season_skills(engine, since=season.since, until=season.until)
    played: Counter = Counter()
    won: Counter = Counter()
    rows = season.filter(Participant.objects.filter(game__engine=engine, profile_id__in=list(skills)))
    for pid, rank in rows.values_list("profile_id", "rank"):
        played[pid] += 1
        won[pid] += rank == 1
    profiles = Profile.objects.in_bulk([pid for pid, (_s, n) in skills.items() if n >= min_games])
    table = [Standing(p, shown_name(p, p.display_name), skills[pid][0], skills[pid][1], played[pid], won[pid])
             for pid, p in profiles.items()]
    return sorted(table, key=lambda s: (-s.skill.ordinal, -s.skill.mu, search_key(s.profile.display_name), s.profile.pk))


def search_profiles(query: str, *, include_hidden: bool = False, limit: int = 20) -> list[Profile]:
    """Profiles whose name contains ``query``, ignoring case and accents, in every script."""
    key = search_key(query)
    if not key:
        return []
    qs = Profile.objects.filter(search_key__contains=key)
    if not include_hidden:
        qs = qs.filter(hidden=False)
    return list(qs.order_by("search_key", "pk")[:limit])



# ---------------------------------------------------------------- statistics entries


@dataclass(frozen=True)
class Entry:
    """One line of the statistics: a profile, a guest of one table, or a bot strength."""

    key: tuple
    label: str
    url: str = ""


def guest_label(name: str, code: str) -> str:
    return gettext("%(name)s (guest at %(code)s)") % {"name": name, "code": code}


def bot_label(engine: str, strength: str) -> str:
    """A bot's statistics line: one per game and strength (empty: the game's default strength)."""
    game = engine_label(engine)
    if strength:
        return gettext("%(game)s bot (%(strength)s)") % {"game": game, "strength": strength}
    return gettext("%(game)s bot") % {"game": game}


def who_played(games: Iterable[Game]) -> dict[int, list[Entry]]:
    """For each finished game (by id), the statistics entry of every seat.

    Profiles are grouped across tables (a hidden one is "a player"); a guest
    counts only at their own table, never merged with a guest of the same name
    elsewhere; bots are grouped by strength.  A game without participant rows
    (finished before profiles existed, or imported) counts its seats as guests
    and bots.
    """
    from django.urls import reverse

    from sixdice.tables.models import Seat, Table

    games = list(games)
    ids = [g.pk for g in games]
    rows: dict[int, dict[int, Participant]] = {}
    for found in Participant.objects.filter(game_id__in=ids).select_related("profile"):
        rows.setdefault(found.game_id, {})[found.position] = found
    table_ids = {g.table_id for g in games if g.pk not in rows}
    bots = {(t, p): strength for t, p, strength in Seat.objects.filter(
        table_id__in=table_ids, is_bot=True).values_list("table_id", "position", "bot_strength")}
    codes = dict(Table.objects.filter(pk__in={g.table_id for g in games}).values_list("pk", "code"))
    out: dict[int, list[Entry]] = {}
    for game in games:
        code = codes.get(game.table_id, "?")
        entries = []
        for position, name in enumerate(game.players):
            row = rows.get(game.pk, {}).get(position)
            if row is not None and row.profile is not None:
                profile = row.profile
                url = "" if profile.hidden else reverse("players:player", args=[profile.public_id])
                entries.append(Entry(("profile", profile.pk), shown_name(profile, row.name), url))
            elif (row is not None and row.is_bot) or (row is None and (game.table_id, position) in bots):
                strength = row.bot_strength if row is not None else bots[(game.table_id, position)]
                entries.append(Entry(("bot", game.engine, strength), bot_label(game.engine, strength)))
            else:
                entries.append(Entry(("guest", game.table_id, name.casefold()), guest_label(name, code)))
        out[game.pk] = entries
    return out


# ---------------------------------------------------------------- public replays


def hidden_names(game) -> dict[str, str]:
    """The names of the game's seats whose profile is hidden, with what public pages show instead."""
    if Participant.objects.filter(game=game).exists():
        seats = list(Participant.objects.filter(game=game, profile__hidden=True).values_list("position", "name"))
    else:  # a game that did not finish (abandoned): who sits in the table's seats now
        from .models import SeatProfile

        seats = [(position, game.players[position]) for position in SeatProfile.objects.filter(
            seat__table_id=game.table_id, profile__hidden=True).values_list("seat__position", flat=True)
            if position < len(game.players)]
    seats.sort()
    if len(seats) == 1:
        return {seats[0][1]: a_player()}
    return {name: gettext("a player (seat %(n)s)") % {"n": position + 1} for position, name in seats}


def mask_hidden(game, data):
    """``data`` (any JSON: a replay's payload, an export) with hidden players' names replaced, everywhere."""
    import re

    names = hidden_names(game)
    if not names:
        return data
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(name)}(?!\w)"
                                  for name in sorted(names, key=len, reverse=True)))

    def walk(value):
        if isinstance(value, str):
            return names[value] if value in names else pattern.sub(lambda m: names[m.group(0)], value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, tuple):
            return tuple(walk(v) for v in value)
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    return walk(data)
