"""The one interface through which a game plugs into the shared machinery.

A game's pure rules package (``sixdice.rules``, ``runbuster.rules``) knows
nothing of Django.  Each game provides one adapter, a subclass of
:class:`GameEngine`, and registers it with :func:`register`.  The live
tables, the replay viewer, the exchange format, the statistics and the rules
pages only ever talk to that adapter, with plain JSON-able data:

* ``state``  -- the JSON dict of the game state (what the snapshot stores);
* ``action`` -- a JSON dict with at least ``"type"``; every rolled die value
  is part of the action, so the event log replays exactly;
* ``actor``  -- who sends the action: a seat number (0-based), :data:`HOST`
  or :data:`SYSTEM` (the server itself: app-rolled dice, automatic defaults,
  bots).

Randomness never enters :meth:`GameEngine.apply`.  When the game waits for
dice that the app rolls, :meth:`GameEngine.system_action` returns a complete
action (with the values drawn from the ``rng`` it is given) and the service
applies it like any other action and records it as an event.

Every hook is declared with its default: the rules' hooks on
:class:`GameEngine`, how the game shows itself (its words for moves, its
rules page and lesson, its labels, figures and plural strings, its dice and
board on the review pages) on :class:`Presentation`.  Five have no default
and must be written (:meth:`~GameEngine.clean_options`,
:meth:`~GameEngine.start`, :meth:`~GameEngine.actors`,
:meth:`~GameEngine.apply`, :meth:`~GameEngine.outcome`); every other one has
a default that suits a game without that feature (no system actions, no
bots, no hints, no dice to draw, every seat's action is a turn, a series of
rematches, no house rules, nothing of its own to show).  The shared code
never probes for a hook: it calls it.  ``docs/gamekit.md`` lists them all
(``tests/test_docs.py`` keeps that list true).

Refusals: a :class:`GameError` may be raised with an English format string
and ``params`` (``NotAllowed("It is %(name)s's turn.", params={"name": "Ana"})``);
``str(error)`` is the English text, and the tables translate ``error.msgid``
(marked with :func:`~sixdice.gamekit.notation.gettext_noop` like the
notation) in each reader's language.  An argument in ``params`` may itself be
a notation part (translated too).  The rules packages raise
:class:`~sixdice.gamekit.notation.Refusal`, which has the same ``msgid`` and
``params``; the adapters pass them on.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from . import notation
from .errors import IllegalMove, OptionsError
from .notation import Part, part
from .options import app_rolls, hints_on
from .schema import BadAction, check_json, clean_action

__all__ = [
    "DEFAULT", "DRAW", "HOST", "JSON", "REGISTRY", "SYSTEM", "TIMEOUT", "Actor", "BoardPicture", "DieFace", "FirstPlayer", "GameEngine",
    "HandPicture", "MoveWords", "Outcome", "ParsedStates", "Presentation",
    "competition_ranks", "get_engine", "parse_actor", "register", "suggested_action",
]

HOST = "host"
SYSTEM = "system"

Actor = int | str
"""A seat number (0-based), :data:`HOST` or :data:`SYSTEM`."""

JSON = dict[str, Any]

DRAW = "draw"
"""Why the app acted (:meth:`GameEngine.system_reason`): it drew values at random (app-rolled dice)."""
DEFAULT = "default"
"""Why the app acted: it applied the rules' own choice (e.g. automatic balancing)."""
TIMEOUT = "timeout"
"""Why the app acted: the game's time ran out (it ended the game)."""


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """Places as standings are read: rank 1 for the smallest key, equal keys share a place, and the places
    they share are used up (``[3, 1, 3] -> [2, 1, 2]``, ``[1, 1, 2] -> [1, 1, 3]``: two share first, the
    next is third).  The last of eight players is 8th, whoever tied above."""
    ordered = sorted(keys)
    first: dict[Any, int] = {}
    for i, key in enumerate(ordered):
        first.setdefault(key, i + 1)
    return [first[key] for key in keys]


def parse_actor(actor: str) -> Actor:
    """An event's stored actor (``"0"``, ``"host"``, ``"system"``) as an :data:`Actor`."""
    return int(actor) if actor.isdigit() else actor


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, for standings, the admin and statistics."""

    winners: tuple[int, ...]
    end_reason: str
    places: tuple[int, ...] = field(default=())  # drop-out order, where the game has one
    loser: int | None = None


@dataclass(frozen=True)
class DieFace:
    """How one die is drawn: its text and its tone (``"pos"``, ``"neg"`` or ``"pip"``)."""

    text: str
    tone: str = "pip"


@dataclass(frozen=True)
class FirstPlayer:
    """Who began a game (a seat) and why (a notation part, shown in the reader's language)."""

    seat: int
    reason: Part


@dataclass(frozen=True)
class HandPicture:
    """One seat's hand as the review pages draw it when the game has no drawing of its own.

    ``groups`` are drawn boxed, ``loose`` dice after them; ``score`` (the
    hand's value, where the game has one) and ``mark`` (e.g. ``"#1"`` for a
    place) follow the player's name.
    """

    groups: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    score: int | None = None
    mark: str = ""


@dataclass(frozen=True)
class PlayRecord:
    """What a play log (the BG Stats app's "Send to BG Stats") gets from a game beyond the shared facts."""

    scores: tuple[float | None, ...] = ()  # one per seat; empty: the game has no points
    bgg_id: int | None = None  # the game's BoardGameGeek id, only when BoardGameGeek has the game
    highest_wins: bool | None = None  # None: say nothing (the ranks say who did best)
    note: str = ""  # the play's note ("comments"): what the scores leave out, in no language (names and numbers)


@dataclass(frozen=True)
class BoardPicture:
    """A state as plain data for the review pages' generic drawing.

    ``facts`` are ``(label, value)`` pairs shown above the hands; ``label``
    is English, marked with ``gettext_noop`` (the review pages translate it:
    ``("Round", "3 / 12")``).
    """

    hands: tuple[HandPicture, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MoveWords:
    """What players call one type of action: ``kind``, a key the game's page translates (its ``move-words``:
    "Undo Ann's roll"), and ``name``, the English name an undo line gives it (marked with ``gettext_noop``:
    "The host undid Ana's roll")."""

    kind: str
    name: str


Parsed = TypeVar("Parsed")


class ParsedStates(Generic[Parsed]):
    """An engine's parser of state dicts, which remembers the last few it parsed or made, by identity.

    A move asks about the same state several times (apply, the app's roll,
    the outcome, the view), and would parse it each time.  Call it with a
    state dict to get the parsed state; a dict the parser refuses (a damaged
    saved state) is an :class:`IllegalMove`, never a traceback.  The pairs
    are replaced whole, so a reader on another thread sees a consistent
    tuple; the parsed objects must be immutable and the dicts are never
    mutated (states are values, ``docs/gamekit.md``).
    """

    def __init__(self, parse: Callable[[Mapping[str, Any]], Parsed], keep: int = 4) -> None:
        self.parse = parse
        self.keep = keep
        self._pairs: tuple[tuple[Mapping[str, Any], Parsed], ...] = ()

    def __call__(self, state: Mapping[str, Any]) -> Parsed:
        for known, parsed in self._pairs:
            if known is state:
                return parsed
        try:
            parsed = self.parse(state)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise IllegalMove(notation.gettext_noop("The saved game state is damaged (%(error)s)."),
                              params={"error": f"{e.__class__.__name__}: {e}"}) from None
        self.remember(state, parsed)
        return parsed

    def remember(self, state: Mapping[str, Any], parsed: Parsed) -> None:
        """``state`` is what ``parsed`` dumps to (an engine's new state dict): the next call need not parse it."""
        self._pairs = ((state, parsed), *self._pairs[: self.keep - 1])


def _whole_state(state: Mapping[str, Any], seat: int | None) -> JSON:
    return dict(state)


def suggested_action(hint: Mapping[str, Any]) -> JSON | None:
    """The move a hint (from :meth:`GameEngine.hint`) suggests: its ``"action"``, or ``None`` (only chances)."""
    action = hint.get("action")
    return dict(action) if isinstance(action, Mapping) else None


class Presentation:
    """How a game shows itself: its words, its pages, its pictures and its figures, apart from the rules.

    An engine points to its presentation (:attr:`GameEngine.presentation_class`)
    and builds one (:attr:`GameEngine.presentation`).  Every hook here has a
    default that suits a game without that feature: a die drawn as its number,
    nothing of the board, every move a "move", no rules page, no lesson, no
    labels, no figures of its own.  The shared pages, the statistics, the review
    and the play log ask these hooks and never name a game's own words.
    """

    engine: GameEngine
    """The engine this presentation shows (a presentation reads states through it)."""

    rules_template: ClassVar[str | None] = None
    """Base name of the rules page templates (``"rules/mygame"`` gives
    ``rules/mygame.<language>.html``); ``None``: the game has no rules page."""
    lesson: ClassVar[str] = ""
    """Dotted path of the module whose ``LESSON`` (a :class:`sixdice.gamekit.lesson.Lesson`) teaches the game by
    doing; empty: the game has no lesson."""
    end_reasons: ClassVar[Mapping[str, str]] = {}
    """A label per :attr:`Outcome.end_reason` code (English, marked with ``gettext_noop``), for the
    statistics page and the admin; a code without a label is shown as it is."""
    rule_sets: ClassVar[Mapping[str, str]] = {}
    """A label per code of :meth:`GameEngine.rule_set` (English, marked with ``gettext_noop``), in the order
    the statistics list them; empty: the game has no named sets of rules."""
    end_reasons_by_rules: ClassVar[tuple[str, ...]] = ()
    """The :attr:`Outcome.end_reason` codes whose share of games the statistics show for each set of rules
    (a column each, headed by its label in :attr:`end_reasons`)."""
    option_labels: ClassVar[Mapping[str, str]] = {}
    """A label per option of the game's own (its key in the cleaned options; English, marked with
    ``gettext_noop``), as its new-table form words it: the admin shows a table's options in words.  The
    options every table has (the dice, take-backs, coaching) are labelled by the tables; an option without a
    label is shown by its key."""
    moves: ClassVar[Mapping[str, MoveWords]] = {}
    """The game's words for its moves, by action type, each declared once (:class:`MoveWords`): the undo and
    take-back buttons and the undo lines (:meth:`move_kind`, :meth:`move_name`).  Empty: every move is a "move"."""
    default_reason: ClassVar[str] = notation.gettext_noop("the rules' default")
    """What the rules' own choice (:data:`DEFAULT`) is called at this game's tables, in a log line that says
    the app chose it for a seat: "The app chose for Ivo (automatic balancing): …"."""

    def __init__(self, engine: GameEngine) -> None:
        self.engine = engine

    sticker_sizes: ClassVar[tuple[int, ...]] = ()
    """The die sizes (mm) the game's printable sticker sheet is drawn for, the default first; empty: no sheet."""

    def sticker_sheet(self, paper: str, size_mm: int, fmt: str) -> bytes | None:
        """The printable sticker sheet that makes the game's dice from ordinary ones: ``paper`` ``a4`` or
        ``letter``, ``size_mm`` one of :attr:`sticker_sizes`, ``fmt`` ``pdf`` or ``svg``; ``None``: no sheet."""
        return None

    def dice_needed(self, options: Mapping[str, Any], *, players: int) -> dict[str, Any] | None:
        """How many real dice a table with these options (as the new-table form sends them) uses, as figures
        for the game's ``<slug>/_dice_needed.html``; ``None``: the form says nothing of it.  May raise
        :class:`~sixdice.gamekit.errors.OptionsError` for options the game refuses."""
        return None

    def die_face(self, value: int) -> DieFace:
        """How one die value is drawn on server-rendered pages and the replay's generic drawing."""
        return DieFace(str(value), "pip")

    def picture(self, state: Mapping[str, Any]) -> BoardPicture:
        """The state as plain data for the admin and the replay page's generic drawing.

        Default: nothing to draw (the replay page then shows the raw view).
        """
        return BoardPicture()

    def move_kind(self, action: Mapping[str, Any]) -> str:
        """The kind of move ``action`` is, in the game's own words: a key the game's page translates.

        The undo and take-back buttons say what they would take back ("Undo
        Ann's move"); the page looks the key up among the game's strings
        (``move-words``) and falls back to the plain "move".  Not a hook: read
        from :attr:`moves` (``"move"`` for a type it does not list).
        """
        words = self.moves.get(str(action.get("type")))
        return words.kind if words is not None else "move"

    def move_name(self, action: Mapping[str, Any]) -> Part:
        """What a player calls ``action``, as a notation part: an undo line names the move it took back
        ("The host undid Ana's move").  Not a hook: read from :attr:`moves` ("move" for a type it does not list)."""
        words = self.moves.get(str(action.get("type")))
        return part(words.name if words is not None else notation.gettext_noop("move"))

    def asked_move(self, state: Mapping[str, Any], seat: int) -> Part | None:
        """The move ``state`` asks ``seat`` to make now, named as :meth:`move_name` names it ("choice of groups
        to keep"), or ``None`` (nothing asked, or a roll).  An undo's notice tells a player at a real-dice table
        the move their phone asks for, not only the one taken back.  Default: ``None``."""
        return None

    def rules_context(self) -> JSON:
        """Extra context for this game's rules page templates (see :attr:`rules_template`).  Default: none."""
        return {}

    def first_player_reference(self) -> float | None:
        """The exact chance that the first player wins a two-player game, when it is known.

        The statistics page then shows the two-player rate beside it.  Default: ``None``.
        """
        return None

    def play_record(self, state: Mapping[str, Any], *, players: int) -> PlayRecord:
        """A finished game's scores per seat and its BoardGameGeek id, for a play log
        (``sixdice.review.bgstats``).  Default: no points, no id."""
        return PlayRecord()

    def plural_forms(self, ngettext: Callable[[str, str, int], str]) -> Mapping[str, Callable[[int], str]]:
        """The game's strings that its page's scripts fill with a live number, by key: each a function of the
        number giving the text in the reader's language.

        ``ngettext`` is the translating function the tables pass in; a game
        calls it by that name (``lambda n: ngettext("%(n)s coin", "%(n)s
        coins", n)``) so that ``makemessages`` finds the strings.  The keys
        are shared by every game's page (``sixdice.tables.core.plural_forms``),
        so a game's keys are its own.  Default: none.
        """
        return {}


#: The public names of :class:`Presentation`: an engine class may not define one of them (see ``__init_subclass__``).
PRESENTED = frozenset(
    name for name in (*vars(Presentation), *Presentation.__annotations__) if not name.startswith("_") and name != "engine"
)


class GameEngine:
    """What a game provides to the shared machinery; subclass it and :func:`register` an instance."""

    slug: ClassVar[str] = ""  # "sixdice", "runbuster": stored on every table and game
    label: ClassVar[str] = ""  # shown to players
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    bot_strengths: ClassVar[tuple[str, ...]] = ()
    """The strengths :meth:`bot_action` offers, weakest first (empty: no bots)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse an engine class that answers a presentation hook itself: the shared code would never ask it."""
        super().__init_subclass__(**kwargs)
        misplaced = sorted(PRESENTED.intersection(vars(cls)))
        if misplaced:
            raise TypeError(
                f"{cls.__name__} defines {', '.join(misplaced)}: these are answered by the game's Presentation "
                f"(its presentation_class), not by the engine"
            )

    # ------------------------------------------------------------ required hooks

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> JSON:
        """Validate and complete a table's options; raise :class:`OptionsError`.

        Must be idempotent: cleaning cleaned options gives them back.
        """
        raise NotImplementedError

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> JSON:
        """The initial state (no dice rolled yet: rolls come as actions).

        ``first`` is the seat that begins where the game lets the table choose
        (Run Buster's Player 1); a game that decides by itself ignores it.
        """
        raise NotImplementedError

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        """The seats that may send an action now (whose turn, whose choice)."""
        raise NotImplementedError

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> JSON:
        """Apply ``action`` sent by ``actor``; return the new state.

        Pure and deterministic; never mutates ``state``.  Raises
        :class:`NotAllowed` when the actor may not send this action and
        :class:`IllegalMove` (or another :class:`GameError`) when the action
        is not legal.
        """
        raise NotImplementedError

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        """``None`` while the game goes on; how it ended once it is over."""
        raise NotImplementedError

    # ------------------------------------------------------------ the declared game: what is drawn at random

    random_actions: ClassVar[frozenset[str]] = frozenset()
    """The action types that carry values drawn at random (dice): the app draws them (a system action)
    or, at a table with real dice, someone types them in.  Empty (default): the game draws nothing.
    The shared code never names them: no undo goes back across a value the app drew, a take-back
    stops at any of them, and a typed-in one may be corrected by the host."""

    def app_draws(self, options: Mapping[str, Any]) -> bool:
        """Whether the app draws the random values at a table with these options, or they are typed in.

        Default: the kit's ``dice`` option (:func:`~sixdice.gamekit.options.dice_mode`): the app draws unless
        the table plays with real dice (``dice: physical``); a game without that option always draws.
        """
        return app_rolls(options)

    def is_random(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` is one of :attr:`random_actions` (not a hook)."""
        return isinstance(action, Mapping) and action.get("type") in self.random_actions

    def draws_at_random(self, options: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
        """Whether this logged action showed the table values the app drew at random (not a hook)."""
        return self.is_random(action) and self.app_draws(options or {})

    def typed_in(self, options: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
        """Whether this action's random values are typed in at the table (real dice; not a hook).

        The host may correct such an action; the app never plays it for a seat.
        """
        return self.is_random(action) and not self.app_draws(options or {})

    def drawn_values(self, action: Mapping[str, Any]) -> list[Any]:
        """The values a random step drew, in the order they were drawn (hook).

        An undo keeps them and the app deals them again first
        (:mod:`sixdice.gamekit.pins`).  Default: the action's ``values`` list.
        """
        values = action.get("values")
        return list(values) if isinstance(values, list) else []

    def system_reason(self, action: Mapping[str, Any]) -> str:
        """Why the app (:data:`SYSTEM`) took ``action``: :data:`DRAW`, :data:`DEFAULT` or :data:`TIMEOUT`.

        The review pages say so beside the move.  Default: :data:`DRAW` for
        :attr:`random_actions`, else :data:`DEFAULT`.
        """
        return DRAW if self.is_random(action) else DEFAULT

    # ------------------------------------------------------------ hooks with defaults: checking actions

    def action_schema(self) -> Mapping[str, Mapping[str, Any]] | None:
        """The exact fields of each action type (see :mod:`sixdice.gamekit.schema`), or ``None`` (default).

        With a schema, :meth:`clean_action` refuses any other field; without
        one it only bounds the action as JSON (depth, size, numbers, Unicode).
        """
        return None

    def clean_action(self, action: Any) -> JSON:
        """The action as it will be applied and stored, checked against :meth:`action_schema`.

        Raises :class:`~sixdice.gamekit.schema.BadAction` (code ``bad_field``)
        before the game looks at the action.  Not a hook: a game declares :meth:`action_schema`.
        """
        schema = self.action_schema()
        if schema is not None:
            return clean_action(action, schema)
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise BadAction('An action is a JSON object with a "type".')
        return dict(check_json(dict(action)))

    # ------------------------------------------------------------ hooks with defaults: playing

    def complete_action(
        self,
        state: Mapping[str, Any],
        action: Mapping[str, Any],
        options: Mapping[str, Any] | None,
        rng: random.Random,
        *,
        actor: Actor | None = None,
    ) -> JSON:
        """Fill in what a sender's action leaves to the app, before it is applied and recorded.

        For example the values of app-rolled dice when a player taps the cup
        (Run Buster).  ``actor`` is :data:`SYSTEM` for a bot's move.  Raise a
        :class:`GameError` to refuse.  Default: the action unchanged (a copy).
        """
        return dict(action)

    def system_action(self, state: Mapping[str, Any], options: Mapping[str, Any], rng: random.Random) -> JSON | None:
        """The action the server takes by itself now, or ``None`` (the default).

        App-rolled dice (with their values drawn from ``rng``) and automatic
        defaults (e.g. automatic balancing) are system actions.
        """
        return None

    def bot_action(
        self, state: Mapping[str, Any], seat: int, rng: random.Random, *, strength: str | None = None
    ) -> JSON | None:
        """The complete action the app would take for ``seat`` now, or ``None`` when it has none (default).

        ``strength`` is one of :attr:`bot_strengths` (``None``: the adapter's
        own choice) for a bot's move; dice the move needs are drawn from
        ``rng`` and are part of the returned action; the service applies it
        for the seat.  ``strength=DEFAULT`` asks instead for the rules' own
        default for the decision ``seat`` faces (a Six-Dice grouping, the
        groups a hand keeps), or ``None`` where the rules have none: a turn
        timer plays it for a game without a bot, and reviewers see it beside
        the choice that was made.
        """
        return None

    def end_action(self, state: Mapping[str, Any], *, time_up: bool = False) -> JSON | None:
        """The action that ends the game now, the hands as they stand deciding (the host's "End the game now"),
        or ``None``: the game cannot be ended early now (default: never; a game that is over: ``None``).

        ``time_up``: the table's time limit has run out (a game may end with its own end reason then).  Only
        the host may send it (:meth:`apply` refuses it from a seat); its log line says the host ended the game
        and how the hands decided, and the outcome's ``end_reason`` says so (a key of
        :attr:`Presentation.end_reasons`).
        """
        return None

    def hint(self, state: Mapping[str, Any], seat: int) -> JSON | None:
        """Advice for the player in ``seat`` (JSON-able), or ``None``: no hint (default).

        A hint that suggests a move carries it as its ``"action"`` (see
        :func:`suggested_action`); one that only gives chances has none.  The
        review pages describe the suggestion beside the move played.
        """
        return None

    def shows_hints(self, options: Mapping[str, Any]) -> bool:
        """Whether a table with these (cleaned) options shows hints (:meth:`hint`) to the player whose choice it is.

        Default: the kit's ``hints`` option (:func:`~sixdice.gamekit.options.hints_on`).
        """
        return hints_on(options)

    def coach_options(self, options: Mapping[str, Any]) -> JSON:
        """The (cleaned) options of a first game that coaches new players: hints on, a short game.

        Default: the options unchanged.  The result must be options :meth:`clean_options` accepts.
        """
        return dict(options)

    def plays_series(self, options: Mapping[str, Any]) -> bool:
        """Whether the table offers rematches after a game (default) or closes when it ends."""
        return True

    def view_parts(self, state: Mapping[str, Any]) -> tuple[JSON, Callable[[int | None], JSON]]:
        """What a phone is sent for ``state``: a part every seat shares, and each seat's own part.

        ``own(seat)`` (``seat=None``: host, spectator or replay) must share no
        key with ``shared``; the view of a seat is ``{**shared, **own(seat)}``
        (:meth:`view`): the state plus whatever the phone needs to draw
        itself, such as the legal actions of that seat.  A move's ``update``
        frames serialize the shared part once and each seat's own part apart
        (``outgoing.PreparedUpdate`` of the table app).  Default: nothing shared, each seat
        gets the state as it is.
        """
        return {}, functools.partial(_whole_state, state)

    def view(self, state: Mapping[str, Any], seat: int | None) -> JSON:
        """The whole view of one seat, from :meth:`view_parts` (not a hook)."""
        shared, own = self.view_parts(state)
        return {**shared, **own(seat)}

    # ------------------------------------------------------------ hooks with defaults: notation

    def describe_parts(self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]) -> list[Part]:
        """The action in the game's notation as structured parts (see :mod:`sixdice.gamekit.notation`).

        Each part is ``{"msg": <English format string>, "args": {...}}``; the
        messages are marked with ``gettext_noop``; names and die values are
        arguments and are never translated; an argument may itself be a part.
        The services store them on the event (``Event.notation``) so that each
        phone reads the log in its own language.  Default: the action's type.
        """
        return [part("%(type)s", type=str(action.get("type", "?")))]

    def describe(self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]) -> str:
        """The English log line: :meth:`describe_parts` rendered untranslated (not a hook)."""
        return notation.render_parts(self.describe_parts(state_before, action, names=names))

    def is_turn(self, actor: Actor, action: Mapping[str, Any]) -> bool:
        """Whether this event is what a player calls a turn (replay steps, game length in statistics).

        Default: every action a seat sends.
        """
        return isinstance(actor, int)

    # ------------------------------------------------------------ how the game shows itself

    presentation_class: ClassVar[type[Presentation]] = Presentation
    """How the game shows itself (:class:`Presentation`, whose defaults suit a game with nothing of its own)."""

    @functools.cached_property
    def presentation(self) -> Presentation:
        """The game's :class:`Presentation`, built once (not a hook)."""
        return self.presentation_class(self)

    @property
    def end_reasons(self) -> Mapping[str, str]:
        """The presentation's :attr:`Presentation.end_reasons` (not a hook: a read-through for callers that ask
        the engine, such as the admin's filter; a game sets them on its presentation)."""
        return self.presentation.end_reasons

    # ------------------------------------------------------------ hooks with defaults: reviewing a game

    def final_ranks(self, state: Mapping[str, Any], *, players: int) -> list[int] | None:
        """Each seat's final rank (1 = best, equal numbers are ties); ``None`` while the game goes on.

        The profiles' results and ratings use it.  Default, from
        :meth:`outcome`: the finishing order where the outcome has one
        (``Outcome.places``; a seat missing from it comes after them, all
        tied), else the winners first, together, and everyone else tied
        behind them.  ``players`` is the number of seats (the state's shape is
        the game's own, so the kit does not read it there).
        """
        outcome = self.outcome(state)
        if outcome is None:
            return None
        seats = range(players)
        if outcome.places:
            where = {seat: i for i, seat in enumerate(outcome.places)}
            return competition_ranks([where.get(seat, len(outcome.places)) for seat in seats])
        won = set(outcome.winners)
        return competition_ranks([seat not in won for seat in seats])

    def upgrade_options(self, options: Mapping[str, Any], *, version: int) -> JSON:
        """Options as an export of format ``version`` holds them, in the shape of format ``version + 1``.

        Import upgrades an older file one version at a time
        (``sixdice.review.exchange.upgrade``, ``docs/export-format.md``).  When
        a game adds an option, the export format's version goes up and this
        hook gives the option, for files of the versions before, the value that
        was in force before the option existed (not necessarily today's
        default); an option the game dropped is removed.  Default: unchanged.
        """
        return dict(options)

    def upgrade_state(self, state: Mapping[str, Any], *, version: int) -> JSON:
        """A state (an export's ``initial_state`` or ``final_state``) of format ``version``, in the
        shape of format ``version + 1``, for a game whose state holds its options.  Default: unchanged."""
        return dict(state)

    def rules_in_force(self, options: Mapping[str, Any], *, players: int) -> JSON:
        """The house rules a game with these (cleaned) options plays, as the game's own pages word them.

        Default: ``{}``, no house rules (the rules as written).  The shape is
        the game's own; the shared code asks :meth:`rule_set` instead.
        """
        return {}

    def rule_set(self, options: Mapping[str, Any], *, players: int) -> str | None:
        """Which named set of rules (a key of :attr:`Presentation.rule_sets`) a game with these options plays.

        The statistics give each set its own row.  Default: ``None``, the game
        has no named sets of rules.
        """
        return None

    def time_limit(self, options: Mapping[str, Any]) -> int | None:
        """How many minutes a game with these (cleaned) options may last, counted from its start, or ``None``.

        The table frame counts it down on every phone (``time_limit``); when it
        runs out the host may end the game (the game's own action).  Default:
        ``None``, no time limit.
        """
        return None

    def first_player(self, state: Mapping[str, Any]) -> FirstPlayer | None:
        """Who begins the game in ``state`` and why, once it is decided; ``None`` before (default: never known).

        The review pages call it on the states of the replay in turn; the
        first answer is the game's first player (1-based in the admin).  The
        statistics call it on the final state; with ``None`` the table's
        choice (``Game.first``, the ``first`` given to :meth:`start`) counts.
        """
        return None


REGISTRY: dict[str, GameEngine] = {}


def register(engine: GameEngine) -> GameEngine:
    """Make a game available to tables; registering a slug again replaces it."""
    REGISTRY[engine.slug] = engine
    return engine


def get_engine(slug: str) -> GameEngine:
    try:
        return REGISTRY[slug]
    except KeyError:
        raise OptionsError(f"Unknown game {slug!r}.", code="unknown_game") from None
