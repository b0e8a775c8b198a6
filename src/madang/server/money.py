"""Game money (no real money anywhere): bankrolls, the daily refill, entry minimums
and 올인 (``docs/server.md``, Money).

A bankroll is the sum of the player's ledger: the starting amount and the refills
(rows without a game) and every game's payments. People never go below 0: a loser pays
at most what they hold (:func:`all_in`), and the winners receive exactly what was paid.
The bots' accounts are the house: they always pay in full and are never refilled.

A table's entry minimum is ``entry_multiple`` × its stake. Sitting down needs it free of
what one's other open tables reserve (their entry minimums, a table one has left
included until it closes), and every deal needs it again (:func:`refusal`).

>>> all_in([300, 100], 200)
[150, 50]
>>> all_in([5, 5, 5], 10)
[4, 3, 3]
>>> all_in([70, 30], 500)
[70, 30]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from madang.core.registry import games, spec
from madang.server import db, selfcare
from madang.server.wire import WireError

__all__ = [
    "MoneyRules",
    "all_in",
    "bankroll",
    "holds_seat",
    "refill",
    "refusal",
    "settle",
    "shortfalls",
]


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """The money settings of :class:`~madang.server.config.ServerConfig`."""

    start: int = 100_000
    refill_floor: int = 50_000
    entry_multiple: int = 100
    day_zone: str = "UTC"

    @classmethod
    def of(cls, config: Any) -> MoneyRules:
        return cls(config.money_start, config.refill_floor, config.entry_multiple,
                   config.day_zone)  # fmt: skip

    def entry(self, stake: int) -> int:
        """The entry minimum of a table at ``stake``."""
        return stake * self.entry_multiple


def all_in(owed: Sequence[int], holding: int) -> list[int]:
    """What a loser pays of each amount ``owed`` when they hold ``holding``: everything
    if they can, else ``holding`` split in proportion to the amounts (largest remainders
    first, ties to the earlier payment), so the parts sum to ``holding`` exactly."""
    total = sum(owed)
    have = max(0, holding)
    if total <= have:
        return list(owed)
    parts = [a * have // total for a in owed]
    rest = have - sum(parts)
    order = sorted(range(len(owed)), key=lambda i: (-(owed[i] * have % total), i))
    for i in order[:rest]:
        parts[i] += 1
    return parts


def holding(c: Connection, user_id: int) -> int:
    """The sum of the player's ledger."""
    v = c.execute(
        sa.select(sa.func.coalesce(sa.func.sum(db.ledger.c.amount), 0)).where(
            db.ledger.c.user_id == user_id
        )
    ).scalar()
    return int(v or 0)


def lock_user(c: Connection, user_id: int) -> None:
    """Lock the player's row for the transaction (PostgreSQL ``FOR NO KEY UPDATE``; SQLite
    has one writer): their seats, settlements and refills are ordered by it."""
    c.execute(
        sa.select(db.users.c.id).where(db.users.c.id == user_id).with_for_update(key_share=True)
    )


def holds_seat(user_id: int, *, left_too: bool = False) -> sa.ColumnElement[bool]:
    """A table row's condition: ``user_id`` holds one of its seats (and has not left it,
    unless ``left_too``)."""
    most = max(spec(g).seats for g in games())
    held = []
    for i in range(most):
        seat = db.tables.c.seats[i]
        mine = seat["user_id"].as_integer() == user_id
        if not left_too:
            mine = sa.and_(
                mine, sa.func.coalesce(seat["left"].as_boolean(), sa.false()) == sa.false()
            )
        held.append(mine)
    return sa.or_(*held)


def reserved(c: Connection, user_id: int, rules: MoneyRules, but: int | None = None) -> int:
    """What the player's open tables other than ``but`` reserve: their entry minimums
    (a table they left counts until it closes: a bot plays their seat to the end)."""
    q = sa.select(sa.func.coalesce(sa.func.sum(db.tables.c.stake), 0)).where(
        db.tables.c.status != "closed", holds_seat(user_id, left_too=True)
    )
    if but is not None:
        q = q.where(db.tables.c.id != but)
    return int(c.execute(q).scalar() or 0) * rules.entry_multiple


def refusal(
    c: Connection, user_id: int, stake: int, rules: MoneyRules, table_id: int | None
) -> WireError | None:
    """Why the player may not sit down at (or be dealt a game of) table ``table_id``
    at ``stake`` now — a self-care limit, or too little money free of their other
    tables — or None. Call it with the player's row locked (:func:`lock_user`)."""
    why = selfcare.refusal(c, user_id, rules.day_zone, datetime.now(UTC))
    if why is not None:
        return why
    need = rules.entry(stake)
    free = holding(c, user_id) - reserved(c, user_id, rules, table_id)
    if free < need:
        return WireError(
            "not_enough_money",
            f"this table needs {need:,} free to sit down ({rules.entry_multiple} × the "
            f"stake {stake:,}); you have {max(0, free):,} free of your other tables",
        )
    return None


def admit(c: Connection, user_id: int, stake: int, rules: MoneyRules, table_id: int | None) -> None:
    """Lock the player's row and raise :func:`refusal`'s error, if any."""
    lock_user(c, user_id)
    why = refusal(c, user_id, stake, rules, table_id)
    if why is not None:
        raise why


def may_sit(eng: Engine, user_id: int, stake: int, rules: MoneyRules) -> WireError | None:
    """Why the player could not sit down at a new table at ``stake`` now (a self-care
    limit, too little money free), or None: a read before a quick match queues them or
    seats them; the seat's own transaction checks again (:func:`admit`)."""
    with eng.begin() as c:
        return refusal(c, user_id, stake, rules, None)


def shortfalls(
    eng: Engine, people: Sequence[tuple[int, int]], stake: int, rules: MoneyRules, table_id: int
) -> list[tuple[int, WireError]]:
    """After a game: each person of ``people`` (seat, id) who could not be dealt the
    next game at the table now (too little money free, a self-care limit), with why. A
    read for the settlement to say so; the deal checks again (:func:`first_refusal`)."""
    out = []
    with eng.connect() as c:
        for seat, uid in people:
            why = refusal(c, uid, stake, rules, table_id)
            if why is not None:
                out.append((seat, why))
    return out


def first_refusal(
    eng: Engine, people: Sequence[tuple[int, str]], stake: int, rules: MoneyRules, table_id: int
) -> tuple[str, WireError] | None:
    """Before a deal: the first person of ``people`` (id, name) who may not be dealt a
    game at the table, with why, or None."""
    with eng.begin() as c:
        for uid, _ in sorted(people):  # in id order, as every transaction locks them
            lock_user(c, uid)
        for uid, name in people:
            why = refusal(c, uid, stake, rules, table_id)
            if why is not None:
                return name, why
    return None


def settle(
    c: Connection, players: Sequence[int], pays: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """올인, inside a settlement's transaction: each person's payments are cut to what
    they hold before the game (:func:`all_in`; what they win in the same game is not
    counted), in place (``amount`` is what is paid; a cut payment keeps what was
    ``owed`` and is marked ``all_in``). The bots (the house) pay in full. Returns each
    seat's ``net`` amount, ``all_in`` and, for a person, ``balance`` after the game."""
    ids = sorted(set(players))
    bots = {
        int(r.id)
        for r in c.execute(
            sa.select(db.users.c.id).where(db.users.c.id.in_(ids), db.users.c.is_bot.is_(True))
        )
    }
    before: dict[int, int] = {}
    for uid in ids:  # in id order: two settlements lock their people alike
        if uid not in bots:
            lock_user(c, uid)
            before[uid] = holding(c, uid)
    cut: set[int] = set()
    for uid, have in before.items():
        mine = [p for p in pays if players[p["from"]] == uid and players[p["to"]] != uid]
        paid = all_in([p["amount"] for p in mine], have)
        for p, amount in zip(mine, paid, strict=True):
            if amount < p["amount"]:
                p["owed"], p["amount"], p["all_in"] = p["amount"], amount, True
                cut.add(uid)
    net = [0] * len(players)
    for p in pays:
        if players[p["from"]] != players[p["to"]]:  # else nothing changes hands
            net[p["from"]] -= p["amount"]
            net[p["to"]] += p["amount"]
    out: dict[str, dict[str, Any]] = {}
    for seat, uid in enumerate(players):
        entry: dict[str, Any] = {"net": net[seat], "all_in": uid in cut}
        if uid in before:  # a person holds one seat
            entry["balance"] = before[uid] + net[seat]
        out[str(seat)] = entry
    return out


def grant(c: Connection, user_id: int, amount: int, reason: str, at: datetime) -> None:
    """A ledger row without a game: game money given (``start``, ``refill``)."""
    c.execute(
        sa.insert(db.ledger).values(
            user_id=user_id, game_id=None, amount=amount, points=0, reason=reason, created_at=at
        )
    )


class _Refused(Exception):
    def __init__(self, error: WireError) -> None:
        self.error = error


def refill(
    eng: Engine, user_id: int, rules: MoneyRules, now: datetime | None = None
) -> dict[str, Any]:
    """The daily free refill: a bankroll below ``refill_floor`` is brought up to it, once
    a day (in ``day_zone``). A second the same day is ``already_refilled``, one at or
    above the floor ``refill_above_floor``; either changes nothing. Two at once: the
    day's row (the primary key of ``refills``) is written first, so one waits for the
    other and then fails on it."""
    t = now or datetime.now(UTC)
    day = selfcare.Day.of(t, rules.day_zone)
    try:
        with eng.begin() as c:
            # the first statement writes: SQLite takes its write lock here (a racing
            # refill waits for it, then meets the key), PostgreSQL the key's
            c.execute(
                sa.insert(db.refills).values(user_id=user_id, day=day.date, amount=0, created_at=t)
            )
            lock_user(c, user_id)
            have = holding(c, user_id)
            if have >= rules.refill_floor:
                raise _Refused(
                    WireError(
                        "refill_above_floor",
                        f"the refill is for a bankroll below {rules.refill_floor:,}; "
                        f"you hold {have:,}",
                    )
                )
            amount = rules.refill_floor - have
            c.execute(
                sa.update(db.refills)
                .where(db.refills.c.user_id == user_id, db.refills.c.day == day.date)
                .values(amount=amount)
            )
            grant(c, user_id, amount, "refill", t)
    except _Refused as e:
        raise e.error from None
    except IntegrityError:
        raise WireError(
            "already_refilled",
            f"today's refill is taken; the next one from {selfcare.iso(day.end)}",
        ) from None
    return {"amount": amount, "balance": rules.refill_floor}


def bankroll(
    eng: Engine, user_id: int, rules: MoneyRules, now: datetime | None = None
) -> dict[str, Any]:
    """What the player's page shows of their money: the bankroll, what their open tables
    reserve, what is free, and the refill (whether it can be taken now, and when next)."""
    t = now or datetime.now(UTC)
    day = selfcare.Day.of(t, rules.day_zone)
    with eng.connect() as c:
        have = holding(c, user_id)
        held = reserved(c, user_id, rules)
        taken = c.execute(
            sa.select(db.refills.c.amount).where(
                db.refills.c.user_id == user_id, db.refills.c.day == day.date
            )
        ).first()
    return {
        "balance": have,
        "reserved": held,
        "free": max(0, have - held),
        "refill": {
            "floor": rules.refill_floor,
            "available": taken is None and have < rules.refill_floor,
            "taken_today": taken is not None,
            "next_at": selfcare.iso(day.end) if taken is not None else None,
        },
        "start": rules.start,
        "entry_multiple": rules.entry_multiple,
        "day_zone": rules.day_zone,
    }
