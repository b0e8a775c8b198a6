"""The arena: duplicate deals with seats swapped, statistics, records and the CLI."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import ClassVar

import pytest

from madang.arena import (
    GameResult,
    deal_seed,
    new_deal,
    points_shape,
    rotations,
    run_arena,
    summarize,
)
from madang.bots import Budget
from madang.bots.base import FirstBot, make_agent, registered_bot
from madang.cli import main
from madang.core.errors import RuleConfigError
from madang.mahjong.record import replay as replay_mahjong
from madang.matgo.record import replay

FAST = Budget(time_s=None, iterations=2)
KEYS = {
    "game", "a", "b", "games", "deals", "wins", "draws", "win_rate_a", "mean_points_a",
    "ci95_points_a", "decision_ms", "seed", "workers", "budget", "games_per_deal", "elapsed_s",
    "points_shape", "preset", "rules", "faults", "limits", "agents",
}  # fmt: skip
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_cli_tiny_match_json() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(
            ["arena", "matgo", "--a", "hard", "--b", "greedy", "--games", "4", "--workers", "1",
             "--seed", "3", "--iterations", "2", "--json", "--no-progress"]
        )  # fmt: skip
    assert rc == 0
    r = json.loads(out.getvalue())
    assert set(r) == KEYS
    assert r["games"] == 4 and r["deals"] == 2 and r["games_per_deal"] == 2
    assert r["wins"]["a"] + r["wins"]["b"] + r["draws"] == 4
    assert set(r["decision_ms"]) == {"a", "b"}
    assert {"bot", "decisions", "p50", "p95", "max"} <= set(r["decision_ms"]["a"])
    assert r["decision_ms"]["a"]["bot"] == "hard"
    lo, hi = r["ci95_points_a"]
    assert lo <= r["mean_points_a"] <= hi
    assert r["budget"] == {"ms": 100.0, "iterations": 2, "cpu_clock": False}


def test_cli_cpu_clock_budget() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(
            ["arena", "matgo", "--a", "hard", "--b", "greedy", "--games", "2", "--seed", "3",
             "--budget-ms", "5", "--cpu-clock", "--json", "--no-progress"]
        )  # fmt: skip
    assert rc == 0
    budget = json.loads(out.getvalue())["budget"]
    assert budget == {"ms": 5.0, "iterations": None, "cpu_clock": True}


class _BudgetProbe:
    """Records the budget of every decision (and plays the first legal action)."""

    name = "probe"
    seen: ClassVar[list[Budget]] = []

    def act(self, view: dict[str, object], legal: list[int], rng: object, budget: Budget) -> int:
        self.seen.append(budget)
        return legal[0]


def test_a_bot_given_its_own_time_thinks_that_long_whatever_the_match_budget() -> None:
    """``NAME@MS``: the bot gets ``MS`` ms a decision on the match's clock, no cap on
    iterations; the other seat keeps the match's budget."""
    _BudgetProbe.seen = []
    with registered_bot("matgo", "probe", _BudgetProbe):
        r = run_arena("matgo", ["probe@250", "greedy"], deals=1, seed=3,
                      budget=Budget(0.01, 7, cpu=True))  # fmt: skip
        assert r["a"] == "probe@250" and r["games"] == 2
        assert _BudgetProbe.seen and set(_BudgetProbe.seen) == {Budget(0.25, None, cpu=True)}
        assert make_agent("matgo", "probe@1.5ms").name == "probe@1.5ms"


@pytest.mark.parametrize("name", ["hard@", "hard@0", "hard@-5", "hard@nan", "hard@inf",
                                  "hard@1e9", "hard@5s", "hard@3600001", "nobody@100",
                                  "@100"])  # fmt: skip
def test_a_bad_time_after_the_at_sign_is_a_clear_error(name: str) -> None:
    with pytest.raises(RuleConfigError):
        make_agent("matgo", name)


def test_a_name_with_an_at_sign_and_no_time_is_a_name() -> None:
    with registered_bot("matgo", "mine@home", FirstBot):
        assert make_agent("matgo", "mine@home").name == "first"
        assert make_agent("matgo", "mine@home@50").name == "first@50ms"


def test_cli_text_output_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "matgo", "--a", "easy", "--b", "normal", "--games", "2",
                 "--no-progress"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "easy (A) vs normal (B), 2 games on 1 deals" in text
    assert main(["arena", "matgo", "--a", "nobody", "--games", "2", "--no-progress"]) == 2
    assert "unknown matgo bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "matgo", "--games", "0", "--no-progress"]) == 2


def test_duplicate_deals_swap_seats_on_the_same_deck(tmp_path: Path) -> None:
    r = run_arena("matgo", ["greedy", "random"], deals=3, seed=11, budget=FAST,
                  records=str(tmp_path))  # fmt: skip
    index = json.loads((tmp_path / "index.json").read_text())
    games = index["games"]
    assert len(games) == 6 == r["games"]
    for d in range(3):
        pair = [g for g in games if g["deal"] == d]
        assert [g["seats"] for g in pair] == [["greedy", "random"], ["random", "greedy"]]
        recs = [json.loads((tmp_path / g["file"]).read_text()) for g in pair]
        assert recs[0]["deck"] == recs[1]["deck"]
        assert recs[0]["dealer"] == recs[1]["dealer"]
        for g, rec in zip(pair, recs, strict=True):
            state = replay(rec)  # every record replays to the result the arena saw
            assert state.over
            winner = None if state.winner is None else g["seats"][state.winner]
            assert winner == g["winner"]
    decks = {tuple(json.loads((tmp_path / g["file"]).read_text())["deck"]) for g in games}
    assert len(decks) == 3  # three different deals


def _deck(game: str, seed: int) -> tuple[object, ...]:
    rec = new_deal(game, seed).record()
    return (tuple(rec.get("deck") or rec.get("wall")), rec.get("dealer"))


def test_deals_are_reproducible() -> None:
    s = deal_seed(5, 0)
    assert _deck("matgo", s) == _deck("matgo", s)
    assert _deck("matgo", s) != _deck("matgo", deal_seed(5, 1))
    assert new_deal("matgo", s).match.game.dealer == s & 1  # type: ignore[attr-defined]
    assert rotations(2, 2) == [[0, 1], [1, 0]]
    with pytest.raises(RuleConfigError):
        rotations(2, 3)
    with pytest.raises(RuleConfigError):
        new_deal("chess", s)
    with pytest.raises(RuleConfigError):
        run_arena("matgo", ["random", "random"], deals=1, rules={"no_such_option": 1})


def test_workers_do_not_change_the_result() -> None:
    kw = {"deals": 4, "seed": 2, "budget": FAST}
    one = run_arena("matgo", ["greedy", "random"], workers=1, **kw)  # type: ignore[arg-type]
    two = run_arena("matgo", ["greedy", "random"], workers=2, chunk=1, **kw)  # type: ignore[arg-type]
    for key in ("wins", "draws", "mean_points_a", "ci95_points_a", "win_rate_a"):
        assert one[key] == two[key]


def test_summary_statistics_are_paired_by_deal() -> None:
    games = [
        GameResult(0, 0, [0, 1], [10, -10], 0),
        GameResult(0, 1, [1, 0], [-4, 4], 1),
        GameResult(1, 0, [0, 1], [0, 0], None),
        GameResult(1, 1, [1, 0], [6, -6], 0),
    ]
    r = summarize("matgo", ["x", "y"], games, [[0.001, 0.003], [0.002]])
    assert r["wins"] == {"a": 2, "b": 1} and r["draws"] == 1
    assert r["win_rate_a"] == round(2 / 3, 4)
    assert r["mean_points_a"] == 3.0  # deals average (10 - 4) / 2 = 3 and (0 + 6) / 2 = 3
    assert r["ci95_points_a"] == [3.0, 3.0]
    assert r["decision_ms"]["a"]["p50"] == 1.0 and r["decision_ms"]["a"]["p95"] == 3.0


def test_points_shape_of_hand_made_outcomes() -> None:
    games = [
        GameResult(0, 0, [0, 1], [32, -32], 0, tags=["go_2", "pibak"]),
        GameResult(0, 1, [1, 0], [-7, 7], 1, tags=[]),
        GameResult(1, 0, [0, 1], [-16, 16], 1, tags=["heundeulgi"]),
        GameResult(1, 1, [1, 0], [0, 0], None),
        GameResult(2, 0, [0, 1], [8, -8], 0, tags=["go_1", "heundeulgi", "pibak"]),
        GameResult(2, 1, [1, 0], [-4, 4], 1, tags=["gwangbak"]),
    ]
    r = summarize("matgo", ["x", "y"], games, [[0.001], [0.002]])
    a, b = r["points_shape"]["a"], r["points_shape"]["b"]
    assert (a["wins"], a["losses"], b["wins"], b["losses"]) == (2, 3, 3, 2)
    assert a["mean_win"] == 20.0 and a["mean_loss"] == -9.0
    assert (a["largest_win"], a["largest_loss"]) == (32, -16)
    assert b["mean_win"] == 9.0 and b["mean_loss"] == -20.0
    assert (b["largest_win"], b["largest_loss"]) == (16, -32)
    assert a["win_tags"] == {"go_1": 0.5, "go_2": 0.5, "heundeulgi": 0.5, "pibak": 1.0}
    assert list(a["win_tags"])[:2] == ["go_1", "go_2"]  # 고 counts first, in order
    assert b["win_tags"] == {"gwangbak": round(1 / 3, 4), "heundeulgi": round(1 / 3, 4)}
    # three seats of one bot are pooled as "others"
    four = [GameResult(0, 0, [0, 1, 2, 3], [-10, 30, -10, -10], 1, tags=["tsumo"]),
            GameResult(0, 1, [1, 0, 2, 3], [20, 0, -20, 0], 0, tags=["ron", "menjen"])]  # fmt: skip
    shape = points_shape(four, [1, 2, 3])
    assert (shape["wins"], shape["losses"], shape["mean_win"]) == (1, 3, 30.0)
    assert shape["mean_loss"] == round(-40 / 3, 3) and shape["win_tags"] == {"tsumo": 1.0}
    assert points_shape([], [0])["mean_win"] is None


def _matgo_tags(name: str) -> list[str]:
    s = new_deal("matgo", 0)
    s.match.game = replay(json.loads((GOLDEN / "matgo" / name).read_text()))  # type: ignore[attr-defined]
    return s.win_tags()


def test_win_tags_read_the_winners_settlement() -> None:
    assert _matgo_tags("04_go2_pibak.json") == ["go_2", "pibak"]
    assert _matgo_tags("03_bomb_and_flip.json") == ["heundeulgi"]
    assert _matgo_tags("05_nagari.json") == []
    s = new_deal("mahjong", 0)
    rec = json.loads((GOLDEN / "mahjong" / "04_haitei_tsumo.json").read_text())
    s.match.hand = replay_mahjong(rec)  # type: ignore[attr-defined]
    assert s.win_tags() == ["tsumo", "menjen", "seumu", "tonggwan"]
    assert s.deal_ins() == [False] * 4


def test_text_output_shows_the_points_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "matgo", "--a", "greedy", "--b", "random", "--games", "6",
                 "--seed", "4", "--no-progress"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "A (greedy): " in text and "B (random): " in text
    assert " wins, mean +" in text and "losses, mean -" in text


@pytest.mark.parametrize("kwargs", [{"deals": 0}, {"deals": 1, "workers": 0}], ids=str)
def test_bad_arena_arguments(kwargs: dict[str, int]) -> None:
    with pytest.raises(RuleConfigError):
        run_arena("matgo", ["easy", "easy"], **kwargs)  # type: ignore[arg-type]


def test_a_learned_bot_without_its_file_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc = main(["arena", "matgo", "--a", "learned:/no/such/policy.zip", "--games", "2"])
    assert rc == 2 and "no saved policy at /no/such/policy.zip" in capsys.readouterr().err
