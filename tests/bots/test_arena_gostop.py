"""The 고스톱 arena: three agents seated every way on the same deck, each agent's points
with a 95% interval, and the command line."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from madang.arena import deal_seed, new_deal, rotations, run_arena
from madang.bots import Budget
from madang.cli import main
from madang.core.errors import RuleConfigError
from madang.gostop.record import replay

FAST = Budget(time_s=None, iterations=2)


def test_three_different_bots_sit_every_way() -> None:
    rot = rotations(3, 3, ["hard", "normal", "easy"])
    assert sorted(map(tuple, rot)) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )
    for agent in range(3):  # each agent twice at each seat
        assert [sum(r[s] == agent for r in rot) for s in range(3)] == [2, 2, 2]
    assert rot[:3] == rotations(3, 3)  # A at each seat first, as without names


@pytest.mark.parametrize(
    ("bots", "games"),
    [(["hard", "easy", "easy"], 3), (["easy", "normal", "easy"], 3), (["a", "a", "a"], 3)],
)
def test_a_repeated_bot_is_not_seated_twice_the_same_way(bots: list[str], games: int) -> None:
    rot = rotations(3, 3, bots)
    assert len(rot) == games
    if len(set(bots)) > 1:  # every seating of the bots once; each bot at each seat
        assert len({tuple(bots[a] for a in r) for r in rot}) == games
        for name in set(bots):
            at = [sum(bots[r[s]] == name for r in rot) for s in range(3)]
            assert len(set(at)) == 1, (name, at)
    else:  # a mirror match: A at each seat
        assert rot == rotations(3, 3)


def test_two_and_four_seats_keep_their_rotations() -> None:
    assert rotations(2, 2, ["greedy", "greedy"]) == [[0, 1], [1, 0]]  # a mirror match
    assert rotations(2, 2, ["a", "b"]) == [[0, 1], [1, 0]]
    assert rotations(4, 4, ["a", "b", "c", "d"]) == rotations(4, 4)  # not 24 games
    with pytest.raises(RuleConfigError):
        rotations(3, 3, ["a", "b"])


def test_a_match_of_three_plays_every_seating_on_the_same_deck(tmp_path: Path) -> None:
    bots = ["greedy", "random", "capture"]
    r = run_arena("gostop", bots, deals=2, seed=4, budget=FAST, records=str(tmp_path))
    assert r["games"] == 12 and r["deals"] == 2 and r["games_per_deal"] == 6
    index = json.loads((tmp_path / "index.json").read_text())
    for d in range(2):
        games = [g for g in index["games"] if g["deal"] == d]
        assert sorted(tuple(g["seats"]) for g in games) == sorted(
            {tuple(bots[a] for a in p) for p in rotations(3, 3, bots)}
        )
        recs = [json.loads((tmp_path / g["file"]).read_text()) for g in games]
        assert len({tuple(rec["deck"]) for rec in recs}) == 1
        assert len({rec["dealer"] for rec in recs}) == 1
        for g, rec in zip(games, recs, strict=True):
            state = replay(rec)  # every record replays to the result the arena saw
            assert state.over and len(state.hands) == 3
            winner = None if state.winner is None else g["seats"][state.winner]
            assert winner == g["winner"]
            assert sum(g["net"]) == 0
    # each agent's line: the points paired by deal, A's the same as before
    agents = r["agents"]
    assert [a["bot"] for a in agents] == bots
    assert agents[0]["mean_points"] == r["mean_points_a"]
    assert agents[0]["ci95_points"] == r["ci95_points_a"]
    assert sum(a["wins"] for a in agents) + r["draws"] == 12
    assert abs(sum(a["mean_points"] for a in agents)) < 1e-3  # points move between agents
    for a in agents:
        lo, hi = a["ci95_points"]
        assert lo <= a["mean_points"] <= hi


def test_the_deals_of_gostop_are_reproducible() -> None:
    s = deal_seed(5, 0)
    a, b = new_deal("gostop", s).record(), new_deal("gostop", s).record()
    assert a["deck"] == b["deck"] and a["dealer"] == b["dealer"] == s % 3
    assert a["deck"] != new_deal("gostop", deal_seed(5, 1)).record()["deck"]


def test_the_cli_seats_a_bot_per_other_seat(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(
            ["arena", "gostop", "--a", "hard", "--others", "normal,easy", "--games", "6",
             "--seed", "3", "--iterations", "2", "--json", "--no-progress"]
        )  # fmt: skip
    assert rc == 0
    r = json.loads(out.getvalue())
    assert r["games"] == 6 and r["deals"] == 1 and r["b"] == ["normal", "easy"]
    assert [a["bot"] for a in r["agents"]] == ["hard", "normal", "easy"]
    assert main(["arena", "gostop", "--a", "easy", "--others", "normal,easy", "--games", "7",
                 "--no-progress", "--iterations", "2"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "gostop: easy (A) vs normal, easy (others), 9 games on 3 deals" in text
    assert "O1 (normal):" in text and "points a game (95% CI" in text
    assert main(["arena", "gostop", "--others", "normal,easy,hard", "--games", "3",
                 "--no-progress"]) == 2  # fmt: skip
    assert "one per other seat (2), not 3" in capsys.readouterr().err
    assert main(["arena", "gostop", "--others", "normal,", "--no-progress"]) == 2


def test_the_shipped_gostop_ladder_is_complete() -> None:
    """The round robin shipped in the package (docs/bots.md): every ordered pair of the
    three levels at 2,000 games or more, a rating per bot, and points with intervals."""
    from madang import ladder

    data = ladder.published("gostop")
    assert data is not None and data["seats"] == 3 and data["format"] == "1 against 2"
    bots = data["bots"]
    assert bots == ["easy", "normal", "hard"]
    assert {(p["a"], p["b"]) for p in data["pairs"]} == {
        (a, b) for a in bots for b in bots if a != b
    }
    assert all(p["games"] >= 2000 and p["points_ci95"] is not None for p in data["pairs"])
    assert set(data["ratings"]) == set(bots) == set(data["points_ratings"])
    points = {b: data["points_ratings"][b]["points"] for b in bots}
    assert points["hard"] > points["normal"] > points["easy"]


@pytest.mark.parametrize("preset", ["gwangpalgi", "gwangpalgi_last"])
def test_four_seats_rotate_on_the_same_deck_with_the_gwang_sale_counted(
    preset: str, tmp_path: Path
) -> None:
    """광팔기: four agents (the seat count of the preset's session, not the spec's three),
    A at every seat of each deal, the sitter's net its 광값 alone. Under ``gwangpalgi``
    a seat sells only when both seats asked join, which the bots' rule does with strong
    hands only (issue 29): twelve deals hold a sale worth something."""
    bots = ["search", "greedy", "random", "capture"]
    deals = 12
    r = run_arena(
        "gostop", bots, deals=deals, seed=2, budget=FAST, records=str(tmp_path), preset=preset
    )
    assert r["games"] == 4 * deals and r["games_per_deal"] == 4 and len(r["agents"]) == 4
    index = json.loads((tmp_path / "index.json").read_text())
    sold = 0
    for d in range(deals):
        games = [g for g in index["games"] if g["deal"] == d]
        assert sorted(g["seats"].index("search") for g in games) == [0, 1, 2, 3]
        recs = [json.loads((tmp_path / g["file"]).read_text()) for g in games]
        assert len({tuple(rec["deck"]) for rec in recs}) == 1
        for g, rec in zip(games, recs, strict=True):
            state = replay(rec)
            assert state.over and len(state.hands) == 4 and state.sitter >= 0
            assert sum(g["net"]) == 0
            sitter = bots.index(g["seats"][state.sitter])
            gwang = sum(
                pts if to == state.sitter else -pts
                for frm, to, pts, why in state.payments
                if why == "gwang_sale" and state.sitter in (frm, to)
            )
            assert g["net"][sitter] == gwang  # it sat out: its 광값 and nothing else
            sold += gwang > 0
    assert sold  # some seller was paid its 광값, and the points count it
    agents = r["agents"]
    assert [a["bot"] for a in agents] == bots
    assert abs(sum(a["mean_points"] for a in agents)) < 1e-3
    for a in agents:
        lo, hi = a["ci95_points"]
        assert lo <= a["mean_points"] <= hi


def test_the_cli_seats_four_under_gwangpalgi(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "gostop", "--preset", "gwangpalgi", "--a", "greedy"]
    args += ["--others", "random", "--games", "8", "--iterations", "2", "--budget-ms", "0"]
    assert main([*args, "--json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 8 and r["games_per_deal"] == 4
    assert [a["bot"] for a in r["agents"]] == ["greedy", "random", "random", "random"]
    assert main([*args[:6], "--others", "random,easy", "--no-progress"]) == 2
    assert "one per other seat (3), not 2" in capsys.readouterr().err
