"""The browser tests wait on what a person sees, never on the clock or on a page global read too soon.

Only ``tests/e2e/harness.py`` reads ``window.live`` or calls ``wait_for_function``, and it waits for the
page's readiness signal first (``<html data-live="ready">``); no browser test sleeps a fixed time.
"""

from __future__ import annotations

import re
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


def problems_in(text: str, name: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith(('"', "'")) else line
        for word, why in FORBIDDEN.items():
            if re.search(re.escape(word) + r"\b", code):
                found.append(f"{name}:{number}: {word} {why}")
    return found


def test_only_the_harness_reads_the_page_global_and_nothing_sleeps():
    problems = []
    for path in BROWSER_TESTS:
        if path in (HARNESS, THIS) or path.name == "__init__.py":
            continue
        problems += problems_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
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
