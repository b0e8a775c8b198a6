"""``madang mahjong score --json``: the notation.md contract, valid and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from madang.cli import main

BASE_INPUT: dict[str, Any] = {
    "hand": "123m 567m 234p 789p 55p",
    "melds": [],
    "win": "6m",
    "by": "ron",
    "seat": "2z",
    "round": "1z",
    "flowers": 0,
    "flags": [],
    "rules": {},
}


def run(
    obj: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["mahjong", "score", "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def with_(**changes: Any) -> dict[str, Any]:
    obj = dict(BASE_INPUT)
    obj.update(changes)
    return obj


def without(key: str) -> dict[str, Any]:
    obj = dict(BASE_INPUT)
    del obj[key]
    return obj


def test_valid_hand(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(BASE_INPUT, monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    result = json.loads(out)
    assert result["valid"] is True
    assert (result["base_pan"], result["extra_pan"], result["points"]) == (1, 1, 7)
    assert result["base_items"] == [{"name": "menjen", "name_ko": "멘젠", "pan": 1}]
    assert result["extra_items"] == [{"name": "gensyo", "name_ko": "겐쇼", "pan": 1}]
    assert result["payment"] == {"discarder": 14}
    assert result["wait"] == "closed"


def test_full_example(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    obj = {
        "hand": "1m2m3m 66p",
        "melds": ["pon 5z", "kan 3p", "ankan 1z"],
        "win": "6p",
        "by": "tsumo",
        "seat": "1z",
        "round": "1z",
        "flowers": 2,
        "flags": ["kan_draw"],
        "rules": {"min_pan": 2, "pan_value": 2},
        "pot": 5,
    }
    code, out, _ = run(obj, monkeypatch, capsys)
    assert code == 0
    result = json.loads(out)
    # 기본판: 자기 바람패 + 판 바람패 (1z, dealer in the East round) + 귀족패 (5z) = 3
    # 부가판: 꽃 2 + 겐쇼 2 (66p) + 깡올라 5 = 9; not 멘젠 (pon, open kan)
    assert result["valid"] is True
    assert (result["base_pan"], result["extra_pan"]) == (3, 9)
    assert result["points"] == 12 * 2 + 5
    assert result["payment"] == {"each": 29, "total": 87}


def test_kan_draw_with_haitei_adds_both(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A kan's replacement that was the last wall tile: 깡올라 5 + 하이떼이 올라 5.
    obj = {
        "hand": "123m 567m 234p 55p",
        "melds": ["ankan 9p"],
        "win": "6m",
        "by": "tsumo",
        "seat": "2z",
        "round": "1z",
        "flags": ["kan_draw", "haitei"],
    }
    code, out, err = run(obj, monkeypatch, capsys)
    assert code == 0 and err == ""
    result = json.loads(out)
    extras = {i["name"]: i["pan"] for i in result["extra_items"]}
    assert extras["kkang_olla"] == 5 and extras["haitei_olla"] == 5


def test_invalid_shape_is_valid_false(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(with_(hand="123m 567m 234p 789p 5p 6m", win="6m"), monkeypatch, capsys)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["valid"] is False
    assert (result["base_pan"], result["extra_pan"], result["points"]) == (0, 0, 0)


def test_under_minimum_is_valid_false(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(with_(rules={"min_pan": 3}, flowers=4), monkeypatch, capsys)
    assert code == 0
    result = json.loads(out)
    assert result["valid"] is False
    assert (result["base_pan"], result["extra_pan"], result["points"]) == (0, 0, 0)


def test_optional_keys_may_be_left_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = {k: BASE_INPUT[k] for k in ("hand", "win", "by", "seat", "round")}
    code, out, _ = run(obj, monkeypatch, capsys)
    assert code == 0 and json.loads(out)["points"] == 7


def test_any_order_and_grouping(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(with_(hand="5p7m2p1m6m5p9p3m3p7p4p2m5m8p"), monkeypatch, capsys)
    assert code == 0 and json.loads(out)["points"] == 7


BAD_INPUTS = [
    pytest.param("{", id="malformed-json"),
    pytest.param("[1, 2]", id="not-an-object"),
    pytest.param(without("hand"), id="missing-hand"),
    pytest.param(without("win"), id="missing-win"),
    pytest.param(without("by"), id="missing-by"),
    pytest.param(without("seat"), id="missing-seat"),
    pytest.param(without("round"), id="missing-round"),
    pytest.param(with_(extra=1), id="unknown-key"),
    pytest.param(with_(hand=123), id="hand-not-a-string"),
    pytest.param(with_(hand="123m 567m 234p 789p 55s"), id="bamboo-tile"),
    pytest.param(with_(hand="123m 567m 234p 789p 50p"), id="tile-0p"),
    pytest.param(with_(hand="123m 567m 234p 789p 58z"), id="tile-8z"),
    pytest.param(with_(hand="123m 567m 234p 789p 55p1f"), id="flower-in-hand"),
    pytest.param(with_(hand="123m 567m 234p 789p 5p"), id="13-tiles"),
    pytest.param(with_(hand="111m 567m 234p 789p 11m", win="5m"), id="fifth-copy"),
    pytest.param(with_(melds=["pon 1m"], hand="11m 567m 234p 789p 6m"), id="fifth-copy-meld"),
    pytest.param(with_(win="4m"), id="win-not-in-hand"),
    pytest.param(with_(win="6m6m"), id="win-two-tiles"),
    pytest.param(with_(win=6), id="win-not-a-string"),
    pytest.param(with_(by="draw"), id="by-unknown"),
    pytest.param(with_(by=None), id="by-null"),
    pytest.param(with_(seat="5z"), id="seat-dragon"),
    pytest.param(with_(seat="1m"), id="seat-suit-tile"),
    pytest.param(with_(round="east"), id="round-not-a-tile"),
    pytest.param(with_(seat=1), id="seat-not-a-string"),
    pytest.param(with_(flowers="x"), id="flowers-string"),
    pytest.param(with_(flowers=5), id="flowers-5"),
    pytest.param(with_(flowers=-1), id="flowers-negative"),
    pytest.param(with_(flowers=True), id="flowers-bool"),
    pytest.param(with_(flowers=1.0), id="flowers-float"),
    pytest.param(with_(flags=["riichi"]), id="unknown-flag"),
    pytest.param(with_(flags="eopeo"), id="flags-not-a-list"),
    pytest.param(with_(flags=[1]), id="flag-not-a-string"),
    pytest.param(with_(flags=["eopeo", "eopeo"]), id="flag-twice"),
    pytest.param(with_(flags=["eopeo", "bulleo"]), id="eopeo-and-bulleo"),
    pytest.param(with_(flags=["eopeo", "double_eopeo"]), id="eopeo-and-double-eopeo"),
    pytest.param(with_(flags=["kan_draw"]), id="kan-draw-with-ron"),
    pytest.param(with_(flags=["robbed_kan"], by="tsumo"), id="robbed-kan-with-tsumo"),
    pytest.param(with_(flags=["first_draw"], seat="1z"), id="first-draw-dealer-ron"),
    pytest.param(
        with_(melds=["pon 9p"], hand="123m 567m 234p 55p", flags=["bulleo"]), id="bulleo-open-hand"
    ),
    pytest.param(with_(melds=["chi 1m"]), id="unknown-meld-kind"),
    pytest.param(with_(melds="pon 5z"), id="melds-not-a-list"),
    pytest.param(with_(melds=[["pon", "5z"]]), id="meld-not-a-string"),
    pytest.param(with_(melds=["pon 5z6z"]), id="meld-two-kinds"),
    pytest.param(with_(rules={"min_pan": 1}), id="rules-bad-min-pan"),
    pytest.param(with_(rules={"speed": 2}), id="rules-unknown-option"),
    pytest.param(with_(rules=[]), id="rules-not-an-object"),
    pytest.param(with_(pot=-5), id="pot-negative"),
    pytest.param(with_(pot="5"), id="pot-string"),
]


@pytest.mark.parametrize("obj", BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(
    obj: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(obj, monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("madang: error: ")


def test_text_output(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(BASE_INPUT)))
    assert main(["mahjong", "score"]) == 0
    out = capsys.readouterr().out
    assert "멘젠 (menjen)" in out and "points: 7" in out


def test_file_argument(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(BASE_INPUT), encoding="utf-8")
    assert main(["mahjong", "score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == 7


def test_subprocess_contract() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "madang", "mahjong", "score", "--json"],
        input=json.dumps(BASE_INPUT),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["valid"] is True
    bad = subprocess.run(
        [sys.executable, "-m", "madang", "mahjong", "score", "--json"],
        input=json.dumps(with_(flowers="x")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1


# ---- `madang mahjong replay FILE --json` is wired to record.replay_json ------------


def test_replay_wiring(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    folder = Path(__file__).parent.parent / "golden" / "mahjong"
    records = [p for p in sorted(folder.glob("*.json")) if not p.name.endswith(".expected.json")]
    if not records:
        pytest.skip("no mahjong golden record yet")
    assert main(["mahjong", "replay", str(records[0]), "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    result = json.loads(out)
    assert {"finished", "winners", "points", "payments"} <= set(result)


@pytest.mark.parametrize(
    "text", ["{", "[]", '{"game": "mahjong"}'], ids=["malformed", "list", "empty"]
)
def test_replay_bad_record_exits_2(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["mahjong", "replay", "-", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
