"""uvicorn's HTTP and WebSocket protocols, with the limits a public server needs.

uvicorn answers WebSocket control frames (ping, pong) inside its protocol, below the
app, and keeps a TCP connection that sends nothing (or half a request) open for ever.
:func:`protocols` gives the two protocol classes ``madang serve`` runs instead, over
one shared book of client addresses:

* **HTTP** (httptools): a connection must send a whole request within
  ``read_timeout_s`` of opening or of beginning it (no slow-loris), and one address may
  hold at most ``connections_per_address`` connections (HTTP and WebSocket together).
* **WebSocket** (websockets' sans-I/O protocol, as uvicorn's default): control frames
  are counted in a token bucket per connection (``ws_control_per_s``, bursts of
  ``ws_control_burst``) and one per address; a connection past either is closed with
  1008 (the pongs of that read are not sent), and its address is refused WebSockets
  for ``ws_ban_s``: no browser sends control frames but pongs to the server's pings.
  Messages (text and binary frames) are the app's to limit (``rate_per_s``).

>>> b = Bucket(rate=1.0, burst=2.0, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request

from madang.server.config import ServerConfig


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend a token; False when none is left."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class AddressBook:
    """What the protocols know of each client address: open connections, the control
    frame bucket, and until when it is refused WebSockets."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.open: dict[str, int] = {}
        self.sockets: dict[str, int] = {}
        """Open WebSockets per address."""
        self.control: dict[str, Bucket] = {}
        self.banned: dict[str, float] = {}

    def enter(self, addr: str) -> bool:
        """A connection from ``addr`` opens; False when the address has too many."""
        n = self.open.get(addr, 0)
        if n >= self.config.connections_per_address:
            return False
        self.open[addr] = n + 1
        return True

    def leave(self, addr: str) -> None:
        """A counted connection from ``addr`` closed."""
        n = self.open.get(addr, 0) - 1
        if n > 0:
            self.open[addr] = n
        else:
            self.open.pop(addr, None)

    def is_banned(self, addr: str, now: float) -> bool:
        """Whether ``addr`` is refused WebSockets now."""
        until = self.banned.get(addr)
        if until is None:
            return False
        if now >= until:
            del self.banned[addr]
            return False
        return True

    def control_frame(self, addr: str, now: float) -> bool:
        """Count one control frame from ``addr``; False when over its rate.

        The address's rate grows with its open WebSockets (half a connection's rate
        each), so that many honest clients behind one address (a NAT, each pinging now
        and then) are not cut off, while a flood that reconnects keeps meeting the same
        bucket.
        """
        c = self.config
        n = self.sockets.get(addr, 0)
        b = self.control.get(addr)
        if b is None:
            if len(self.control) > 10_000:  # forget the addresses quiet for a minute
                self.control = {a: x for a, x in self.control.items() if now - x.stamp < 60}
            b = self.control[addr] = Bucket(0.0, 0.0, now)
            b.tokens = max(c.ws_address_control_burst, n * c.ws_control_burst / 2)
        b.rate = max(c.ws_address_control_per_s, n * c.ws_control_per_s / 2)
        b.burst = max(c.ws_address_control_burst, n * c.ws_control_burst / 2)
        return b.take(now)

    def ban(self, addr: str, now: float) -> None:
        """Refuse ``addr`` WebSockets for ``ws_ban_s`` (it flooded control frames)."""
        self.banned[addr] = now + self.config.ws_ban_s


_CONTROL = (Opcode.PING, Opcode.PONG)


def _addr(client: tuple[str, int] | None) -> str:
    return client[0] if client else "?"


def protocols(config: ServerConfig) -> tuple[type[Any], type[Any]]:
    """The HTTP and WebSocket protocol classes for uvicorn (``http=``, ``ws=``)."""
    book = AddressBook(config)

    class GuardedHttpProtocol(HttpToolsProtocol):
        """httptools with a read deadline and a cap on connections per address."""

        _counted = False
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._peer = _addr(self.client)
            if not book.enter(self._peer):
                transport.abort()
                return
            self._counted = True
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted:
                self._counted = False
                book.leave(self._peer)
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(config.read_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            # the WebSocket protocol takes the connection over and counts it itself
            self._disarm()
            if self._counted:
                self._counted = False
                book.leave(self._peer)
            super().handle_websocket_upgrade()

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        """websockets' protocol with control frames rate-limited per connection and
        per address."""

        _counted = False
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._peer = _addr(self.client)
            now = time.monotonic()
            self._bucket = Bucket(config.ws_control_per_s, config.ws_control_burst, now)
            if book.is_banned(self._peer, now) or not book.enter(self._peer):
                self._refused = True
                transport.abort()
                return
            self._counted = True
            book.sockets[self._peer] = book.sockets.get(self._peer, 0) + 1

        def connection_lost(self, exc: Exception | None) -> None:
            if self._counted:
                self._counted = False
                n = book.sockets.get(self._peer, 1) - 1
                if n > 0:
                    book.sockets[self._peer] = n
                else:
                    book.sockets.pop(self._peer, None)
                book.leave(self._peer)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)

        def handle_connect(self, event: Request) -> None:
            if self._refused:
                return
            super().handle_connect(event)

        def handle_events(self) -> None:
            events = self.conn.events_received()
            # websockets queues a pong for every ping as it parses: count the control
            # frames of this read first, and drop the answers of an over-limit read
            controls = sum(1 for e in events if isinstance(e, Frame) and e.opcode in _CONTROL)
            if controls:
                now = time.monotonic()
                for _ in range(controls):
                    if not (self._bucket.take(now) and book.control_frame(self._peer, now)):
                        book.ban(self._peer, now)
                        self._abuse()
                        return
            for event in events:
                if self._refused:
                    return
                if isinstance(event, Request):
                    self.handle_connect(event)
                elif not isinstance(event, Frame):
                    continue
                elif event.opcode == Opcode.PING:
                    self.handle_ping()
                elif event.opcode == Opcode.PONG:
                    self.handle_pong(event)
                elif event.opcode == Opcode.TEXT:
                    self.handle_text(event)
                elif event.opcode == Opcode.BINARY:
                    self.handle_bytes(event)
                elif event.opcode == Opcode.CONT:
                    self.handle_cont(event)
                elif event.opcode == Opcode.CLOSE:
                    self.handle_close(event)

        def _abuse(self) -> None:
            """Too many control frames: drop the queued answers, close with 1008."""
            self._refused = True
            self.conn.data_to_send()  # the pongs websockets queued: not sent
            if self.handshake_complete and not self.close_sent:
                self.close_sent = True
                self.conn.send_close(1008, "too many control frames")
                self.transport.write(b"".join(self.conn.data_to_send()))
            self.queue.put_nowait({"type": "websocket.disconnect", "code": 1008})
            self.transport.close()

    return GuardedHttpProtocol, GuardedWebSocketProtocol
