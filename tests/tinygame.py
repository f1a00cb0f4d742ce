"""A tiny third game: the proof that a game plugs in by its own package and a registration.

Seats take turns adding 1 or 2 to a shared total; after every add a die is
dealt (its random step, named ``deal``, not ``roll``: the shared code must
ask the engine, never name it).  The app deals it (a system action, so the
value is recorded), or, with the option ``dealer: table``, a real die is
thrown and the seat in turn or the host types it in.  Whoever brings the
total to the target (10 unless the table sets another) wins; a target below
10 is the "short game", a set of rules of its own in the statistics.  The
host may end the game at any time.

Nothing outside this file names it: ``tests/conftest.py`` registers it, and
``tests/gamekit/test_third_game.py`` plays it through every shared part
(tables, the live connection, replay, export and import, statistics).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sixdice.gamekit.engine import (
    HOST,
    SYSTEM,
    Actor,
    BoardPicture,
    GameEngine,
    HandPicture,
    Outcome,
    Presentation,
)
from sixdice.gamekit.errors import IllegalMove, NotAllowed, OptionsError
from sixdice.gamekit.notation import Part, part


class TinyPresentation(Presentation):
    """Its words: how a game ends, its two sets of rules (by the target), the total's plural."""

    end_reasons = {"target": "Target reached", "host": "Ended by the host"}
    rule_sets = {"standard": "Standard", "short": "Short game"}
    end_reasons_by_rules = ("host",)

    def plural_forms(self, ngettext: Callable[[str, str, int], str]) -> Mapping[str, Callable[[int], str]]:
        return {"tiny_total": lambda n: ngettext("Total: %(n)s point", "Total: %(n)s points", n)}

    def picture(self, state: Mapping[str, Any]) -> BoardPicture:
        """The dice dealt so far as one row; the total as a fact."""
        deals = HandPicture(loose=tuple(state["deals"]), score=state["total"])
        return BoardPicture(hands=(deals,), facts=(("Total", str(state["total"])),))


class TinyGame(GameEngine):
    slug = "tiny"
    label = "Tiny"
    min_players = 2
    max_players = 4
    random_actions = frozenset({"deal"})
    presentation_class = TinyPresentation

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> dict[str, Any]:
        target = raw.get("target", 10)
        try:
            target = int(target)
        except (TypeError, ValueError):
            raise OptionsError("The target must be a whole number.") from None
        cleaned: dict[str, Any] = {"target": target, "series": raw.get("series", True) not in (False, "off")}
        dealer = raw.get("dealer", "app")
        if dealer not in ("app", "table"):
            raise OptionsError("The dealer is the app or the table.")
        if dealer == "table":
            cleaned["dealer"] = "table"  # a die thrown at the table, typed in
        return cleaned

    def app_draws(self, options: Mapping[str, Any]) -> bool:
        return options.get("dealer", "app") != "table"

    def rule_set(self, options: Mapping[str, Any], *, players: int) -> str:
        """A target below 10 is the short game."""
        return "short" if int(options.get("target", 10)) < 10 else "standard"

    def plays_series(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("series", True))

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> dict[str, Any]:
        return {"players": list(players), "total": 0, "current": first, "deals": [], "pending_deal": False,
                "target": options["target"], "winner": None, "ended": False, "typed": not self.app_draws(options)}

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        if state["winner"] is not None or state["ended"]:
            return frozenset()
        if state["pending_deal"] and not state.get("typed"):
            return frozenset()  # the app deals
        return frozenset({state["current"]})

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> dict[str, Any]:
        new = {**state, "deals": list(state["deals"])}
        kind = action.get("type")
        if kind == "end":
            if actor != HOST:
                raise NotAllowed("Only the host can end the game.")
            new["ended"] = True
            return new
        if kind == "deal":
            dealer = (HOST, state["current"]) if state.get("typed") else (SYSTEM,)
            if actor not in dealer or not state["pending_deal"]:
                raise NotAllowed("No deal is awaited.")
            new["deals"].append(action["value"])
            new["pending_deal"] = False
            return new
        if kind != "add":
            raise IllegalMove(f"Unknown action {kind!r}.")
        if actor not in self.actors(state) or state["pending_deal"]:
            raise NotAllowed(f"It is {state['players'][state['current']]}'s turn.")
        n = action.get("n")
        if n not in (1, 2):
            raise IllegalMove("You may add 1 or 2.")
        new["total"] += n
        if new["total"] >= state["target"]:
            new["winner"] = state["current"]
        else:
            new["current"] = (state["current"] + 1) % len(state["players"])
            new["pending_deal"] = True
        return new

    def drawn_values(self, action: Mapping[str, Any]) -> list[Any]:
        return [action["value"]] if isinstance(action.get("value"), int) else []

    def system_action(self, state: Mapping[str, Any], options: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        if state["pending_deal"] and not state.get("typed"):
            return {"type": "deal", "value": rng.randint(1, 6)}
        return None

    def view_parts(self, state: Mapping[str, Any]) -> tuple[dict[str, Any], Callable[[int | None], dict[str, Any]]]:
        return dict(state), lambda seat: {"mine": seat is not None and seat in self.actors(state)}

    def describe_parts(self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]) -> list[Part]:
        if action["type"] == "add":
            return [part("%(name)s adds %(n)s", name=names[state_before["current"]], n=action["n"])]
        if action["type"] == "deal":
            return [part("%(value)s is dealt", value=action["value"])]
        return [part("the host ends the game")]

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        if state["winner"] is not None:
            others = [seat for seat in range(len(state["players"])) if seat != state["winner"]]
            return Outcome(winners=(state["winner"],), end_reason="target",
                           places=(state["winner"], *others), loser=others[-1])
        if state["ended"]:
            return Outcome(winners=(), end_reason="host")
        return None


TINY = TinyGame()
