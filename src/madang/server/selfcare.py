"""Self-care (자기 보호): limits a player sets on themselves, enforced by the server.

A daily play-time limit (minutes), a daily loss limit (game money) and a self-exclusion
of 3, 6 or 12 months. Lowering a limit (or setting one where there was none) takes
effect at once; raising or removing one only after the cooling-off delay
(``ServerConfig.limit_cooloff_s``, 24 h), as regulated services do; a self-exclusion
cannot be undone early (a new one can only end later). Each setting is a row of
``self_limits`` with the time it takes effect, so the history is kept.

A player past a limit (or excluded) cannot sit down nor be dealt a game
(:func:`refusal`): a game in play finishes, and the table does not deal them another
(``docs/server.md``, Self-care). A day starts at midnight in ``day_zone``.

>>> from datetime import datetime, UTC
>>> add_months(datetime(2026, 11, 30, 12, tzinfo=UTC), 3).isoformat()
'2027-02-28T12:00:00+00:00'
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from madang.server import db
from madang.server.wire import WireError

__all__ = [
    "EXCLUSION_MONTHS",
    "KINDS",
    "Day",
    "add_months",
    "exclude",
    "refusal",
    "set_limit",
    "status",
]

PLAY = "play_minutes"
LOSS = "loss"
EXCLUSION = "exclusion"
KINDS = (PLAY, LOSS)
"""The limits a player may set, lower and (after the cooling-off delay) raise or remove."""
EXCLUSION_MONTHS = (3, 6, 12)
LARGEST = {PLAY: 24 * 60, LOSS: 10**12}
"""The largest value of each limit: a day's minutes; the game-amount cap."""


def aware(t: datetime) -> datetime:
    """``t`` with its zone (SQLite gives back naive UTC times)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def iso(t: datetime | None) -> str | None:
    """A time as the API writes it (UTC, ``Z``)."""
    return None if t is None else aware(t).astimezone(UTC).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Day:
    """The day a time falls in, in ``zone``: its date and its bounds (UTC, aware).

    >>> d = Day.of(datetime(2026, 12, 4, 16, tzinfo=UTC), "Asia/Seoul")
    >>> d.date.isoformat(), d.start.isoformat(), d.end.isoformat()
    ('2026-12-05', '2026-12-04T15:00:00+00:00', '2026-12-05T15:00:00+00:00')
    """

    date: date
    start: datetime
    end: datetime

    @classmethod
    def of(cls, t: datetime, zone: str) -> Day:
        z = ZoneInfo(zone)
        local = aware(t).astimezone(z)
        d = local.date()
        start = datetime(d.year, d.month, d.day, tzinfo=z)
        nxt = d + timedelta(days=1)
        end = datetime(nxt.year, nxt.month, nxt.day, tzinfo=z)
        return cls(d, start.astimezone(UTC), end.astimezone(UTC))


def add_months(t: datetime, months: int) -> datetime:
    """``t`` plus whole calendar months (the day kept, or the month's last)."""
    m = t.month - 1 + months
    year, month = t.year + m // 12, m % 12 + 1
    return t.replace(year=year, month=month, day=min(t.day, calendar.monthrange(year, month)[1]))


def _rows(c: Connection, user_id: int) -> list[Any]:
    q = (
        sa.select(db.self_limits)
        .where(db.self_limits.c.user_id == user_id)
        .order_by(db.self_limits.c.effective_at, db.self_limits.c.id)
    )
    return list(c.execute(q))


def _limit(rows: list[Any], kind: str, now: datetime) -> tuple[int | None, Any]:
    """The limit of ``kind`` in force at ``now`` and the setting waiting to take effect
    (a row, or None)."""
    value: int | None = None
    pending = None
    for r in rows:
        if r.kind != kind:
            continue
        if aware(r.effective_at) <= now:
            value = None if r.value is None else int(r.value)
        else:
            pending = r
    return value, pending


def excluded_until(rows: list[Any]) -> datetime | None:
    """When the player's self-exclusion ends (the latest of them), or None."""
    ends = [add_months(aware(r.set_at), int(r.value)) for r in rows if r.kind == EXCLUSION]
    return max(ends) if ends else None


def played_seconds(c: Connection, user_id: int, day: Day, now: datetime) -> float:
    """Seconds of ``day`` the player spent in games (dealt to finished, or to ``now`` for
    a game in play)."""
    q = (
        sa.select(db.games.c.started_at, db.games.c.finished_at)
        .join(db.game_players, db.game_players.c.game_id == db.games.c.id)
        .where(
            db.game_players.c.user_id == user_id,
            db.games.c.started_at < day.end,
            sa.or_(db.games.c.finished_at.is_(None), db.games.c.finished_at > day.start),
        )
    )
    total = 0.0
    for r in c.execute(q):
        begin = max(aware(r.started_at), day.start)
        end = min(aware(r.finished_at) if r.finished_at is not None else now, day.end, now)
        total += max(0.0, (end - begin).total_seconds())
    return total


def lost_today(c: Connection, user_id: int, day: Day) -> int:
    """The player's net loss in games over ``day`` (0 if they won), grants left out."""
    net = c.execute(
        sa.select(sa.func.coalesce(sa.func.sum(db.ledger.c.amount), 0)).where(
            db.ledger.c.user_id == user_id,
            db.ledger.c.game_id.is_not(None),
            db.ledger.c.created_at >= day.start,
            db.ledger.c.created_at < day.end,
        )
    ).scalar()
    return max(0, -int(net or 0))


def _status(c: Connection, user_id: int, zone: str, now: datetime) -> dict[str, Any]:
    rows = _rows(c, user_id)
    day = Day.of(now, zone)
    out: dict[str, Any] = {"day": day.date.isoformat(), "zone": zone, "resets_at": iso(day.end)}
    used = {PLAY: played_seconds(c, user_id, day, now) / 60, LOSS: lost_today(c, user_id, day)}
    for kind in KINDS:
        value, pending = _limit(rows, kind, now)
        spent = round(used[kind], 1) if kind == PLAY else used[kind]
        entry: dict[str, Any] = {
            "limit": value,
            "used": spent,
            "left": None if value is None else max(0, round(value - spent, 1)),
            "pending": None
            if pending is None
            else {"limit": pending.value, "at": iso(pending.effective_at)},
        }
        out[kind] = entry
    until = excluded_until(rows)
    out["excluded_until"] = iso(until) if until is not None and until > now else None
    return out


def status(eng: Engine, user_id: int, zone: str, now: datetime | None = None) -> dict[str, Any]:
    """What the player's page shows: each limit in force, what is used and left today,
    a setting waiting for its cooling-off delay, and the end of a self-exclusion."""
    with eng.connect() as c:
        return _status(c, user_id, zone, now or datetime.now(UTC))


def refusal(c: Connection, user_id: int, zone: str, now: datetime) -> WireError | None:
    """Why the player may not sit down or be dealt a game now, or None."""
    rows = _rows(c, user_id)
    until = excluded_until(rows)
    if until is not None and until > now:
        return WireError("self_excluded", f"you excluded yourself from play until {iso(until)}")
    day = Day.of(now, zone)
    minutes, _ = _limit(rows, PLAY, now)
    if minutes is not None and played_seconds(c, user_id, day, now) >= minutes * 60:
        return WireError(
            "play_time_limit",
            f"you have played your {minutes} minutes today; play again after {iso(day.end)}",
        )
    loss, _ = _limit(rows, LOSS, now)
    if loss is not None and lost_today(c, user_id, day) >= loss:
        return WireError(
            "loss_limit",
            f"you have lost your daily limit of {loss:,} today; play again after {iso(day.end)}",
        )
    return None


def check_value(kind: object, value: object) -> tuple[str, int | None]:
    """A limit setting as sent: its kind and value (None removes it), or ``bad_request``."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise WireError("bad_request", f"limit must be one of {', '.join(KINDS)}")
    if value is None:
        return kind, None
    if type(value) is not int or not 1 <= value <= LARGEST[kind]:
        raise WireError(
            "bad_request", f"{kind} must be an integer from 1 to {LARGEST[kind]:,}, or null"
        )
    return kind, value


def set_limit(
    eng: Engine,
    user_id: int,
    kind: str,
    value: int | None,
    *,
    zone: str,
    cooloff_s: float,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Set a limit (``value`` None removes it; checked by :func:`check_value`): a lower
    one takes effect at once and cancels a raise waiting; a higher one, or a removal,
    waits ``cooloff_s``. The player's :func:`status`."""
    t = now or datetime.now(UTC)
    with eng.begin() as c:
        c.execute(  # one setting at a time per player (SQLite has one writer)
            sa.select(db.users.c.id).where(db.users.c.id == user_id).with_for_update(key_share=True)
        )
        current, _ = _limit(_rows(c, user_id), kind, t)
        c.execute(  # a setting still waiting is replaced by this one
            sa.delete(db.self_limits).where(
                db.self_limits.c.user_id == user_id,
                db.self_limits.c.kind == kind,
                db.self_limits.c.effective_at > t,
            )
        )
        if value != current:
            lower = value is not None and (current is None or value < current)
            c.execute(
                sa.insert(db.self_limits).values(
                    user_id=user_id,
                    kind=kind,
                    value=value,
                    set_at=t,
                    effective_at=t if lower else t + timedelta(seconds=cooloff_s),
                )
            )
        return _status(c, user_id, zone, t)


def exclude(
    eng: Engine, user_id: int, months: object, *, zone: str, now: datetime | None = None
) -> dict[str, Any]:
    """Exclude oneself from play for ``months`` (3, 6 or 12) from now; nothing ends it
    early (a shorter one while excluded changes nothing). The player's :func:`status`."""
    if type(months) is not int or months not in EXCLUSION_MONTHS:
        raise WireError("bad_request", "months must be 3, 6 or 12")
    t = now or datetime.now(UTC)
    with eng.begin() as c:
        c.execute(
            sa.insert(db.self_limits).values(
                user_id=user_id, kind=EXCLUSION, value=months, set_at=t, effective_at=t
            )
        )
        return _status(c, user_id, zone, t)
