"""The mahjong arena: one agent against three, rotated over the seats on the same wall."""

from __future__ import annotations

import json

from madang.arena import deal_seed, new_deal, rotations, run_arena
from madang.bots.base import Budget
from madang.cli import main
from madang.mahjong.record import replay


def test_rotations_put_agent_a_at_every_seat_once() -> None:
    rot = rotations(4, 4)
    assert [r.index(0) for r in rot] == [0, 1, 2, 3]
    assert all(sorted(r) == [0, 1, 2, 3] for r in rot)


def test_every_rotation_plays_the_same_wall(tmp_path: object) -> None:
    walls = {tuple(new_deal("mahjong", deal_seed(5, 0)).record()["wall"]) for _ in range(3)}
    assert len(walls) == 1
    assert walls != {tuple(new_deal("mahjong", deal_seed(5, 1)).record()["wall"])}


def test_a_small_match_reports_rates_and_replayable_records(tmp_path: object) -> None:
    out = run_arena(
        "mahjong",
        ["normal", "easy", "easy", "easy"],
        deals=3,
        seed=2,
        budget=Budget(None, 1),
        records=str(tmp_path),
    )
    assert out["games"] == 12 and out["deals"] == 3
    for key in ("hand_win_rate_a", "deal_in_rate_a", "deal_in_rate_others_each"):
        assert 0 <= out[key] <= 1
    index = json.loads((tmp_path / "index.json").read_text())  # type: ignore[operator]
    for game in index["games"]:
        rec = json.loads((tmp_path / game["file"]).read_text())  # type: ignore[operator]
        state = replay(rec)
        assert state.result is not None
        winners = [w.seat for w in state.result.winners]
        assert (game["winner"] is None) == (not winners)


def test_cli_prints_one_json_object(capsys: object) -> None:
    rc = main(["arena", "mahjong", "--a", "hard", "--others", "easy", "--hands", "8",
               "--no-progress", "--json", "--iterations", "1"])  # fmt: skip
    assert rc == 0
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert out["game"] == "mahjong" and out["games"] == 8 and out["preset"] == "default"
    assert out["b"] == ["easy", "easy", "easy"]
