"""Every database query of the server (synchronous SQLAlchemy Core).

The routes and the room actors call these through :func:`madang.server.db.run_in_db`
(the database threads); the settlement of a game
(:func:`finish_game`) is one transaction: record, ledger rows and ratings together.

>>> from madang.server.db import make_engine, migrate
>>> eng = make_engine("sqlite://"); migrate(eng)
>>> u = create_user(eng, "minsu", "x")
>>> token = create_session(eng, u["id"])
>>> session_user(eng, token)["username"]
'minsu'
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from madang.core.registry import games, spec
from madang.server import db, money
from madang.server.auth import name_key
from madang.server.ratings import (
    START_RATING,
    START_RD,
    Glicko,
    glicko2_update,
    placement_deltas,
)

SESSION_DAYS = 30


class NameTaken(Exception):
    """A user name (or one that looks like it) belongs to someone already."""

    def __init__(self, username: str) -> None:
        super().__init__(f"the name {username!r} is taken")
        self.username = username


class TooManyTables(Exception):
    """The person sits at ``limit`` open tables already: no seat was taken."""

    def __init__(self, user_id: int, limit: int) -> None:
        super().__init__(f"user {user_id} sits at {limit} open tables already")
        self.user_id = user_id
        self.limit = limit


class AlreadySettled(Exception):
    """A game settled before (by this process before a restart, or by another): nothing
    is paid twice. ``result`` is what it was settled with."""

    def __init__(self, game_id: int, result: dict[str, Any] | None) -> None:
        super().__init__(f"game {game_id} is already settled")
        self.game_id = game_id
        self.result = result


class SettlementError(Exception):
    """A settlement that cannot be written as it is (an amount past
    :data:`AMOUNT_LIMIT`); nothing was written."""


AMOUNT_LIMIT = 2**53 - 1
"""The largest points or amount a settlement writes: the 64-bit columns hold more, but a
JSON client (a browser) reads integers exactly only up to 2⁵³. A table's bound keeps a
game far below it (:data:`madang.server.stakes.GAME_AMOUNT_CAP`); only a long run of
나가리 before a game could pass it, and that game is then aborted unpaid."""

_settle_lock = threading.Lock()


def now() -> datetime:
    """The current time (UTC, aware)."""
    return datetime.now(UTC)


def _iso(t: datetime | None) -> str | None:
    if t is None:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")


def user_dict(row: Any) -> dict[str, Any]:
    """The public form of a user row."""
    return {"id": row.id, "username": row.username, "guest": row.is_guest, "bot": row.is_bot}


# ---------------------------------------------------------------------- users, sessions


def create_user(
    eng: Engine,
    username: str,
    password_hash: str | None,
    *,
    guest: bool = False,
    bot: bool = False,
    start: int = 0,
) -> dict[str, Any]:
    """Insert a user with ``start`` game money (a ``start`` row of the ledger; never for
    a bot: the bots are the house); a taken name (or one that looks like a taken one)
    raises :class:`NameTaken`."""
    try:
        with eng.begin() as c:
            t = now()
            uid = c.execute(
                sa.insert(db.users).values(
                    username=username,
                    name_key=name_key(username),
                    password_hash=password_hash,
                    is_guest=guest,
                    is_bot=bot,
                    created_at=t,
                )
            ).inserted_primary_key[0]  # type: ignore[index]
            if start > 0 and not bot:
                money.grant(c, uid, start, "start", t)
    except IntegrityError:
        raise NameTaken(username) from None
    return {"id": uid, "username": username, "guest": guest, "bot": bot}


def name_taken(eng: Engine, username: str) -> bool:
    """Whether ``username`` or a look-alike of it (same :func:`~madang.server.auth.name_key`)
    is someone's name already."""
    with eng.connect() as c:
        q = sa.select(db.users.c.id).where(db.users.c.name_key == name_key(username))
        return c.execute(q).first() is not None


def upgrade_guest(eng: Engine, user_id: int, username: str, password_hash: str) -> dict[str, Any]:
    """Turn a guest account into a registered one (ledger, history, ratings kept).

    Every session of the guest ends: the caller issues a new one (a guest's token that
    leaked must not open the registered account)."""
    try:
        with eng.begin() as c:
            c.execute(
                sa.update(db.users)
                .where(db.users.c.id == user_id)
                .values(
                    username=username,
                    name_key=name_key(username),
                    password_hash=password_hash,
                    is_guest=False,
                )
            )
            c.execute(sa.delete(db.sessions).where(db.sessions.c.user_id == user_id))
    except IntegrityError:
        raise NameTaken(username) from None
    return {"id": user_id, "username": username, "guest": False, "bot": False}


def user_by_name(eng: Engine, username: str) -> Any:
    """The user row called ``username`` or None."""
    with eng.connect() as c:
        return c.execute(sa.select(db.users).where(db.users.c.username == username)).first()


def user_for_login(eng: Engine, username: str) -> Any:
    """The user a login name means: the same name up to case and NFKC (``MinSu`` logs
    in as ``minsu``), or None."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", username).casefold()
    with eng.connect() as c:
        rows = c.execute(sa.select(db.users).where(db.users.c.name_key == name_key(username)))
        for row in rows:
            if unicodedata.normalize("NFKC", row.username).casefold() == folded:
                return row
    return None


def bot_user(eng: Engine, level: str) -> dict[str, Any]:
    """The account of the bots of ``level`` (``bot-easy`` …), made on first use."""
    name = f"bot-{level}"
    row = user_by_name(eng, name)
    if row is not None:
        return user_dict(row)
    try:
        return create_user(eng, name, None, bot=True)
    except NameTaken:
        return user_dict(user_by_name(eng, name))


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_session(eng: Engine, user_id: int) -> str:
    """A new session token for ``user_id`` (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    t = now()
    with eng.begin() as c:
        c.execute(
            sa.insert(db.sessions).values(
                token_hash=_hash_token(token),
                user_id=user_id,
                created_at=t,
                expires_at=t + timedelta(days=SESSION_DAYS),
            )
        )
    return token


def session_user(eng: Engine, token: str | None) -> dict[str, Any] | None:
    """The user of a live session token, or None."""
    if not token or len(token) > 100:
        return None
    with eng.connect() as c:
        row = c.execute(
            sa.select(db.users, db.sessions.c.expires_at)
            .join(db.sessions, db.sessions.c.user_id == db.users.c.id)
            .where(db.sessions.c.token_hash == _hash_token(token))
        ).first()
    if row is None:
        return None
    exp = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
    if exp < now():
        return None
    return user_dict(row)


def delete_session(eng: Engine, token: str | None) -> None:
    """End a session (unknown tokens are ignored)."""
    if token and len(token) <= 100:
        with eng.begin() as c:
            c.execute(sa.delete(db.sessions).where(db.sessions.c.token_hash == _hash_token(token)))


def delete_sessions_of(eng: Engine, user_id: int) -> int:
    """End every session of ``user_id`` (log out everywhere); how many there were."""
    with eng.begin() as c:
        gone = c.execute(sa.delete(db.sessions).where(db.sessions.c.user_id == user_id))
        return int(gone.rowcount)


def create_device(eng: Engine, user_id: int) -> str:
    """A new device cookie for ``user_id``: this browser logged in as the user."""
    token = secrets.token_urlsafe(32)
    with eng.begin() as c:
        c.execute(
            sa.insert(db.devices).values(
                token_hash=_hash_token(token), user_id=user_id, created_at=now()
            )
        )
    return token


def device_user(eng: Engine, token: str | None) -> int | None:
    """The user a device cookie belongs to, or None."""
    if not token or len(token) > 100:
        return None
    with eng.connect() as c:
        row = c.execute(
            sa.select(db.devices.c.user_id).where(db.devices.c.token_hash == _hash_token(token))
        ).first()
    return None if row is None else int(row.user_id)


# ---------------------------------------------------------------------- bot accounts

BOT_TOKENS_MAX = 20
"""The most API tokens one bot account holds at once."""

BOT_TOKEN_PREFIX = "mdb_"
"""What every bot API token starts with: a reader (or a secret scanner) knows it for
what it is, and a command line never takes it for an option (a bare URL-safe token
begins with ``-`` one time in 64)."""


class BotRefused(Exception):
    """A bot account's request refused, nothing written: ``code`` is the wire's."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _new_bot_token(c: Connection, user_id: int, label: str) -> dict[str, Any]:
    held = c.execute(
        sa.select(sa.func.count())
        .select_from(db.bot_tokens)
        .where(db.bot_tokens.c.user_id == user_id)
    ).scalar_one()
    if held >= BOT_TOKENS_MAX:
        raise BotRefused("too_many_tokens", f"a bot holds at most {BOT_TOKENS_MAX} tokens")
    token = BOT_TOKEN_PREFIX + secrets.token_urlsafe(32)
    t = now()
    tid = c.execute(
        sa.insert(db.bot_tokens).values(
            user_id=user_id, token_hash=_hash_token(token), label=label, created_at=t
        )
    ).inserted_primary_key[0]  # type: ignore[index]
    return {"id": tid, "label": label, "created_at": _iso(t), "token": token}


def make_bot_account(eng: Engine, user_id: int, label: str) -> dict[str, Any]:
    """Turn a registered account that has played no game into a bot account, for good:
    its password is removed, every session and device of it ends (it never plays in a
    browser again), and its first API token is made. The answer: the user and the token
    (``token``: the only time it is shown). :class:`BotRefused` otherwise."""
    with eng.begin() as c:
        me = sa.select(db.users).where(db.users.c.id == user_id).with_for_update()
        row = c.execute(me).first()
        if row is None or row.is_guest:
            raise BotRefused("forbidden", "only a registered account can become a bot")
        if row.is_bot:
            raise BotRefused("already_bot", "this account is a bot account already")
        players = db.game_players.c
        played = c.execute(sa.select(players.game_id).where(players.user_id == user_id)).first()
        if played is not None:
            raise BotRefused("has_games", "an account that has played a game cannot become a bot")
        if sitting_at(c, user_id):
            raise BotRefused("has_games", "leave your tables before the account becomes a bot")
        upgrade = sa.update(db.users).where(db.users.c.id == user_id)
        c.execute(upgrade.values(is_bot=True, password_hash=None))
        c.execute(sa.delete(db.sessions).where(db.sessions.c.user_id == user_id))
        c.execute(sa.delete(db.devices).where(db.devices.c.user_id == user_id))
        token = _new_bot_token(c, user_id, label)
    return {"user": {**user_dict(row), "bot": True}, "token": token}


def create_bot_token(eng: Engine, user_id: int, label: str) -> dict[str, Any]:
    """Another API token of the bot account ``user_id`` (shown once: only its hash is
    kept); :class:`BotRefused` past :data:`BOT_TOKENS_MAX`."""
    with eng.begin() as c:
        return _new_bot_token(c, user_id, label)


def bot_tokens_of(eng: Engine, user_id: int) -> list[dict[str, Any]]:
    """The bot's tokens, oldest first: id, label, when made (never the token)."""
    q = (
        sa.select(db.bot_tokens.c.id, db.bot_tokens.c.label, db.bot_tokens.c.created_at)
        .where(db.bot_tokens.c.user_id == user_id)
        .order_by(db.bot_tokens.c.id)
    )
    with eng.connect() as c:
        return [
            {"id": r.id, "label": r.label, "created_at": _iso(r.created_at)} for r in c.execute(q)
        ]


def revoke_bot_token(eng: Engine, user_id: int, token_id: int) -> bool:
    """Delete the bot's token ``token_id``; False when it has no such token."""
    with eng.begin() as c:
        gone = c.execute(
            sa.delete(db.bot_tokens).where(
                db.bot_tokens.c.id == token_id, db.bot_tokens.c.user_id == user_id
            )
        )
        return bool(gone.rowcount)


def bot_token_user(eng: Engine, token: str | None) -> tuple[dict[str, Any], int] | None:
    """The bot account an API token belongs to and the token's id, or None."""
    if not token or len(token) > 100:
        return None
    with eng.connect() as c:
        row = c.execute(
            sa.select(db.users, db.bot_tokens.c.id.label("token_id"))
            .join(db.bot_tokens, db.bot_tokens.c.user_id == db.users.c.id)
            .where(db.bot_tokens.c.token_hash == _hash_token(token), db.users.c.is_bot.is_(True))
        ).first()
    return None if row is None else (user_dict(row), int(row.token_id))


# ---------------------------------------------------------------------- tables, games


def create_table(
    eng: Engine,
    *,
    game: str,
    preset: str,
    stake: int,
    private: bool,
    invite: str,
    seats: list[dict[str, Any]],
    created_by: int,
    rules: dict[str, Any] | None = None,
    deal_seed: int | None = None,
    tables_per_user: int | None = None,
    money_rules: money.MoneyRules | None = None,
) -> tuple[int, int]:
    """Insert a table row with the options changed from its preset (``rules``) and its
    seed: ``deal_seed`` plus the table's id (reproducible deals, for tests), else 64
    random bits. Returns the id and the seed (every deal at the table follows from it,
    so a restart can rebuild its games).

    With ``tables_per_user``, the people seated in ``seats`` (the creator) must each sit
    at fewer open tables than that, counted in the same transaction under their user
    row's lock (:func:`sitting_at`); else :class:`TooManyTables` and nothing is made.
    With ``money_rules`` they must also hold the table's entry minimum free and be within
    their self-care limits (:func:`madang.server.money.admit`), else its error."""
    people: set[int] = set()
    if tables_per_user is not None or money_rules is not None:
        people = {s["user_id"] for s in seats if s["kind"] == "human" and s.get("user_id")}
    with eng.begin() as c:
        for uid in sorted(people):
            if tables_per_user is not None:
                _check_sitting(c, uid, tables_per_user)
            if money_rules is not None:
                money.admit(c, uid, stake, money_rules, None)
        tid = int(
            c.execute(
                sa.insert(db.tables).values(
                    game=game,
                    preset=preset,
                    stake=stake,
                    private=private,
                    invite=invite,
                    status="waiting",
                    seats=seats,
                    created_by=created_by,
                    created_at=now(),
                    rules=rules or {},
                )
            ).inserted_primary_key[0]  # type: ignore[index]
        )
        seed = secrets.randbits(64) if deal_seed is None else deal_seed + tid
        c.execute(sa.update(db.tables).where(db.tables.c.id == tid).values(seed=str(seed)))
    return tid, seed


def sitting_at(eng: Engine | Connection, user_id: int) -> int:
    """How many open tables (not ``closed``) ``user_id`` holds a seat at and has not
    left (a table they left, that bots play to its end, does not count)."""
    q = sa.select(sa.func.count()).where(db.tables.c.status != "closed", money.holds_seat(user_id))
    if isinstance(eng, Connection):
        return int(eng.execute(q).scalar() or 0)
    with eng.connect() as c:
        return int(c.execute(q).scalar() or 0)


def _check_sitting(c: Connection, user_id: int, limit: int) -> None:
    """Lock ``user_id``'s row for this transaction (PostgreSQL: ``FOR NO KEY UPDATE``,
    which orders the person's concurrent creates and joins, from any process, and
    leaves foreign-key checks of other writers alone; SQLite has one writer), then
    :class:`TooManyTables` if they sit at ``limit`` open tables already."""
    c.execute(
        sa.select(db.users.c.id).where(db.users.c.id == user_id).with_for_update(key_share=True)
    )
    if sitting_at(c, user_id) >= limit:
        raise TooManyTables(user_id, limit)


def update_table(
    eng: Engine,
    table_id: int,
    status: str,
    seats: list[dict[str, Any]],
    *,
    seating: int | None = None,
    tables_per_user: int | None = None,
    stake: int = 0,
    money_rules: money.MoneyRules | None = None,
) -> None:
    """Store a table's status and seats. ``seating``: the person who takes a seat by
    this write; with ``tables_per_user`` they must sit at fewer open tables than that
    (checked in this transaction under their row's lock), else :class:`TooManyTables`
    and nothing is written; with ``money_rules`` they must hold the entry minimum of
    the table's ``stake`` free and be within their self-care limits
    (:func:`madang.server.money.admit`), else its error and nothing is written."""
    values: dict[str, Any] = {"status": status, "seats": seats}
    if status == "closed":
        values["closed_at"] = now()
    with eng.begin() as c:
        if seating is not None and tables_per_user is not None:
            _check_sitting(c, seating, tables_per_user)
        if seating is not None and money_rules is not None:
            money.admit(c, seating, stake, money_rules, table_id)
        c.execute(sa.update(db.tables).where(db.tables.c.id == table_id).values(**values))


def start_game(
    eng: Engine,
    *,
    table_id: int,
    game: str,
    preset: str,
    stake: int,
    game_no: int,
    players: Sequence[int],
    record: dict[str, Any] | None = None,
    fair_seed: str | None = None,
) -> int:
    """Insert a game being played (status ``playing``), its players and its record as
    dealt (``record``: the deal, no moves yet; the journal holds the moves); its id.
    ``fair_seed``: the secret seed of a verifiable deal (hex), kept for a restart and
    never served (``docs/fairness.md``)."""
    with eng.begin() as c:
        gid = int(
            c.execute(
                _INSERT_GAME,
                {
                    "table_id": table_id,
                    "game": game,
                    "preset": preset,
                    "stake": stake,
                    "game_no": game_no,
                    "status": "playing",
                    "started_at": now(),
                    "record": record,
                    # only when there is one: a seeded game's insert names no column
                    # that a database before migration 0006 lacks
                    **({"fair_seed": fair_seed} if fair_seed is not None else {}),
                },
            ).inserted_primary_key[0]  # type: ignore[index]
        )
        c.execute(
            _INSERT_PLAYERS,
            [{"game_id": gid, "seat": s, "user_id": u} for s, u in enumerate(players)],
        )
    return gid


def journal_moves(eng: Engine, rows: Sequence[dict[str, Any]]) -> None:
    """Append moves of games in play to their journals in one transaction (each row:
    ``game_id``, ``seq``, ``seat``, ``move``, ``timed_out``; a ``seq`` already there is
    an error: two writers)."""
    at = now()
    with eng.begin() as c:
        c.execute(_INSERT_MOVE, [{**r, "at": at} for r in rows])


def journal(eng: Engine, game_id: int) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """A game's record as dealt and its journal of moves in order (``seq``, ``seat``,
    ``move``, ``timed_out``)."""
    with eng.connect() as c:
        start = c.execute(sa.select(db.games.c.record).where(db.games.c.id == game_id)).scalar()
        rows = c.execute(
            sa.select(
                db.game_moves.c.seq,
                db.game_moves.c.seat,
                db.game_moves.c.move,
                db.game_moves.c.timed_out,
            )
            .where(db.game_moves.c.game_id == game_id)
            .order_by(db.game_moves.c.seq)
        ).all()
    return start, [dict(r._mapping) for r in rows]


def unfinished_tables(eng: Engine) -> list[dict[str, Any]]:
    """At start: every table not closed, as what a restart needs to rebuild it: the
    table's row (``id``, ``game``, ``preset``, ``rules``, ``seed``, ``stake``,
    ``private``, ``invite``, ``seats`` with each seat's ``username``), and its games in
    order (``id``, ``game_no``, ``status``, ``record``, ``result``, ``fair_seed``,
    ``moves``: the journal, each ``seat``, ``move``, ``timed_out``)."""
    with eng.connect() as c:
        rows = c.execute(
            sa.select(db.tables).where(db.tables.c.status != "closed").order_by(db.tables.c.id)
        ).all()
        return [_table_plan(c, dict(r._mapping)) for r in rows]


def unfinished_table(eng: Engine, table_id: int) -> dict[str, Any] | None:
    """One table as :func:`unfinished_tables` gives it (None if it is closed)."""
    with eng.connect() as c:
        row = c.execute(
            sa.select(db.tables).where(db.tables.c.id == table_id, db.tables.c.status != "closed")
        ).first()
        return None if row is None else _table_plan(c, dict(row._mapping))


def table_is_open(eng: Engine, table_id: int) -> bool:
    """Whether table ``table_id`` exists and is not closed."""
    with eng.connect() as c:
        status = c.execute(
            sa.select(db.tables.c.status).where(db.tables.c.id == table_id)
        ).scalar_one_or_none()
    return status is not None and status != "closed"


def open_table_ids(eng: Engine) -> list[int]:
    """The ids of the tables not closed."""
    with eng.connect() as c:
        return [int(r.id) for r in c.execute(_OPEN_TABLES)]


def _table_plan(c: Connection, t: dict[str, Any]) -> dict[str, Any]:
    ids = {s["user_id"] for s in t["seats"] if s.get("user_id")}
    users = {
        int(r.id): r
        for r in c.execute(
            sa.select(db.users.c.id, db.users.c.username, db.users.c.is_bot).where(
                db.users.c.id.in_(ids)
            )
        )
    }
    seats = []
    for s in t["seats"]:
        u = users.get(s.get("user_id") or 0)
        seat = {**s, "username": None if u is None else u.username}
        if u is not None and u.is_bot and s.get("kind") == "human":
            seat["bot"] = True  # a bot account's seat (docs/bot-protocol.md)
        seats.append(seat)
    t["seats"] = seats
    rows = c.execute(
        sa.select(
            db.games.c.id, db.games.c.game_no, db.games.c.status, db.games.c.record,
            db.games.c.result, db.games.c.fair_seed,
        )
        .where(db.games.c.table_id == t["id"])
        .order_by(db.games.c.id)
    ).all()  # fmt: skip
    t["games"] = [{**r._mapping, "moves": []} for r in rows]
    by_id = {g["id"]: g["moves"] for g in t["games"]}
    for m in c.execute(  # every game's journal in one query
        sa.select(
            db.game_moves.c.game_id, db.game_moves.c.seat, db.game_moves.c.move,
            db.game_moves.c.timed_out,
        )
        .where(db.game_moves.c.game_id.in_(list(by_id)))
        .order_by(db.game_moves.c.game_id, db.game_moves.c.seq)
    ):  # fmt: skip
        by_id[m.game_id].append({"seat": m.seat, "move": m.move, "timed_out": m.timed_out})
    return t


def abort_table(eng: Engine, table_id: int, reason: str) -> int:
    """Close a table that cannot be rebuilt: its game in play ``aborted`` (no payment,
    ``reason`` stored); the number of games aborted."""
    t = now()
    with eng.begin() as c:
        n = c.execute(
            sa.update(db.games)
            .where(db.games.c.table_id == table_id, db.games.c.status == "playing")
            .values(status="aborted", end_reason=reason[:40], finished_at=t)
        ).rowcount
        c.execute(
            sa.update(db.tables)
            .where(db.tables.c.id == table_id)
            .values(status="closed", closed_at=t)
        )
    return int(n or 0)


# The statements of a game's start and settlement (several a second under load) are
# built once: SQLAlchemy then reuses their compiled form and cache key, and most of the
# cost of building a statement per call goes away.
_INSERT_GAME = sa.insert(db.games)
_INSERT_PLAYERS = sa.insert(db.game_players)
_INSERT_MOVE = sa.insert(db.game_moves)
_INSERT_LEDGER = sa.insert(db.ledger)
_INSERT_RATING = sa.insert(db.ratings)
_SELECT_RATING = (
    sa.select(db.ratings)
    .where(db.ratings.c.user_id == sa.bindparam("uid"), db.ratings.c.game == sa.bindparam("g"))
    .with_for_update()
)
_UPDATE_RATING = sa.update(db.ratings).where(
    db.ratings.c.user_id == sa.bindparam("uid"), db.ratings.c.game == sa.bindparam("g")
)
_FINISH_GAME = sa.update(db.games).where(db.games.c.id == sa.bindparam("gid"))
_OPEN_TABLES = sa.select(db.tables.c.id).where(db.tables.c.status != "closed")
_CLAIM_SETTLEMENT = (
    sa.update(db.games)
    .where(db.games.c.id == sa.bindparam("gid"), db.games.c.status == "playing")
    .values(status="settling")
)


def _rating_row(c: Connection, user_id: int, game: str) -> Any:
    return c.execute(_SELECT_RATING, {"uid": user_id, "g": game}).first()


def _save_rating(
    c: Connection,
    user_id: int,
    game: str,
    exists: bool,
    rating: float,
    rd: float,
    vol: float,
    games: int,
) -> None:
    values = {"rating": rating, "rd": rd, "vol": vol, "games": games}
    if exists:
        c.execute(_UPDATE_RATING, {"uid": user_id, "g": game, **values})
    else:
        c.execute(_INSERT_RATING, {"user_id": user_id, "game": game, **values})


def finish_game(
    eng: Engine,
    *,
    game_id: int,
    game: str,
    stake: int,
    players: Sequence[int],
    outcome: dict[str, Any],
    payments: Sequence[tuple[int, int, int, str]],
    record: dict[str, Any],
    match_scores: Sequence[int] | None,
    placement: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Settle a finished game in ONE transaction: the record and result, a ledger row
    per payment side (points × stake, cut to what a person holds: 올인,
    :func:`madang.server.money.settle`), and the ratings. Returns the result sent to the
    players (payments with amounts, each seat's money, rating changes per seat). A
    placement-rated game rates the seats by ``placement``
    (:meth:`~madang.core.game.Session.placement_scores`; default ``match_scores``), but
    for a seat the outcome names ``sitting_out`` (고스톱's 광팔기: not rated for it). A
    payment past :data:`AMOUNT_LIMIT` raises :class:`SettlementError`, and nothing is
    written."""
    t = now()
    pays: list[dict[str, Any]] = [
        {"from": f, "to": to, "points": pts, "amount": pts * stake, "reason": r}
        for f, to, pts, r in payments
    ]
    result: dict[str, Any] = {
        "winner": outcome.get("winner"),
        "points": outcome.get("points"),
        "reason": outcome.get("reason"),
        "payments": pays,
        "sheet": outcome.get("sheet"),
    }
    if "winners" in outcome:
        result["winners"] = outcome["winners"]
    for p in pays:
        if max(abs(p["points"]), abs(p["amount"])) > AMOUNT_LIMIT:
            raise SettlementError(
                f"game {game_id}: a payment of {p['points']} points × {stake} is past "
                f"{AMOUNT_LIMIT}"
            )
    changes: dict[str, dict[str, float]] = {}
    with _settle_lock, eng.begin() as c:
        # The game's row is claimed first: only the settlement that turns it from
        # ``playing`` pays (a second one, racing or after a restart, changes nothing).
        if not c.execute(_CLAIM_SETTLEMENT, {"gid": game_id}).rowcount:
            done = c.execute(sa.select(db.games.c.result).where(db.games.c.id == game_id))
            raise AlreadySettled(game_id, done.scalar())
        result["money"] = money.settle(c, players, pays)
        rows = []
        for p in pays:
            payer, payee = players[p["from"]], players[p["to"]]
            if payer == payee:
                continue  # two seats of the same bot account: nothing changes hands
            rows.append(
                {
                    "user_id": payer,
                    "game_id": game_id,
                    "amount": -p["amount"],
                    "points": -p["points"],
                    "reason": p["reason"],
                    "counterparty_id": payee,
                    "created_at": t,
                }
            )
            rows.append(
                {
                    "user_id": payee,
                    "game_id": game_id,
                    "amount": p["amount"],
                    "points": p["points"],
                    "reason": p["reason"],
                    "counterparty_id": payer,
                    "created_at": t,
                }
            )
        if rows:
            c.execute(_INSERT_LEDGER, rows)
        winner = outcome.get("winner")
        scheme = spec(game).rating
        if scheme == "pairwise" and winner is not None and players[0] != players[1]:
            cur = [_rating_row(c, u, game) for u in players]
            g = [Glicko(r.rating, r.rd, r.vol) if r is not None else Glicko() for r in cur]
            for s in (0, 1):
                new = glicko2_update(g[s], [(g[1 - s], 1.0 if winner == s else 0.0)])
                r = cur[s]
                _save_rating(
                    c,
                    players[s],
                    game,
                    r is not None,
                    new.rating,
                    new.rd,
                    new.vol,
                    (r.games if r is not None else 0) + 1,
                )
                changes[str(s)] = {"before": round(g[s].rating, 1), "after": round(new.rating, 1)}
        placed = match_scores if placement is None else placement
        if scheme == "placement" and placed is not None:
            # the seats who played: 광팔기's sitter (``sitting_out``) is not rated for it
            sitter = outcome.get("sitting_out")
            rated = [s for s in range(len(players)) if s != sitter]
            cur = [_rating_row(c, players[s], game) for s in rated]
            rating = [r.rating if r is not None else START_RATING for r in cur]
            played = [r.games if r is not None else 0 for r in cur]
            deltas = placement_deltas(rating, [placed[s] for s in rated], played)
            counts = {u: list(players).count(u) for u in players}
            for i, s in enumerate(rated):
                u = players[s]
                if counts[u] > 1:
                    continue  # a bot account in several seats keeps its rating
                r = cur[i]
                _save_rating(
                    c, u, game, r is not None, rating[i] + deltas[i], 0.0, 0.0, played[i] + 1
                )
                changes[str(s)] = {
                    "before": round(rating[i], 1),
                    "after": round(rating[i] + deltas[i], 1),
                }
        if match_scores is not None:
            result["match_scores"] = list(match_scores)
        result["ratings"] = changes
        c.execute(
            _FINISH_GAME,
            {
                "gid": game_id,
                "status": "finished",
                "winner": winner,
                "points": outcome.get("points"),
                "end_reason": outcome.get("reason"),
                "record": record,
                "result": result,
                "finished_at": t,
            },
        )
    return result


# ---------------------------------------------------------------------- reading


def balance(eng: Engine, user_id: int) -> int:
    """The sum of a player's ledger."""
    with eng.connect() as c:
        v = c.execute(
            sa.select(sa.func.coalesce(sa.func.sum(db.ledger.c.amount), 0)).where(
                db.ledger.c.user_id == user_id
            )
        ).scalar()
    return int(v or 0)


def ledger_of(eng: Engine, user_id: int, limit: int, before: int | None) -> list[dict[str, Any]]:
    """A player's ledger rows, newest first."""
    cp = db.users.alias("cp")
    q = (
        sa.select(db.ledger, cp.c.username.label("cp_name"))
        .join(cp, cp.c.id == db.ledger.c.counterparty_id, isouter=True)
        .where(db.ledger.c.user_id == user_id)
        .order_by(db.ledger.c.id.desc())
        .limit(limit)
    )
    if before is not None:
        q = q.where(db.ledger.c.id < before)
    with eng.connect() as c:
        return [
            {
                "id": r.id,
                "game_id": r.game_id,
                "amount": r.amount,
                "points": r.points,
                "reason": r.reason,
                "counterparty": r.cp_name,
                "at": _iso(r.created_at),
            }
            for r in c.execute(q)
        ]


def ratings_of(eng: Engine, user_id: int) -> dict[str, Any]:
    """A player's ratings per game (defaults for a game not yet played); a pairwise
    (Glicko-2) rating has its deviation ``rd``."""
    pairwise = {g for g in games() if spec(g).rating == "pairwise"}
    out: dict[str, Any] = {
        g: {"rating": START_RATING, **({"rd": START_RD} if g in pairwise else {}), "games": 0}
        for g in games()
    }
    with eng.connect() as c:
        for r in c.execute(sa.select(db.ratings).where(db.ratings.c.user_id == user_id)):
            entry = {"rating": round(r.rating, 1), "games": r.games}
            if r.game in pairwise:
                entry = {"rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games}
            out[r.game] = entry
    return out


def _players(c: Connection, game_ids: list[int]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {g: [] for g in game_ids}
    if not game_ids:
        return out
    rows = c.execute(
        sa.select(db.game_players.c.game_id, db.game_players.c.seat, db.users.c.username)
        .join(db.users, db.users.c.id == db.game_players.c.user_id)
        .where(db.game_players.c.game_id.in_(game_ids))
        .order_by(db.game_players.c.game_id, db.game_players.c.seat)
    )
    for r in rows:
        out[r.game_id].append(r.username)
    return out


def _game_summary(r: Any, players: list[str]) -> dict[str, Any]:
    return {
        "id": r.id,
        "table_id": r.table_id,
        "game": r.game,
        "preset": r.preset,
        "stake": r.stake,
        "status": r.status,
        "players": players,
        "winner": r.winner,
        "points": r.points,
        "end": r.end_reason,
        "started_at": _iso(r.started_at),
        "finished_at": _iso(r.finished_at),
    }


def games_of(
    eng: Engine, user_id: int, game: str | None, limit: int, before: int | None
) -> list[dict[str, Any]]:
    """Finished and aborted games of a player, newest first."""
    q = (
        sa.select(db.games)
        .join(db.game_players, db.game_players.c.game_id == db.games.c.id)
        .where(db.game_players.c.user_id == user_id, db.games.c.status != "playing")
        .order_by(db.games.c.id.desc())
        .limit(limit)
    )
    if game is not None:
        q = q.where(db.games.c.game == game)
    if before is not None:
        q = q.where(db.games.c.id < before)
    with eng.connect() as c:
        rows = list(c.execute(q))
        names = _players(c, [r.id for r in rows])
    return [_game_summary(r, names[r.id]) for r in rows]


def game_detail(eng: Engine, game_id: int) -> dict[str, Any] | None:
    """A finished game with its record and result (None if missing or not finished)."""
    with eng.connect() as c:
        r = c.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
        if r is None or r.status != "finished":
            return None
        out = _game_summary(r, _players(c, [r.id])[r.id])
    out["record"] = r.record
    out["result"] = r.result
    out["payments"] = (r.result or {}).get("payments", [])
    return out


def review_of(eng: Engine, game_id: int, seat: int) -> dict[str, Any] | None:
    """The kept review of ``seat`` in a finished game (None: not computed yet)."""
    with eng.connect() as c:
        r = c.execute(
            sa.select(db.game_reviews.c.review).where(
                db.game_reviews.c.game_id == game_id, db.game_reviews.c.seat == seat
            )
        ).first()
    return None if r is None else dict(r.review)


def save_review(eng: Engine, game_id: int, seat: int, review: dict[str, Any]) -> None:
    """Keep a finished game's review of ``seat`` (the first one kept stays: a review is
    deterministic, so two computed at once are the same)."""
    with eng.begin() as c:
        found = c.execute(
            sa.select(db.game_reviews.c.seat).where(
                db.game_reviews.c.game_id == game_id, db.game_reviews.c.seat == seat
            )
        ).first()
        if found is not None:
            return
        try:
            with c.begin_nested():
                c.execute(
                    db.game_reviews.insert().values(
                        game_id=game_id, seat=seat, review=review, created_at=now()
                    )
                )
        except IntegrityError:
            pass  # another process kept the same review first


#: Rated games a player needs before the rankings list them (U17); the server's
#: ``rank_min_games`` setting.
RANK_MIN_GAMES = 10


def week_start(t: datetime) -> datetime:
    """The start of ``t``'s ranking week: the Monday before it (or its own), 00:00 UTC.

    >>> week_start(datetime(2026, 12, 6, 23, 59, tzinfo=UTC)).isoformat()  # a Sunday
    '2026-11-30T00:00:00+00:00'
    >>> week_start(datetime(2026, 12, 7, 0, 0, tzinfo=UTC)).isoformat()  # a Monday
    '2026-12-07T00:00:00+00:00'
    """
    t = t.astimezone(UTC) if t.tzinfo else t.replace(tzinfo=UTC)
    day = t.replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def weekly_money(
    eng: Engine,
    game: str,
    limit: int,
    min_games: int = RANK_MIN_GAMES,
    at: datetime | None = None,
) -> list[dict[str, Any]]:
    """The week's ranking by game money won at ``game``: each player's ledger rows of
    that game's settlements since :func:`week_start` of ``at`` (now), summed (``won``,
    a loss counts against it), with the week's games that paid them or that they paid
    (``games``); registered players and bots only, each with at least ``min_games``
    rated games of ``game`` in all, best first (ties: the earlier account)."""
    since = week_start(at or now())
    won = sa.func.sum(db.ledger.c.amount).label("won")
    played = sa.func.count(sa.distinct(db.ledger.c.game_id)).label("played")
    q = (
        sa.select(db.users.c.id, db.users.c.username, db.users.c.is_bot, won, played)
        .select_from(db.ledger)
        .join(db.games, db.games.c.id == db.ledger.c.game_id)
        .join(db.users, db.users.c.id == db.ledger.c.user_id)
        .join(
            db.ratings,
            sa.and_(db.ratings.c.user_id == db.users.c.id, db.ratings.c.game == game),
        )
        .where(
            db.games.c.game == game,
            db.ledger.c.created_at >= since,
            db.users.c.is_guest.is_(False),
            db.ratings.c.games >= min_games,
        )
        .group_by(db.users.c.id, db.users.c.username, db.users.c.is_bot)
        .order_by(won.desc(), db.users.c.id)
        .limit(limit)
    )
    with eng.connect() as c:
        return [
            {
                "rank": i,
                "username": r.username,
                "bot": r.is_bot,
                "won": int(r.won),
                "games": int(r.played),
            }
            for i, r in enumerate(c.execute(q), 1)
        ]


def leaderboard(
    eng: Engine, game: str, limit: int, min_games: int = RANK_MIN_GAMES
) -> list[dict[str, Any]]:
    """Registered players and bots with at least ``min_games`` rated games, by rating
    (guests left out)."""
    q = (
        sa.select(db.ratings, db.users.c.username, db.users.c.is_bot)
        .join(db.users, db.users.c.id == db.ratings.c.user_id)
        .where(
            db.ratings.c.game == game,
            db.users.c.is_guest.is_(False),
            db.ratings.c.games >= min_games,
        )
        .order_by(db.ratings.c.rating.desc(), db.users.c.id)
        .limit(limit)
    )
    out = []
    with eng.connect() as c:
        for i, r in enumerate(c.execute(q), 1):
            e: dict[str, Any] = {
                "rank": i,
                "username": r.username,
                "bot": r.is_bot,
                "rating": round(r.rating, 1),
                "games": r.games,
            }
            if spec(game).rating == "pairwise":
                e["rd"] = round(r.rd, 1)
            out.append(e)
    return out


def new_invite() -> str:
    """A fresh invite code."""
    return secrets.token_urlsafe(12)
