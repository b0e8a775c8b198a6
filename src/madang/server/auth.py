"""Passwords (argon2id), name rules and login throttling.

>>> h = Passwords(time_cost=1, memory_kib=8192)
>>> h.verify(h.hash("correct horse"), "correct horse"), h.verify(h.hash("a"), "b")
(True, False)
>>> check_username("민수_01")
'민수_01'
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from madang.server.wire import WireError

_NAME = re.compile(r"^[\w\-]{3,20}$")
RESERVED = ("bot-", "guest-")


def check_username(name: object) -> str:
    """A valid user name (3–20 letters, digits, ``_`` or ``-``), else ``bad_request``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise WireError("bad_request", "a name is 3-20 letters, digits, _ or -")
    if name.lower().startswith(RESERVED):
        raise WireError("bad_request", "names starting with bot- or guest- are reserved")
    return name


def check_password(password: object) -> str:
    """A valid password (6–200 characters), else ``bad_request``."""
    if not isinstance(password, str) or not 6 <= len(password) <= 200:
        raise WireError("bad_request", "a password is 6-200 characters")
    return password


class Passwords:
    """argon2id hashing; the costs are settings (tests use cheap ones)."""

    def __init__(self, time_cost: int = 3, memory_kib: int = 65536) -> None:
        self._ph = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)

    def hash(self, password: str) -> str:
        """The argon2id hash of ``password``."""
        return self._ph.hash(password)

    def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` matches ``hashed`` (None never matches)."""
        if not hashed:
            return False
        try:
            return self._ph.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False


@dataclass
class _Entry:
    failures: list[float] = field(default_factory=list)
    blocked_until: float = 0.0
    strikes: int = 0


class LoginThrottle:
    """Failed logins per key (a name, a client address): after ``limit`` failures in
    ``window`` seconds the key is blocked for 60 s, doubling with each further failure
    up to 15 minutes. A success clears the name's key.

    >>> t = LoginThrottle(limit=2, window=60, clock=lambda: 0.0)
    >>> t.fail("u:a"); t.fail("u:a"); t.retry_after("u:a")
    60.0
    """

    def __init__(
        self, limit: int = 5, window: float = 300.0, clock: object = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._entries: dict[str, _Entry] = {}

    def _now(self) -> float:
        return float(self._clock())  # type: ignore[operator]

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        e = self._entries.get(key)
        if e is None:
            return 0.0
        return max(0.0, e.blocked_until - self._now())

    def check(self, *keys: str) -> None:
        """Raise ``throttled`` if any key is blocked."""
        wait = max((self.retry_after(k) for k in keys), default=0.0)
        if wait > 0:
            raise WireError(
                "throttled", "too many failed logins; try again later", retry_after=wait
            )

    def fail(self, key: str) -> None:
        """Count one failure of ``key``."""
        t = self._now()
        e = self._entries.setdefault(key, _Entry())
        e.failures = [f for f in e.failures if t - f < self.window]
        e.failures.append(t)
        if len(e.failures) >= self.limit:
            e.strikes += 1
            e.blocked_until = t + min(900.0, 60.0 * 2 ** (e.strikes - 1))
        if len(self._entries) > 100_000:  # forget the oldest keys
            for k in list(self._entries)[:50_000]:
                del self._entries[k]

    def succeed(self, key: str) -> None:
        """Forget ``key``'s failures."""
        self._entries.pop(key, None)
