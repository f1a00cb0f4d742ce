"""Browser benchmark: how long a tap takes to reach every other page at a table.

Four phones (360×740) play a 4-player Six-Dice game with the app's dice and
automatic balancing, and a table screen (1280×720) watches.  For each move,
the mover's page notes the moment its last tap is dispatched; every other
page notes the moment the move's first event enters its move list (a
MutationObserver on ``#log``: the DOM has the line, before the next paint).
All pages run on this machine, so their clocks (``performance.timeOrigin +
performance.now()``) agree.  Prints the median and p95 over all pages and
per page, and the size of the update frames the server sent.

    python -m tests.load.browserbench [--moves 50] [--json out.json]

Not a test: `make bench` runs it.  Chromium is Debian's (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SCREEN = {"width": 1280, "height": 720}
WATCH = """() => {
  const seen = {};
  const log = document.getElementById("log");
  const note = () => {
    const t = performance.timeOrigin + performance.now();
    for (const li of log.querySelectorAll("li")) if (li.value && !(li.value in seen)) seen[li.value] = t;
  };
  note();
  new MutationObserver(note).observe(log, {childList: true, subtree: true});
  document.documentElement.dataset.benchSeen = "1";
  return (seq) => seen[seq];
}"""
# The last tap of a move, dispatched from inside the page so its moment is the page's own clock.
TAP = """(selector) => {
  const b = document.querySelector(selector);
  const t = performance.timeOrigin + performance.now();
  b.click();
  return t;
}"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median_ms": round(statistics.median(values), 1), "p95_ms": round(pct(values, 0.95), 1),
            "min_ms": round(min(values), 1), "max_ms": round(max(values), 1)}


def run(moves: int) -> dict[str, Any]:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")
    django.setup()  # the browser tests' helpers import the app's settings
    from playwright.sync_api import expect, sync_playwright

    from tests.e2e import sixdice_helpers as sd
    from tests.e2e.conftest import CHROMIUM, PHONE, Server, prepare_site

    work = Path(tempfile.mkdtemp(prefix="browserbench-"))
    site = work / "site"
    site.mkdir()
    prepare_site(site)
    (work / "server").mkdir()
    server = Server(work / "server", site, {"SIXDICE_BOT_DELAY": "0"})
    server.start()
    frames: list[int] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync"])

            def phone(url: str | None = None, viewport: dict[str, int] | None = None):
                page = browser.new_context(viewport=viewport or PHONE).new_page()
                page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
                if url:
                    page.goto(url)
                return page

            rounds = -(-moves // 4)  # a flip per seat per round: enough rounds for the moves asked
            host, join_url = sd.create_table(phone, server, players=4, rounds=rounds, auto_balance=True)
            phones = [sd.join(phone, join_url, name) for name in ("Ana", "Ben", "Cleo", "Dev")]
            sd.start(host, phones)
            code = host.url.rstrip("/").split("/")[-2]
            screen = phone(f"{server.url}/t/{code}/screen/", viewport=SCREEN)
            screen.wait_for_function("() => window.live && window.live.game && window.live.game.view")
            host.context.close()  # four phones and the table screen, as at a real table
            pages = {"Ana": phones[0], "Ben": phones[1], "Cleo": phones[2], "Dev": phones[3], "screen": screen}
            frames.clear()  # the frames of the game, not of the lobby
            for page in pages.values():
                page.evaluate(f"() => {{ window.benchSeen = ({WATCH})(); }}")
            per_page: dict[str, list[float]] = {name: [] for name in pages}
            done = 0
            while done < moves:
                v = sd.view(screen)
                if v.get("over") or screen.evaluate("window.live.game.status") != "playing":
                    break
                pending = v["pending"]
                mover_name = ["Ana", "Ben", "Cleo", "Dev"][pending["seat"]]
                mover = pages[mover_name]
                seq = sd.seq(mover)
                mine = sd.view(mover)
                if mine["pending"]["kind"] == "flip":
                    victim, own, own_to, other, _ = mine["legal_flips"][0]
                    mover.locator(f'.sd-hand.me button.die[data-i="{own}"]').click()
                    mover.locator(f'.sd-faces button[data-face="{own_to}"]').click()
                    mover.locator(f'.sd-cands button[data-cand="{victim}:{other}"]').click()
                    expect(mover.locator(".sd-flip .sd-change")).to_have_count(2)
                    selector = '[data-act="confirm-flip"]'
                else:
                    selector = '.sd-choice [data-act="accept"]'
                    mover.locator(selector).wait_for()
                t0 = mover.evaluate(TAP, selector)
                for name, page in pages.items():
                    if page is mover:
                        continue
                    page.wait_for_function("(n) => window.live.game && window.live.game.seq >= n", arg=seq + 1)
                    page.wait_for_function("(n) => window.benchSeen(n) !== undefined", arg=seq + 1)
                    per_page[name].append(page.evaluate("(n) => window.benchSeen(n)", seq + 1) - t0)
                sd.wait_seq(list(pages.values()), sd.seq(screen))
                done += 1
            browser.close()
    finally:
        server.stop()
    every = [x for values in per_page.values() for x in values]
    return {
        "moves": done,
        "all": summary(every),
        "pages": {name: summary(values) for name, values in per_page.items() if values},
        "frames": {"n": len(frames), "median_bytes": statistics.median(frames) if frames else 0,
                   "max_bytes": max(frames, default=0)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    started = time.monotonic()
    result = run(args.moves)
    a = result["all"]
    print(f"browser benchmark: {result['moves']} moves, 4 phones and a table screen, "
          f"{time.monotonic() - started:.0f} s")
    print(f"  tap to every other page: median {a['median_ms']} ms, p95 {a['p95_ms']} ms "
          f"(min {a['min_ms']}, max {a['max_ms']}, {a['n']} samples)")
    for name, s in result["pages"].items():
        print(f"    {name:7s} median {s['median_ms']:7.1f} ms   p95 {s['p95_ms']:7.1f} ms")
    f = result["frames"]
    print(f"  frames received: {f['n']}, median {f['median_bytes']} bytes, largest {f['max_bytes']} bytes")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    sys.exit(0 if result["moves"] else 1)


if __name__ == "__main__":
    main()
