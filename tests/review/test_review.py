"""복기 (madang.review): marks and best moves, seat-view only, typed errors, the CLI."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from madang.bots.mahjong_efficiency import EfficiencyBot
from madang.bots.matgo_search import CaptureBot
from madang.cli import main
from madang.core.errors import RecordError
from madang.mahjong.engine import legal_actions, new_hand, step
from madang.mahjong.record import export_record as mahjong_record
from madang.mahjong.record import replay as mahjong_replay
from madang.mahjong.view import view as mahjong_view
from madang.matgo import actions as A
from madang.matgo.cards import CODES
from madang.matgo.engine import Phase, new_game
from madang.matgo.record import export_record, replay
from madang.matgo.view import view
from madang.review import MARKS, ReviewError, review


def _matgo_game(seed: int, go_late: bool) -> tuple[dict[str, Any], int | None]:
    """A game of two capture bots in which seat 0, at a 고/스톱 with three cards or
    fewer left, answers 고 (``go_late``) or 스톱; the record and that decision's index."""
    g = new_game(seed=seed)
    bot = CaptureBot()
    at = None
    while not g.over:
        legal = g.legal_actions()
        if g.phase is Phase.GO_STOP and g.current == 0 and g.hands[0].bit_count() <= 3:
            at = len(g.moves)
            a = A.GO if go_late else A.STOP
        elif len(legal) > 1:
            a = bot.act(view(g, g.current), legal, random.Random(0), None)
        else:
            a = legal[0]
        g.step(a)
    return export_record(g), at


def test_a_late_go_that_throws_away_a_won_stop_is_a_blunder() -> None:
    rec, at = _matgo_game(0, go_late=True)
    assert at is not None
    r = review(rec, 0, samples=200)
    d = next(d for d in r["decisions"] if d["index"] == at)
    assert d["move"] == "go"
    assert d["best"] == "stop"
    assert d["mark"] == "blunder" and d["mark_ko"] == "큰 실수"
    gs = d["go_stop"]
    assert gs["stop"]["expected"] >= 7 and gs["stop"]["win"] == 1.0
    assert gs["go"]["expected"] < gs["stop"]["expected"] - 3
    assert 0 < gs["go"]["lose"] <= 1
    assert d["loss"] >= 3
    # the same position answered 스톱 is the best move
    rec2, at2 = _matgo_game(0, go_late=False)
    assert at2 == at
    d2 = next(d for d in review(rec2, 0, samples=200)["decisions"] if d["index"] == at)
    assert d2["move"] == d2["best"] == "stop" and d2["mark"] == "good"


def test_matgo_review_is_deterministic_and_marks_every_choice() -> None:
    rec, _ = _matgo_game(3, go_late=False)
    a = review(rec, 1, seed=5, samples=30)
    b = review(rec, 1, seed=5, samples=30)
    assert a == b
    assert a["decisions"] and sum(a["counts"].values()) == len(a["decisions"])
    for d in a["decisions"]:
        assert d["mark"] in MARKS
        moves = [o["move"] for o in d["options"]]
        assert d["move"] in moves and d["best"] in moves
        assert d["options"][0]["value"] == max(o["value"] for o in d["options"])


def _unseen_by_0(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` with the cards seat 0 never saw — the opponent's hand at the end (not
    shown by 흔들기) and the draw pile left — dealt again among their places."""
    end = replay(rec)
    hidden = {CODES[c] for c in range(len(CODES)) if (end.hands[1] & ~end.revealed[1]) >> c & 1}
    hidden |= {CODES[c] for c in end.pile}
    places = [i for i, c in enumerate(rec["deck"]) if c in hidden]
    assert len(places) >= 4
    deck = list(rec["deck"])
    cards = [deck[i] for i in places]
    for i, c in zip(places, cards[1:] + cards[:1], strict=True):
        deck[i] = c
    return {**rec, "deck": deck}


def test_the_matgo_review_never_reads_hidden_cards() -> None:
    rec, _ = _matgo_game(0, go_late=False)
    other = _unseen_by_0(rec)
    assert other["deck"] != rec["deck"]
    assert replay(other).payments == replay(rec).payments  # the same game, other cards
    assert review(other, 0, samples=40) == review(rec, 0, samples=40)


def _mahjong_hand(seed: int, blunder_at: int) -> tuple[dict[str, Any], int]:
    """A hand of efficiency bots in which seat 0's ``blunder_at``-th discard (from 0)
    is its worst for shanten; the record and that move's index."""
    st = new_hand(seed=seed)
    bot = EfficiencyBot()
    n = 0
    at = -1
    while not st.over:
        s = st.pending[0]
        legal = legal_actions(st, s)
        a = bot.choose(mahjong_view(st, s), legal)
        if s == 0 and a.verb == "discard" and st.phase == "discard":
            if n == blunder_at:
                from madang.bots.mahjong_efficiency import Table, discard_options

                t = Table.from_view(mahjong_view(st, 0))
                opts = discard_options(t.hand, len(t.my_melds), t.unseen)
                worst = max(opts, key=lambda o: (o[1], -o[2]))[0]
                a = next(x for x in legal if x.verb == "discard" and x.tile == worst)
                at = len(st.history)
            n += 1
        step(st, a)
    return mahjong_record(st), at


def test_a_discard_that_raises_shanten_is_marked() -> None:
    rec, at = _mahjong_hand(2, 2)
    r = review(rec, 0)
    d = next(d for d in r["decisions"] if d["index"] == at)
    assert d["shanten"] > d["best_shanten"]
    assert d["mark"] in ("mistake", "blunder")
    assert d["best"] != d["move"]
    best = next(o for o in d["options"] if o["move"] == d["best"])
    assert best["shanten"] == min(o["shanten"] for o in d["options"])


def test_the_mahjong_review_never_reads_the_wall_left() -> None:
    rec, _ = _mahjong_hand(2, 2)
    end = mahjong_replay(rec)
    live = list(range(end.front, end.back))
    assert len(live) >= 2
    wall = list(rec["wall"])
    tiles = [wall[i] for i in live]
    for i, c in zip(live, tiles[::-1], strict=True):
        wall[i] = c
    other = {**rec, "wall": wall}
    if other["wall"] == rec["wall"]:  # pragma: no cover - a palindrome of a wall
        pytest.skip("the wall left reads the same both ways")
    assert review(other, 0) == review(rec, 0)


@pytest.mark.parametrize(
    ("record", "error"),
    [
        ([1, 2], RecordError),
        ({"game": "chess"}, RecordError),
        ({"game": "matgo"}, RecordError),
        ({"game": "mahjong", "moves": []}, RecordError),
    ],
)
def test_bad_records_are_typed_errors(record: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        review(record, 0)


def test_unfinished_games_and_bad_settings_are_refused() -> None:
    g = new_game(seed=1)
    g.step(g.legal_actions()[0])
    with pytest.raises(RecordError, match="not finished"):
        review(export_record(g), 0)
    st = new_hand(seed=1)
    with pytest.raises(RecordError, match="not finished"):
        review(mahjong_record(st), 0)
    rec, _ = _matgo_game(0, go_late=True)
    for kwargs in ({"seat": 2}, {"seat": True}, {"samples": 0}, {"budget_ms": -1.0}):
        with pytest.raises(ReviewError):
            review(rec, **kwargs)  # type: ignore[arg-type]


def test_a_matgo_review_takes_well_under_ten_seconds_of_one_core() -> None:
    rec, _ = _matgo_game(1, go_late=True)
    t = time.process_time()
    review(rec, 0)  # the default samples
    assert time.process_time() - t < 10.0


def test_the_cli_prints_a_table_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec, _ = _matgo_game(0, go_late=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert main(["matgo", "review", str(path), "--seat", "0", "--samples", "60"]) == 0
    out = capsys.readouterr().out
    assert "큰 실수" in out and "스톱" in out and "stop" in out
    assert main(["matgo", "review", str(path), "--json", "--samples", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 0 and data["samples"] == 20
    assert main(["mahjong", "review", str(path)]) == 2
    assert "not a mahjong record" in capsys.readouterr().err
    assert main(["matgo", "review", str(path), "--seat", "5"]) == 2
    assert "seat must be" in capsys.readouterr().err
    mj, _ = _mahjong_hand(2, 2)
    path.write_text(json.dumps(mj))
    assert main(["mahjong", "review", str(path), "--seat", "0"]) == 0
    assert "shanten" in capsys.readouterr().out


def test_a_discard_instead_of_a_self_drawn_win_is_a_blunder() -> None:
    st = new_hand(seed=9)
    bot = EfficiencyBot()
    at = None
    while not st.over:
        s = st.pending[0]
        legal = legal_actions(st, s)
        a = bot.choose(mahjong_view(st, s), legal)
        if s == 0 and at is None and any(x.verb == "tsumo" for x in legal):
            a = next(x for x in legal if x.verb == "discard")
            at = len(st.history)
        step(st, a)
    assert at is not None
    d = next(d for d in review(mahjong_record(st), 0)["decisions"] if d["index"] == at)
    assert d["best"] == "tsumo" and d["mark"] == "blunder" and d["mark_ko"] == "큰 실수"
