"""The replay viewer in a real browser at phone width: slider, buttons, arrow keys, turn jumps."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT, screenshot

pytestmark = pytest.mark.browser

PLAY = """
import json
from tests.review.conftest import play
from sixdice.review import exchange
game = play({engine!r}, ("Ana", "Bo"), seed=5, options={options!r})
print(json.dumps(exchange.export_game(game)))
"""


def _played_on(server, engine: str, options: dict) -> dict:
    """Play a game in the server's own database (the browser's event loop keeps the ORM out of this process)."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", PLAY.format(engine=engine, options=options)],
                         cwd=ROOT, env=server.env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("engine", ["runbuster", "sixdice"])
def test_replay_at_phone_width(server, phone, tmp_path, engine):
    options = {"rounds": 2, "auto_balance": True} if engine == "sixdice" else {}
    doc = _played_on(server, engine, options)
    code = doc["table"]["code"]
    last = len(doc["events"])
    page = phone(f"{server.url}/t/{code}/replay/1/")
    label = page.locator("#step-label")
    expect(label).to_contain_text(f"0 / {last}")
    page.get_by_role("button", name="Next").click()
    expect(label).to_contain_text(f"1 / {last}")
    expect(page.locator("#step-text")).to_contain_text(doc["events"][0]["text"])  # after who decided
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text(f"2 / {last}")
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text(f"1 / {last}")
    page.get_by_role("button", name="End").click()
    expect(label).to_contain_text(f"{last} / {last}")
    expect(page.locator("#step-text")).to_contain_text(doc["events"][-1]["text"])
    page.get_by_role("button", name="Previous").click()
    expect(label).to_contain_text(f"{last - 1} / {last}")
    page.locator("#step-slider").fill("3")
    expect(label).to_contain_text(f"3 / {last}")
    page.keyboard.press("Home")
    expect(label).to_contain_text(f"0 / {last}")
    page.get_by_label("Turn").fill("2")
    page.get_by_role("button", name="Go to turn").click()
    expect(page.locator("#turn-label")).to_contain_text("2 /")
    expect(page.locator("#board")).not_to_be_empty()
    assert page.evaluate("window.live.role") == "replay"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for control in page.locator("#replay-controls button, #replay-controls input").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44, control.evaluate("e => e.outerHTML")
    page.get_by_role("button", name="End").click()
    screenshot(page, f"review-replay-{engine}-phone")
    assert page.evaluate("window.live.game.status") == "finished"

    stats = phone(f"{server.url}/stats/")
    expect(stats.locator(f"#engine-{engine} .n-games")).to_have_text("1")
    assert stats.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(stats, f"review-stats-{engine}-phone")
