"""고스톱 records (``gostop.md`` §11): the example records replay to their expected
result, records round-trip, and bad input is a typed error that changes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from madang.core.errors import RecordError, RuleConfigError
from madang.gostop.record import export_record, next_game, replay, replay_json
from madang.gostop.rules import GostopRules, NagariCarry, NagariDealer
from madang.matgo.engine import new_game

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "gostop"
EXPECTED_KEYS = ("finished", "winner", "points", "sitting_out", "seller")


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


@pytest.mark.parametrize("name", ["01_jjok_steals_from_both", "02_first_bbeok", "03_gwang_sale"])
def test_example_records_replay_as_expected(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    out = replay_json(_record(name))
    assert {k: out[k] for k in EXPECTED_KEYS} == {k: expected[k] for k in EXPECTED_KEYS}
    assert [{k: p[k] for k in ("from", "to", "points")} for p in out["payments"]] == expected[
        "payments"
    ]
    assert out["next"] is None


def test_the_gwang_sale_example() -> None:
    # §13.15: P3's 01g 11g 12g with a May triple sells for 1 x 3 x 2 = 6 from P1 and P2;
    # its seven cards lie under the pile, the first dealt flipped first of them
    g = replay(_record("03_gwang_sale"))
    assert (g.sitter, g.seller, g.current) == (3, 3, 0)
    assert [c for c in reversed(g.pile[:7])] == [g.deck[i] for i in (8, 9, 10, 11, 25, 26, 27)]
    assert len(g.pile) == 24 and not g.hands[3]


def test_records_round_trip_and_report_s() -> None:
    ends = set()
    for seed in range(40):
        g = new_game(GostopRules(), seed=seed, dealer=seed % 3, carry=1 + (seed % 2))
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
        rec = json.loads(json.dumps(export_record(g)))
        assert replay(rec).snapshot() == g.snapshot()
        out = replay_json(rec)
        ends.add(out["end"])
        if out["end"] in ("stop", "last_card"):
            assert out["points"] == g.sheets[0].stake <= g.points
            assert out["next"] == {"dealer": g.winner, "carry": 1, "no_die": []}
    assert {"stop", "last_card"} <= ends


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 2}, "'players' must be one of 3, 4"),
        ({"players": 5}, "'players' must be one of 3, 4"),
        ({"players": "3"}, "players must be an integer"),
        ({"rules": {"players": 4}}, "the rules say 4 players, the record 3"),
        ({"dealer": 3}, "dealer must be a seat from 0 to 2"),
        ({"no_die": [1]}, "no_die is for 4 players"),
        ({"carry": 0}, "carry must be a power of two"),
        ({"deck": ["01g"]}, "does not match the rules"),
        ({"game": "matgo"}, "not a gostop record"),
        ({"extra": 1}, "unknown gostop record field"),
        ({"rules": {"missions": True}}, "unknown gostop rules option 'missions'"),
    ],
)
def test_bad_records_are_typed_errors(change: dict[str, Any], message: str) -> None:
    rec = {**_record("02_first_bbeok"), **change}
    with pytest.raises((RecordError, RuleConfigError), match=message):
        replay(rec)


def test_an_illegal_move_names_its_index() -> None:
    rec = _record("02_first_bbeok")
    rec["moves"] = [*rec["moves"][:1], "go", *rec["moves"][1:]]
    with pytest.raises(RecordError, match=r"move 1 \('go'\): go is not legal now") as err:
        replay(rec)
    assert err.value.index == 1


@pytest.mark.parametrize(
    ("rules", "want"),
    [
        (GostopRules(), {"dealer": 0, "carry": 4, "no_die": []}),
        (GostopRules(nagari_carry=NagariCarry.DOUBLE), {"dealer": 0, "carry": 2, "no_die": []}),
        (GostopRules(nagari_dealer=NagariDealer.NEXT), {"dealer": 1, "carry": 4, "no_die": []}),
    ],
)
def test_next_game_after_nagari(rules: GostopRules, want: dict[str, Any]) -> None:
    # §13.12: a 나가리 leaves 선 (or passes it) and doubles the carry (x2 x2 = 4, or 2)
    for seed in range(2000):
        g = new_game(rules, seed=seed, carry=2)
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
        if g.end_reason == "nagari":
            assert next_game(g) == want
            return
    raise AssertionError("no 나가리 in 2000 games")  # pragma: no cover
