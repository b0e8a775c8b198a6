"""The strength ladder: a complete round robin on duplicate deals, pair results that
agree from both sides, ratings that order a stronger level above a weaker one, the
files it writes and its errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from madang import ladder
from madang.bots import Budget
from madang.cli import main
from madang.core.errors import RuleConfigError

FAST = Budget(time_s=None, iterations=2)


def test_a_tiny_matgo_round_robin_is_complete_and_symmetric() -> None:
    r = ladder.run_ladder("matgo", ["first", "random", "normal"], games=6, seed=4, budget=FAST)
    cells = {(p["a"], p["b"]): p for p in r["pairs"]}
    assert set(cells) == {(a, b) for a in r["bots"] for b in r["bots"] if a != b}
    for (a, b), p in cells.items():
        q = cells[(b, a)]
        assert p["games"] == q["games"] == 6 and p["deals"] == 3
        assert p["points"] == -q["points"]
        assert p["points_ci95"] == [-q["points_ci95"][1], -q["points_ci95"][0]]
        assert (p["wins_a"], p["wins_b"], p["draws"]) == (q["wins_b"], q["wins_a"], q["draws"])
        assert p["wins_a"] + p["wins_b"] + p["draws"] == 6
    assert r["names"] == {"first": "first", "random": "random", "normal": "greedy"}
    assert set(r["ratings"]) == set(r["points_ratings"]) == set(r["bots"]) and r["converged"]
    assert math.isclose(sum(x["elo"] for x in r["ratings"].values()), 0, abs_tol=0.5)
    assert "candidate_elo" not in r


def test_a_tiny_mahjong_round_robin_plays_one_against_three_both_ways() -> None:
    r = ladder.run_ladder("mahjong", ["random", "first"], games=8, seed=2, budget=FAST)
    assert [(p["a"], p["b"], p["games"], p["deals"]) for p in r["pairs"]] == [
        ("random", "first", 8, 2),
        ("first", "random", 8, 2),
    ]
    for p in r["pairs"]:
        assert p["wins_a"] + p["wins_b"] + p["draws"] == 8
        assert p["deal_in_rate"] is not None
    assert r["format"] == "1 against 3" and "candidate_elo" in r


def test_a_stronger_level_is_rated_above_random() -> None:
    """``normal`` (greedy) against ``random``: deterministic for the seed, and a gap so
    wide (about 20 points a game) that 60 games leave no doubt."""
    r = ladder.run_ladder("matgo", ["random", "normal"], games=60, seed=11, budget=FAST)
    normal, rand = r["ratings"]["normal"], r["ratings"]["random"]
    assert normal["ci95"][0] > 0 > rand["ci95"][1]
    assert normal["elo"] > rand["elo"] + 200
    by_points = r["points_ratings"]
    assert by_points["normal"]["ci95"][0] > 0 > by_points["random"]["ci95"][1]
    assert by_points["normal"]["points"] == -by_points["random"]["points"]
    (p,) = [p for p in r["pairs"] if p["a"] == "normal"]
    assert p["points_ci95"][0] > 0 and p["win_rate_ci95"][0] > 0.5


def test_the_rating_fit_recovers_a_known_odds_ratio() -> None:
    """Two bots, 30 wins to 10 (and draws counted half to each): the rating gap is the
    log of the odds, 400 log10(3) = 190.8 Elo, up to the weak prior."""
    pairs = [{"a": "x", "b": "y", "wins_a": 28, "wins_b": 8, "draws": 4}]
    fit = ladder.fit_ratings(["x", "y"], pairs, candidate_term=False)
    gap = fit["ratings"]["x"]["elo"] - fit["ratings"]["y"]["elo"]
    assert abs(gap - 400 * math.log10(3)) < 1.5
    lo, hi = fit["ratings"]["x"]["ci95"]
    assert lo < fit["ratings"]["x"]["elo"] < hi and hi - lo < 200


def test_the_points_rating_fits_every_pair_by_its_precision() -> None:
    """Three bots whose pairs agree (x−y 2, y−z 4, x−z 6) give ratings 2 apart and 4
    apart, summing to 0; a pair measured less precisely counts less."""
    pairs = [
        {"a": "x", "b": "y", "points": 2.0, "points_ci95": [1.0, 3.0]},
        {"a": "y", "b": "z", "points": 4.0, "points_ci95": [3.0, 5.0]},
        {"a": "x", "b": "z", "points": 6.0, "points_ci95": [5.0, 7.0]},
    ]
    r = ladder.points_ratings(["x", "y", "z"], pairs)
    assert [r[b]["points"] for b in "xyz"] == [pytest.approx(8 / 3, abs=0.01),
                                               pytest.approx(2 / 3, abs=0.01),
                                               pytest.approx(-10 / 3, abs=0.01)]  # fmt: skip
    pairs[2] = {**pairs[2], "points": 9.0, "points_ci95": [-1.0, 19.0]}  # noisy: weak pull
    r2 = ladder.points_ratings(["x", "y", "z"], pairs)
    assert 6 < r2["x"]["points"] - r2["z"]["points"] < 6.2


def test_wilson_interval() -> None:
    assert ladder.wilson(0, 0) is None
    assert ladder.wilson(0, 10) == [0.0, 0.2775]
    assert ladder.wilson(10, 10) == [0.7225, 1.0]


@pytest.mark.parametrize(
    ("bots", "games", "message"),
    [
        (["random"], 4, "at least two bots"),
        (["random", "random"], 4, "named twice"),
        (["random", "first"], 0, "must be positive"),
        (["random", "nobody"], 4, "unknown matgo bot 'nobody'"),
    ],
)
def test_bad_ladder_arguments(bots: list[str], games: int, message: str) -> None:
    with pytest.raises(RuleConfigError, match=message):
        ladder.run_ladder("matgo", bots, games=games, budget=FAST)


def test_the_cli_writes_json_and_markdown_and_publishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ladder, "DATA_DIR", tmp_path / "data")
    out = tmp_path / "out"
    rc = main(
        ["arena", "ladder", "matgo", "--bots", "first,random", "--games", "4", "--iterations",
         "2", "--budget-ms", "0", "--jobs", "1", "--out", str(out), "--publish", "--no-progress"]
    )  # fmt: skip
    assert rc == 0
    captured = capsys.readouterr()
    assert "| first | first |" in captured.out and "| A | B | games |" in captured.out
    data = json.loads((out / "ladder-matgo.json").read_text(encoding="utf-8"))
    assert data["bots"] == ["first", "random"] and len(data["pairs"]) == 2
    assert (out / "ladder-matgo.md").read_text(encoding="utf-8") == captured.out
    assert ladder.published("matgo") == data and ladder.published("mahjong") is None
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "no plot: matplotlib is not installed" in captured.err
    else:
        assert (out / "ladder-matgo.png").is_file()


def test_bad_cli_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = ["--out", str(tmp_path), "--no-progress"]
    assert main(["arena", "ladder", "matgo", "--bots", "random,nobody", *out]) == 2
    assert "unknown matgo bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "ladder", "matgo", "--jobs", "0", *out]) == 2
    assert "workers must be positive" in capsys.readouterr().err
    assert main(["arena", "ladder", "matgo", "--bots", "random", *out]) == 2
    with pytest.raises(SystemExit) as e:
        main(["arena", "ladder", "go", *out])
    assert e.value.code == 2
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_default_ladder_is_the_levels_at_the_measured_size() -> None:
    assert ladder.default_bots("matgo") == ["easy", "normal", "hard"]
    assert ladder.default_bots("mahjong") == ["easy", "normal", "hard"]
    assert ladder.default_games("matgo") == 600 and ladder.default_games("mahjong") == 2000
