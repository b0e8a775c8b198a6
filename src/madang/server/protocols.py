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

Behind a proxy every connection comes from the proxy, so these books must know the
client's own address: with ``proxy_protocol`` a connection from one of the proxies of
``forwarded_allow_ips`` begins with a PROXY protocol header (HAProxy's ``send-proxy`` or
``send-proxy-v2``), read here before any request; the client it names is the address
the books count and the app sees (``request.client``). Anyone else's header is not read
(it is a malformed request). HAProxy gives a connection that carries a PROXY header
only to requests of that same client, so one connection is one client.

>>> b = Bucket(rate=1.0, burst=2.0, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Callable
from typing import Any

from proxyprotocol import ProxyProtocolIncompleteError, ProxyProtocolSyntaxError
from proxyprotocol.result import is_ipv4, is_ipv6
from proxyprotocol.v1 import ProxyProtocolV1
from proxyprotocol.v2 import ProxyProtocolV2
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
        self.handoff: tuple[str, int] | None = None
        """The client of the HTTP connection being upgraded to a WebSocket (its
        protocol is made and started within that call)."""

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

_V1 = b"PROXY "
_V2 = b"\r\n\r\n\x00\r\nQUIT\n"
_V1_MAX = 107
"""The longest v1 header (the specification's bound, CRLF included)."""
_V2_MAX = 16 + 4096
"""The longest v2 header read (addresses and TLVs; HAProxy sends a few dozen bytes)."""


def trusted_hosts(spec: str | None) -> Callable[[str], bool]:
    """Whether an address is one of ``spec``'s (``forwarded_allow_ips``: comma-separated
    addresses or networks, ``*`` for any; None or empty: none). As uvicorn reads it, an
    item that is neither matches only itself, as text.

    >>> t = trusted_hosts("127.0.0.1, 10.0.0.0/8, localhost")
    >>> t("127.0.0.1"), t("10.1.2.3"), t("127.0.0.2"), t("?"), t("localhost")
    (True, True, False, False, True)
    """
    items = [x.strip() for x in (spec or "").split(",") if x.strip()]
    if "*" in items:
        return lambda _addr: True
    nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    literals: set[str] = set()
    for item in items:
        try:
            nets.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            literals.add(item)

    def trusted(addr: str) -> bool:
        if addr in literals:
            return True
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in n for n in nets)

    return trusted


def proxy_header(data: bytes) -> tuple[str | None, int, int] | None:
    """The PROXY protocol header (v1 or v2) at the start of ``data``: (the client's
    address, its port, the header's length), None while more bytes are needed; the
    address is None for a header that names no client (a v1 ``UNKNOWN`` or a v2
    ``LOCAL``: the proxy's own health check) and for data that begins with no header
    (length 0). Raises ValueError for a malformed header.

    >>> proxy_header(b"PROXY TCP4 127.0.3.4 127.0.0.1 40001 8000\\r\\nGET / HTTP/1.1")
    ('127.0.3.4', 40001, 43)
    >>> proxy_header(b"PROXY TCP4 127.0.3.4"), proxy_header(b"PROXY UNKNOWN\\r\\n")
    (None, (None, 0, 15))
    >>> proxy_header(b"PRO"), proxy_header(b"POST /api/guest HTTP/1.1")
    (None, (None, 0, 0))
    """
    if data.startswith(_V1) or _V1.startswith(data):
        end = data.find(b"\n", 0, _V1_MAX)
        if end < 0:
            if len(data) >= _V1_MAX:
                raise ValueError("a PROXY v1 header longer than 107 bytes")
            return None
        parser: ProxyProtocolV1 | ProxyProtocolV2 = ProxyProtocolV1()
        size = end + 1
    elif data.startswith(_V2) or _V2.startswith(data):
        if len(data) < 16:
            return None
        size = 16 + int.from_bytes(data[14:16], "big")
        if size > _V2_MAX:
            raise ValueError("a PROXY v2 header longer than 4 KiB")
        if len(data) < size:
            return None
        parser = ProxyProtocolV2()
    else:
        return None, 0, 0
    try:
        result = parser.unpack(data[:size])
    except (ProxyProtocolSyntaxError, ProxyProtocolIncompleteError, ValueError) as e:
        raise ValueError(f"a malformed PROXY header: {e}") from None
    if is_ipv4(result) or is_ipv6(result):
        return str(result.source[0]), result.source[1], size
    return None, 0, size


def _addr(client: tuple[str, int] | None) -> str:
    return client[0] if client else "?"


def protocols(config: ServerConfig) -> tuple[type[Any], type[Any]]:
    """The HTTP and WebSocket protocol classes for uvicorn (``http=``, ``ws=``)."""
    book = AddressBook(config)
    trusted = trusted_hosts(config.forwarded_allow_ips)

    class GuardedHttpProtocol(HttpToolsProtocol):
        """httptools with a read deadline, a cap on connections per address and the
        PROXY protocol header of a trusted proxy."""

        _counted = False
        _deadline: asyncio.TimerHandle | None = None
        _header: bytearray | None = None
        """The start of a trusted proxy's connection, until its PROXY header is read."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._peer = _addr(self.client)
            if config.proxy_protocol and trusted(self._peer):
                self._header = bytearray()
                self._arm()
                return
            self._admit()

        def _admit(self) -> bool:
            """Count the connection against its client's address; False (and the
            connection aborted) when that address has too many."""
            if not book.enter(self._peer):
                self.transport.abort()
                return False
            self._counted = True
            self._arm()
            return True

        def data_received(self, data: bytes) -> None:
            if self._header is not None:
                self._header += data
                try:
                    got = proxy_header(bytes(self._header))
                except ValueError:
                    self._header = None
                    self.transport.abort()
                    return
                if got is None:  # more of the header to come
                    return
                addr, port, size = got
                data = bytes(self._header[size:])
                self._header = None
                if addr is not None:  # the proxy's own checks name no client
                    self.client = (addr, port)
                    self._peer = addr
                if not self._admit() or not data:
                    return
            super().data_received(data)

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
            # the WebSocket protocol takes the connection over and counts it itself,
            # as coming from this connection's client
            self._disarm()
            if self._counted:
                self._counted = False
                book.leave(self._peer)
            book.handoff = self.client
            try:
                super().handle_websocket_upgrade()
            finally:
                book.handoff = None

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        """websockets' protocol with control frames rate-limited per connection and
        per address."""

        _counted = False
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if book.handoff is not None:  # the client the HTTP connection was from
                self.client = book.handoff
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
