"""The ``gostop`` session on the game contract (the whole contract is checked by
``tests/contract/test_conformance.py`` under every preset): three seats' views, the
match's dealer and carry, deals, frames, and ``madang gostop replay`` / ``score``."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

from madang.cli import main
from madang.core.errors import IllegalActionError, RecordError
from madang.core.registry import BUILTIN_SPECS, spec
from madang.gostop.game import SPEC, GostopSession, deal, draw_first_dealer, frames, session
from madang.gostop.record import replay
from madang.gostop.rules import GostopRules, NagariCarry, NagariDealer
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.rules import FirstDealer
from madang.matgo.view import annotate, view

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "gostop"


def play_out(s: GostopSession, rng: random.Random) -> None:
    while not s.over:
        seat = s.pending()[0]
        s.step(seat, rng.choice(s.legal(seat)))


def test_each_seat_sees_only_its_own_hand() -> None:
    s = session("default", 4)
    g = s.match.game
    for seat in range(3):
        v = s.view(seat)
        assert v["game"] == "gostop" and v["seat"] == seat
        assert v["hand"] == view(g, seat)["hand"] and len(v["hand"]) == 7
        text = json.dumps(v)
        for other in range(3):
            if other != seat:  # not one card of another hand (none is shown yet)
                assert not set(view(g, other)["hand"]) & set(text.replace('"', " ").split())
    spectator = s.view(None)
    assert "hand" not in spectator and spectator["hand_counts"] == [7, 7, 7]
    assert len(spectator["captured"]) == len(spectator["scores"]) == 3
    with pytest.raises(ValueError, match="seat must be 0, 1, 2 or None"):
        s.view(3)


def test_the_help_covers_three_seats_and_names_dokbak() -> None:
    rng = random.Random(5)
    s = session("default", 5)
    seen_dokbak = False
    for _ in range(30):
        while not s.over:
            seat = s.pending()[0]
            v = s.annotate(s.view(seat), seat)
            assert len(v["warnings"]) == len(v["piles"]) == len(v["progress"]) == 3
            assert all("gobak" not in w for w in v["warnings"])  # 고박 is 독박 here
            seen_dokbak |= any("dokbak" in w for w in v["warnings"])
            s.step(seat, rng.choice(s.legal(seat)))
        s.next_game()
    assert seen_dokbak


def test_a_state_from_a_gostop_view_keeps_the_view() -> None:
    rng = random.Random(2)
    g = new_game(GostopRules(), seed=9)
    for _ in range(12):
        g.step(rng.choice(g.legal_actions()))
    for seat in range(3):
        v = view(g, seat)
        w = MatgoState.from_view(v, random.Random(seat))
        assert isinstance(w.rules, GostopRules)
        # every key but last_played, which comes from the move history a view lacks
        a, b = annotate(view(w, seat)), annotate(view(g, seat))
        assert {k: x for k, x in a.items() if k != "last_played"} == {
            k: x for k, x in b.items() if k != "last_played"
        }
        assert w.total_cards() == g.rules.deck_mask
        if g.current == seat:
            assert w.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("stop_points", [3, 12])  # 12: mostly 나가리 at random
def test_the_winner_deals_the_next_game_and_nagari_carries(stop_points: int) -> None:
    rng = random.Random(3)
    options = {"nagari_dealer": "next", "nagari_carry": "double", "stop_points": stop_points}
    s = session("default", 3, options)
    won = nagari = 0
    for _ in range(30):
        play_out(s, rng)
        g = s.match.game
        dealer = g.dealer
        s.next_game()
        after = s.match.game
        if g.winner is not None:
            assert (after.dealer, after.carry) == (g.winner, 1)
            won += 1
        elif g.end_reason == "nagari":
            assert (after.dealer, after.carry) == ((dealer + 1) % 3, 2)
            nagari += 1
        assert sum(s.series.balances) == 0
    assert won and (nagari or stop_points == 3)
    assert NagariDealer.NEXT is s.match.rules.nagari_dealer
    assert NagariCarry.DOUBLE is s.match.rules.nagari_carry


def test_the_first_dealer_draw_redraws_ties_among_the_tied() -> None:
    for seed in range(200):
        for rule, pick in ((FirstDealer.HIGH, max), (FirstDealer.NIGHT_LOW, min)):
            dealer, rounds = draw_first_dealer(GostopRules(first_dealer=rule), random.Random(seed))
            drawing = [0, 1, 2]
            for months in rounds:
                assert [s for s in range(3) if months[s] is not None] == drawing
                best = pick(m for m in months if m is not None)
                drawing = [s for s in drawing if months[s] == best]
            assert drawing == [dealer]
    assert any(len(draw_first_dealer(GostopRules(), random.Random(s))[1]) > 1 for s in range(200))


def test_a_deal_is_fixed_by_its_seed() -> None:
    a, b = deal(None, 7), deal(GostopRules(), 7)
    assert a.match.game.deck == b.match.game.deck and a.match.game.dealer == 7 % 3
    assert deal(None, 8).match.game.deck != a.match.game.deck


def test_frames_follow_the_record_with_every_hand() -> None:
    rng = random.Random(1)
    s = session("classic", 1)
    play_out(s, rng)
    record = s.record()
    assert replay(record).snapshot()[:2] == s.match.game.snapshot()[:2]
    out = frames(record)
    assert len(out) == len(record["moves"]) + 1
    assert [len(h) for h in out[0]["view"]["hands"]] == [7, 7, 7]
    assert out[-1]["view"]["over"] and out[-1]["view"]["payments"] == s.view(None)["payments"]


def test_bad_input_is_a_typed_error() -> None:
    s = session("default", 1)
    with pytest.raises(IllegalActionError, match="no 선 뽑기"):
        s.redeal(b"k" * 32, first_picks=[[0, 1, 2]])
    with pytest.raises(RecordError, match="dealer"):
        from madang.gostop.game import GostopMatch

        GostopMatch(GostopRules(), seed=1, dealer=3)
    with pytest.raises(IllegalActionError, match="not over"):
        s.match.next_game()


def test_gostop_is_a_built_in_game() -> None:
    assert "gostop" in BUILTIN_SPECS and spec("gostop") is SPEC  # the browser has its board
    assert SPEC.seats == 3 and SPEC.rating == "placement"
    assert SPEC.presets()[0] == "default"


# ------------------------------------------------------------------ madang gostop


def _cli(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    stdin: str | None = None,
) -> tuple[int, str, str]:  # fmt: skip
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("name", ["01_jjok_steals_from_both", "02_first_bbeok", "03_gwang_sale"])
def test_replay_json_of_each_example(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(
        ["gostop", "replay", str(GOLDEN / f"{name}.json"), "--json"], capsys, monkeypatch
    )
    assert rc == 0 and err == ""
    got = json.loads(out)
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    for key in ("finished", "winner", "points", "sitting_out", "seller"):
        assert got[key] == expected[key], key
    assert [{k: p[k] for k in ("from", "to", "points")} for p in got["payments"]] == expected[
        "payments"
    ]
    assert got["next"] is None


def test_replay_of_a_finished_game_from_stdin_and_as_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(6)
    s = session("default", 6)
    play_out(s, rng)
    text = json.dumps(s.record())
    rc, out, _ = _cli(["gostop", "replay", "-", "--json"], capsys, monkeypatch, text)
    got = json.loads(out)
    assert rc == 0 and got["finished"] and got["winner"] == s.match.game.winner
    assert got["next"]["dealer"] in (0, 1, 2) and got["next"]["no_die"] == []
    assert sum(p["points"] for p in got["payments"]) == sum(p[2] for p in s.payments())
    rc, out, _ = _cli(["gostop", "replay", "-"], capsys, monkeypatch, text)
    assert rc == 0 and out.startswith("finished: ") and "next game: dealer" in out


def test_replay_text_of_a_gwang_sale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, _ = _cli(["gostop", "replay", str(GOLDEN / "03_gwang_sale.json")], capsys, monkeypatch)
    assert rc == 0 and out.splitlines() == [
        "in progress after 2 moves; waiting for {'seat': 0, 'question': 'play'}",
        "  player 3 sits out (sells 광)",
        "  1 pays 3 6 (gwang_sale)",
        "  2 pays 3 6 (gwang_sale)",
    ]


def test_score_json_and_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    piles = {"winner": ["01g", "03g", "08g"], "losers": [["11g"], []], "go": 1, "gobak": 0}
    rc, out, _ = _cli(["gostop", "score", "--json"], capsys, monkeypatch, json.dumps(piles))
    got = json.loads(out)
    assert rc == 0 and (got["base"], got["points"]) == (4, 4)
    assert got["pays"][1] == 0 and got["pays"][0] > 0  # 독박: loser 0 pays both shares
    rc, out, _ = _cli(["gostop", "score"], capsys, monkeypatch, json.dumps(piles))
    assert rc == 0 and "S = 4" in out


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["gostop", "score", "--json"], '{"winner": []}', "'losers'"),
        (["gostop", "score", "--json"], "[1", "malformed JSON"),
        (["gostop", "replay", "-", "--json"], '{"game": "matgo"}', "gostop"),
        (
            ["gostop", "replay", "-"],
            json.dumps(
                {
                    **json.loads((GOLDEN / "03_gwang_sale.json").read_text()),
                    "moves": ["join", "join", "die"],
                }
            ),
            "move 2 ('die'): die is not legal now",
        ),
    ],
)
def test_bad_input_is_one_error_line(
    args: list[str], stdin: str | None, message: str,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    rc, out, err = _cli(args, capsys, monkeypatch, stdin)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("madang: error: ") and message in err, err
