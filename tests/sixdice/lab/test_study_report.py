"""The balance report (``python -m sixdice.lab.study --report``): its three charts are drawn from its own
cells, and the page and charts in ``docs/`` are what the report's command gives from its kept cells."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sixdice.lab import study

DOCS = Path(__file__).resolve().parents[3] / "docs"
CHARTS = ("sixdice-balance-first.svg", "sixdice-balance-bank.svg", "sixdice-balance-threes.svg")


def _cell(first: float, threes: float, bank: list[float | None]) -> dict:
    return {"seat_share": [first, 1 - first], "all_threes": threes, "bank_by_round": bank}


def _bars(svg: str) -> list[float]:
    """The heights of the chart's bars (the legend's swatches, 10 high, left out)."""
    return [float(h) for h in re.findall(r'<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)" fill', svg)
            if float(h) != 10.0]


def test_the_three_charts_draw_the_cells(tmp_path):
    cells = {
        ("as-written", "greedy", 2): _cell(0.15, 0.0, [0.5, 0.4, None]),
        ("recommended", "greedy", 2): _cell(0.45, 0.12, [0.5, 0.45, 0.44]),
        ("recommended", "strong", 4): _cell(0.30, 0.06, [0.5, 0.3]),
    }
    lines = study.report_charts(cells, tmp_path)
    page = "\n".join(lines)
    for name in CHARTS:
        assert f"]({name})" in page
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("<svg ")
    first = (tmp_path / CHARTS[0]).read_text(encoding="utf-8")
    # three measured cells, three bars, each as tall as its first player's share (the axis tops at 0.6)
    heights = _bars(first)
    assert len(heights) == 3
    assert [round(h / max(heights) * 0.45, 3) for h in heights] == [0.15, 0.45, 0.30]
    bank = (tmp_path / CHARTS[1]).read_text(encoding="utf-8")
    # 4 players only, the rounds no game reached left out: one line of two points
    lines_drawn = re.findall(r'<polyline points="([^"]+)"', bank)
    assert len(lines_drawn) == 1 and len(lines_drawn[0].split()) == 2
    assert "recommended, strong" in bank and "as written, greedy" not in bank
    threes = (tmp_path / CHARTS[2]).read_text(encoding="utf-8")
    heights = _bars(threes)  # a share of 0 is a bar of no height (the 2-player game as written)
    assert [round(h / max(heights) * 0.12, 3) for h in heights] == [0.0, 0.12, 0.06]
    assert "target" in threes


def test_the_page_and_its_charts_are_the_report_of_the_kept_cells(tmp_path, monkeypatch):
    """The report's command, given the cells kept beside the page, writes the page's tables and charts
    again unchanged (a change to the report or its cells shows here until the report is run)."""
    page = (DOCS / "sixdice-balance.md").read_text(encoding="utf-8")
    command = re.search(r"`python -m sixdice\.lab\.study --report ([^`]+)`", page)
    assert command is not None
    args = command.group(1).split()
    cache = json.loads((DOCS / "sixdice-balance.json").read_text(encoding="utf-8"))
    monkeypatch.setattr(study, "CACHED_ONLY", [True])

    def named(flag: str) -> int:
        return int(args[args.index(flag) + 1])

    body = study.house_report(
        cache, None, tmp_path, greedy=named("--greedy-games"), strong=named("--strong-games"),
        variant_games=named("--variant-games"), arena_games=named("--arena-games"), seed=named("--seed"),
        arena_games_4=named("--arena-games-4"),
    )
    assert "not measured yet" not in body
    assert page.startswith(body.rstrip("\n"))
    for name in CHARTS:
        assert (tmp_path / name).read_bytes() == (DOCS / name).read_bytes(), name


@pytest.mark.parametrize("name", CHARTS)
def test_the_page_shows_each_chart(name):
    assert f"]({name})" in (DOCS / "sixdice-balance.md").read_text(encoding="utf-8")
