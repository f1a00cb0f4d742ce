"""The balance study's one-cell JSON (``python -m sixdice.lab.study --preset ... --json``), on a tiny run."""

from __future__ import annotations

import json

import pytest

from sixdice.lab import study
from sixdice.lab.rulestudy import parse_variants, targets
from sixdice.rules.variants import Variants

KEYS = {"players", "play", "games", "preset", "seat_share", "leader_after_third_wins",
        "bank_empty_before_last_round", "all_threes"}


@pytest.mark.parametrize("preset", ["recommended", "as-written"])
def test_one_cell_as_json_has_every_key(capsys, preset):
    study.main(["--preset", preset, "--players", "3", "--play", "greedy", "--games", "4", "--seed", "1", "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    cell = json.loads(out[0])
    assert set(cell) >= KEYS
    assert cell["players"] == 3 and cell["play"] == "greedy" and cell["games"] == 4 and cell["preset"] == preset
    assert len(cell["seat_share"]) == 3 and sum(cell["seat_share"]) == pytest.approx(1.0, abs=1e-3)
    for key in ("leader_after_third_wins", "bank_empty_before_last_round", "all_threes"):
        assert 0.0 <= cell[key] <= 1.0
        lo, hi = cell[key + "_ci"]
        assert lo <= cell[key] <= hi
    assert len(cell["bank_by_round"]) <= 12 and set(cell["targets"]) == {"seats", "bank", "threes", "leader"}
    if preset == "as-written":
        assert cell["variants"] == {}


def test_the_same_seed_gives_the_same_figures(capsys):
    args = ["--variants", "last_turn_score,refill=3", "--players", "2", "--games", "3", "--seed", "4", "--json"]
    study.main(args)
    first = capsys.readouterr().out
    study.main(args)
    assert capsys.readouterr().out == first
    assert json.loads(first)["variants"] == {"last_turn_score": True, "refill": 3}


def test_variants_text_and_targets():
    assert parse_variants("") == Variants()
    assert parse_variants("no_flip_back, threes_dice=5") == Variants(no_flip_back=True, threes_dice=5)
    with pytest.raises(ValueError, match="unknown variant"):
        parse_variants("more_dice")
    cell = {"fair_share": 0.25, "seat_share": [0.22, 0.26, 0.27, 0.25], "bank_empty_before_last_round": 0.1,
            "all_threes": 0.19, "leader_after_third_wins": 0.37}
    assert targets(cell) == {"seats": True, "bank": True, "threes": False, "leader": True}
