"""The docs that list the code are kept true: the kit's hooks and modules, the table app's modules.

``docs/gamekit.md`` has a table of the members of ``GameEngine`` and one of
``Presentation``; ``docs/architecture.md`` a table of the modules of
``sixdice/tables/``.  Each is compared with the code, both ways: a member or
a module added, renamed or removed without its row (or a row left behind)
fails here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from sixdice.gamekit.engine import GameEngine, Presentation

ROOT = Path(__file__).resolve().parents[1]
GAMEKIT_DOC = ROOT / "docs" / "gamekit.md"
ARCHITECTURE_DOC = ROOT / "docs" / "architecture.md"
TABLES = ROOT / "sixdice" / "tables"
GAMEKIT = ROOT / "sixdice" / "gamekit"


def section(doc: Path, heading: str) -> str:
    """The text under the ``## `` heading that starts with ``heading``, up to the next ``## `` heading."""
    text = doc.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}[^\n]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"{doc.name} has no section {heading!r}"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in ``text``, as lists of cells (the header and rule rows left out)."""
    rows = []
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        if not line.startswith("|") or re.fullmatch(r"\|[\s:|-]+\|", line):
            continue
        if i + 1 < len(lines) and re.fullmatch(r"\|[\s:|-]+\|", lines[i + 1]):
            continue  # a header: the rule row follows it
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def name_of(cell: str) -> str:
    """A backticked member, with or without its arguments (bot_action(state, seat, ...)) -> bot_action."""
    match = re.fullmatch(r"`([A-Za-z_][A-Za-z0-9_]*)(?:\(.*\))?`", cell)
    assert match, f"a row's first cell must be one backticked member or module, not {cell!r}"
    return match.group(1)


def file_of(cell: str) -> str:
    """A backticked file name (ledger.py) -> ledger.py."""
    match = re.fullmatch(r"`([A-Za-z_][A-Za-z0-9_]*\.py)`", cell)
    assert match, f"a module row's file cell must be one backticked file name, not {cell!r}"
    return match.group(1)


def public_members(cls: type) -> set[str]:
    """What a class defines itself (methods, properties, class attributes, annotated attributes), not inherited."""
    return {name for name in (*vars(cls), *cls.__annotations__) if not name.startswith("_")}


def documented(heading: str) -> dict[str, str]:
    """Member name -> its default cell, from the hook table under ``heading``."""
    rows = table_rows(section(GAMEKIT_DOC, heading))
    names = [name_of(row[0]) for row in rows]
    assert len(names) == len(set(names)), f"a member listed twice under {heading!r}"
    assert all(len(row) == 3 and all(row) for row in rows), f"every row under {heading!r}: member, what, default"
    return {name_of(row[0]): row[2] for row in rows}


@pytest.mark.parametrize(("cls", "heading"), [(GameEngine, "`GameEngine`"), (Presentation, "`Presentation`")])
def test_the_hook_tables_list_every_member_of_the_classes(cls, heading):
    rows = documented(heading)
    assert sorted(set(rows) - public_members(cls)) == [], "rows for members the class does not define"
    assert sorted(public_members(cls) - set(rows)) == [], "members of the class without a row"


def _doc(cls: type, name: str) -> str:
    member = vars(cls).get(name)
    return (getattr(member, "__doc__", None) or "") if callable(member) or hasattr(member, "__get__") else ""


def test_the_required_and_not_a_hook_rows_are_what_the_code_says():
    rows = documented("`GameEngine`")
    required = {name for name, default in rows.items() if default == "required"}
    raising = {
        name for name in public_members(GameEngine)
        if inspect.isfunction(vars(GameEngine).get(name)) and "raise NotImplementedError" in inspect.getsource(vars(GameEngine)[name])
    }
    assert required == raising == {"clean_options", "start", "actors", "apply", "outcome"}
    helpers = {name for name, default in rows.items() if default == "not a hook"}
    said = {name for name in public_members(GameEngine) if "not a hook" in _doc(GameEngine, name).lower()}
    assert helpers == said
    assert {"view", "describe", "presentation", "end_reasons", "clean_action"} <= helpers
    shown = documented("`Presentation`")
    assert not {name for name, default in shown.items() if default == "required"}
    shown_helpers = {name for name, default in shown.items() if default == "not a hook"}
    assert shown_helpers == {name for name in public_members(Presentation) if "not a hook" in _doc(Presentation, name).lower()}
    assert {"move_kind", "move_name"} <= shown_helpers  # read from the game's one table of moves


def test_the_kits_module_table_lists_its_files():
    listed = {file_of(row[0]) for row in table_rows(section(GAMEKIT_DOC, "The kit's modules"))}
    files = {path.name for path in GAMEKIT.glob("*.py")}
    assert sorted(listed ^ files) == []
    assert {"lesson.py", "pins.py"} <= listed


def test_the_parsers_read_a_table():
    text = "| member | what | default |\n|---|---|---|\n| `a(x, *, y)` | it | `1` |\n| `b` | that | none |\n"
    assert table_rows(text) == [["`a(x, *, y)`", "it", "`1`"], ["`b`", "that", "none"]]
    assert [name_of(row[0]) for row in table_rows(text)] == ["a", "b"]
    with pytest.raises(AssertionError):
        name_of("`a`, `b`")  # one member per row
    assert file_of("`ledger.py`") == "ledger.py"


# ---------------------------------------------------------------- docs/architecture.md


def module_rows() -> list[tuple[str, str]]:
    """(folder, file) of every row of the module table; the folder cell is ``core/`` or ``(top)`` (a total row has no file)."""
    out = []
    for row in table_rows(section(ARCHITECTURE_DOC, "Every module")):
        if not row[1]:
            continue  # the total
        folder = row[0].strip("`")
        out.append(("" if folder == "(top)" else folder.rstrip("/"), file_of(row[1])))
    return out


def test_the_architecture_table_lists_every_module_of_the_table_app():
    listed = module_rows()
    assert len(listed) == len(set(listed)), "a module listed twice"
    on_disk = {
        (path.parent.relative_to(TABLES).as_posix().replace(".", ""), path.name)
        for path in TABLES.rglob("*.py")
        if "migrations" not in path.relative_to(TABLES).parts
    }
    assert ("writes", "ledger.py") in on_disk and ("", "models.py") in on_disk
    assert sorted(set(listed) - on_disk) == [], "rows for modules that do not exist"
    assert sorted(on_disk - set(listed)) == [], "modules without a row in docs/architecture.md"


def test_the_architecture_doc_draws_the_layers_of_the_contract_top_to_bottom():
    """The picture lists the contract's layers in its order (``pyproject.toml`` is the truth), numbered downwards."""
    import tomllib

    contract = next(
        c for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
        if c.get("containers") == ["sixdice.tables"]
    )
    layers = [" | ".join(name.strip() for name in layer.split("|")) for layer in contract["layers"]]
    lines = re.findall(r"^\s*(\d+)\s+([a-z]+(?: \| [a-z]+)*)(?:\s{2,}|$)", section(ARCHITECTURE_DOC, "The layers"), re.M)
    assert [name for _n, name in lines] == layers
    assert [int(n) for n, _name in lines] == list(range(len(layers) - 1, -1, -1))
