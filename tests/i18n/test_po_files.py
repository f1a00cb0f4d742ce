"""The translations: every .po file complete (no untranslated or fuzzy entry) and up to date with the sources."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import ngettext

from tests.conftest import require_binary

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("uk", "pt", "fr", "nl")
UK_PLURALS = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"


def _unquote(line: str) -> str:
    text = line.strip()
    assert text.startswith('"') and text.endswith('"'), line
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), text[1:-1])


def parse_po(path: Path) -> list[dict]:
    """Entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list), flags. Obsolete (#~) ones are left out."""
    entries: list[dict] = []
    entry: dict = {}
    field = None

    def flush() -> None:
        nonlocal entry
        if "msgid" in entry:
            entries.append(entry)
        entry = {}

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip("\n")
        if not line.strip():
            flush()
            field = None
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if "msgid" in entry:
                flush()
            entry.setdefault("flags", set()).update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgctxt "):
            if "msgid" in entry:
                flush()
            field = "msgctxt"
            entry[field] = _unquote(line[len("msgctxt ") :])
        elif line.startswith("msgid_plural "):
            field = "msgid_plural"
            entry[field] = _unquote(line[len("msgid_plural ") :])
        elif line.startswith("msgid "):
            if "msgid" in entry:
                flush()
            field = "msgid"
            entry[field] = _unquote(line[len("msgid ") :])
        elif line.startswith("msgstr["):
            index = int(line[len("msgstr[") : line.index("]")])
            entry.setdefault("msgstr", {})[index] = _unquote(line[line.index("]") + 1 :])
            field = ("msgstr", index)
        elif line.startswith("msgstr "):
            entry.setdefault("msgstr", {})[0] = _unquote(line[len("msgstr ") :])
            field = ("msgstr", 0)
        elif line.startswith('"'):
            if isinstance(field, tuple):
                entry["msgstr"][field[1]] += _unquote(line)
            elif field:
                entry[field] += _unquote(line)
    flush()
    return entries


def po_path(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def keys(entries: list[dict]) -> set[tuple[str | None, str, str | None]]:
    return {(e.get("msgctxt"), e["msgid"], e.get("msgid_plural")) for e in entries if e["msgid"]}


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_is_translated_and_none_is_fuzzy(lang):
    entries = parse_po(po_path(lang))
    header = next(e for e in entries if e["msgid"] == "")
    assert "fuzzy" not in header.get("flags", set()), f"{lang}: the header is marked fuzzy"
    nplurals = 3 if lang == "uk" else 2
    problems = []
    for e in entries:
        if not e["msgid"]:
            continue
        if "fuzzy" in e.get("flags", set()):
            problems.append(f"fuzzy: {e['msgid']!r}")
        forms = e.get("msgstr", {})
        wanted = range(nplurals) if "msgid_plural" in e else range(1)
        if any(not forms.get(i, "").strip() for i in wanted):
            problems.append(f"untranslated: {e['msgid']!r}")
    assert not problems, f"{lang}: {len(problems)} entries to fix:\n" + "\n".join(problems)
    if lang == "uk":
        assert UK_PLURALS in header["msgstr"][0].replace("\\n", "\n")


@pytest.mark.parametrize("lang", LANGS)
def test_mo_files_are_compiled_and_not_older_than_the_po(lang):
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run manage.py compilemessages"


def test_po_files_are_up_to_date_with_the_sources(tmp_path):
    """makemessages on a copy of the sources finds no string that the .po files lack (or hold needlessly)."""
    require_binary("xgettext", "makemessages needs GNU gettext")
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "locale", ".venv", "var", "test-artifacts")
    for name in ("sixdice", "runbuster", "templates", "static"):
        shutil.copytree(ROOT / name, copy / name, ignore=ignore)
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    env = {**os.environ, "SIXDICE_VAR_DIR": str(tmp_path / "var"), "SECRET_KEY": "po-check", "PYTHONPATH": str(copy)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "uk", "--ignore=var", "--ignore=test-artifacts"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )
    fresh = keys(parse_po(copy / "locale" / "uk" / "LC_MESSAGES" / "django.po"))
    for lang in LANGS:
        held = keys(parse_po(po_path(lang)))
        missing = sorted(str(k) for k in fresh - held)
        stale = sorted(str(k) for k in held - fresh)
        assert not missing, f"{lang}: {len(missing)} new strings need translating (run makemessages):\n" + "\n".join(missing)
        assert not stale, f"{lang}: {len(stale)} strings are no longer in the sources (run makemessages):\n" + "\n".join(stale)


# The rules panel's count of the dice in the game (templates/sixdice/_rules_in_force.html).
DICE_ONE = ("%(n)s die in the game: each player takes 6 of them at the start, and the others stay in the bank (the "
            "board shows how many it holds now).")
DICE_MANY = ("%(n)s dice in the game: each player takes 6 of them at the start, and the others stay in the bank (the "
             "board shows how many it holds now).")


@pytest.mark.parametrize(
    ("n", "word"),
    [(1, "кубик"), (2, "кубики"), (5, "кубиків"), (11, "кубиків"), (21, "кубик"), (22, "кубики"), (25, "кубиків"),
     (12, "кубиків"), (14, "кубиків"), (24, "кубики"), (111, "кубиків"), (101, "кубик")],
)
def test_ukrainian_has_three_plural_forms_for_dice(n, word):
    with translation.override("uk"):
        text = ngettext(DICE_ONE, DICE_MANY, n) % {"n": n}
    assert text.split()[:2] == [str(n), word], text


@pytest.mark.parametrize(("lang", "one", "many"), [("pt", "dado", "dados"), ("fr", "dé", "dés"), ("nl", "dobbelsteen", "dobbelstenen")])
def test_two_plural_forms_elsewhere(lang, one, many):
    with translation.override(lang):
        assert one in ngettext(DICE_ONE, DICE_MANY, 1) % {"n": 1}
        assert many in ngettext(DICE_ONE, DICE_MANY, 24) % {"n": 24}
