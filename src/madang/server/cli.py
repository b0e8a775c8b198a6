"""``madang serve``: run the game server (one uvicorn worker)."""

from __future__ import annotations

import argparse
from typing import Any


def register_cli(sub: Any) -> None:
    """Add the ``serve`` command to the ``madang`` parser."""
    p = sub.add_parser("serve", help="run the game server (browser client + API)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--data", default="data", help="data folder (SQLite database)")
    p.add_argument("--database-url", default="", help="postgresql://… instead of SQLite")
    p.add_argument("--turn-seconds", type=float, default=20.0, help="time per question")
    p.add_argument("--bot-delay", type=float, default=0.6, help="a bot's pause before moving")
    p.add_argument(
        "--deal-seed",
        type=int,
        default=None,
        metavar="N",
        help="deal table T from seed N+T (reproducible deals for tests; not for a public server)",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level")
    p.set_defaults(handler=serve)


def tune_runtime() -> None:
    """Settings of the interpreter for a long-running server process.

    The modules a table needs are imported now, and everything alive at start (the
    code of the app and of the engines: most of the objects the cyclic garbage
    collector would otherwise walk on every full collection) is frozen out of the
    collector. The young generation is collected less often (the rooms allocate and
    free many short-lived dicts per move, and nothing of theirs forms cycles), and
    the GIL is handed over sooner (1 ms) so that a database thread cannot hold up
    the event loop for the default 5 ms.
    """
    import gc
    import sys

    import madang.bots
    import madang.mahjong.engine
    import madang.matgo.match
    import madang.server.replay  # noqa: F401

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    sys.setswitchinterval(0.001)


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    import uvicorn

    from madang.server.app import create_app
    from madang.server.config import ServerConfig

    config = ServerConfig(
        database_url=args.database_url,
        data_dir=args.data,
        turn_seconds=args.turn_seconds,
        bot_delay=args.bot_delay,
        deal_seed=args.deal_seed,
    )
    app = create_app(config)
    tune_runtime()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # httptools and uvloop when installed (uvicorn[standard]): the fastest pair
        http="auto",
        loop="auto",
        ws="auto",
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # messages are small JSON; deflating each frame cost more CPU than the
        # rest of the WebSocket layer together (see docs/server.md, Load)
        ws_per_message_deflate=False,
    )
    return 0
