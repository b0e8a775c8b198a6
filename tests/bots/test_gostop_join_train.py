"""The fitting script of 광팔기's join/die rule (``madang.bots._gostop_join_train``) on a
tiny sample: its rows are the review's values of each question, and its searches find a
rule that is there to be found."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from madang.bots import _gostop_join_train as T  # noqa: E402
from madang.bots.matgo_greedy import JOIN_FEATURES, join_features, join_or_die  # noqa: E402
from madang.bots.matgo_search import answer_values  # noqa: E402
from madang.gostop.rules import PRESETS  # noqa: E402
from madang.matgo.actions import DIE, JOIN  # noqa: E402
from madang.matgo.engine import Phase, new_game  # noqa: E402
from madang.matgo.view import view  # noqa: E402


def test_a_deal_gives_the_questions_of_both_seats_asked_valued_as_the_review_does() -> None:
    for seed in range(3):
        rows = T.questions(seed, 4)
        assert [r.asked for r in rows] == [1, 2]  # 선+1 joins, so 선+2 is asked
        g = new_game(PRESETS["gwangpalgi"], seed=seed, dealer=seed % 4, events=False)
        rng = random.Random(seed)
        for r in rows:
            assert g.phase is Phase.JOIN
            me = g.current
            assert me == (seed % 4 + r.asked) % 4
            assert r.features == join_features(g.hands[me], g.floor)
            assert r.rule == join_or_die(g.hands[me], g.floor)
            values, n = answer_values(dict(view(g, me)), [JOIN, DIE], rng, 4)
            assert n == 4 and values[1]["expected"] == 0  # the sitter pays nothing
            assert r.join == values[0]["expected"]
            g.step(JOIN)
        assert T.questions(seed, 4) == rows  # reproducible from the seed


def test_the_strength_search_finds_the_rule_behind_the_values() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 5, size=(200, len(JOIN_FEATURES))).astype(np.float64)
    s = 2 * x[:, 0] + x[:, 2]
    values = np.where(s >= 6, 1.5, -2.0)
    ranges = [range(3)] * len(JOIN_FEATURES)
    weights, threshold, lost = T.search_strength(x, values, ranges)
    assert lost == 0
    assert T.score((x @ np.asarray(weights)) >= threshold, values) == (1.0, 0.0)


def test_score_counts_the_points_given_up_against_the_better_answer() -> None:
    values = np.asarray([2.0, -1.0, -3.0, 0.5])
    agree, lost = T.score(np.asarray([True, True, False, False]), values)
    assert agree == 0.5
    assert lost == pytest.approx((0 + 1.0 + 0 + 0.5) / 4)


def test_the_script_writes_its_rows_and_refits_from_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.json"
    T.main(["--deals", "6", "--samples", "3", "--seed", "40", "--out", str(out), "--range", "1"])
    first = capsys.readouterr().out
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert len(rows) >= 6 and {r["asked"] for r in rows} == {1, 2}
    T.main(["--rows", str(out), "--range", "1"])
    again = capsys.readouterr().out
    report = json.loads(again)
    assert report["rows"] == len(rows) and report["train"] + report["test"] == len(rows)
    assert set(report["held_out"]) == {
        "today's rule",
        "logistic",
        "strength",
        "always join",
        "always die",
    }
    assert report == json.loads(first[first.index("{") :])  # the same fit from the rows
