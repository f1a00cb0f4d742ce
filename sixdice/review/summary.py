"""What a reviewer asks first about a game, worked out once for the top of its admin page.

The day after a games night a reviewer wants, without scrolling: the result
and why, who hosted, who made the decisions (the seat itself, the host or
the app) and how often they left the engine's default, every undo, take-back
and correction with what it took back and the values it changed, and the
reviewer's note with its author and time.  Each comes with the replay step
it happened at (``/t/<code>/replay/<n>/#step-<seq>``).

Everything here is read from the game's own log and the one replay
(:func:`sixdice.review.steps.replay_steps`), in the active language; who
decided each move is :func:`sixdice.review.decisions.decisions`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, ngettext

from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.notation import signed
from sixdice.gamekit.replay import is_undo, undone_by
from sixdice.tables.models import Event, Game

from .decisions import APP, APP_DEFAULT, APP_ROLL, BOT, HOST_KIND, SEAT, TIMEOUT, Decision
from .local_time import labelled
from .models import ReviewNote, note_of
from .stats import end_reason_label
from .steps import Step

#: Who made a decision, in three groups (the issue's "the seat itself, the host, the app").
GROUP_OF = {SEAT: "seat", HOST_KIND: "host", BOT: "app", APP_ROLL: "app", APP_DEFAULT: "app", TIMEOUT: "app",
            APP: "app"}
GROUP_LABELS = {
    "seat": gettext_noop("The players themselves"),
    "host": gettext_noop("The host, for a seat"),
    "app": gettext_noop("The app (bots, dice, defaults, time)"),
}
UNDO, TAKE_BACK, CORRECTION = "undo", "take_back", "correction"


def step_url(game: Game, step: int) -> str:
    """The public replay of ``game`` opened at ``step`` (0: the start; ``seq``: after that event)."""
    return reverse("review:replay", args=[game.table.code, game.number]) + f"#step-{step}"


@dataclass(frozen=True)
class Line:
    """One event as the summary names it: its number, its line in the active language and its replay step."""

    seq: int
    text: str
    url: str


@dataclass
class Result:
    text: str  # "Won by Hana" / "Abandoned: …" / "Still being played"
    why: str  # the end reason in words ("" while playing)
    hands: str  # final hand values, signed ("Hana +4, Jo −3"), when the game scores hands
    url: str  # the replay at its last step


@dataclass
class DecisionGroup:
    key: str  # "seat", "host", "app"
    label: str
    moves: int = 0
    with_default: int = 0
    differed: list[Line] = field(default_factory=list)


@dataclass
class TakenBack:
    line: Line
    system: bool  # an app's step (a draw, automatic balancing): worked out again, not made again
    again: Line | None = None  # a correction made this move again, here


@dataclass
class Fix:
    """An undo, a take-back or a correction: who, when, what it took back, and (a correction) the old and new values."""

    kind: str
    line: Line
    who: str
    at: dt.datetime
    taken: list[TakenBack]
    roll: Line | None = None  # a correction: the roll it corrected
    old: str = ""
    new: str = ""
    new_roll: Line | None = None  # the corrected roll, as entered again

    @property
    def label(self) -> str:
        return {UNDO: gettext("Undo"), TAKE_BACK: gettext("Take-back"), CORRECTION: gettext("Correction")}[self.kind]

    @property
    def still_undone(self) -> list[TakenBack]:
        return [t for t in self.taken if not t.system and t.again is None]

    @property
    def moves_taken(self) -> list[TakenBack]:
        """What it took back that someone had decided (the app's own steps are only counted, :attr:`app_steps`)."""
        return [t for t in self.taken if not t.system]

    @property
    def app_steps(self) -> int:
        """The app's own steps it took back (draws, automatic balancing): worked out again, not listed one by one."""
        return sum(1 for t in self.taken if t.system)

    @property
    def when(self) -> str:
        return labelled(self.at, "%H:%M:%S")


@dataclass
class Summary:
    result: Result
    host: str
    groups: list[DecisionGroup]
    choices: int  # decisions the engine has a default for
    differed: int  # …that differed from it
    fixes: list[Fix]
    note: ReviewNote | None
    moves: int  # events in the log

    @property
    def note_when(self) -> str:
        """When the note was last written, on the club's clock with its zone."""
        return labelled(self.note.updated_at) if self.note is not None else ""


def host_of(game: Game) -> str:
    """Who hosted ``game``, in words: the host's seat (and its profile) when seated, else the name typed when the
    table was made."""
    table = game.table
    position = table.host_seat
    if position is not None and position < len(game.players):
        name = game.players[position]
        profile = _profile_name(game, position)
        if profile and profile != name:
            return gettext("%(name)s (seat %(n)s, profile %(profile)s)") % {
                "name": name, "n": position + 1, "profile": profile}
        return gettext("%(name)s (seat %(n)s)") % {"name": name, "n": position + 1}
    if table.host_name:
        return gettext("%(name)s (not seated)") % {"name": table.host_name}
    return gettext("Not recorded (no host name was given)")


def _profile_name(game: Game, position: int) -> str:
    from sixdice.players.models import Participant, SeatProfile

    row = Participant.objects.filter(game=game, position=position, profile__isnull=False).select_related(
        "profile").first()
    if row is not None and row.profile is not None:
        return row.profile.display_name
    link = SeatProfile.objects.filter(seat__table_id=game.table_id, seat__position=position).select_related(
        "profile").first()
    return link.profile.display_name if link is not None else ""


def result_of(game: Game, engine: GameEngine | None, last: int) -> Result:
    url = step_url(game, last)
    names = list(game.players)
    if game.status == Game.Status.PLAYING:
        return Result(gettext("Still being played"), "", "", url)
    why = end_reason_label(game.engine, game.end_reason)
    if game.status == Game.Status.ABANDONED:
        text = ngettext("Abandoned after %(n)s move", "Abandoned after %(n)s moves", last) % {"n": last}
    else:
        winners = [names[w] for w in game.winners if 0 <= w < len(names)]
        text = (gettext("Won by %(names)s") % {"names": ", ".join(winners)}) if winners else gettext("No winner")
        if game.loser is not None and 0 <= game.loser < len(names):
            text += "; " + gettext("lost by %(name)s") % {"name": names[game.loser]}
    return Result(text, why, final_values(engine, game.state, names), url)


def final_values(engine: GameEngine | None, state: Any, names: Sequence[str]) -> str:
    """Each seat's hand value at the end, signed ("Hana +4, Jo −3"), for a game that scores hands; else ""."""
    if engine is None or not isinstance(state, Mapping):
        return ""
    try:
        hands = engine.presentation.picture(state).hands
    except GameError:
        return ""
    parts = [f"{names[i] if i < len(names) else i + 1} {signed(h.score)}"
             for i, h in enumerate(hands) if h.score is not None]
    return ", ".join(parts)


def decision_groups(steps: Sequence[Step], made: Sequence[Decision], line: Any) -> list[DecisionGroup]:
    groups = {key: DecisionGroup(key, gettext(label)) for key, label in GROUP_LABELS.items()}
    for step, d in zip(steps[1:], made, strict=False):
        if is_undo(step.action):
            continue  # undos are listed on their own
        group = groups[GROUP_OF.get(d.kind, "app")]
        group.moves += 1
        if d.default is not None:
            group.with_default += 1
            if d.differs:
                group.differed.append(line(step.index))
    return list(groups.values())


def _values(engine: GameEngine, action: Mapping[str, Any]) -> str:
    return " ".join(engine.presentation.die_face(v).text if isinstance(v, int) else str(v)
                    for v in engine.drawn_values(action))


def fixes_of(engine: GameEngine, game: Game, events: Sequence[Event], steps: Sequence[Step],
             line: Any) -> list[Fix]:
    """Every undo, take-back and correction of the log, in order."""
    gone = undone_by((e.actor, e.action) for e in events)
    by_undo: dict[int, list[int]] = {}
    for seq, undo in gone.items():
        by_undo.setdefault(undo, []).append(seq)
    names = list(game.players)
    out = []
    for e in events:
        if not is_undo(e.action):
            continue
        taken = [TakenBack(line(seq), events[seq - 1].actor == "system") for seq in sorted(by_undo.get(e.seq, []))]
        if e.actor.isdigit():
            seat = int(e.actor)
            who = names[seat] if seat < len(names) else gettext("Seat %(n)s") % {"n": seat + 1}
            out.append(Fix(TAKE_BACK, line(e.seq), who, e.created_at, taken))
            continue
        who = gettext("Host")
        corrects = e.action.get("corrects")
        if not isinstance(corrects, int) or isinstance(corrects, bool) or not 0 < corrects <= len(events):
            out.append(Fix(UNDO, line(e.seq), who, e.created_at, taken))
            continue
        fix = Fix(CORRECTION, line(e.seq), who, e.created_at, taken, roll=line(corrects),
                  old=_values(engine, events[corrects - 1].action))
        if e.seq < len(events) and not is_undo(events[e.seq].action):  # the roll as entered again comes next
            fix.new_roll = line(e.seq + 1)
            fix.new = _values(engine, events[e.seq].action)
        _made_again(fix, events, e.seq + 1)
        out.append(fix)
    return out


def _made_again(fix: Fix, events: Sequence[Event], after: int) -> None:
    """Mark the moves a correction made again (same seat, same action, in order, up to the next undo)."""
    later = []
    for e in events[after:]:
        if is_undo(e.action):
            break
        later.append(e)
    start = 0
    for taken in fix.taken:
        if taken.system or taken.line.seq == (fix.roll.seq if fix.roll else None):
            continue
        original = events[taken.line.seq - 1]
        for i in range(start, len(later)):
            if later[i].actor == original.actor and later[i].action == original.action:
                taken.again = Line(later[i].seq, "", "")
                start = i + 1
                break


def summarise(game: Game, engine: GameEngine | None, events: Sequence[Event], steps: Sequence[Step],
              made: Sequence[Decision]) -> Summary:
    """The summary of ``game`` from its log, its replay steps and who decided each move (already worked out)."""

    def line(seq: int) -> Line:
        text = steps[seq].line() if 0 < seq < len(steps) else ""
        return Line(seq, text, step_url(game, seq))

    groups = decision_groups(steps, made, line)
    fixes = fixes_of(engine, game, events, steps, line) if engine is not None else []
    for fix in fixes:
        for taken in fix.taken:
            if taken.again is not None:
                taken.again = line(taken.again.seq)
    return Summary(
        result=result_of(game, engine, len(events)),
        host=host_of(game),
        groups=groups,
        choices=sum(g.with_default for g in groups),
        differed=sum(len(g.differed) for g in groups),
        fixes=fixes,
        note=note_of(game),
        moves=len(events),
    )
