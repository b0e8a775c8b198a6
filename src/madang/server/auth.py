"""Passwords (argon2id in their own threads), name rules, login throttling and rate limits.

>>> h = Passwords(time_cost=1, memory_kib=8192)
>>> h.verify(h.hash("correct horse"), "correct horse"), h.verify(h.hash("a"), "b")
(True, False)
>>> check_username("민수_01")
'민수_01'
>>> check_username("ＭＩＮＳＵ")  # fullwidth letters are the ASCII ones (NFKC)
'MINSU'
>>> name_key("MinSu") == name_key("m1nsu") == name_key("rninsu"), name_key("b0t_easy")
(True, 'bot-easy')
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItemPerSecond, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from madang.server.wire import WireError

T = TypeVar("T")
log = logging.getLogger("madang.server")

# Letters are Latin (after NFKC), Hangul syllables or compatibility jamo (ㅋㅋ), but not
# the Hangul fillers, which render as nothing (U+3164, and U+115F/U+1160/U+FFA0 that
# NFKC maps to it or that are not in the class).
_NAME = re.compile(r"^[A-Za-z0-9_\-\uac00-\ud7a3\u3131-\u3163\u3165-\u318e]{3,20}$")
RESERVED = ("bot-", "guest-")
"""Prefixes of the names the server gives (bots, guests): no one may register them, nor
a name that looks like one (:func:`name_key`)."""

# Characters that look alike in a Latin font, mapped to one: a name's key is its
# lower-case form with these folded, so ``MinSu``, ``m1nsu`` and ``minsu`` are one name.
_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "_": "-"})


def name_key(name: str) -> str:
    """The key that two names which look alike share (unique among users).

    NFKC, then lower case, then the look-alikes folded (0→o, 1/i→l, 5→s, _→-, rn→m,
    vv→w).
    """
    key = unicodedata.normalize("NFKC", name).lower().translate(_FOLD)
    return key.replace("rn", "m").replace("vv", "w")


# NFKC, except for the Hangul compatibility jamo (ㅋㅋ, ㅠㅠ), which it would turn into
# conjoining jamo that render as parts of syllables (and that a name's pattern refuses).
_NOT_JAMO = re.compile(r"[^\u3131-\u318e]+")


def nfkc(text: str) -> str:
    """``text`` in Unicode's NFKC, keeping the Hangul compatibility jamo as typed.

    >>> nfkc("ＡＢＣ ㅋㅋ")
    'ABC ㅋㅋ'
    """
    return _NOT_JAMO.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def check_username(name: object) -> str:
    """A valid user name, normalised (:func:`nfkc`), else ``bad_request``.

    3–20 Latin letters, digits, ``_``, ``-`` or Hangul; no control, format or invisible
    character; not a look-alike of a bot's or a guest's name.
    """
    if not isinstance(name, str) or len(name) > 80:
        raise WireError("bad_request", "a name is 3-20 letters, digits, _ or -")
    name = nfkc(name)
    if not _NAME.match(name) or name.endswith("\n"):
        raise WireError("bad_request", "a name is 3-20 letters (Latin or Hangul), digits, _ or -")
    if name_key(name).startswith(tuple(name_key(r) for r in RESERVED)):
        raise WireError("bad_request", "names like bot-… or guest-… are reserved")
    return name


def check_password(password: object) -> str:
    """A valid password (6–200 characters), else ``bad_request``."""
    if not isinstance(password, str) or not 6 <= len(password) <= 200:
        raise WireError("bad_request", "a password is 6-200 characters")
    try:
        password.encode()
    except UnicodeEncodeError:
        raise WireError("bad_request", "a password must be valid text") from None
    return password


def _lower_priority() -> None:
    """Run this (hashing) thread at a lower priority (nice +10, Linux): on a busy core
    the event loop goes first, and a hash merely takes longer."""
    import os
    import threading

    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


@dataclass(eq=False)
class _Job:
    """One hash waiting for (or on) a hashing thread."""

    fn: Callable[..., object]
    args: tuple[object, ...]
    future: asyncio.Future[object]
    key: str | None


class Passwords:
    """argon2id hashing in a pool of its own (``workers`` threads): the database threads
    and the event loop never wait on a hash, and the hashes waiting are shared fairly.

    * **Two lanes.** A login from a browser that has logged in as that name before (its
      device cookie, :class:`Throttles`) waits in a lane of its own; registrations and
      other logins in the other. Each lane holds at most ``queue`` hashes waiting; past
      that an attempt is answered ``busy`` (503) at once. A freed thread takes the next
      hash from the lanes in turn, so however many strangers queue, a known device waits
      for at most one of theirs.
    * **One at a time per key** (the client's address; a known device's cookie): while a
      hash of a key is waiting or running, its next attempt is refused at once
      (``throttled``, 429, with the expected wait), so one address holds at most one
      place of a lane.

    So wrong passwords from a few dozen addresses cannot lock everybody out (review
    §3.4): the owner's browser keeps its lane.
    """

    def __init__(
        self, time_cost: int = 3, memory_kib: int = 65536, workers: int = 1, queue: int = 16
    ) -> None:
        self._ph = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        self._pool: ThreadPoolExecutor | None = None
        self._workers = workers
        self._queue = queue
        self._lanes: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self._turn = 0
        self._running = 0
        self._holders: set[str] = set()
        self._seconds = 0.5
        """A hash's time, as measured (a moving average): the waits told are estimates."""

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

    def wait(self) -> float:
        """About how long a hash asked for now would take, in seconds."""
        ahead = sum(len(lane) for lane in self._lanes) + self._running
        return self._seconds * (1 + ahead / self._workers)

    async def run(
        self, fn: Callable[..., T], *args: object, key: str | None = None, known: bool = False
    ) -> T:
        """Run ``fn`` (``hash`` or ``verify``) in the hashing pool, in the known devices'
        lane if ``known``; ``throttled`` while a hash of ``key`` is under way, ``busy``
        when the lane is full."""
        if key is not None and key in self._holders:
            raise WireError(
                "throttled",
                "an attempt of yours is being checked; try again when it is answered",
                retry_after=max(1.0, self.wait()),
            )
        lane = self._lanes[0 if known else 1]
        if self._running >= self._workers and len(lane) >= self._queue:
            raise WireError(
                "busy",
                "the server is busy; try again in a moment",
                retry_after=max(1.0, self.wait()),
            )
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                self._workers, thread_name_prefix="madang-hash", initializer=_lower_priority
            )
        job = _Job(fn, args, asyncio.get_running_loop().create_future(), key)
        if key is not None:
            self._holders.add(key)
        lane.append(job)
        self._dispatch()
        return await job.future  # type: ignore[return-value]

    def _next(self) -> _Job | None:
        for _ in range(2):  # the lanes in turn
            lane = self._lanes[self._turn]
            self._turn = 1 - self._turn
            if lane:
                return lane.popleft()
        return None

    def _dispatch(self) -> None:
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        while self._running < self._workers:
            job = self._next()
            if job is None:
                return
            if job.future.done():  # its request went away while it waited
                self._holders.discard(job.key or "")
                continue
            self._running += 1
            started = time.perf_counter()
            done = self._pool.submit(job.fn, *job.args)
            done.add_done_callback(functools.partial(self._relay, loop, job, started))

    def _relay(
        self, loop: asyncio.AbstractEventLoop, job: _Job, started: float, done: Future[object]
    ) -> None:
        # in the hashing thread: hand the result to the event loop (gone at shutdown)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._finished, job, done, started)

    def _finished(self, job: _Job, done: Future[object], started: float) -> None:
        self._running -= 1
        self._seconds = 0.8 * self._seconds + 0.2 * (time.perf_counter() - started)
        if job.key is not None:
            self._holders.discard(job.key)
        if not job.future.done():
            error = done.exception()
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def close(self) -> None:
        """Stop the hashing threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


class Counters:
    """Where the per-address limits and the login throttles count (``limits``'
    storage): this process's memory, or Redis when several processes serve the same
    players (``redis_url``), so that a count is the cluster's, not one process's.

    While Redis does not answer, each process counts in its own memory (the limits then
    hold per process: at most one process's share more each) and tries Redis again
    after ``retry_s``; nothing is refused for want of Redis, and a Redis call waits at
    most ``timeout_s``.
    """

    def __init__(self, redis_url: str = "", retry_s: float = 5.0, timeout_s: float = 0.5) -> None:
        self.local: Storage = MemoryStorage()
        self.shared: Storage | None = None
        if redis_url:
            shared = storage_from_string(
                redis_url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
            )
            assert isinstance(shared, Storage)  # the synchronous kind (redis://)
            self.shared = shared
        self._limiters = {id(self.local): MovingWindowRateLimiter(self.local)}
        if self.shared is not None:
            self._limiters[id(self.shared)] = MovingWindowRateLimiter(self.shared)
        self._retry_s = retry_s
        self._down_until = 0.0

    @property
    def sharing(self) -> bool:
        """Whether the counts are the cluster's now (False: this process's)."""
        return self.shared is not None and time.monotonic() >= self._down_until

    def run(self, fn: Callable[[Storage, MovingWindowRateLimiter], T]) -> T:
        """``fn(storage, limiter)`` on the shared store, or on this process's memory
        while the shared one is down."""
        if self.shared is not None and self.sharing:
            try:
                return fn(self.shared, self._limiters[id(self.shared)])
            except Exception as e:  # Redis is down: count here meanwhile
                log.warning("shared limits unavailable (%s): counted in this process", e)
                self._down_until = time.monotonic() + self._retry_s
        return fn(self.local, self._limiters[id(self.local)])


class LoginThrottle:
    """Failed logins per key: after ``limit`` failures in ``window`` seconds the key is
    blocked for 60 s, doubling with each further block (within a day) up to 15 minutes.
    A success clears the key. Counted in :class:`Counters` (shared by a cluster's
    processes when it has Redis).

    The app keeps three of these (:class:`Throttles`): per name *and* address, per
    address, and a slower one per name.

    >>> t = LoginThrottle(limit=2, window=60)
    >>> t.fail("u:a"); t.fail("u:a"); round(t.retry_after("u:a"))
    60
    """

    def __init__(
        self,
        limit: int = 5,
        window: float = 300.0,
        counters: Counters | None = None,
        name: str = "login",
    ) -> None:
        self.limit = limit
        self.window = window
        self.counters = counters or Counters()
        self.name = name
        self._item = RateLimitItemPerSecond(limit, max(1, round(window)))

    def _keys(self, key: str) -> tuple[str, str]:
        return f"{self.name}/strikes/{key}", f"{self.name}/blocked/{key}"

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        blocked = self._keys(key)[1]
        return self.counters.run(lambda st, _: max(0.0, st.get_expiry(blocked) - time.time()))

    def check(self, *keys: str) -> None:
        """Raise ``throttled`` if any key is blocked."""
        wait = max((self.retry_after(k) for k in keys), default=0.0)
        if wait > 0:
            raise WireError(
                "throttled", "too many failed logins; try again later", retry_after=wait
            )

    def fail(self, key: str) -> None:
        """Count one failure of ``key``."""
        strikes, blocked = self._keys(key)

        def count(st: Storage, limiter: MovingWindowRateLimiter) -> None:
            if limiter.hit(self._item, self.name, key) and limiter.test(self._item, self.name, key):
                return  # under the limit
            n = st.incr(strikes, 86400)
            limiter.clear(self._item, self.name, key)
            st.incr(blocked, int(min(900.0, 60.0 * 2 ** (n - 1))))

        self.counters.run(count)

    def succeed(self, key: str) -> None:
        """Forget ``key``'s failures."""

        def clear(st: Storage, limiter: MovingWindowRateLimiter) -> None:
            limiter.clear(self._item, self.name, key)
            for k in self._keys(key):
                st.clear(k)

        self.counters.run(clear)


class Throttles:
    """Login throttling that an attacker cannot turn against the owner.

    A browser that holds this name's device cookie (it logged in as it before) is
    throttled on its own: ``pair_failures`` in ``window`` block that browser only. Any
    other attempt counts against three keys:

    * name + address: ``pair_failures`` in ``window``;
    * address: ``address_failures`` in ``window`` over any names (guessing many names);
    * name: ``name_failures`` an hour from anywhere (many addresses on one name).

    So failures from elsewhere, however many, never lock the owner out on a device
    they have used; a new device may have to wait. In a cluster the counts are shared
    (:class:`Counters`), so N processes allow no more attempts than one.
    """

    def __init__(
        self,
        pair_failures: int = 5,
        window: float = 300.0,
        address_failures: int = 20,
        name_failures: int = 50,
        counters: Counters | None = None,
    ) -> None:
        counters = counters or Counters()
        self.pair = LoginThrottle(pair_failures, window, counters, "login-pair")
        self.address = LoginThrottle(address_failures, window, counters, "login-address")
        self.name = LoginThrottle(name_failures, 3600.0, counters, "login-name")

    def _keys(self, name: str, addr: str, device: str | None) -> list[tuple[LoginThrottle, str]]:
        if device is not None:
            return [(self.pair, f"device|{device}")]
        key = name_key(name)
        return [(self.pair, f"{key}|{addr}"), (self.address, addr), (self.name, key)]

    def check(self, name: str, addr: str, device: str | None) -> None:
        """Raise ``throttled`` when this attempt is blocked (``device``: the browser's
        device cookie when it belongs to this name, else None)."""
        for throttle, key in self._keys(name, addr, device):
            throttle.check(key)

    def fail(self, name: str, addr: str, device: str | None) -> None:
        """Count a failed attempt."""
        for throttle, key in self._keys(name, addr, device):
            throttle.fail(key)

    def refused(self, addr: str, device: str | None) -> None:
        """Count an attempt refused before any check (the hashing lane full, or one of
        the address's attempts still waiting): a failure of the address alone, never of
        a name (nobody's name can be locked by it), and nothing for a known device (the
        server was busy, not the browser wrong). So a flood from an address soon meets
        the address's limit and stops taking its turns."""
        if device is None:
            self.address.fail(addr)

    def succeed(self, name: str, addr: str, device: str | None) -> None:
        """A right password: this browser, or this name from this address, starts afresh."""
        throttle, key = self._keys(name, addr, device)[0]
        throttle.succeed(key)


class RateLimits:
    """Per-address caps on making accounts (moving windows of ``limits``, counted in
    :class:`Counters`: shared by a cluster's processes, each process's own while Redis
    is down)."""

    def __init__(self, register: str, guest: str, counters: Counters | None = None) -> None:
        self.counters = counters or Counters()
        self._items = {"register": parse(register), "guest": parse(guest)}

    def hit(self, what: str, addr: str) -> None:
        """Count one ``what`` (``register``, ``guest``) from ``addr``; ``throttled`` when over."""
        self._check(what, addr, count=True)

    def peek(self, what: str, addr: str) -> None:
        """Raise ``throttled`` if a ``what`` from ``addr`` would be refused (counts nothing)."""
        self._check(what, addr, count=False)

    def _check(self, what: str, addr: str, *, count: bool) -> None:
        item = self._items[what]

        def ask(_: Storage, limiter: MovingWindowRateLimiter) -> float | None:
            allowed = (limiter.hit if count else limiter.test)(item, what, addr)
            return None if allowed else limiter.get_window_stats(item, what, addr)[0]

        reset = self.counters.run(ask)
        if reset is not None:
            raise WireError(
                "throttled",
                f"too many {what} accounts from your address; try again later",
                retry_after=max(1.0, reset - time.time()),
            )
