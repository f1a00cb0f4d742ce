"""The shared code calls the declared hooks and never names one game's words.

Shared: the table app (``sixdice/tables/``), the review and the players apps,
the project's template tags, the kit itself, and the templates.  A game's
words (its moves, its presets, its bank...) come from its adapter or its
presentation; a hook is called, never probed with ``getattr``/``hasattr``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sixdice.gamekit.engine import GameEngine, Presentation

ROOT = Path(__file__).resolve().parents[2]

WORDS_CHECKED = [ROOT / "sixdice" / "tables", ROOT / "sixdice" / "gamekit", ROOT / "sixdice" / "review" / "stats.py"]
"""The modules that must hold no game's words (the brief of the sealed game interface)."""

GAME_WORDS = re.compile(
    r"\ball[ _-]threes\b|\bbanks?\b|\bpresets?\b|\bstraights?\b|\bbust(?:s|ed|ing)?\b|\bflip(?:s|ped|ping)?\b",
    re.IGNORECASE,
)
"""Six-Dice's and Run Buster's own words (whole words: "robust" is not "bust")."""

PROBING_CHECKED = [
    ROOT / "sixdice" / "tables", ROOT / "sixdice" / "review", ROOT / "sixdice" / "players",
    ROOT / "sixdice" / "templatetags", ROOT / "sixdice" / "gamekit",
]

HOOKS = {
    name for cls in (GameEngine, Presentation) for name in (*vars(cls), *cls.__annotations__)
    if not name.startswith("_") and name != "engine"  # a presentation's engine; models have an `engine` field too
}


def python_files(places: list[Path]) -> list[Path]:
    files = []
    for place in places:
        found = [place] if place.is_file() else sorted(place.rglob("*.py"))
        files += [path for path in found if "migrations" not in path.parts]
    return files


def game_words(text: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if GAME_WORDS.search(line)]


def test_the_word_list_finds_game_words_and_passes_plain_english():
    assert game_words('labels = {"all_threes": x}\nBank: 12 dice\nthe Preset\nBusted!\nflipped\na straight')  # all six
    assert len(game_words("all threes\nbanks\npresets\nstraights\nbusts\nflips")) == 6
    assert game_words("robust, on_commit(robust=True)\nflipside? no: a flipper\nstraightforward\nbankable") == []


@pytest.mark.parametrize("path", python_files(WORDS_CHECKED), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_module_names_a_games_words(path):
    assert game_words(path.read_text(encoding="utf-8")) == []


def probed_hooks(source: str) -> list[str]:
    """``getattr(x, "hook", ...)`` and ``hasattr(x, "hook")`` calls whose name is a declared hook."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in HOOKS):
            found.append(f"{node.lineno}: {node.func.id}(..., {node.args[1].value!r})")
    return found


def test_the_probe_finder_finds_a_probe():
    assert probed_hooks('read = getattr(engine, "rules_in_force", None)\nhasattr(e, "end_reasons")') == [
        "1: getattr(..., 'rules_in_force')", "2: hasattr(..., 'end_reasons')"]
    assert probed_hooks('getattr(settings, "SIXDICE_HTTPS", False)') == []


@pytest.mark.parametrize("path", python_files(PROBING_CHECKED), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_module_probes_for_a_hook(path):
    assert probed_hooks(path.read_text(encoding="utf-8")) == []


TEMPLATES = [ROOT / "templates", *sorted((ROOT / "sixdice").glob("*/templates"))]


def test_templates_read_only_declared_members_of_an_engine():
    """A template reading ``engine.x`` that the engine does not declare would show nothing, silently."""
    engine_members = {n for n in dir(GameEngine) if not n.startswith("_")}
    shown_members = {n for n in (*dir(Presentation), *Presentation.__annotations__) if not n.startswith("_")}
    read = []
    for folder in TEMPLATES:
        for path in folder.rglob("*.html"):
            for first, second in re.findall(r"\bengine\.([a-z_]+)(?:\.([a-z_]+))?", path.read_text(encoding="utf-8")):
                read.append((path.name, first, second))
                if first == "presentation":
                    assert second in shown_members, f"{path}: engine.presentation.{second}"
                else:
                    assert first in engine_members, f"{path}: engine.{first}"
    assert ("home.html", "presentation", "lesson") in read  # the check sees the templates
