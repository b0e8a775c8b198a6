"""Mahjong records: golden records, export/replay round trips, bad records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from madang.core.errors import RecordError
from madang.mahjong.engine import build_wall, default_action, new_hand, step
from madang.mahjong.record import export_record, replay, replay_json
from madang.mahjong.state import Action

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "mahjong"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 3


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text("utf-8"))
    out = replay_json(record)
    json.dumps(out)
    for key, value in expected.items():
        if key == "results":
            got = [{k: r[k] for k in value[i]} for i, r in enumerate(out["results"])]
            assert got == value
        else:
            assert out[key] == value, key
    # the export of the replayed hand is the record itself
    st = replay(record)
    again = export_record(st)
    assert again["moves"] == record["moves"] and again["wall"] == record["wall"]
    assert sum(p["points"] for p in out["payments"] if p["to"] == 0) - sum(
        p["points"] for p in out["payments"] if p["from"] == 0
    ) == sum(p["points"] * ((p["to"] == 0) - (p["from"] == 0)) for p in out["payments"])


def base_record() -> dict[str, Any]:
    hands = ["147m258p369p1234z", "258m147p55z1236z7z", "123m456m789m234p5z", "369m369p123467z5p"]
    return {
        "game": "mahjong",
        "rules": {},
        "dealer": 0,
        "round": "1z",
        "pot": 0,
        "wall": build_wall(hands, draws="5z"),
        "moves": ["0 discard 5z", "1 pon", "2 pass", "1 discard 7z"],
    }


def test_unfinished_record() -> None:
    rec = base_record()
    rec["moves"] = rec["moves"][:2]
    out = replay_json(rec)
    assert out["finished"] is False and out["winners"] == [] and out["pending"] == [2]


def test_claim_answers_are_recorded_in_turn_order() -> None:
    rec = base_record()
    rec["moves"] = ["0 discard 5z", "2 pass", "1 pon"]
    st = replay(rec)
    assert export_record(st)["moves"] == ["0 discard 5z", "1 pon", "2 pass"]


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        (["0 discard 5z", "1 pon", "2 pass", "1 discard 8z"], 3),  # malformed tile
        (["0 discard 5z", "3 pass"], 1),  # seat 3 is not asked
        (["0 discard 2m"], 0),  # seat 0 does not hold 2m
        (["1 discard 5z"], 0),  # not seat 1's turn
        (["0 discard 5z", "2 ron", "1 pass", "0 discard 1m"], 3),  # after the end
        (["0 discard 5z", 7], 1),  # not a string
        (["0 discard 5z", "1 chi"], 1),  # unknown verb
    ],
    ids=["bad-tile", "not-asked", "not-held", "wrong-turn", "after-end", "not-text", "chi"],
)
def test_bad_move_names_its_index(moves: list[Any], index: int) -> None:
    rec = base_record()
    rec["moves"] = moves
    with pytest.raises(RecordError) as info:
        replay_json(rec)
    assert info.value.index == index


@pytest.mark.parametrize(
    "change",
    [
        {"game": "matgo"},
        {"rules": {"min_pann": 2}},
        {"rules": {"min_pan": 1}},
        {"dealer": 4},
        {"dealer": "0"},
        {"round": "5z"},
        {"pot": -5},
        {"moves": "0 discard 5z"},
        {"wall": ["1m"] * 104},
        {"wall": "1m"},
        {"extra": 1},
    ],
    ids=lambda c: next(iter(c)),
)
def test_bad_record_fields(change: dict[str, Any]) -> None:
    rec = {**base_record(), **change}
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index is None


def test_missing_wall_and_not_an_object() -> None:
    rec = base_record()
    del rec["wall"]
    with pytest.raises(RecordError):
        replay(rec)
    with pytest.raises(RecordError):
        replay([1, 2])


def test_defaults_for_optional_fields() -> None:
    rec = base_record()
    for key in ("game", "rules", "dealer", "round", "pot"):
        del rec[key]
    assert replay_json(rec)["pending"] == [2]


def test_export_replay_round_trip_with_situation() -> None:
    st = new_hand({"min_pan": 2, "ron_pays": 1}, seed=21, dealer=3, round_wind=19, pot=15)
    for _ in range(30):
        if st.over:
            break
        step(st, default_action(st, st.pending[0]))
    rec = json.loads(json.dumps(export_record(st)))
    assert rec["rules"]["min_pan"] == 2 and rec["round"] == "2z" and rec["dealer"] == 3
    assert replay(rec).snapshot() == st.snapshot()


def test_replay_json_reports_a_win() -> None:
    rec = base_record()
    rec["moves"] = ["0 discard 5z", "1 pass", "2 ron"]
    out = replay_json(rec)
    assert out["finished"] and out["winners"] == [2]
    assert out["payments"] == [
        {"from": 0, "to": 2, "points": 2 * out["points"][0], "reason": "ssoa"}
    ]
    assert Action.parse(rec["moves"][-1]).verb == "ron"
