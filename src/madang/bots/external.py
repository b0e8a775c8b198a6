"""Bots written elsewhere: a command run as a process that speaks the bot protocol.

``ExternalBot("python3 mybot.py")`` is a :class:`~madang.bots.base.MoveBot`. It starts
the command (split by :func:`shlex.split`, no shell) when it is first asked for a move
and talks to it in JSON lines over the process's standard input and output, as
``docs/bot-protocol.md`` specifies: ``hello`` (answered with the protocol version),
``start`` of each game with the bot's seat, a ``request`` per decision with the seat's
view and the legal moves (answered ``{"id": …, "move": …}``), and ``end`` with the result.

Every bad answer is a typed :class:`~madang.bots.base.BotFault` raised to the runner,
which plays the default move instead: text that is not a JSON object with the right
``id`` and a string ``move`` (:class:`~madang.bots.base.MalformedAnswer`), no answer
within the hard limit (:class:`~madang.bots.base.AnswerTimeout`: the process is killed),
a process that exits or cannot start (:class:`~madang.bots.base.BotExited`), another
protocol version (:class:`~madang.bots.base.ProtocolMismatch`: killed). A killed or
exited process is started again, with a new ``hello`` and ``start``, at the next request.
:meth:`ExternalBot.close` closes its input, waits :attr:`~madang.bots.base.BotLimits.close_s`
and kills what is left; every process is reaped (no zombies).

The process runs in a session of its own (its process group is killed with it), its
standard error is Madang's, and it gets nothing but the messages: no seed (anything drawn
from a deal's seed could tell it the cards), no state, no record.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
import weakref
from typing import Any

from madang.bots.base import (
    AnswerTimeout,
    BotExited,
    BotLimits,
    GameInfo,
    MalformedAnswer,
    ProtocolMismatch,
    View,
)
from madang.core.errors import RuleConfigError

__all__ = ["MAX_LINE", "PROTOCOL", "ExternalBot", "encode"]

PROTOCOL = 1
"""The protocol version this module speaks (``docs/bot-protocol.md``, Versioning)."""

MAX_LINE = 1 << 20
"""The longest answer line accepted (bytes); a longer one is malformed."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of JSON: the one place where Madang's data meets the wire.

    Views and results are plain JSON data (the conformance of the games keeps them so);
    anything else is a bug and raises TypeError here rather than sending something that
    a bot in another language would read differently.

    >>> encode({"type": "start", "seat": 1})
    b'{"type":"start","seat":1}\\n'
    >>> encode({"x": {1, 2}})
    Traceback (most recent call last):
    ...
    TypeError: Object of type set is not JSON serializable
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8") + b"\n"


def _argv(command: str) -> list[str]:
    """The command's words; a command that is empty, unbalanced or not found is a
    RuleConfigError (before any game starts)."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise RuleConfigError(f"cannot split the bot command {command!r}: {e}") from None
    if not argv:
        raise RuleConfigError('cmd: needs a command, e.g. cmd:"python3 mybot.py"')
    exe = argv[0]
    if shutil.which(exe) is None:
        raise RuleConfigError(f"the bot command {exe!r} is not an executable file or on PATH")
    return argv


def _reap(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    """Close the process's input, give it ``grace_s`` to exit, kill its process group if
    it has not, and reap it."""
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    try:
        proc.wait(grace_s)
    except subprocess.TimeoutExpired:
        _kill(proc)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and its group (it leads a session of its own) and reap it. The
    group is killed only while the leader is unreaped, so its id cannot have been reused."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # exited between the two calls
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


class ExternalBot:
    """A command that plays through the bot protocol (see the module's docstring).

    >>> bot = ExternalBot("python3 examples/bots/random_bot.py", name="cmd:random_bot")
    >>> bot.name, bot.pid  # nothing runs until the first request
    ('cmd:random_bot', None)
    """

    def __init__(self, command: str, limits: BotLimits | None = None, name: str | None = None):
        self.argv = _argv(command)
        self.name = name or f"cmd:{command}"
        self.limits = limits or BotLimits()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buf = bytearray()
        self._next_id = 0
        self._hello: dict[str, Any] | None = None  # the hello of the running process
        self._info: GameInfo | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    @property
    def pid(self) -> int | None:
        """The running process's id, or None."""
        return None if self._proc is None else self._proc.pid

    # --- the MoveBot side ---------------------------------------------------------------

    def begin(self, info: GameInfo) -> None:
        """Tell a running process that a game begins. A process that has exited since the
        last game is reaped, and one started for other rules or time is ended: a new one
        is started at the first request (neither is a fault)."""
        self._info = info
        if self._proc is None:
            return
        if self._proc.poll() is not None or self._hello_of(info) != self._hello:
            self._stop()
            return
        try:
            self._send({"type": "start", "seat": info.seat}, self._deadline(self.limits.start_s))
        except (BotExited, AnswerTimeout):
            self._stop()  # the fault shows at the first request, which starts it again

    def choose(self, view: View, legal: list[str]) -> str:
        """Send a request and wait for the answer; a bad one raises a BotFault."""
        info = self._info
        if info is None:
            raise RuntimeError("choose() before begin()")
        if self._proc is None:
            self._launch(info)
        deadline = self._deadline(self.limits.limit(info.budget))
        rid = self._next_id
        self._next_id += 1
        msg = {"type": "request", "id": rid, "seat": info.seat, "view": view, "legal": legal}
        self._send(msg, deadline)
        answer = self._answer(rid, deadline)
        move = answer.get("move")
        if not isinstance(move, str):
            raise MalformedAnswer(
                f"the answer to request {rid} has no move string: {answer!r:.200}"
            )
        return move

    def finish(self, result: dict[str, Any]) -> None:
        """Send the game's ``end`` (a process that is gone is not started for it)."""
        info = self._info
        if self._proc is None or info is None:
            return
        try:
            self._send(
                {"type": "end", "seat": info.seat, **result}, self._deadline(self.limits.start_s)
            )
        except (BotExited, AnswerTimeout):
            self._stop()

    def close(self) -> None:
        """End the process: its input is closed (the bot should exit), then it is killed
        after ``close_s``; either way it is reaped."""
        proc = self._proc
        self._proc = None
        self._hello = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is not None:
            _reap(proc, self.limits.close_s)

    # --- the process ----------------------------------------------------------------------

    def _hello_of(self, info: GameInfo) -> dict[str, Any]:
        budget_ms = None if info.budget.time_s is None else round(info.budget.time_s * 1000, 3)
        limit_ms = round(self.limits.limit(info.budget) * 1000, 3)
        return {
            "type": "hello",
            "id": 0,
            "protocol": PROTOCOL,
            "game": info.game,
            "ruleset": info.ruleset,
            "rules": info.rules,
            "seats": info.seats,
            "time": {"budget_ms": budget_ms, "limit_ms": limit_ms},
        }

    def _launch(self, info: GameInfo) -> None:
        """Start the process, exchange ``hello`` and send ``start``; faults are raised
        (and leave no process behind)."""
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as e:
            raise BotExited(f"cannot start {self.argv[0]!r}: {e}") from None
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._proc = proc
        self._finalizer = weakref.finalize(self, _kill, proc)
        self._buf.clear()
        hello = self._hello_of(info)
        try:
            deadline = self._deadline(self.limits.start_s)
            self._send(hello, deadline)
            answer = self._answer(0, deadline)
            if answer.get("protocol") != PROTOCOL:
                self._stop()
                raise ProtocolMismatch(
                    f"the bot speaks protocol {answer.get('protocol')!r}, not {PROTOCOL}"
                )
            self._send({"type": "start", "seat": info.seat}, deadline)
        except MalformedAnswer:
            self._stop()
            raise
        self._hello = hello
        self._next_id = 1

    def _stop(self) -> None:
        """Kill the process now (it is started again at the next request)."""
        proc = self._proc
        self._proc = None
        self._hello = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is not None:
            _kill(proc)

    def _exited(self, what: str) -> BotExited:
        proc = self._proc
        self._stop()
        code = None if proc is None else proc.returncode
        return BotExited(f"the bot {what} (exit status {code})")

    @staticmethod
    def _deadline(seconds: float) -> float:
        return time.monotonic() + seconds

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = memoryview(encode(message))
        fd = proc.stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    n = os.write(fd, data)
                except BlockingIOError:
                    n = 0
                except (BrokenPipeError, ConnectionResetError):
                    raise self._exited("closed its input") from None
                data = data[n:]
                if data and not sel.select(max(0.0, deadline - time.monotonic())):
                    self._stop()
                    raise AnswerTimeout("the bot did not read its input in time; killed")

    def _line(self, deadline: float) -> bytes:
        """The next line the bot wrote (without the newline)."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buf.find(b"\n")
                if end >= 0:
                    line = bytes(self._buf[:end])
                    del self._buf[: end + 1]
                    return line
                if len(self._buf) > MAX_LINE:
                    self._stop()
                    raise MalformedAnswer(f"an answer line longer than {MAX_LINE} bytes; killed")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self._stop()
                    raise AnswerTimeout("no answer within the time limit; killed")
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:  # pragma: no cover - select said it was readable
                    continue
                if not chunk:
                    # closed its output: exiting, most likely (else it is killed)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(0.1)
                    raise self._exited("closed its output")
                self._buf += chunk

    def _answer(self, rid: int, deadline: float) -> dict[str, Any]:
        """The answer to message ``rid``: late answers to earlier requests are skipped,
        blank lines too; anything else that is not the answer is malformed."""
        while True:
            raw = self._line(deadline)
            if not raw.strip():
                continue
            try:
                answer = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                raise MalformedAnswer(f"not JSON ({e}): {raw[:200]!r}") from None
            if not isinstance(answer, dict):
                raise MalformedAnswer(f"not a JSON object: {raw[:200]!r}")
            got = answer.get("id")
            if isinstance(got, int) and not isinstance(got, bool) and 0 < got < rid:
                continue
            if got != rid or isinstance(got, bool):
                raise MalformedAnswer(f"the answer has id {got!r}, not {rid}")
            return answer
