"""Records and the ``madang matgo`` command line, per ``notation.md``'s contracts."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from madang.cli import main
from madang.core.errors import RecordError
from madang.matgo.engine import new_game
from madang.matgo.record import export_record, load_record, replay, replay_json
from madang.matgo.rules import MatgoRules

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "matgo"
GOLDEN_NAMES = sorted(
    p.name[: -len(".json")] for p in GOLDEN.glob("*.json") if ".expected" not in p.name
)


def _golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _cli(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    stdin: str | None = None,
) -> tuple[int, str, str]:  # fmt: skip
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


def _one_error_line(rc: int, out: str, err: str) -> str:
    assert rc == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("madang: error: ")
    return lines[0]


# ------------------------------------------------------------------ replay


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_replay_json_of_each_example(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(["matgo", "replay", str(GOLDEN / f"{name}.json"), "--json"], capsys,
                        monkeypatch)  # fmt: skip
    assert rc == 0 and err == ""
    assert out.count("\n") == 1
    got = json.loads(out)
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    for key in ("finished", "winner", "points"):
        assert got[key] == expected[key]
    assert [{k: p[k] for k in ("from", "to", "points")} for p in got["payments"]] == expected[
        "payments"
    ]
    for p in got["payments"]:
        assert set(p) >= {"from", "to", "points", "reason"} and isinstance(p["reason"], str)


def test_replay_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _golden("02_ppeok_taken_back")
    rc, out, _ = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, json.dumps(record))
    assert rc == 0
    assert json.loads(out)["points"] == 14


def test_replay_text_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, _ = _cli(["matgo", "replay", str(GOLDEN / "01_plain_stop.json")], capsys, monkeypatch)
    assert rc == 0 and "wins 7" in out


def test_a_record_stopped_early(
    mg: SimpleNamespace, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # P0 makes 뻑 on turns 1 and 2 (첫뻑 7, 연뻑 14); the record stops before turn 3
    g = mg.game(
        dealer_hand="01p2 02p2 03p2",
        other_hand="09p1 10p1",
        floor="01p1 02p1 03p1 09p2 10p2",
        pile="01r 11p1 02r 12g 03r",
        moves=["play 01p2", "play 09p1", "play 02p2", "play 10p1"],
    )
    record = export_record(g)
    rc, out, _ = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, json.dumps(record))
    got = json.loads(out)
    assert rc == 0
    assert got["finished"] is False and got["winner"] is None and got["points"] == 0
    assert [(p["from"], p["to"], p["points"]) for p in got["payments"]] == [(1, 0, 7), (1, 0, 14)]
    # the same record with the last move: 3연뻑 ends the game, 49 paid in all
    record["moves"].append("play 03p2")
    got = replay_json(record)
    assert got["finished"] is True and got["winner"] == 0 and got["points"] == 7
    assert sum(p["points"] for p in got["payments"]) == 49


def test_empty_moves_is_a_game_in_progress() -> None:
    rec = _golden("01_plain_stop")
    rec["moves"] = []
    got = replay_json(rec)
    assert got["finished"] is False and got["payments"] == []
    assert got["pending"] == {"seat": 1, "question": "play"}


@pytest.mark.parametrize("index", [0, 3, 7, 8], ids=["first", "middle", "at-go-stop", "after-end"])
def test_an_illegal_move_names_its_index(
    index: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = _golden("02_ppeok_taken_back")  # 8 moves; 12d lies in the draw pile throughout
    if index < len(rec["moves"]):
        rec["moves"][index] = "play 12d"
    else:
        rec["moves"].append("play 01p2")  # the game is over after move 7
    rc, out, err = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, json.dumps(rec))
    line = _one_error_line(rc, out, err)
    assert re.search(rf"\bmove {index}\b", line), line
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index == index


@pytest.mark.parametrize(
    ("move", "index"),
    [("play 13g", 1), ("dance", 2), ("pick", 0), (5, 1)],
    ids=["unknown-card", "unknown-move", "pick-without-card", "not-a-string"],
)
def test_a_malformed_move_names_its_index(
    move: Any, index: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = _golden("01_plain_stop")
    rec["moves"][index] = move
    rc, out, err = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, json.dumps(rec))
    line = _one_error_line(rc, out, err)
    assert re.search(rf"\bmove {index}\b", line), line


def _mutated(change: str) -> str:
    rec = _golden("01_plain_stop")
    if change == "not-json":
        return '{"game": "matgo", "deck": ['
    if change == "not-an-object":
        return json.dumps([rec])
    if change == "bad-card":
        rec["deck"][5] = "13g"
    elif change == "duplicate-card":
        rec["deck"][5] = rec["deck"][6]
    elif change == "missing-card":
        rec["deck"].pop()
    elif change == "extra-card":
        rec["deck"].append("b2x")
    elif change == "unknown-rules-option":
        rec["rules"] = {"jabbeok": False, "no_such_rule": 1}
    elif change == "bad-rules-value":
        rec["rules"] = {"bonus_cards": "4+4"}
    elif change == "rules-not-an-object":
        rec["rules"] = ["jabbeok"]
    elif change == "deck-for-other-rules":
        rec["rules"] = {"bonus_cards": "none"}
    elif change == "dealer-2":
        rec["dealer"] = 2
    elif change == "dealer-true":
        rec["dealer"] = True
    elif change == "no-deck":
        del rec["deck"]
    elif change == "no-moves":
        del rec["moves"]
    elif change == "moves-not-a-list":
        rec["moves"] = "play 02a"
    elif change == "other-game":
        rec["game"] = "mahjong"
    elif change == "unknown-field":
        rec["seed"] = 5
    elif change == "carry-3":
        rec["carry"] = 3
    elif change == "deck-of-ints":
        rec["deck"] = list(range(50))
    else:  # pragma: no cover
        raise AssertionError(change)
    return json.dumps(rec)


MALFORMED = [
    "not-json", "not-an-object", "bad-card", "duplicate-card", "missing-card", "extra-card",
    "unknown-rules-option", "bad-rules-value", "rules-not-an-object", "deck-for-other-rules",
    "dealer-2", "dealer-true", "no-deck", "no-moves", "moves-not-a-list", "other-game",
    "unknown-field", "carry-3", "deck-of-ints",
]  # fmt: skip


@pytest.mark.parametrize("change", MALFORMED)
def test_malformed_records(
    change: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _mutated(change)
    rc, out, err = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, text)
    _one_error_line(rc, out, err)


def test_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(["matgo", "replay", str(tmp_path / "nope.json"), "--json"], capsys,
                        monkeypatch)  # fmt: skip
    _one_error_line(rc, out, err)


def test_export_record_round_trip(mg: SimpleNamespace) -> None:
    for seed in range(20):
        g = new_game(seed=seed, dealer=seed % 2)
        while not g.over:
            g.step(g.legal_actions()[-1])
        rec = export_record(g)
        assert json.loads(json.dumps(rec)) == rec
        assert set(rec) >= {"game", "rules", "dealer", "deck", "moves"}
        assert rec["game"] == "matgo" and rec["rules"] == MatgoRules().to_dict()
        assert rec["ruleset"] == "1"
        assert replay(rec).snapshot() == g.snapshot()
        state, moves = load_record(rec)
        assert moves == rec["moves"] and state.deck == g.deck


def test_record_keeps_rules_and_carry() -> None:
    from madang.matgo.rules import PRESETS

    g = new_game(PRESETS["tournament"], seed=4, carry=2)
    while not g.over:
        g.step(g.default_action())
    rec = export_record(g)
    assert rec["rules"] == PRESETS["tournament"].to_dict() and rec["carry"] == 2
    assert {k: rec["rules"][k] for k in ("jabbeok", "gukjin")} == {
        "jabbeok": False,
        "gukjin": "before_score",
    }
    again = replay(json.loads(json.dumps(rec)))
    assert again.rules == g.rules and again.carry == 2 and again.points == g.points


# ------------------------------------------------------------------ score

_GUKJIN_LOSER = ["09a", "06p1", "06p2", "07p1", "07p2", "08p1", "08p2"]
_TEN_PI = ["01p1", "01p2", "02p1", "02p2", "03p1", "03p2", "04p1", "04p2", "05p1", "05p2"]


@pytest.mark.parametrize(
    ("data", "base", "points"),
    [
        pytest.param({"winner": ["01g", "03g", "08g"], "loser": ["12g"]}, 3, 3, id="3-gwang"),
        pytest.param({"winner": ["01g", "03g", "08g"], "loser": []}, 3, 6, id="gwangbak"),
        pytest.param({"winner": ["01g", "03g", "08g", "11g"], "loser": ["12g"], "go": 3}, 7, 14,
                     id="go-3"),
        pytest.param({"winner": ["01g", "03g", "08g", "11g"], "loser": ["12g"],
                      "loser_went_go": True}, 4, 8, id="gobak"),
        pytest.param({"winner": ["01g", "03g", "08g", "11g"], "loser": ["12g"], "shakes": 2},
                     4, 16, id="two-shakes"),
        pytest.param({"winner": ["01g", "03g", "08g", "11g"], "loser": ["12g"], "carry": 4},
                     4, 16, id="carry-4"),
        pytest.param({"winner": _TEN_PI, "loser": _GUKJIN_LOSER}, 1, 1, id="gukjin-default-best"),
        pytest.param({"winner": _TEN_PI, "loser": _GUKJIN_LOSER, "gukjin": "best"}, 1, 1,
                     id="gukjin-best"),
        pytest.param({"winner": _TEN_PI, "loser": _GUKJIN_LOSER, "gukjin": "animal"}, 1, 2,
                     id="gukjin-animal-pibak"),
        pytest.param({"winner": _TEN_PI, "loser": _GUKJIN_LOSER, "gukjin": "pi"}, 1, 1,
                     id="gukjin-pi"),
        pytest.param({"winner": ["09a", *_TEN_PI[:8], "01g", "03g", "08g"],
                      "loser": ["06p1", "11g"], "gukjin": "pi"}, 4, 8, id="winner-gukjin-pi"),
        pytest.param({"winner": ["09a", *_TEN_PI[:8], "01g", "03g", "08g"],
                      "loser": ["06p1", "11g"], "gukjin": "animal"}, 3, 3,
                     id="winner-gukjin-animal"),
        pytest.param({"winner": _TEN_PI, "loser": ["12g"], "rules": {"pibak_zero_pi": True}},
                     1, 2, id="rules-pibak-zero-pi"),
        pytest.param({"winner": ["02a", "04a", "05a", "06a", "07a", "08a", "10a"],
                      "loser": ["12a"], "rules": {"meong": "meongbak"}}, 8, 8, id="rules-meongbak"),
        pytest.param({"winner": [*_TEN_PI[:9], "b2x"], "loser": ["12g", "06p1"],
                      "rules": {"bonus_cards": "2+2+2"}}, 2, 4, id="rules-2+2+2"),
    ],
)  # fmt: skip
def test_score_json(
    data: dict[str, Any], base: int, points: int, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    rc, out, err = _cli(["matgo", "score", "--json"], capsys, monkeypatch, json.dumps(data))
    assert rc == 0 and err == "" and out.count("\n") == 1
    got = json.loads(out)
    assert got["base"] == base and got["points"] == points


def test_score_text_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"winner": ["01g", "03g", "08g"], "loser": []}
    rc, out, _ = _cli(["matgo", "score"], capsys, monkeypatch, json.dumps(data))
    assert rc == 0 and "points: 6" in out


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("not json", id="not-json"),
        pytest.param("[]", id="not-an-object"),
        pytest.param('{"loser": []}', id="no-winner"),
        pytest.param('{"winner": []}', id="no-loser"),
        pytest.param('{"winner": "01g 03g", "loser": []}', id="winner-a-string"),
        pytest.param('{"winner": ["13g"], "loser": []}', id="unknown-card"),
        pytest.param('{"winner": ["01g", "01g"], "loser": []}', id="card-twice"),
        pytest.param('{"winner": ["01g"], "loser": ["01g"]}', id="card-in-both"),
        pytest.param('{"winner": ["b2x"], "loser": []}', id="bonus-not-in-rules"),
        pytest.param('{"winner": ["b3"], "loser": [], "rules": {"bonus_cards": "none"}}',
                     id="bonus-with-none"),
        pytest.param('{"winner": [], "loser": [], "go": -1}', id="go-negative"),
        pytest.param('{"winner": [], "loser": [], "go": "2"}', id="go-string"),
        pytest.param('{"winner": [], "loser": [], "go": true}', id="go-bool"),
        pytest.param('{"winner": [], "loser": [], "shakes": -1}', id="shakes-negative"),
        pytest.param('{"winner": [], "loser": [], "carry": 3}', id="carry-3"),
        pytest.param('{"winner": [], "loser": [], "carry": 0}', id="carry-0"),
        pytest.param('{"winner": [], "loser": [], "loser_went_go": 1}', id="went-go-int"),
        pytest.param('{"winner": [], "loser": [], "gukjin": "ssangpi"}', id="gukjin-bad"),
        pytest.param('{"winner": [], "loser": [], "rules": {"nope": 1}}', id="unknown-rule"),
        pytest.param('{"winner": [], "loser": [], "stakes": 1}', id="unknown-field"),
    ],
)  # fmt: skip
def test_score_bad_input(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(["matgo", "score", "--json"], capsys, monkeypatch, text)
    _one_error_line(rc, out, err)


# ------------------------------------------------------------------ the real command


def test_console_script_subprocess(tmp_path: Path) -> None:
    exe = shutil.which("madang")
    cmd = [exe] if exe else [sys.executable, "-m", "madang"]
    path = GOLDEN / "04_go2_pibak.json"
    done = subprocess.run(
        [*cmd, "matgo", "replay", str(path), "--json"], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["finished"] is True and got["winner"] == 0 and got["points"] == 32
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "matgo"', encoding="utf-8")
    done = subprocess.run(
        [*cmd, "matgo", "replay", str(bad), "--json"], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    done = subprocess.run(
        [*cmd, "matgo", "score", "--json"], input='{"winner": ["01g","03g","08g"], "loser": []}',
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["points"] == 6


def test_a_move_with_superscript_digits_is_a_clean_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = _golden("01_plain_stop")
    rec["moves"][0] = "bomb \u00b9\u00b2"
    rc, out, err = _cli(["matgo", "replay", "-", "--json"], capsys, monkeypatch, json.dumps(rec))
    line = _one_error_line(rc, out, err)
    assert re.search(r"\bmove 0\b", line), line
