"""The record-and-re-score tuner (``python -m sixdice.lab.tune``) and the recorded chunks it reads."""

from __future__ import annotations

import json

import pytest

from sixdice.lab import records, rulestudy, study, tune
from sixdice.lab.arena import GameResult
from sixdice.rules.variants import Variants, preset


def _game(first, scores, winners, end="rounds", third=None):
    g = GameResult(["greedy"] * len(scores), tuple(winners), end, 24, first)
    g.scores = list(scores)
    g.scores_third = list(third or scores)
    return g


def test_rescoring_adds_the_table_by_place_in_the_turn_order():
    # seat 1 moved first; seat 0 is second in the turn order and gets the 1.5
    g = _game(1, [5, 6], [1])
    assert tune._winners(g, [0, 1.5], 2) == (1,)  # place 1 (seat 0): 5 + 1.5 beats 6
    assert tune._winners(g, [0, 1], 2) == (0, 1)  # 6 against 5 + 1: a shared win
    assert tune._winners(g, [0, 0], 2) == (0,)  # seat 1 is place 0
    threes = _game(0, [1, 9], [0], end="all_threes")
    assert tune._winners(threes, [0, 20], 2) == (0,)  # all threes ignores the compensation
    assert tune.shares([g, threes], [0, 1.5], 2) == [0.5, 0.5]
    assert tune.shares([g, threes], [0, 1], 2) == [0.75, 0.25]


def test_the_fit_finds_the_table_that_evens_out_a_made_up_cell():
    # the second player loses every game by 2 points: a compensation of 2.5 makes it win them all,
    # 2 makes every game a shared win, which is fair
    games = [_game(0, [7, 5], [0]) for _ in range(10)]
    table = tune.fit([(games, 2)], 2)
    assert table == (0.0, 2.0)
    assert tune.shares(games, table, 2) == [0.5, 0.5]
    lo, hi = tune.bootstrap(games, table, 2, reps=50)[0]
    assert lo == hi == 0.5


def test_chunks_add_up_and_a_partial_chunk_is_not_written(tmp_path):
    v = Variants(reverse_last_round=True, refill=3, threes_dice=5)
    first = records.games("recommended", "greedy", 2, 3, 1, v, 12, root=tmp_path)
    assert len(first) == 3 and not list(tmp_path.glob("*/*.jsonl"))  # 3 of a 50-game chunk: nothing written
    records.CHUNK["greedy"], old = 2, records.CHUNK["greedy"]
    try:
        full = records.games("recommended", "greedy", 2, 5, 1, v, 12, root=tmp_path)
        files = sorted(p.name for p in tmp_path.glob("*/*.jsonl"))
        assert files == ["000000-000001.jsonl", "000002-000003.jsonl"]  # the 5th game: a partial chunk
        again = records.games("recommended", "greedy", 2, 4, 1, v, 12, root=tmp_path)
    finally:
        records.CHUNK["greedy"] = old
    assert [g.winners for g in full[:3]] == [g.winners for g in first]
    assert [(g.winners, g.scores, g.bank_by_round) for g in again] == [(g.winners, g.scores, g.bank_by_round)
                                                                      for g in full[:4]]
    assert len(records.recorded("recommended", "greedy", 2, 1, v, 12, tmp_path)) == 4


def test_the_re_scoring_agrees_with_a_fresh_study_of_the_same_cell(tmp_path, capsys):
    """Games recorded without the compensation, re-scored with it, against the same seeded games played
    by bots that know it: each seat's share agrees within the intervals."""
    n, games = 2, 60
    label, base, bank = tune.base_rules("recommended", n)
    rec = records.games(label, "greedy", n, games, 3, base, bank, root=tmp_path)
    table = (0.0, 2.5)
    rescored = tune.shares(rec, table, n)
    cis = tune.bootstrap(rec, table, n, reps=300)
    known = Variants(**{**base.__dict__, "compensation": table})
    fresh = rulestudy.cell("greedy", n, games, 3, known, bank)
    for p in range(n):
        lo, hi = cis[p]
        flo, fhi = fresh["seat_share_ci"][p]
        assert max(lo, flo) <= min(hi, fhi), (p, rescored, fresh["seat_share"])  # the intervals overlap
    # and the command prints the same re-scoring of what it finds recorded (the whole 50-game chunk)
    tune.main(["fit", "--players", "2", "--seed", "3", "--records", str(tmp_path), "--table", "0,2.5",
               "--boot", "50", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["compensation"] == [0.0, 2.5] and out["cells"][0]["games"] == 50
    assert out["cells"][0]["after"] == [round(x, 4) for x in tune.shares(rec[:50], table, n)]


def test_the_study_command_reads_the_recorded_chunks(tmp_path, capsys):
    v = preset("recommended", 2)[0]  # with its compensation: the bots know it
    records.CHUNK["greedy"], old = 2, records.CHUNK["greedy"]
    try:
        args = ["--preset", "recommended", "--players", "2", "--games", "4", "--seed", "5", "--json",
                "--records", str(tmp_path)]
        study.main(args)
        first = json.loads(capsys.readouterr().out)
        assert len(records.recorded("recommended", "greedy", 2, 5, v, 12, tmp_path)) == 4
        study.main(args)  # the second time every game is read
        assert json.loads(capsys.readouterr().out) == first
    finally:
        records.CHUNK["greedy"] = old


def test_compensation_in_the_variants_text():
    assert rulestudy.parse_variants("compensation=0:1.5") == Variants(compensation=(0.0, 1.5))
    with pytest.raises(ValueError):
        rulestudy.parse_variants("compensation=x")


def test_the_report_shows_each_recorded_cell_and_the_games_played_knowing_it(tmp_path):
    label, base, bank = tune.base_rules("recommended", 4)
    known = preset("recommended", 4)[0]
    records.CHUNK["greedy"], old = 2, records.CHUNK["greedy"]
    try:
        records.games(label, "greedy", 4, 4, 1, base, bank, root=tmp_path)
        records.games(label, "greedy", 4, 2, 1, known, bank, root=tmp_path)
    finally:
        records.CHUNK["greedy"] = old
    text = tune.report_markdown(root=tmp_path, reps=20)
    row = next(line for line in text.splitlines() if line.startswith("| 4 | greedy |"))
    assert "| 4 **of 1000** |" in row and row.endswith("(2 games) |")
    assert "--players 4 --play greedy --games 1000" in text  # how to go on
    doc = tmp_path / "balance.md"
    doc.write_text("# Study\n\n<!-- written by hand: kept when the study runs again -->\nmine\n", encoding="utf-8")
    tune.write_report(doc, text)
    tune.write_report(doc, text)  # a second run replaces the section, keeps the hand-written part
    body = doc.read_text(encoding="utf-8")
    assert body.count(tune.BEGIN) == 1 and body.index(tune.END) < body.index("mine")


def test_a_monotone_fit_never_gives_a_later_place_more():
    # place 1 loses by 1 and place 2 by 3 to place 0: the best table is 0 / 1 / 3 (not monotone) ...
    games = [_game(0, [7, 6, 4], [0]) for _ in range(6)]
    assert tune.fit([(games, 3)], 3) == (0.0, 1.0, 3.0)
    # ... a monotone one can only even them out by giving nobody anything more than the one before
    table = tune.fit([(games, 3)], 3, monotone=True)
    assert all(table[i] >= table[i + 1] for i in range(2))
