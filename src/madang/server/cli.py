"""``madang serve``: run the game server (one uvicorn worker)."""

from __future__ import annotations

import argparse
import contextlib
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
    p.add_argument(
        "--redis-url",
        default="",
        help="redis://host:port/db: one of several processes on one PostgreSQL (docs/deploy.md)",
    )
    p.add_argument("--node-id", default="", help="this process's name in a cluster")
    p.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve the Prometheus metrics on this port, for the operator (default: not "
        "served; never on the public port)",
    )
    p.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="ADDR",
        help="address of the metrics port (default 127.0.0.1: this host only)",
    )
    sec = p.add_argument_group("security (docs/server.md, Security)")
    sec.add_argument(
        "--secure-cookie",
        action="store_true",
        help="mark cookies Secure and send HSTS (serve behind HTTPS)",
    )
    sec.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin (https://host[:port]) besides the request's own that may post and "
        "open WebSockets; repeat for several",
    )
    sec.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="proxies whose X-Forwarded-For/-Proto are believed (comma-separated; "
        "default: none, the peer's address is the client's)",
    )
    sec.add_argument(
        "--proxy-protocol",
        action="store_true",
        help="the proxies of --forwarded-allow-ips begin each connection with a PROXY "
        "protocol header (HAProxy send-proxy-v2): limits count the client it names",
    )
    sec.add_argument(
        "--stakes",
        default="1,10,100,1000",
        help="the stakes tables may be created with (comma-separated)",
    )
    sec.add_argument("--tables-per-user", type=int, default=3, help="open tables per person")
    sec.add_argument(
        "--register-limit", default="10/hour", help="accounts per address (N/minute|hour|day)"
    )
    sec.add_argument("--guest-limit", default="30/hour", help="guest accounts per address")
    sec.add_argument(
        "--login-failures", type=int, default=5, help="failed logins per name and address"
    )
    sec.add_argument(
        "--hash-workers", type=int, default=1, help="threads that hash passwords (argon2id)"
    )
    sec.add_argument(
        "--read-timeout", type=float, default=15.0, help="seconds to send a whole request"
    )
    sec.add_argument(
        "--connections-per-address", type=int, default=64, help="open connections per address"
    )
    sec.add_argument(
        "--ws-per-address", type=int, default=16, help="open table WebSockets per address"
    )
    sec.add_argument(
        "--ws-idle", type=float, default=75.0, help="close a silent table WebSocket after this"
    )
    sec.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any other ServerConfig setting (docs/server.md, Security), e.g. "
        "--set ws_ban_s=60 --set max_body=32768; repeat for several",
    )
    sec.add_argument(
        "--claim-seconds",
        type=float,
        default=0.6,
        help="mahjong: the uniform pause after every discard",
    )
    sec.add_argument(
        "--claim-decision-seconds",
        type=float,
        default=8.0,
        help="mahjong: a person's time to decide a claim (the table waits for it)",
    )
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
    import madang.server.replay  # noqa: F401
    from madang.core.registry import games, spec

    for game in games():  # a session of each game imports all that its tables need
        spec(game).session(spec(game).presets()[0], 0)
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    sys.setswitchinterval(0.001)


def _stakes(text: str) -> tuple[int, ...]:
    try:
        stakes = tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise SystemExit(f"madang serve: --stakes takes integers, not {text!r}") from None
    if not stakes or stakes[0] < 1:
        raise SystemExit("madang serve: --stakes needs one or more positive integers")
    return stakes


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~madang.server.config.ServerConfig` of ``madang serve``'s flags."""
    from madang.server.config import ServerConfig, override

    config = ServerConfig(
        database_url=args.database_url,
        data_dir=args.data,
        turn_seconds=args.turn_seconds,
        bot_delay=args.bot_delay,
        deal_seed=args.deal_seed,
        secure_cookie=args.secure_cookie,
        allowed_origins=tuple(args.allowed_origin),
        forwarded_allow_ips=args.forwarded_allow_ips,
        proxy_protocol=args.proxy_protocol,
        stakes=_stakes(args.stakes),
        tables_per_user=args.tables_per_user,
        register_limit=args.register_limit,
        guest_limit=args.guest_limit,
        login_failures=args.login_failures,
        hash_workers=args.hash_workers,
        read_timeout_s=args.read_timeout,
        connections_per_address=args.connections_per_address,
        ws_per_address=args.ws_per_address,
        ws_idle_s=args.ws_idle,
        claim_seconds=args.claim_seconds,
        claim_decision_seconds=args.claim_decision_seconds,
        redis_url=args.redis_url,
        node_id=args.node_id,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
    )
    try:
        config = override(config, args.set)
    except ValueError as e:
        raise SystemExit(f"madang serve: {e}") from None
    if config.proxy_protocol and not config.forwarded_allow_ips:
        raise SystemExit("madang serve: --proxy-protocol needs --forwarded-allow-ips (the proxies)")
    return config


def uvicorn_config(
    app: Any, config: Any, *, host: str, port: int, log_level: str = "warning"
) -> Any:
    """The uvicorn settings of the server: its guarded protocols and limits."""
    import uvicorn

    from madang.server.protocols import protocols

    http, ws = protocols(config)
    forwarded = config.forwarded_allow_ips
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=http,
        ws=ws,
        # uvloop when installed (uvicorn[standard])
        loop="auto",
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # messages are small JSON; deflating each frame cost more CPU than the
        # rest of the WebSocket layer together (see docs/server.md, Load)
        ws_per_message_deflate=False,
        # forwarded headers only from the proxies named (uvicorn trusts loopback by default)
        proxy_headers=forwarded is not None,
        forwarded_allow_ips=forwarded or "",
        timeout_keep_alive=config.keep_alive_s,
        server_header=False,
    )


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted (Ctrl+C, ``SIGTERM``)."""
    from madang.server.app import create_app

    config = config_from_args(args)
    app = create_app(config)
    tune_runtime()
    # Ctrl+C: uvicorn stops the server, then raises the interrupt again; it has been seen to
    with contextlib.suppress(KeyboardInterrupt):
        draining_server(
            uvicorn_config(app, config, host=args.host, port=args.port, log_level=args.log_level)
        ).run()
    return 0


def listening_line(host: str, port: int) -> str:
    """What ``madang serve`` prints once it listens: a URL to open in a browser on this
    machine (for a server on every address, its loopback one, and where it listens).

    >>> listening_line("127.0.0.1", 8000)
    'Madang: http://127.0.0.1:8000 (Ctrl+C stops it)'
    >>> listening_line("0.0.0.0", 8000)
    'Madang: http://127.0.0.1:8000 (listening on every address, 0.0.0.0:8000; Ctrl+C stops it)'
    >>> listening_line("::", 80)
    'Madang: http://[::1]:80 (listening on every address, [::]:80; Ctrl+C stops it)'
    >>> listening_line("fe80::1", 8000)
    'Madang: http://[fe80::1]:8000 (Ctrl+C stops it)'
    """

    def netloc(h: str) -> str:
        return f"[{h}]:{port}" if ":" in h else f"{h}:{port}"

    where = ""
    if host in ("0.0.0.0", "::", ""):
        where = f"listening on every address, {netloc(host or '0.0.0.0')}; "
        host = "::1" if host == "::" else "127.0.0.1"
    return f"Madang: http://{netloc(host)} ({where}Ctrl+C stops it)"


def _draining_server() -> Any:
    import asyncio

    import uvicorn

    class DrainingServer(uvicorn.Server):
        """uvicorn's server, but ``SIGTERM`` in a cluster first hands the tables over
        (:meth:`madang.server.cluster.Cluster.drain`: readiness turns 503, the leases
        are released and named so that other processes claim them at once), then stops
        as uvicorn does (sockets closed: clients reconnect elsewhere)."""

        _draining = False

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:  # listening: say where (the port's own, should it be 0)
                port = self.servers[0].sockets[0].getsockname()[1]
                print(listening_line(self.config.host, port), flush=True)

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets=sockets)
            print("Madang stopped.", flush=True)

        def handle_exit(self, sig: int, frame: Any) -> None:
            hub = getattr(getattr(self.config.app, "state", None), "hub", None)
            cluster = getattr(hub, "cluster", None)
            if cluster is None or self._draining:
                super().handle_exit(sig, frame)
                return
            self._draining = True
            loop = asyncio.get_event_loop()

            async def drain_then_exit() -> None:
                try:
                    await asyncio.wait_for(cluster.drain(), 10)
                finally:
                    super(DrainingServer, self).handle_exit(sig, frame)

            loop.call_soon_threadsafe(lambda: loop.create_task(drain_then_exit()))

    return DrainingServer


def draining_server(config: Any) -> Any:
    """The server of ``madang serve`` (see :func:`_draining_server`)."""
    return _draining_server()(config)
