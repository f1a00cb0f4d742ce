"""The glossary of docs/languages.md is kept: every game word is translated the same way everywhere.

The glossary's two tables (terms, words to avoid) are read from docs/languages.md itself, so the doc and this
test cannot drift apart.  Checked: every .po translation, and the rules pages of each language.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.i18n.test_po_files import LANGS, parse_po, po_path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "languages.md"
RULES = ROOT / "templates" / "rules"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}")
# Left out of the English text before matching a term: game names, quoted keys and the lists of action names a
# client program sends ("roll, flip, group, keep or end_on_time"), which stay English in every language.
NOT_WORDS = re.compile(r"Six-Dice|Run Buster|'[^']*'|\"[^\"]*\"|\broll, [\w, ]+ or end_\w+")
NBSP, NNBSP = "\u00a0", "\u202f"


@dataclass(frozen=True)
class Term:
    english: str
    pattern: re.Pattern[str]
    forms: dict[str, tuple[str, ...]]  # language -> accepted forms (empty: not checked)


@dataclass(frozen=True)
class Avoid:
    lang: str
    pattern: re.Pattern[str]
    instead: str


def _cells(line: str) -> list[str]:
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def _code(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), f"a pattern cell is written in backticks: {cell!r}"
    return cell[1:-1]


def _table(text: str, name: str) -> list[list[str]]:
    match = re.search(rf"<!-- glossary:{name} -->\n(.*?)\n<!-- /glossary:{name} -->", text, re.S)
    assert match, f"docs/languages.md has no glossary:{name} table"
    rows = [_cells(line) for line in match.group(1).splitlines() if line.startswith("|")]
    return rows[2:]  # header and separator


def load_glossary(text: str) -> tuple[list[Term], list[Avoid]]:
    terms = []
    for row in _table(text, "terms"):
        assert len(row) == 2 + len(LANGS), row
        forms = {
            lang: tuple(f.strip().lower() for f in cell.split(" / ")) if cell != "—" else ()
            for lang, cell in zip(LANGS, row[2:], strict=True)
        }
        terms.append(Term(row[0], re.compile(_code(row[1]), re.I), forms))
    avoid = []
    for row in _table(text, "avoid"):
        assert len(row) == 3 and row[0] in LANGS, row
        avoid.append(Avoid(row[0], re.compile(_code(row[1]), re.I), row[2]))
    return terms, avoid


TERMS, AVOID = load_glossary(DOC.read_text(encoding="utf-8"))


def translations(lang: str) -> list[tuple[str, list[str]]]:
    """(English text, translated forms) of every entry of a language's .po file."""
    out = []
    for e in parse_po(po_path(lang)):
        if not e["msgid"]:
            continue
        english = e["msgid"] + ("\n" + e["msgid_plural"] if "msgid_plural" in e else "")
        out.append((english, list(e.get("msgstr", {}).values())))
    return out


def rules_pages(lang: str) -> dict[str, str]:
    """The visible text of each rules page of a language: template tags and HTML tags removed."""
    pages = {}
    for path in sorted(RULES.glob(f"*.{lang}.html")):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", " X ", text, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        pages[path.name] = html.unescape(text)
    return pages


def uses(text: str, form: str, lang: str) -> bool:
    if lang == "nl":  # Dutch writes compounds as one word: nulgroep, handwaarde
        return form in text.lower()
    return re.search(r"(?<!\w)" + re.escape(form), text, re.I) is not None


def term_problems(lang: str, entries: list[tuple[str, list[str]]]) -> list[str]:
    problems = []
    for english, forms in entries:
        bare = NOT_WORDS.sub(" ", PLACEHOLDER.sub(" ", english))
        for term in TERMS:
            wanted = term.forms[lang]
            if not wanted or not term.pattern.search(bare):
                continue
            for text in forms:
                if not any(uses(text, w, lang) for w in wanted):
                    problems.append(f"{term.english!r} should be {' / '.join(wanted)}: {english!r} -> {text!r}")
    return problems


def avoid_problems(lang: str, texts: list[tuple[str, str]]) -> list[str]:
    problems = []
    for where, text in texts:
        for rule in AVOID:
            if rule.lang != lang:
                continue
            for m in rule.pattern.finditer(text):
                problems.append(f"{where}: {m.group(0)!r} (use {rule.instead}) in {text[max(0, m.start() - 40):m.end() + 40]!r}")
    return problems


def french_space_problems(texts: list[tuple[str, str]]) -> list[str]:
    """A no-break space before : ; ? ! and inside « », never an ordinary space or none."""
    problems = []
    for where, text in texts:
        bare = PLACEHOLDER.sub("X", text)
        for m in re.finditer(r"[:;?!»]", bare):
            before = bare[m.start() - 1] if m.start() else ""
            if m.group(0) == ":" and before.isdigit() and bare[m.end() : m.end() + 1].isdigit():
                continue  # a time of day, 12:30
            if m.group(0) in "?!" and before in "?!":
                continue
            if before not in (NBSP, NNBSP):
                problems.append(f"{where}: no no-break space before {m.group(0)!r} in {bare[max(0, m.start() - 30):m.end() + 10]!r}")
        for m in re.finditer("«", bare):
            if bare[m.end() : m.end() + 1] not in (NBSP, NNBSP):
                problems.append(f"{where}: no no-break space after « in {bare[m.start():m.end() + 30]!r}")
    return problems


def test_the_glossary_covers_every_word_and_language():
    words = {t.english.split(" (")[0] for t in TERMS}
    for word in ("hand", "die, dice", "group", "pair", "loose", "bank", "round", "turn", "flip", "value",
                 "straight", "complement", "bust", "cup", "drop out", "Player 1"):
        assert word in words, f"the glossary has no {word!r}"
    for term in TERMS:
        assert any(term.forms.values()), term
    assert {a.lang for a in AVOID} == set(LANGS)


def test_the_checks_catch_what_they_are_meant_to():
    """The checkers fail on known-bad translations (so a passing run means something)."""
    assert term_problems("uk", [("Round", ["Коло"])])
    assert not term_problems("uk", [("Round", ["Раунд"])])
    assert term_problems("nl", [("Not a straight: %(value)s.", ["Geen straat: %(value)s."])])
    assert not term_problems("fr", [("Hand over", ["Transmettre"])])
    assert avoid_problems("uk", [("x", "у %(victim)s")])
    assert avoid_problems("pt", [("x", "Nesta mesa a aplicação lança os dados.")])
    assert avoid_problems("pt", [("x", "Agora está a assistir.")])
    assert not avoid_problems("pt", [("x", "Os outros voltam ao banco.")])
    assert avoid_problems("nl", [("x", "de 6 startstenen")])
    assert not avoid_problems("nl", [("x", "Run Buster: 6 dobbelstenen, de startdobbelstenen")])
    assert not term_problems("nl", [("zero-sum group", ["nulgroep"])])
    assert french_space_problems([("x", "Votre dé:")]) and french_space_problems([("x", "Votre dé :")])
    assert not french_space_problems([("x", "Votre dé\u00a0: 12:30\u202f!")])


@pytest.mark.parametrize("lang", LANGS)
def test_game_words_follow_the_glossary(lang):
    problems = term_problems(lang, translations(lang))
    assert not problems, f"{lang}: {len(problems)} translations off the glossary:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_no_avoided_word_in_translations_or_rules_pages(lang):
    texts = [(f"{lang}.po {english[:40]!r}", t) for english, forms in translations(lang) for t in forms]
    texts += list(rules_pages(lang).items())
    assert rules_pages(lang), f"no rules page in {lang}"
    problems = avoid_problems(lang, texts)
    assert not problems, f"{lang}: {len(problems)} words to replace:\n" + "\n".join(problems)


def test_french_spaces_before_double_punctuation():
    texts = [(f"fr.po {english[:40]!r}", t) for english, forms in translations("fr") for t in forms]
    texts += list(rules_pages("fr").items())
    problems = french_space_problems(texts)
    assert not problems, f"{len(problems)} French punctuation marks to fix:\n" + "\n".join(problems)
