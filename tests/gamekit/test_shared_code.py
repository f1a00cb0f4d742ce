"""The shared code calls the declared hooks and never names one game's words.

Shared: the table app (``sixdice/tables/``), the review and the players apps,
the project's template tags, the kit itself, the templates and the shared
scripts (``static/js/``, all but a game's own ``<slug>_*.js``).  A game's
words (its moves, its presets, its bank...) come from its adapter or its
presentation; a hook is called, never probed with ``getattr``/``hasattr``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sixdice.gamekit.engine import REGISTRY, GameEngine, Presentation

ROOT = Path(__file__).resolve().parents[2]

GAME_WORDS = re.compile(
    r"\ball[ _-]threes\b|\bbanks?\b|\bpresets?\b|\bstraights?\b|\bbust(?:s|ed|ing)?\b|\bflip(?:s|ped|ping)?\b"
    r"|\b(?:time_limit_minutes|auto_balance|threes_dice|last_turn_score|reverse_last_round|no_flip_back|first_bonus"
    r"|compensation|flip_the_leader)\b",
    re.IGNORECASE,
)
"""Six-Dice's and Run Buster's own words (whole words: "robust" is not "bust") and Six-Dice's own options."""

OPTION_READ = re.compile(r"""options\b[^"'\n]{0,16}\.get\(\s*["']|(?<!gamekit)\.options\.(?!(?:coach|takeback|dice|get|items|keys)\b)[a-z_]+\b""")
"""An option read by its name (``options.get("hints")``, ``coach_options({}).get("rounds")``, a template's
``table.options.rounds``): a game's options are the game's to read (its engine's hooks, such as ``time_limit``,
``shows_hints``); the kit's own (``coach``, ``takeback``, ``dice``) are read by :mod:`sixdice.gamekit.options`."""

GAME_BRANCH = r"""["'`](?:{slugs})["'`]|\b(?:{slugs})\s*[(:]"""
"""In a script: a game's slug as a whole string (``live.slug === "sixdice"``) or as a name (``sixdice(v) {``,
``{runbuster: ...}``): a branch on the game.  Filled with the registered games' slugs (:func:`game_branch`)."""

TEXT_SUFFIXES = (".py", ".html", ".js", ".css", ".txt")


def game_branch() -> re.Pattern[str]:
    return re.compile(GAME_BRANCH.format(slugs="|".join(sorted(re.escape(slug) for slug in REGISTRY))))


SHARED_PLACES = ("sixdice/tables", "sixdice/gamekit", "sixdice/review", "sixdice/players", "templates/tables",
                 "templates/admin")
"""The shared code, all of it (code, templates, scripts); a game's own templates are ``templates/<slug>/``.  (The
project's template tags are Six-Dice's too (its presets' figures): the probe check below reads them.)"""


def shared_files(root: Path) -> list[Path]:
    """Every file that must hold no game's words: the table app, the kit, the review and the players apps, the
    shared templates (all of it: code, templates, scripts), and the shared scripts
    of ``static/js`` (a game's own are named ``<slug>_*.js``)."""
    found = []
    for place in (root / folder for folder in SHARED_PLACES):
        found += [path for path in sorted(place.rglob("*")) if path.is_file() and path.suffix in TEXT_SUFFIXES
                  and "migrations" not in path.parts and "__pycache__" not in path.parts]
    games = tuple(f"{slug}_" for slug in REGISTRY)
    found += [path for path in sorted((root / "static" / "js").glob("*.js")) if not path.name.startswith(games)]
    return found


def game_words(text: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
            if GAME_WORDS.search(line) or OPTION_READ.search(line)]


def leaks(path: Path) -> list[str]:
    """The lines of a shared file that name a game's words, or (a script) branch on a game."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".js":
        return game_words(text)
    branch = game_branch()
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
            if GAME_WORDS.search(line) or branch.search(line)]


def test_the_word_list_finds_game_words_and_passes_plain_english():
    assert game_words('labels = {"all_threes": x}\nBank: 12 dice\nthe Preset\nBusted!\nflipped\na straight')  # all six
    assert len(game_words("all threes\nbanks\npresets\nstraights\nbusts\nflips")) == 6
    assert game_words("robust, on_commit(robust=True)\nflipside? no: a flipper\nstraightforward\nbankable") == []
    assert len(game_words('minutes = options.get("time_limit_minutes")\n"auto_balance": x')) == 2
    assert len(game_words('v.flip_the_leader\nopts["compensation"]')) == 2


def test_the_word_list_finds_an_option_read_by_its_name_and_passes_the_kits_own():
    for line in ('if not game.options.get("hints"):', 'if not (game.options or {}).get("hints"):',
                 'engine.coach_options({}).get("rounds")', "{% if table.options.time_limit_minutes %}"):
        assert game_words(line), line
    for line in ("return options.get(DICE, APP) == APP", "live.table.options.coach === true",
                 "(:func:`~sixdice.gamekit.options.dice_mode`)", "engine.shows_hints(game.options or {})"):
        assert not game_words(line), line


def test_the_branch_finder_finds_a_branch_on_a_game():
    branch = game_branch()
    for line in ('const face = live.slug === "sixdice" ? a : b;', "if (game === 'runbuster') return;",
                 "const kinds = {sixdice(v) { return 1; }};", "{runbuster: draw}"):
        assert branch.search(line), line
    for line in ('localStorage.getItem("sixdice.theme")', "// see sixdice/tables/pages/lessons.py", "boardFor(live.slug)"):
        assert not branch.search(line), line


def test_the_seam_check_fails_on_a_game_word_in_a_shared_file_and_passes_a_games_own_script(tmp_path):
    """Planted in a copy of the layout: a branch on a game in a shared script, an option label in the review,
    an option read by name in the tables; the game's own script may say what it likes."""
    for folder in ("static/js", "sixdice/review/templates/review", "sixdice/tables/reads", "sixdice/gamekit",
                   "templates/tables", "templates/runbuster"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "static/js/ranks.js").write_text('const won = game === "sixdice" ? a : b;\n')
    (tmp_path / "static/js/sixdice_board.js").write_text('if (p.kind === "flip") flips();\n')
    (tmp_path / "sixdice/review/templates/review/page.html").write_text('{% translate "Dice in the bank" %}\n')
    (tmp_path / "sixdice/tables/reads/clock.py").write_text('minutes = options.get("time_limit_minutes")\n')
    (tmp_path / "templates/tables/_coach.html").write_text('"runbuster.choose": "{% translate \'Keep a straight\' %}"\n')
    (tmp_path / "templates/runbuster/_coach.html").write_text('"choose": "{% translate \'Keep a straight\' %}"\n')
    found = {path.relative_to(tmp_path).as_posix(): leaks(path) for path in shared_files(tmp_path)}
    assert found == {
        "sixdice/review/templates/review/page.html": ['1: {% translate "Dice in the bank" %}'],
        "sixdice/tables/reads/clock.py": ['1: minutes = options.get("time_limit_minutes")'],
        "static/js/ranks.js": ['1: const won = game === "sixdice" ? a : b;'],
        "templates/tables/_coach.html": ['1: "runbuster.choose": "{% translate \'Keep a straight\' %}"'],
    }


def test_the_seam_check_sees_the_review_and_the_shared_scripts():
    checked = {path.relative_to(ROOT).as_posix() for path in shared_files(ROOT)}
    assert {"sixdice/review/wording.py", "sixdice/review/stats.py", "sixdice/review/templates/review/stats.html",
            "sixdice/tables/reads/timer_clock.py", "static/js/ranks.js", "static/js/lesson.js",
            "static/js/correct_roll.js", "static/js/coach.js", "templates/tables/_coach.html",
            "templates/tables/live.html", "sixdice/tables/pages/views.py", "sixdice/players/views.py"} <= checked
    assert not any(name.startswith(("static/js/sixdice_", "static/js/runbuster_", "templates/sixdice/",
                                    "templates/runbuster/")) for name in checked)


@pytest.mark.parametrize("path", shared_files(ROOT), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_file_names_a_games_words(path):
    assert leaks(path) == []


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
