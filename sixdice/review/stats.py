"""Statistics over finished games, and the small SVG charts that show them.

Every figure counts finished games only.  Players are grouped by profile
across tables; a guest (no profile) counts only at their own table, and bots
are grouped by strength (:func:`sixdice.players.selectors.who_played`).  A game's length is given
both in events (log lines) and in turns (each game's adapter says what a turn
is; see :mod:`sixdice.review.steps`).  What is particular to a game comes from
its adapter and its presentation: a game whose outcome names a loser gets a
"rounds lost" count per player; a game with a known first-player chance
(:meth:`~sixdice.gamekit.engine.Presentation.first_player_reference`) gets
the two-player rate beside it; a game with named sets of rules
(:meth:`~sixdice.gamekit.engine.GameEngine.rule_set`) gets a row per set, with
the share of the end reasons it picks (``Presentation.end_reasons_by_rules``).
Nothing here names a game's own words.
The first player is the seat that played first: the adapter's
:meth:`~sixdice.gamekit.engine.GameEngine.first_player` where the game decides
it (with its own start rolls, say), else the table's choice, ``Game.first``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from sixdice.gamekit.engine import REGISTRY, GameEngine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.replay import is_undo
from sixdice.players.selectors import who_played
from sixdice.tables.models import Event, Game
from sixdice.templatetags.percentages import percent

from .steps import is_turn


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
    rounds_lost: int = 0  # games with a loser (the outcome names one) that this player lost
    loser_games: int = 0  # games played whose outcome names a loser
    url: str = ""  # the player page of a profile

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_pct(self) -> str:
        return percent(self.win_rate)


@dataclass
class BotStats:
    """The seats one bot strength played in finished games of one engine."""

    strength: str
    seats: int = 0
    wins: float = 0.0  # a shared win counts as its share
    fair: float = 0.0  # the sum over its seats of 1 / players: the wins an even player would have

    @property
    def win_pct(self) -> str:
        return percent(self.wins / self.seats if self.seats else None)

    @property
    def fair_pct(self) -> str:
        return percent(self.fair / self.seats if self.seats else None)


@dataclass
class RulesStats:
    """The games of one engine played under one named set of rules (the engine's ``rule_set``)."""

    rules: str
    slug: str = ""  # the engine's: it words the set's name and the end reasons
    games: int = 0
    turns: int = 0
    first_games: int = 0
    first_wins: int = 0
    end_reasons: Counter = field(default_factory=Counter)

    @property
    def label(self) -> str:
        """The set's name in the active language, as its game words it (the code when it has none)."""
        engine = REGISTRY.get(self.slug)
        labels = engine.presentation.rule_sets if engine is not None else {}
        return gettext(labels[self.rules]) if self.rules in labels else self.rules

    @property
    def avg_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    @property
    def first_win_pct(self) -> str:
        return percent(self.first_wins / self.first_games if self.first_games else None)

    @property
    def end_reason_shares(self) -> list[tuple[str, str, str]]:
        """(code, label, share of these games) for each end reason its game shows by rules (``end_reasons_by_rules``)."""
        engine = REGISTRY.get(self.slug)
        codes = engine.presentation.end_reasons_by_rules if engine is not None else ()
        return [(code, end_reason_label(self.slug, code),
                 percent(self.end_reasons[code] / self.games if self.games else None)) for code in codes]


def rules_of(game: Game, engine: GameEngine | None) -> str | None:
    """The named set of rules a game was played under, for an engine that has such sets (``None`` otherwise)."""
    if engine is None or not game.players:
        return None
    try:
        return engine.rule_set(game.options or {}, players=len(game.players))
    except (GameError, KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


@dataclass
class EngineStats:
    slug: str
    label: str
    games: int = 0
    events: int = 0
    turns: int = 0
    end_reasons: Counter = field(default_factory=Counter)
    first_games: int = 0  # games whose first player is known
    first_wins: int = 0
    two_player_games: int = 0
    two_player_first_wins: int = 0
    reference: float | None = None  # the exact first-player chance, two players (from the adapter)
    bots: dict[str, BotStats] = field(default_factory=dict)  # per bot strength, where bots played
    rules: dict[str, RulesStats] = field(default_factory=dict)  # per set of rules, for a game with house rules

    @property
    def rules_rows(self) -> list[RulesStats]:
        """One row per set of rules played, in the order the game lists its sets."""
        engine = REGISTRY.get(self.slug)
        order = list(engine.presentation.rule_sets) if engine is not None else []
        return sorted(self.rules.values(), key=lambda r: (order.index(r.rules) if r.rules in order else len(order), r.rules))

    @property
    def rules_columns(self) -> list[tuple[str, str]]:
        """(code, label) of each end reason whose share the rules table shows (the game's ``end_reasons_by_rules``)."""
        engine = REGISTRY.get(self.slug)
        codes = engine.presentation.end_reasons_by_rules if engine is not None else ()
        return [(code, end_reason_label(self.slug, code)) for code in codes]

    @property
    def bot_rows(self) -> list[BotStats]:
        return sorted(self.bots.values(), key=lambda b: b.strength)

    @property
    def avg_events(self) -> float:
        return self.events / self.games if self.games else 0.0

    @property
    def avg_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    @property
    def first_win_rate(self) -> float | None:
        return self.first_wins / self.first_games if self.first_games else None

    @property
    def two_player_first_win_rate(self) -> float | None:
        return self.two_player_first_wins / self.two_player_games if self.two_player_games else None

    @property
    def reference_pct(self) -> str:
        return percent(self.reference, 2)

    @property
    def end_reason_rows(self) -> list[tuple[str, str, int]]:
        """(code, label in the active language, games), most frequent first."""
        return [(code, end_reason_label(self.slug, code), n) for code, n in self.end_reasons.most_common()]

    @property
    def first_win_pct(self) -> str:
        return percent(self.first_win_rate)

    @property
    def two_player_first_win_pct(self) -> str:
        return percent(self.two_player_first_win_rate)


@dataclass
class Statistics:
    players: list[PlayerStats]
    engines: list[EngineStats]

    @property
    def total_games(self) -> int:
        return sum(e.games for e in self.engines)


def first_player(game: Game, engine: GameEngine | None) -> int | None:
    """The seat that played first: the game's own decision if its adapter gives one, else the table's."""
    if engine is not None and isinstance(game.state, dict):
        try:
            found = engine.first_player(game.state)
        except GameError:  # a damaged snapshot: the page still opens
            found = None
        if found is not None:
            return found.seat
    return game.first if game.players else None


def compute(engine: str | None = None, *, imported: bool = True, since: datetime | None = None,
            until: datetime | None = None) -> Statistics:
    """Every figure of the statistics page, from finished games (of one engine, if given).

    ``imported=False`` leaves out games imported from files (issue 15): only games played here count.
    ``since`` / ``until``: only games that finished in that range (``until`` excluded), as a season's pages count.
    """
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    if since is not None:
        finished = finished.filter(finished_at__gte=since)
    if until is not None:
        finished = finished.filter(finished_at__lt=until)
    if not imported:
        finished = finished.filter(import_mark__isnull=True)
    if engine:
        finished = finished.filter(engine=engine)
    games = list(finished.order_by("started_at", "pk"))
    turns: Counter = Counter()
    events: Counter = Counter()
    engine_of: dict[int, GameEngine | None] = {g.pk: REGISTRY.get(g.engine) for g in games}
    lines: dict[int, list[tuple[int, bool]]] = {}  # per game: the events in play, and whether each is a turn
    for game_id, actor, action in Event.objects.filter(game__in=[g.pk for g in games]).order_by(
        "game_id", "seq"
    ).values_list("game_id", "actor", "action").iterator():
        events[game_id] += 1
        line = lines.setdefault(game_id, [])
        if is_undo(action):  # the turns it took back no longer count (docs/undo.md)
            while line and isinstance(action.get("to"), int) and line[-1][0] > action["to"]:
                turns[game_id] -= line.pop()[1]
            continue
        adapter = engine_of[game_id]
        turn = adapter is not None and is_turn(adapter, actor, action)
        line.append((events[game_id], turn))
        turns[game_id] += turn

    entries = who_played(games)  # profiles across tables, guests per table, bots per strength
    players: dict[tuple, PlayerStats] = {}
    engines: dict[str, EngineStats] = {}
    for game in games:
        adapter = engine_of[game.pk]
        label = adapter.label if adapter is not None else game.engine
        reference = (adapter.presentation.first_player_reference()
                     if adapter is not None and game.engine not in engines else None)
        es = engines.setdefault(game.engine, EngineStats(game.engine, label, reference=reference))
        es.games += 1
        es.events += events[game.pk]
        es.turns += turns[game.pk]
        es.end_reasons[game.end_reason or "unknown"] += 1
        winners = set(game.winners or [])
        first = first_player(game, adapter)
        rules = rules_of(game, adapter)
        rs = es.rules.setdefault(rules, RulesStats(rules, game.engine)) if rules is not None else None
        if rs is not None:
            rs.games += 1
            rs.turns += turns[game.pk]
            rs.end_reasons[game.end_reason or "unknown"] += 1
        if first is not None and 0 <= first < len(game.players):
            es.first_games += 1
            es.first_wins += first in winners
            if rs is not None:
                rs.first_games += 1
                rs.first_wins += first in winners
            if len(game.players) == 2:
                es.two_player_games += 1
                es.two_player_first_wins += first in winners
        default_strength = adapter.bot_strengths[-1] if adapter is not None and adapter.bot_strengths else ""
        for seat, entry in enumerate(entries[game.pk]):
            if entry.key[0] == "bot":  # results per bot strength ("" is the game's default strength)
                strength = entry.key[-1] or default_strength  # ("bot", engine, strength)
                bs = es.bots.setdefault(strength, BotStats(strength))
                bs.seats += 1
                bs.wins += 1 / len(winners) if seat in winners else 0.0
                bs.fair += 1 / len(game.players)
            ps = players.setdefault(entry.key, PlayerStats(entry.label, url=entry.url))
            ps.games += 1
            ps.wins += seat in winners
            if game.loser is not None:
                ps.loser_games += 1
                ps.rounds_lost += game.loser == seat
    ordered = sorted(players.values(), key=lambda p: (-p.wins, -p.win_rate, p.name.casefold()))
    order = list(REGISTRY)  # the games in the order they were registered
    return Statistics(
        ordered, sorted(engines.values(), key=lambda e: order.index(e.slug) if e.slug in order else len(order))
    )


# ---------------------------------------------------------------- charts

BAR_COLOURS = ("#2f6fdf", "#d9822b", "#2e9e5b", "#b04ac2", "#c23b3b", "#5a6b7a")


def short(label: str, size: int = 44) -> str:
    """A bar's label cut to fit the chart's width (the whole label is in the chart's spoken text)."""
    return label if len(label) <= size else label[: size - 1].rstrip() + "…"


def bar_chart(rows: Sequence[tuple[str, float, str]], *, title: str, max_value: float | None = None,
              marker: tuple[float, str] | None = None) -> SafeString:
    """Horizontal bars: (label, value, value as shown).  ``marker`` draws a reference line.

    The SVG scales to its container (``viewBox``), so it fits a 360 px phone:
    each label stands on its own line above its bar (the whole chart width,
    so a long name is not cut at the left edge), the value after the bar.
    """
    width, label_h, bar_h, gap = 320, 15, 18, 8
    top = 2
    row_h = label_h + bar_h + gap
    height = top + len(rows) * row_h + (18 if marker else 0)
    top_value = max_value if max_value is not None else max([v for _l, v, _s in rows] + [1])
    scale = (width - 56) / (top_value or 1)
    # What a screen reader says: the title, then every bar's label and value (and the reference line).
    spoken = "; ".join(f"{label}: {shown}" for label, _v, shown in rows)
    if marker:
        spoken += f"; {marker[1]}"
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {max(height, 30)}" role="img" '
        f'aria-label="{escape(title)}. {escape(spoken)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title><desc>{escape(spoken)}</desc>'
    ]
    for i, (label, value, shown) in enumerate(rows):
        y = top + i * row_h
        w = max(0.0, value * scale)
        parts.append(
            f'<text x="0" y="{y + 11}" font-size="12">{escape(short(label))}</text>'
            f'<rect x="0" y="{y + label_h}" width="{w:.1f}" height="{bar_h}" rx="3" '
            f'fill="{BAR_COLOURS[i % len(BAR_COLOURS)]}"/>'
            f'<text x="{w + 4:.1f}" y="{y + label_h + bar_h * 0.72:.1f}" font-size="12">{escape(shown)}</text>'
        )
    if marker:
        value, text = marker
        x = value * scale
        parts.append(
            f'<line x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{height - 16}" stroke="#1b1b1f" stroke-dasharray="4 3"/>'
            f'<text x="{min(max(x, 90), width - 4):.1f}" y="{height - 3}" text-anchor="end" font-size="11">{escape(text)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def number(value: float, digits: int = 0) -> str:
    return number_format(value, digits, use_l10n=True)


CLOSED = "closed"  # the end reason of an abandoned game (see services.close_table)


def end_reason_label(slug: str, code: str) -> str:
    """How a game ended, in the active language, as its engine words it (the code when it has no label)."""
    if not code or code == "unknown":
        return gettext("Unknown")
    if code == CLOSED:  # any game: the host closed the table mid-game (the game is abandoned)
        return gettext("Abandoned: the table was closed")
    engine = REGISTRY.get(slug)
    labels = engine.presentation.end_reasons if engine is not None else {}
    return gettext(labels[code]) if code in labels else code


def charts(stats: Statistics) -> dict[str, Any]:
    """The page's SVG charts, keyed by what they show; every title and label in the active language."""
    out: dict[str, Any] = {}
    top = [p for p in stats.players if p.games][:10]
    if top:
        out["wins"] = bar_chart([(p.name, p.wins, f"{number(p.wins)}/{number(p.games)}") for p in top],
                                title=gettext("Wins per player"))
    per_engine = []
    for es in stats.engines:
        chart = bar_chart([(label, c, number(c)) for _code, label, c in es.end_reason_rows],
                          title=gettext("How %(game)s games ended") % {"game": es.label})
        first = None
        if es.first_win_rate is not None:
            rows = [(pgettext("games played", "All games"), es.first_win_rate, percent(es.first_win_rate))]
            marker = None
            if es.reference is not None:
                if es.two_player_first_win_rate is not None:
                    rows.append((gettext("2 players"), es.two_player_first_win_rate,
                                 percent(es.two_player_first_win_rate)))
                marker = (es.reference, gettext("solver: %(rate)s") % {"rate": percent(es.reference, 2)})
            first = bar_chart(rows, title=gettext("%(game)s: first player's win rate") % {"game": es.label},
                              max_value=1.0, marker=marker)
        per_engine.append({"stats": es, "ended": chart, "first": first})
    out["engines"] = per_engine
    return out
