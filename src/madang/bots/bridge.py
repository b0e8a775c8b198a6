"""A bot of the arena at the server: ``madang bot connect --url URL --token TOKEN --
python3 examples/bots/random_bot.py``.

The bridge opens the bot account's WebSocket (``/ws/bot``, ``Authorization: Bearer
TOKEN``) and plays each of its tables with one process of the command, through
:class:`~madang.bots.external.ExternalBot` (the JSON-lines protocol, its limits, its
restarts and its reaping): a table's ``start`` starts a game of the process, each
``request`` is asked of it and its move sent back with the request's ``table`` and
``id``, ``end`` ends the game. So a bot that plays in the arena plays at a table with
the same code (``docs/bot-protocol.md``, At the server). Invitations are accepted
(``--decline`` declines them). A fault of the process (no answer in the table's time, a
malformed answer, an exit) sends nothing: the table's clock plays the default move and
counts the fault.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from madang.bots.base import BotFault, BotLimits, Budget, GameInfo
from madang.bots.external import PROTOCOL, ExternalBot
from madang.core.errors import RuleConfigError

log = logging.getLogger("madang.bots")

REFUSALS = frozenset({"unauthorized", "throttled"})
"""The errors with which the server refuses the bot's socket (then closes it)."""

PING_S = 25.0
"""How often the bridge pings (the server closes a socket idle for ``ws_idle_s``)."""


@dataclass
class BridgeStats:
    """What a bridge did: games ended, moves sent, the process's faults, errors the
    server answered."""

    games: int = 0
    moves: int = 0
    faults: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)


class _Table:
    """One table of the bot: its process and the queue of messages for it."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.bot: ExternalBot | None = None
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None


class Bridge:
    """The bot's socket and its tables' processes (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        token: str,
        command: str,
        *,
        accept: bool = True,
        games: int | None = None,
        close_s: float = 1.0,
    ) -> None:
        ExternalBot(command)  # the command checked (RuleConfigError) before connecting
        self.url = url
        self.token = token
        self.command = command
        self.accept = accept
        self.games = games
        self.close_s = close_s
        self.stats = BridgeStats()
        self.tables: dict[int, _Table] = {}
        self._ws: Any = None
        self._done = asyncio.Event()

    async def run(self) -> BridgeStats:
        """Play until the server closes the socket (or ``games`` games have ended)."""
        from websockets.asyncio.client import connect

        headers = {"Authorization": f"Bearer {self.token}"}
        async with connect(self.url, additional_headers=headers, max_size=1 << 22) as ws:
            self._ws = ws
            pinger = asyncio.get_running_loop().create_task(self._ping())
            reader = asyncio.get_running_loop().create_task(self._read())
            enough = asyncio.get_running_loop().create_task(self._done.wait())
            try:
                await asyncio.wait(
                    [reader, enough],
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if reader.done():
                    reader.result()  # what ended the reading (a refusal, a broken socket)
            finally:
                pinger.cancel()
                reader.cancel()
                enough.cancel()
                for t in self.tables.values():
                    t.queue.put_nowait(None)
                for t in list(self.tables.values()):
                    if t.task is not None:
                        with contextlib.suppress(Exception, asyncio.CancelledError):
                            await asyncio.wait_for(t.task, self.close_s + 5)
        return self.stats

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_S)
            await self._send({"type": "ping"})

    async def _send(self, message: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    async def _read(self) -> None:
        async for text in self._ws:
            msg = json.loads(text)
            kind = msg.get("type")
            if kind == "hello":
                if msg.get("protocol") != PROTOCOL:
                    raise RuleConfigError(f"the server speaks protocol {msg.get('protocol')}")
            elif kind == "invite":
                answer = "accept" if self.accept else "decline"
                await self._send({"type": answer, "table": msg["table"]})
            elif kind == "error" and "table" not in msg and msg["code"] in REFUSALS:
                raise RuleConfigError(
                    f"the server refused the bot ({msg['code']}): {msg['message']}"
                )
            elif kind == "error":
                self.stats.errors.append(msg)
                log.warning("server: %s", msg)
            elif kind in ("start", "request", "end", "closed", "broken"):
                table = self.tables.get(msg["table"])
                if table is None:
                    table = self.tables[msg["table"]] = _Table(self.command)
                    table.task = asyncio.get_running_loop().create_task(self._play(table))
                table.queue.put_nowait(msg)

    async def _play(self, table: _Table) -> None:
        """Feed one table's messages to its process, in order."""
        try:
            while (msg := await table.queue.get()) is not None:
                kind = msg["type"]
                if kind == "start":
                    await asyncio.to_thread(self._begin, table, msg)
                elif kind == "request" and table.bot is not None:
                    await self._request(table, msg)
                elif kind == "end" and table.bot is not None:
                    result = {k: msg.get(k) for k in ("winner", "reason", "points", "payments")}
                    await asyncio.to_thread(table.bot.finish, {**result, "view": msg["view"]})
                    self.stats.games += 1
                    self.stats.results.append({"table": msg["table"], **result})
                    if self.games is not None and self.stats.games >= self.games:
                        self._done.set()
                elif kind == "closed":
                    break
        finally:
            if table.bot is not None:
                await asyncio.to_thread(table.bot.close)

    def _begin(self, table: _Table, msg: dict[str, Any]) -> None:
        limit_ms = msg["time"]["limit_ms"]
        if table.bot is None:
            # the process must answer within the table's time, less a margin for the trip
            limit_s = max(0.1, limit_ms / 1000 - 0.5)
            limits = BotLimits(limit_s=limit_s, close_s=self.close_s)
            table.bot = ExternalBot(self.command, limits)
        budget = msg["time"]["budget_ms"]
        info = GameInfo(
            msg["game"],
            msg["ruleset"],
            msg["rules"],
            msg["seats"],
            msg["seat"],
            Budget(None if budget is None else budget / 1000),
        )
        table.bot.begin(info)

    async def _request(self, table: _Table, msg: dict[str, Any]) -> None:
        bot = table.bot
        assert bot is not None
        try:
            move = await asyncio.to_thread(bot.choose, msg["view"], msg["legal"])
        except BotFault as e:
            self.stats.faults += 1
            log.warning("table %s: the bot's fault (%s): %s", msg["table"], e.kind, e)
            return
        await self._send({"table": msg["table"], "id": msg["id"], "move": move})
        self.stats.moves += 1


# ---------------------------------------------------------------------- the command


def register_cli(sub: Any) -> None:
    """Add ``bot connect`` to the ``madang`` parser."""
    p = sub.add_parser("bot", help="bot accounts: play a bot at a server")
    cmds = p.add_subparsers(dest="bot_command", required=True)
    c = cmds.add_parser(
        "connect",
        help="play a bot-protocol command at a server as a bot account",
        description="Connect a bot account to a Madang server and play its tables with "
        "COMMAND (the bot protocol of docs/bot-protocol.md): "
        "madang bot connect --url ws://HOST/ws/bot --token TOKEN -- python3 mybot.py",
    )
    c.add_argument("--url", required=True, help="the server's bot socket, ws(s)://HOST/ws/bot")
    c.add_argument(
        "--token",
        default=os.environ.get("MADANG_BOT_TOKEN"),
        help="an API token of the bot account (default: $MADANG_BOT_TOKEN, which keeps "
        "it out of the process list)",
    )
    c.add_argument("--decline", action="store_true", help="decline every invitation")
    c.add_argument("--games", type=int, default=None, help="stop after this many games")
    c.add_argument("command", nargs=argparse.REMAINDER, help="-- the bot's command")
    c.set_defaults(handler=_connect)


def _connect(args: argparse.Namespace) -> int:
    import shlex

    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise RuleConfigError("give the bot's command after --")
    if args.games is not None and args.games < 1:
        raise RuleConfigError("--games must be a positive integer")
    if not args.token:
        raise RuleConfigError("give the bot's API token: --token TOKEN or $MADANG_BOT_TOKEN")
    bridge = Bridge(
        args.url, args.token, shlex.join(words), accept=not args.decline, games=args.games
    )
    started = time.monotonic()
    try:
        stats = asyncio.run(bridge.run())
    except OSError as e:
        raise RuleConfigError(f"cannot connect to {args.url}: {e}") from None
    except Exception as e:  # the server refused the token, closed the socket …
        if type(e).__module__.startswith("websockets"):
            raise RuleConfigError(f"the server closed the bot's socket: {e}") from None
        raise
    sys.stdout.write(
        json.dumps(
            {
                "games": stats.games,
                "moves": stats.moves,
                "faults": stats.faults,
                "errors": len(stats.errors),
                "seconds": round(time.monotonic() - started, 2),
                "results": stats.results,
            }
        )
        + "\n"
    )
    return 0
