"""Bots outside Madang (``docs/bot-protocol.md``): the example bot in the arena of each
game, every kind of bad answer played as the default move with its typed fault, the view
sent equal to the seat's view (and to the view of a re-dealt world), clean processes."""

from __future__ import annotations

import io
import json
import os
import random
import shlex
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from madang.arena import run_arena
from madang.bots import (
    AnswerTimeout,
    BotExited,
    BotLimits,
    Budget,
    GameFaults,
    GameInfo,
    IllegalAnswer,
    MalformedAnswer,
    ProtocolMismatch,
    decide,
    make_agent,
    make_bot,
    play,
)
from madang.bots.external import ExternalBot
from madang.cli import main
from madang.core.errors import RuleConfigError
from madang.core.game import Session
from madang.core.registry import spec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py"
PY = shlex.quote(sys.executable)

# One small test bot, its behaviour chosen by its first argument; the second (optional)
# is a file that gets every line the bot reads, the third one that gets its process id.
TEST_BOT = """
import json, os, sys, time
mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 and sys.argv[2] != "-" else None
if len(sys.argv) > 3:
    with open(sys.argv[3], "a") as f:
        f.write(f"{os.getpid()}\\n")
asked = 0
def say(obj):
    print(obj if isinstance(obj, str) else json.dumps(obj), flush=True)
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    m = json.loads(line)
    if m["type"] == "hello":
        say({"id": m["id"], "protocol": 2 if mode == "protocol" else 1})
    elif m["type"] == "request":
        asked += 1
        first = {"id": m["id"], "move": m["legal"][0]}
        if mode == "garbage":
            say("this is not JSON")
        elif mode == "illegal":
            say({"id": m["id"], "move": "play 99x"})
        elif mode == "sleep":
            time.sleep(60)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "wrong_id":
            say({"id": m["id"] + 5, "move": m["legal"][0]})
        elif mode == "no_move":
            say({"id": m["id"], "move": 7})
        elif mode == "once" and asked == 1:
            say("[1, 2")
        elif mode == "twice":
            say(first)
            say(first)
        else:
            say(first)
if mode == "stubborn":  # does not exit at the end of its input
    time.sleep(60)
"""

FAST = Budget(time_s=None, iterations=2)
LIMITS = BotLimits(limit_s=0.3, max_faults=2, start_s=10.0, close_s=0.5)


@pytest.fixture
def test_bot(tmp_path: Path) -> Callable[..., str]:
    path = tmp_path / "test_bot.py"
    path.write_text(TEST_BOT, encoding="utf-8")

    def command(mode: str, log: Path | None = None, pids: Path | None = None) -> str:
        words = [sys.executable, str(path), mode, str(log) if log else "-"]
        if pids is not None:
            words.append(str(pids))
        return shlex.join(words)

    return command


def reference(game: str, seed: int, moves0: Callable[[int, Session], str]) -> list[Any]:
    """The record's moves of a game of ``game`` (deal ``seed``) in which seat 0's k-th
    move is ``moves0(k, session)`` and every other seat plays ``first``."""
    g = spec(game)
    assert g.deal is not None
    s = g.deal(g.rules("default"), seed)
    first = make_bot(game, "first")
    faults = GameFaults()
    k = 0
    while not s.over:
        seat = s.pending()[0]
        if seat == 0:
            move = moves0(k, s)
            k += 1
        else:
            move = decide(s, seat, first, random.Random(0), FAST, faults)
        s.step(seat, move)
    return list(s.record()["moves"])


def play_one(game: str, seed: int, command: str) -> tuple[Session, GameFaults, ExternalBot]:
    g = spec(game)
    assert g.deal is not None
    s = g.deal(g.rules("default"), seed)
    bot = ExternalBot(command, limits=LIMITS)
    bots = [bot, *[make_bot(game, "first") for _ in range(g.seats - 1)]]
    faults = GameFaults(LIMITS.max_faults)
    try:
        play(s, bots, [random.Random(i) for i in range(g.seats)], FAST, faults=faults)
    finally:
        bot.close()
    return s, faults, bot


def gone(pid: int) -> bool:
    """Whether ``pid`` is no process any more: neither running nor a zombie (reaped)."""
    return not os.path.exists(f"/proc/{pid}")


# --- the example bot in the arena ----------------------------------------------------


def test_the_example_bot_plays_a_matgo_match_on_the_command_line() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(
            ["arena", "matgo", "--a", f"cmd:{PY} {shlex.quote(str(EXAMPLE))} 7", "--b",
             "greedy", "--games", "4", "--seed", "1", "--json", "--no-progress"]
        )  # fmt: skip
    assert rc == 0
    r = json.loads(out.getvalue())
    assert r["games"] == 4 and r["wins"]["a"] + r["wins"]["b"] + r["draws"] == 4
    assert r["decision_ms"]["a"]["decisions"] > 20
    assert r["faults"]["a"] == {
        "bot": r["a"], "total": 0, "kinds": {}, "broken_games": 0, "first": []
    }  # fmt: skip
    assert r["faults"]["b"]["total"] == 0
    assert r["limits"] == {"limit_ms": 1100.0, "start_ms": 10000.0, "max_faults": 3}


def test_the_example_bot_plays_mahjong_in_every_seat_in_worker_processes(
    tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    pids = tmp_path / "pids"
    others = "cmd:" + test_bot("good", pids=pids)
    r = run_arena(
        "mahjong",
        [f"cmd:{PY} {shlex.quote(str(EXAMPLE))} 3", others, others, others],
        deals=2,
        seed=4,
        workers=2,
        budget=FAST,
    )
    assert r["games"] == 8
    assert all(r["faults"][label]["total"] == 0 for label in ("a", "o1", "o2", "o3"))
    assert all(r["decision_ms"][label]["decisions"] > 0 for label in ("a", "o1", "o2", "o3"))
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 6  # three bots in each of two chunks, one process each
    assert all(gone(pid) for pid in started)


def test_a_faulty_bot_in_the_arena_shows_its_faults(test_bot: Callable[..., str]) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(
            ["arena", "matgo", "--a", f"cmd:{test_bot('illegal')}", "--b", "first", "--games",
             "2", "--max-faults", "2", "--limit-ms", "500", "--iterations", "2", "--no-progress"]
        )  # fmt: skip
    assert rc == 0
    text = out.getvalue()
    assert "faults A (cmd:" in text and "4 (illegal 4); broken in 2 game(s)" in text
    assert "'play 99x' is not one of the" in text


def test_bad_commands_fail_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    for name, words in [
        ("cmd:", "needs a command"),
        ('cmd:"python3 unbalanced', "cannot split"),
        ("cmd:no-such-bot-program-here", "not an executable"),
    ]:
        with pytest.raises(RuleConfigError, match=words):
            make_agent("matgo", name)
    assert main(["arena", "matgo", "--a", "cmd:no-such-bot-program-here", "--no-progress"]) != 0
    assert "not an executable" in capsys.readouterr().err
    with pytest.raises(RuleConfigError, match="max_faults"):
        BotLimits(max_faults=0)
    with pytest.raises(RuleConfigError, match="limit_s"):
        BotLimits(limit_s=-1)


# --- faults: each typed, the default move played, the game completed -------------------


@pytest.mark.parametrize(
    ("mode", "kind", "error"),
    [
        ("garbage", "malformed", MalformedAnswer),
        ("wrong_id", "malformed", MalformedAnswer),
        ("no_move", "malformed", MalformedAnswer),
        ("illegal", "illegal", IllegalAnswer),
        ("sleep", "timeout", AnswerTimeout),
        ("exit", "exited", BotExited),
        ("protocol", "protocol", ProtocolMismatch),
    ],
)
def test_a_bad_bot_gets_typed_faults_and_its_seat_plays_default_moves(
    mode: str, kind: str, error: type[Exception], test_bot: Callable[..., str]
) -> None:
    s, faults, bot = play_one("matgo", 5, test_bot(mode))
    assert s.over
    assert [f.kind for f in faults.faults] == [kind, kind]  # then broken: never asked again
    assert all(f.seat == 0 for f in faults.faults) and faults.broken(0)
    assert error.kind == kind  # type: ignore[attr-defined]
    # every move of seat 0 was the default move: the same game as a seat that only defaults
    assert s.record()["moves"] == reference("matgo", 5, lambda k, t: t.default_move(0))
    assert s.record()["moves"] != reference("matgo", 5, lambda k, t: t.legal(0)[0])
    assert bot.pid is None


def test_a_bad_mahjong_bot_plays_default_moves_to_the_end(test_bot: Callable[..., str]) -> None:
    s, faults, _ = play_one("mahjong", 2, test_bot("garbage"))
    assert s.over and [f.kind for f in faults.faults] == ["malformed", "malformed"]
    assert s.record()["moves"] == reference("mahjong", 2, lambda k, t: t.default_move(0))


def test_one_fault_is_forgiven_and_the_bot_plays_on(test_bot: Callable[..., str]) -> None:
    # mahjong deal 1: seat 0's default first discard (4z) is not its first legal move
    s, faults, _ = play_one("mahjong", 1, test_bot("once"))
    assert [(f.kind, f.decision) for f in faults.faults] == [("malformed", 0)]
    assert not faults.broken(0)
    expected = reference("mahjong", 1, lambda k, t: t.default_move(0) if k == 0 else t.legal(0)[0])
    assert s.record()["moves"] == expected
    assert expected != reference("mahjong", 1, lambda k, t: t.legal(0)[0])


def test_a_late_copy_of_an_answer_is_skipped(test_bot: Callable[..., str]) -> None:
    s, faults, _ = play_one("matgo", 6, test_bot("twice"))
    assert faults.faults == []
    assert s.record()["moves"] == reference("matgo", 6, lambda k, t: t.legal(0)[0])


def test_a_killed_or_exited_process_is_reaped_and_started_again(
    tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    for mode in ("sleep", "exit"):
        pids = tmp_path / f"pids-{mode}"
        _, _, bot = play_one("matgo", 5, test_bot(mode, pids=pids))
        started = [int(p) for p in pids.read_text().split()]
        assert len(started) == 2  # started again after the first fault
        assert all(gone(pid) for pid in started) and bot.pid is None


def test_close_ends_a_running_bot_and_a_bot_never_asked_starts_nothing(
    tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    pids = tmp_path / "pids"
    g = spec("matgo")
    assert g.deal is not None
    s = g.deal(g.rules("default"), 1)
    bot = ExternalBot(test_bot("good", pids=pids), limits=LIMITS)
    play(s, [bot, make_bot("matgo", "first")], [random.Random(0)] * 2, FAST)
    pid = bot.pid
    assert pid is not None and not gone(pid)  # alive between games
    bot.close()
    assert gone(pid) and bot.pid is None
    idle = ExternalBot(test_bot("good", pids=pids), limits=LIMITS)
    idle.close()
    assert pids.read_text().split() == [str(pid)]


def test_one_bot_process_plays_one_seat_at_a_time(test_bot: Callable[..., str]) -> None:
    g = spec("matgo")
    assert g.deal is not None
    bot = ExternalBot(test_bot("good"), limits=LIMITS)
    with pytest.raises(RuleConfigError, match="one seat at a time"):
        play(g.deal(g.rules("default"), 1), [bot, bot], [random.Random(0)] * 2, FAST)
    assert bot.pid is None


# --- what the bot is sent: the seat's view, nothing more ---------------------------------


def roundtrip(x: Any) -> Any:
    return json.loads(json.dumps(x))


class Spy:
    """A MoveBot around the external bot that checks, at every decision, that what it is
    given is the seat's view and legal moves and that the view leaks nothing (it is the
    same in a world where what the seat cannot see was dealt again)."""

    def __init__(self, inner: ExternalBot, session: Session, seat: int) -> None:
        self.inner, self.session, self.seat = inner, session, seat
        self.name = inner.name
        self.given: list[tuple[Any, list[str]]] = []
        self.result: dict[str, Any] = {}
        self.rng = random.Random(9)

    def begin(self, info: GameInfo) -> None:
        assert info.seat == self.seat
        self.inner.begin(info)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        s = self.session
        assert view == s.view(self.seat)
        assert legal == [s.action_to_string(a) for a in s.legal(self.seat)]
        assert s.resampled(self.seat, self.rng).view(self.seat) == view
        self.given.append((roundtrip(view), legal))
        return self.inner.choose(view, legal)

    def finish(self, result: dict[str, Any]) -> None:
        assert result["view"] == self.session.view(self.seat)
        assert self.session.resampled(self.seat, self.rng).view(self.seat) == result["view"]
        self.result = roundtrip(result)
        self.inner.finish(result)

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize(("game", "seed"), [("matgo", 3), ("mahjong", 4)])
def test_the_bot_is_sent_its_seats_view_and_nothing_hidden(
    game: str, seed: int, tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    """What the process reads is exactly what the runner gave: the seat's view (which
    leaks nothing, checked by the spy) and legal moves; hello and start carry the rules,
    the time and the seat, and nothing of the deal."""
    log = tmp_path / "received"
    g = spec(game)
    assert g.deal is not None
    s = g.deal(g.rules("default"), seed)
    seat = 1
    spy = Spy(ExternalBot(test_bot("good", log=log), limits=LIMITS), s, seat)
    bots: list[Any] = [make_bot(game, "random") for _ in range(g.seats)]
    bots[seat] = spy
    faults = GameFaults()
    try:
        play(s, bots, [random.Random(i) for i in range(g.seats)], FAST, faults=faults)
    finally:
        spy.close()
    assert faults.faults == []
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    hello, start, *requests, end = messages
    assert hello == {
        "type": "hello", "id": 0, "protocol": 1, "game": game,
        "ruleset": str(s.record()["ruleset"]), "rules": g.rules("default").to_dict(),
        "seats": g.seats, "time": {"budget_ms": None, "limit_ms": 300.0},
    }  # fmt: skip
    assert start == {"type": "start", "seat": seat}
    assert len(requests) == len(spy.given) > 5
    for i, (m, (view, legal)) in enumerate(zip(requests, spy.given, strict=True)):
        assert m == {"type": "request", "id": i + 1, "seat": seat, "view": view, "legal": legal}
    assert end == {"type": "end", "seat": seat, **spy.result}
    assert set(spy.result) == {"winner", "reason", "points", "payments", "view"}


def test_the_example_bot_plays_a_game_registered_by_a_test_alone() -> None:
    """The protocol names no game: the contract's toy game plays too."""
    from tests.contract import toy

    from madang.core.registry import register_spec, unregister_spec

    register_spec(toy.SPEC)
    try:
        r = run_arena(
            "pairs", [f"cmd:{PY} {shlex.quote(str(EXAMPLE))} 5", "random"], deals=3, budget=FAST
        )
    finally:
        unregister_spec("pairs")
    assert r["games"] == 6 and r["faults"]["a"]["total"] == 0
    assert r["decision_ms"]["a"]["decisions"] == 6 * 3


def test_with_one_worker_a_bot_process_plays_the_whole_match(
    tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    pids = tmp_path / "pids"
    r = run_arena("matgo", ["cmd:" + test_bot("good", pids=pids), "first"], deals=3, budget=FAST)
    assert r["games"] == 6 and r["faults"]["a"]["total"] == 0
    started = pids.read_text().split()
    assert len(started) == 1 and gone(int(started[0]))


def test_a_bot_that_does_not_exit_at_the_end_of_its_input_is_killed(
    tmp_path: Path, test_bot: Callable[..., str]
) -> None:
    pids = tmp_path / "pids"
    g = spec("matgo")
    assert g.deal is not None
    bot = ExternalBot(test_bot("stubborn", pids=pids), limits=LIMITS)
    bots = [bot, make_bot("matgo", "first")]
    play(g.deal(g.rules("default"), 1), bots, [random.Random(0)] * 2, FAST)
    pid = bot.pid
    assert pid is not None
    t0 = time.monotonic()
    bot.close()
    assert gone(pid) and 0.4 < time.monotonic() - t0 < 5  # waited close_s (0.5 s), then killed
