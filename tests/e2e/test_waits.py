"""The browser tests wait on what a person sees, never on the clock or on a page global read too soon.

Only ``tests/e2e/harness.py`` reads ``window.live`` or calls ``wait_for_function``, and it waits for the
page's readiness signal first (``<html data-live="ready">``); no browser test sleeps a fixed time; and a tap
below the Six-Dice form's dice count waits for the count's answer (``harness.form_answered``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "e2e" / "harness.py"
BROWSER_TESTS = [*sorted((ROOT / "tests" / "e2e").glob("*.py")), ROOT / "tests" / "players" / "test_browser.py"]
FORBIDDEN = {
    "window.live": "reads the page's table without its readiness signal: use harness.live_eval or wait_live",
    "wait_for_function": "waits on a page function directly: use harness.wait_live, wait_seq or wait_page",
    "wait_for_timeout": "sleeps a fixed time: wait for what the page shows (expect, harness)",
    "time.sleep": "sleeps a fixed time: wait for what the page shows (expect, harness)",
    "asyncio.sleep": "sleeps a fixed time: wait for what the page shows (expect, harness)",
}
THIS = Path(__file__).resolve()


def found_in_browser_tests(check: Callable[[str, str], list[str]], skip: tuple[Path, ...]) -> list[str]:
    """What ``check`` (of a file's text and its name) finds in every browser test file but those in ``skip``."""
    found = []
    for path in BROWSER_TESTS:
        if path not in skip and path.name != "__init__.py":
            found += check(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return found


def problems_in(text: str, name: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith(('"', "'")) else line
        for word, why in FORBIDDEN.items():
            if re.search(re.escape(word) + r"\b", code):
                found.append(f"{name}:{number}: {word} {why}")
    return found


def test_only_the_harness_reads_the_page_global_and_nothing_sleeps():
    problems = found_in_browser_tests(problems_in, skip=(HARNESS, THIS))
    assert problems == [], "\n".join(problems)


def test_the_check_finds_each_forbidden_wait():
    sample = '\n'.join([
        'page.evaluate("window.live.game.seq")',
        'page.wait_for_function("() => document.title")',
        "page.wait_for_timeout(100)",
        "time.sleep(0.5)",
        "await asyncio.sleep(1)",
        'expect(page.locator("#board")).to_be_visible()',
    ])
    found = problems_in(sample, "sample.py")
    assert [f.split(":")[1] for f in found] == ["1", "2", "3", "4", "5"]


def test_the_harness_waits_for_the_readiness_signal_before_it_reads_the_page():
    text = HARNESS.read_text(encoding="utf-8")
    for function in ("live_eval", "wait_live", "wait_seq", "seq", "next_draw"):
        body = text.split(f"def {function}(", 1)[1].split("\ndef ", 1)[0]
        assert "wait_ready(page)" in body, function


# The Six-Dice form's dice count changes its height when the server's answer comes, moving every control below it;
# a tap on one of those waits for the answer (harness.form_answered) after the last change above it.
BELOW_THE_COUNT = ("name=coach", "name=hints", "Automatic balancing", "Create the table")
FORM_CHANGES = {"check", "uncheck", "set_checked", "select_option", "fill"}


def early_taps_in(text: str, name: str) -> list[str]:
    """The taps below the Six-Dice form's dice count made before the count answered the form's last change."""
    found = []
    tree = ast.parse(text)
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if "new/sixdice" not in (ast.get_source_segment(text, fn) or ""):
            continue
        calls = sorted(
            (n for n in ast.walk(fn) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset)
        )
        answered = False
        for call in calls:
            called = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
            source = ast.get_source_segment(text, call) or ""
            if called == "form_answered":
                answered = True
            elif called in FORM_CHANGES or called == "click":
                below = any(control in source for control in BELOW_THE_COUNT)
                waited = answered or "form_answered(" in source
                if below and not waited:
                    found.append(f"{name}:{call.lineno}: {fn.name} taps below the dice count before it answered")
                if called in FORM_CHANGES and not below and "form_answered(" not in source:
                    answered = False
    return found


def test_taps_below_the_sixdice_dice_count_wait_for_its_answer():
    problems = found_in_browser_tests(early_taps_in, skip=(THIS,))
    assert problems == [], "\n".join(problems)


def test_the_check_finds_a_tap_below_the_count_made_too_soon():
    sample = "\n".join([
        "def make(host, server):",
        '    host.goto(server.url + "/new/sixdice/")',
        '    host.get_by_label("Real dice, typed in").check()',
        '    form_answered(host).locator("input[name=coach]").uncheck()',  # waited: fine
        '    host.get_by_label("Players").select_option("3")',  # a change above the count
        '    host.get_by_role("button", name="Create the table").click()',  # too soon: line 6
    ])
    assert [f.split(":")[1] for f in early_taps_in(sample, "sample.py")] == ["6"]
