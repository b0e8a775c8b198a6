"""복기 of 고스톱 (madang.review): three seats and four (광팔기), 고/스톱 with 독박, the
join/die question and 쇼당 scored by expected payment to the end, seat-view only, typed
errors, the CLI."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from madang.bots.matgo_search import CaptureBot
from madang.cli import main
from madang.core.errors import RecordError
from madang.gostop.record import export_record, replay
from madang.gostop.rules import GostopRules, preset
from madang.matgo import actions as A
from madang.matgo.cards import CODES
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.view import view
from madang.review import MARKS, ReviewError, review

G3 = GostopRules()
G4 = GostopRules(players=4)

#: The action of the seat to move in a game, instead of the capture bot's (None: the bot's).
Override = Callable[[MatgoState], int | None]


def play(rules: GostopRules, seed: int, override: Override) -> tuple[dict[str, Any], MatgoState]:
    """A game of capture bots at every seat, but where ``override`` answers; its record
    and its end."""
    g = new_game(rules, seed=seed)
    bot = CaptureBot()
    while not g.over:
        legal = g.legal_actions()
        a = override(g)
        if a is None and len(legal) == 1:
            a = legal[0]
        elif a is None:
            a = bot.act(view(g, g.current), legal, random.Random(0), None)
            if a == A.SHODANG:  # nobody calls 쇼당 unless told to
                a = next(x for x in legal if x != A.SHODANG)
        g.step(a)
    return export_record(g), g


def late_go(go: bool) -> tuple[dict[str, Any], int]:
    """Deal 34 at three seats: seat 0, at its 고/스톱 with few cards left and a 스톱 worth
    9 points (3 and 6 from the losers), answers 고 (``go``) or 스톱; the record and the
    index."""
    at: list[int] = []

    def answer(g: MatgoState) -> int | None:
        if g.phase is Phase.GO_STOP and g.current == 0 and g.hands[0].bit_count() <= 3:
            at.append(len(g.moves))
            return A.GO if go else A.STOP
        return None

    rec, _ = play(G3, 34, answer)
    assert len(at) == 1
    return rec, at[0]


def test_a_late_go_that_throws_away_a_won_stop_is_a_blunder() -> None:
    rec, at = late_go(True)
    end = replay(rec)
    assert end.payments == [(0, 2, 15, "win")]  # it went on and paid seat 2 alone (독박)
    r = review(rec, 0, samples=200)
    assert r["game"] == "gostop"
    d = next(d for d in r["decisions"] if d["index"] == at)
    assert (d["move"], d["best"], d["mark"], d["mark_ko"]) == ("go", "stop", "blunder", "큰 실수")
    gs = d["go_stop"]
    assert gs["stop"] == {"expected": 9.0, "win": 1.0}  # 스톱 now: 3 + 6, each loser's sheet
    assert gs["go"]["expected"] < 0 and gs["go"]["lose"] > 0.8
    assert d["loss"] == pytest.approx(9.0 - gs["go"]["expected"], abs=0.011)
    rec2, at2 = late_go(False)
    assert at2 == at and replay(rec2).payments == [(1, 0, 3, "win"), (2, 0, 6, "win")]
    d2 = next(d for d in review(rec2, 0, samples=200)["decisions"] if d["index"] == at)
    assert d2["move"] == d2["best"] == "stop" and d2["mark"] == "good"


def joined(first: int) -> tuple[dict[str, Any], int]:
    """Deal 3 at four seats (광팔기, 선 seat 0): seat 1, asked first, answers ``first``
    (join or die) holding no 광 (02r 02p1 03p2 04r 06r 07r 07p2: two pairs, two cards
    that pair the floor — issue 28's rule joined, today's dies), and seat 2, asked next
    if seat 1 joins, joins; the record and the index (0)."""

    def answer(g: MatgoState) -> int | None:
        if g.phase is not Phase.JOIN:
            return None
        return first if not g.moves else A.JOIN

    rec, _ = play(G4, 3, answer)
    return rec, 0


def test_joining_without_gwang_is_scored_against_dying() -> None:
    rec, at = joined(A.JOIN)
    end = replay(rec)
    assert end.seller == 3 and end.sitter == 3  # both asked joined: 선+3 sold its 광
    r = review(rec, 1, samples=200)
    d = next(d for d in r["decisions"] if d["index"] == at)
    assert (d["move"], d["best"], d["question"]) == ("join", "die", "join")
    assert d["mark"] == "blunder" and d["loss"] >= 3
    answers = {a["move"]: a for a in d["answers"]}
    assert set(answers) == {"join", "die"}
    assert answers["die"] == {"move": "die", "expected": 0.0, "win": 0.0, "lose": 0.0}
    assert answers["join"]["expected"] == -d["loss"] and answers["join"]["lose"] > 0.6
    # dying instead: the best answer; the seat has no other decision in the game
    rec2, _ = joined(A.DIE)
    assert replay(rec2).sitter == 1 and replay(rec2).seller == -1
    r2 = review(rec2, 1, samples=200)
    assert [(d["move"], d["best"], d["mark"]) for d in r2["decisions"]] == [("die", "die", "good")]


def test_a_seller_without_a_question_has_no_decision_and_the_others_are_reviewed() -> None:
    rec, _ = joined(A.JOIN)
    assert review(rec, 3, samples=10)["decisions"] == []  # 선+3 sold, never asked
    for seat in (0, 1, 2):
        r = review(rec, seat, samples=10)
        assert r["decisions"], seat
        for d in r["decisions"]:
            assert d["mark"] in MARKS and d["best"] in [o["move"] for o in d["options"]]


def shodang(answers: tuple[int, int]) -> tuple[dict[str, Any], int, list[int]]:
    """Deal 7 under the 쇼당 preset: seat 1 calls 쇼당 at its first chance, seats 2 and 0
    answer ``answers`` in turn; the record, the call's index and the answers' indexes."""
    at: list[int] = []

    def call(g: MatgoState) -> int | None:
        if A.SHODANG in g.legal_actions() and not at:
            at.append(len(g.moves))
            return A.SHODANG
        if g.phase is Phase.SHODANG:
            at.append(len(g.moves))
            return answers[len(at) - 2]
        return None

    rec, _ = play(preset("shodang"), 7, call)
    assert len(at) == 3
    return rec, at[0], at[1:]


def test_shodang_calls_and_answers_are_scored_to_the_end() -> None:
    rec, called, (first, second) = shodang((A.SHODANG_REFUSE, A.SHODANG_ACCEPT))
    end = replay(rec)
    assert end.shodang_by == 1 and end.winner == 1  # refused: the caller played on and won
    # the call: 쇼당 (both accept in the playouts: 나가리, 0) against the best card
    d = next(d for d in review(rec, 1, samples=100)["decisions"] if d["index"] == called)
    assert d["question"] == "shodang_call" and d["move"] == "shodang"
    call, play_on = d["answers"]
    assert call == {"move": "shodang", "expected": 0.0, "win": 0.0, "lose": 0.0}
    assert play_on["move"] == d["best"] and d["best"].startswith("play ")
    assert play_on["expected"] == d["loss"] > 3 and d["mark"] == "blunder"
    assert len(d["options"]) == len({o["move"] for o in d["options"]}) > 2  # every move valued
    # seat 2 refused with a weak position: accepting (나가리) was the best answer
    d = next(d for d in review(rec, 2, samples=100)["decisions"] if d["index"] == first)
    assert (d["question"], d["move"], d["best"]) == ("shodang", "shodang refuse", "shodang accept")
    assert d["mark"] == "blunder"
    assert [a["move"] for a in d["answers"]] == ["shodang accept", "shodang refuse"]
    # seat 0 answered after a refusal: the game goes on whatever it says, no loss
    d = next(d for d in review(rec, 0, samples=100)["decisions"] if d["index"] == second)
    assert d["question"] == "shodang" and d["mark"] == "good" and d["loss"] == 0
    accept, refuse = d["answers"]
    assert accept["expected"] == refuse["expected"]


def unseen_by(rec: dict[str, Any], seat: int) -> dict[str, Any]:
    """``rec`` with the cards ``seat`` never saw — the other hands' cards at the end (not
    shown) and the draw pile left (a sitter's cards among them) — dealt again among their
    places in the deck."""
    end = replay(rec)
    hidden = {CODES[c] for c in end.pile}
    for o in range(len(end.hands)):
        if o != seat:
            held = end.hands[o] & ~end.revealed[o]
            hidden |= {CODES[c] for c in range(len(CODES)) if held >> c & 1}
    places = [i for i, c in enumerate(rec["deck"]) if c in hidden]
    assert len(places) >= 4
    deck = list(rec["deck"])
    cards = [deck[i] for i in places]
    for i, c in zip(places, cards[1:] + cards[:1], strict=True):
        deck[i] = c
    return {**rec, "deck": deck}


@pytest.mark.parametrize(("rules", "seed", "seat"), [(G3, 5, 0), (G4, 2, 0)], ids=["3", "4"])
def test_the_review_never_reads_hidden_cards(rules: GostopRules, seed: int, seat: int) -> None:
    rec, _ = play(rules, seed, lambda g: None)
    other = unseen_by(rec, seat)
    assert other["deck"] != rec["deck"]
    assert replay(other).payments == replay(rec).payments  # the same game, other cards
    got = review(rec, seat, samples=30)
    assert got["decisions"] and review(other, seat, samples=30) == got


def test_the_review_is_deterministic() -> None:
    rec, _ = play(G3, 5, lambda g: None)
    a = review(rec, 2, seed=4, samples=25)
    assert a == review(rec, 2, seed=4, samples=25) and a["decisions"]
    assert sum(a["counts"].values()) == len(a["decisions"])
    assert review(rec, 2, seed=5, samples=25) != a


def test_unfinished_games_and_bad_seats_are_refused() -> None:
    g = new_game(G3, seed=1)
    g.step(g.legal_actions()[0])
    with pytest.raises(RecordError, match="not finished"):
        review(export_record(g), 0)
    rec, _ = play(G3, 5, lambda g: None)
    for seat in (3, -1, True):
        with pytest.raises(ReviewError, match="seat must be 0-2"):
            review(rec, seat)  # type: ignore[arg-type]
    with pytest.raises(RecordError):
        review({**rec, "moves": [*rec["moves"], "go"]}, 0)  # a move after the end
    four, _ = joined(A.DIE)
    with pytest.raises(ReviewError, match="seat must be 0-3"):
        review(four, 4)


def test_a_three_seat_review_takes_well_under_ten_seconds_of_one_core() -> None:
    rec, _ = late_go(True)
    t = time.process_time()
    review(rec, 0)  # the default samples
    assert time.process_time() - t < 10.0


def test_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec, _ = late_go(True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert main(["gostop", "review", str(path), "--samples", "60"]) == 0
    out = capsys.readouterr().out
    assert "복기 — gostop, seat 0" in out and "큰 실수" in out and "스톱 +9.00" in out
    assert main(["gostop", "review", str(path), "--seat", "2", "--json", "--samples", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "gostop" and data["seat"] == 2 and data["samples"] == 20
    assert main(["gostop", "review", str(path), "--seat", "3"]) == 2
    assert "seat must be 0-2" in capsys.readouterr().err
    assert main(["matgo", "review", str(path)]) == 2
    assert "not a matgo record" in capsys.readouterr().err
    four, _ = joined(A.JOIN)
    path.write_text(json.dumps(four))
    assert main(["gostop", "review", str(path), "--seat", "1", "--samples", "60"]) == 0
    out = capsys.readouterr().out
    assert "join" in out and "die +0.00" in out and "큰 실수" in out
