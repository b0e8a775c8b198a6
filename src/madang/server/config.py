"""Server settings: one frozen dataclass, filled by ``madang serve`` or by tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def default_database_url(data_dir: str | Path) -> str:
    """The SQLite database of a data folder (``DATA/madang.sqlite3``)."""
    return f"sqlite:///{Path(data_dir).resolve() / 'madang.sqlite3'}"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything the app needs to know; the defaults are those of ``madang serve``."""

    database_url: str = ""
    """SQLAlchemy URL; ``postgresql://`` uses psycopg 3. Empty: SQLite in ``data_dir``."""
    data_dir: str = "data"
    """Folder of the SQLite database (made if missing)."""
    web_dir: Path = WEB_DIR
    """The client's static files (``index.html`` is served at ``/``)."""
    turn_seconds: float = 20.0
    """Time to answer one question; then the engine's default answer is played."""
    grace_seconds: float = 15.0
    """How long a disconnected seat waits before a bot answers for it."""
    bot_max_faults: int = 3
    """Bad answers (or timeouts) of a bot account in one game before the ``normal`` bot
    plays its seat to the end of that game (``docs/bot-protocol.md``, At the server)."""
    bot_invite_seconds: float = 10.0
    """How long an invitation waits for a bot account's ``accept`` or ``decline``."""
    seat_hold_seconds: float | None = None
    """Before a table's first deal, how long a person's seat is held while they have no
    connection (then it is given up, and a table with no person left closes); None:
    ``grace_seconds``."""
    next_game_seconds: float = 60.0
    """Pause between the games of a table (cut short when every person is ready)."""
    bot_delay: float = 0.6
    """A bot's pause before it answers (so that people can follow); 0 in tests."""
    bot_budget_s: float = 0.1
    """Thinking time of a searching bot per decision."""
    max_message: int = 4096
    """Largest WebSocket message accepted (bytes)."""
    rate_per_s: float = 20.0
    """Messages per second per connection (token bucket) …"""
    rate_burst: float = 40.0
    """… and its burst size."""
    history: int = 200
    """Updates kept per stream for reconnecting clients (older: a snapshot)."""
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    hash_workers: int = 1
    """Threads that hash passwords (argon2id), apart from the database's: reads and
    moves never wait on a hash."""
    hash_queue: int = 16
    """Hashes that may wait for a hashing thread, in each of its two lanes (known
    devices' logins; registrations and other logins); past that the attempt is answered
    ``busy`` (503) at once. One hash per address (or device) at a time
    (:class:`~madang.server.auth.Passwords`)."""
    review_workers: int = 1
    """Processes that compute game reviews (복기, ``GET /api/games/{id}/review``), at a
    lower priority, apart from the tables' process: a table's moves never wait on one."""
    review_queue: int = 4
    """Reviews running or waiting at once; past that a request is answered ``busy``
    (503, ``retry_after``) at once."""
    review_samples: int = 400
    """Sampled worlds per Matgo or 고스톱 decision of a review (:mod:`madang.review`)."""
    login_failures: int = 5
    """Failed logins of one name from one address within ``login_window_s`` before that
    pair is blocked (60 s, doubling up to 15 minutes). The owner elsewhere is not."""
    login_window_s: float = 300.0
    login_address_failures: int = 20
    """Failed logins from one address (any names) within ``login_window_s`` before the
    address is blocked."""
    login_name_failures: int = 50
    """Failed logins of one name from anywhere within an hour before that name is
    blocked, except from a browser that has logged in as it before (its device cookie)."""
    register_limit: str = "10/hour"
    """Accounts one address may register (``limits`` notation: ``N/second|minute|hour|day``)."""
    guest_limit: str = "30/hour"
    """Guest accounts one address may make."""
    tables_per_user: int = 3
    """Open tables one person may sit at, made or joined (a table they left, that bots
    play to its end, does not count); checked in the database when a seat is taken."""
    secure_cookie: bool = False
    """Mark the session cookie ``Secure`` (behind HTTPS); HSTS is sent too."""
    stakes: tuple[int, ...] = field(default=(1, 10, 100, 1000))
    """The stakes (won per point) a table may be created with; nothing else is accepted."""
    quick_fill_seconds: float = 3.0
    """Quick match (빠른 시작): how long the oldest request of a game and stake waits for
    other people before the table is made with the computer in the seats nobody took
    (people are seated together at once when enough of them wait)."""
    quick_bot_level: str = "normal"
    """The level of the bots that fill a quick match's empty seats."""
    rank_min_games: int = 10
    """Rated games a player needs before the rankings list them (the ladder and the
    week's money): one lucky game does not put anyone at the top (U17)."""
    money_start: int = 100_000
    """Game money (never real money) a new account or guest starts with
    (``docs/server.md``, Money)."""
    refill_floor: int = 50_000
    """The daily free refill: a bankroll below this is brought up to it, once a day."""
    entry_multiple: int = 100
    """A table's entry minimum is ``entry_multiple`` × its stake: sitting down with less
    (free of what one's other open tables reserve) is refused (``not_enough_money``)."""
    day_zone: str = "UTC"
    """The time zone whose midnight starts a new day for the refill and the self-care
    limits (an IANA name, e.g. ``Asia/Seoul``)."""
    limit_cooloff_s: float = 86_400.0
    """Self-care: raising or removing a limit takes effect only after this delay
    (lowering one takes effect at once)."""
    max_body: int = 65536
    """Largest HTTP request body (bytes), enforced while it is read."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the request's own (scheme://host:port) that may post and open
    WebSockets, e.g. the public address when a proxy rewrites ``Host``."""
    forwarded_allow_ips: str | None = None
    """Proxies whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed (uvicorn's
    ``forwarded_allow_ips``: comma-separated addresses or networks, ``*`` for any).
    None: forwarded headers are ignored and the peer's address is the client's."""
    proxy_protocol: bool = False
    """Connections from the proxies of ``forwarded_allow_ips`` begin with a PROXY
    protocol header (v1 or v2: HAProxy's ``send-proxy``/``send-proxy-v2``) naming the
    client: every per-address limit then counts the client's address, not the proxy's
    (``madang.server.protocols``). A trusted connection without one is the proxy's own."""
    read_timeout_s: float = 15.0
    """Time a connection has to send a whole request (headers and body) once it opened
    or began one; then it is closed (no slow-loris)."""
    keep_alive_s: float = 5.0
    """Idle time between requests on a kept-alive HTTP connection."""
    connections_per_address: int = 64
    """Open connections (HTTP and WebSocket) one address may hold; more are refused."""
    ws_per_address: int = 16
    """Open table WebSockets one address may hold."""
    ws_control_per_s: float = 2.0
    """WebSocket control frames (ping, pong) per second one connection may send …"""
    ws_control_burst: float = 10.0
    """… with bursts of this many; past it the connection is closed (1008)."""
    ws_address_control_per_s: float = 10.0
    """Control frames per second from one address, all its connections together (at
    least half a connection's rate per open WebSocket of the address) …"""
    ws_address_control_burst: float = 40.0
    """… and its burst; past it the connection is closed and the address refused for
    ``ws_ban_s``."""
    ws_ban_s: float = 30.0
    """How long an address that flooded control frames is refused WebSockets."""
    ws_idle_s: float = 75.0
    """A table WebSocket that sends no message for this long is closed (the client pings
    every 25 s); one that sends no ``hello`` within ``ws_hello_s`` too."""
    ws_hello_s: float = 15.0
    chat_text: bool = True
    """Table chat: whether registered players may send free text (guests never may);
    emoticons and quick phrases are always open to the people seated."""
    chat_per_s: float = 1.0
    """Chat messages per second one connection may send (token bucket) …"""
    chat_burst: float = 3.0
    """… with bursts of this many."""
    chat_limit: str = "3/3 seconds; 20/minute"
    """Chat messages one account may send over all its connections and tables
    (``limits`` notation, ``;`` between windows), counted with the other limits (shared
    through Redis in a cluster)."""
    claim_seconds: float = 0.6
    """Mahjong: the uniform pause after every discard (and 가깡) before play goes on, the
    same whether or not any seat was asked to claim: no offer is over sooner, and one
    that asks no person (nobody, or bots only, who answer within it) lasts exactly this
    long unless it draws a decoy (``docs/server.md``, Claims)."""
    claim_decision_seconds: float = 8.0
    """Mahjong: how long a person asked to claim (쏘아, 뽕, 깡) has to decide; the offer,
    and so the whole table, waits for their answer that long at most."""
    claim_decoy_rate: float = 1.0
    """Mahjong, at a table with two or more people: the chance that an offer asking no
    person lasts a decoy pause, drawn from the lengths of this table's offers that asked
    a person (1: the pause an observer sees has the same distribution either way; 0: a
    long pause shows that some person could claim). Tables of one person and bots draw
    none (``docs/server.md``, Claims)."""
    entropy_seconds: float = 1.5
    """Verifiable deals (``docs/fairness.md``): once a game could be dealt, how long it
    waits for the entropy strings of the people seated who have not sent theirs yet
    (the browser sends one when it sees the commitment); 0 deals at once with what has
    arrived."""
    first_pick_seconds: float = 10.0
    """선 뽑기 (Matgo, before a table's first verifiable deal with a person seated): how
    long a seat has to pick a face-down card; then it gets the first free one."""
    first_pick_reveal_seconds: float = 2.0
    """선 뽑기: how long the picked cards are shown before the next round or the deal."""
    deal_seed: int | None = None
    """Deal table ``N``'s games from seed ``deal_seed + N`` (reproducible deals, for tests
    and demonstrations; never on a public server). None: an unpredictable seed per table."""
    metrics_port: int | None = None
    """Serve the Prometheus metrics (and the process's name and tables, which the public
    ``/api/health`` does not tell) on this port of ``metrics_host``, apart from the
    public port; 0: any free port. None: not served."""
    metrics_host: str = "127.0.0.1"
    """Where the metrics port listens: loopback unless the operator opens it wider."""
    redis_url: str = ""
    """Redis (``redis://host:port/db``): this process is one of several serving the same
    database (:mod:`madang.server.cluster`, ``docs/deploy.md``). Empty: one process."""
    node_id: str = ""
    """This process's name in the cluster (empty: host, port and a random suffix)."""
    lease_s: float = 2.0
    """A table's owner holds it by a Redis lease this long, renewed a third as often; a
    table whose lease is gone for ``lease_s / 2`` more is claimed by another process."""
    scan_s: float = 0.5
    """How often a process looks for tables nobody holds (and checks the owners of the
    tables its connections play at)."""

    def url(self) -> str:
        """The database URL in force."""
        return self.database_url or default_database_url(self.data_dir)


def override(config: ServerConfig, assignments: list[str]) -> ServerConfig:
    """``config`` with ``NAME=VALUE`` settings applied (``madang serve --set``), each
    value read as its field's type; a bad name or value raises ValueError.

    >>> c = override(ServerConfig(), ["ws_ban_s=60", "stakes=5,50", "secure_cookie=yes"])
    >>> c.ws_ban_s, c.stakes, c.secure_cookie
    (60.0, (5, 50), True)
    """
    import dataclasses
    import typing

    hints = typing.get_type_hints(ServerConfig)
    changes: dict[str, Any] = {}
    for item in assignments:
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in hints:
            known = ", ".join(f.name for f in dataclasses.fields(ServerConfig))
            raise ValueError(f"--set takes NAME=VALUE with a setting of: {known}")
        changes[name] = _parse(hints[name], text.strip(), name)
    return dataclasses.replace(config, **changes)


def _parse(kind: object, text: str, name: str) -> object:
    import types
    import typing

    args = typing.get_args(kind)
    if isinstance(kind, types.UnionType) and type(None) in args:
        if text.lower() in ("", "none"):
            return None
        kind = next(a for a in args if a is not type(None))
        args = typing.get_args(kind)
    try:
        if kind is bool:
            if text.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(text)
            return text.lower() in ("1", "true", "yes", "on")
        if kind in (int, float, str):
            return kind(text)
        if kind is Path:
            return Path(text)
        if typing.get_origin(kind) is tuple:
            item = args[0]
            return tuple(item(x.strip()) for x in text.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a {getattr(kind, '__name__', kind)}") from None
    raise ValueError(f"{name} cannot be set from the command line")
