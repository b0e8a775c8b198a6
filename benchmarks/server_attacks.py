"""The server under three attacks of issue 10, measured from outside (loopback only).

Starts ``madang serve`` (SQLite, a fresh data folder) pinned to one CPU, attacks it from
processes pinned to the other, and prints what a normal client saw meanwhile:

* ``ping``: ``--flooders`` WebSocket connections send ping frames as fast as they can
  (reconnecting whenever the server closes them) for ``--seconds``; a probe asks
  ``GET /api/config`` every 20 ms: its latency p50/p99/max and its failures.
* ``upload``: one client posts a ``--upload-mb`` chunked body to ``/api/register``; the
  server's peak resident memory (VmHWM) before and after, and the answer.
* ``register``: ``--registrants`` clients register accounts in a loop for ``--seconds``
  while a logged-in probe asks ``GET /api/me`` every 20 ms: the probe's latency, and
  how the registrations were answered.

``--python`` runs the server with another interpreter path (and ``--src`` another
source tree), so that one script measures the code before and after a change::

    python3 benchmarks/server_attacks.py --attack ping
    python3 benchmarks/server_attacks.py --src /tmp/before/src   # a checkout of the old code

Each attack is bounded in time and count and sends nothing beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, data: str, src: Path, cpu: str, extra: list[str]
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, "-m", "madang", "serve", "--port", str(port), "--data", data, *extra]
    if cpu:
        cmd = ["taskset", "-c", cpu, *cmd]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/config", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def vm(pid: int, key: str) -> float:
    """A /proc/PID/status figure in MiB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def pin(cpu: str) -> None:
    if cpu:
        os.sched_setaffinity(0, {int(c) for c in cpu.split(",")})


# ---------------------------------------------------------------------- the probe


def probe(url: str, seconds: float, out: Any, cookie: str | None = None, cpu: str = "") -> None:
    pin(cpu)
    lat: list[float] = []
    fails = 0
    end = time.monotonic() + seconds
    headers = {"Cookie": cookie} if cookie else {}
    while time.monotonic() < end:
        t = time.perf_counter()
        try:
            req = urllib.request.Request(url, headers=headers)
            urllib.request.urlopen(req, timeout=30).read()
            lat.append((time.perf_counter() - t) * 1000)
        except (OSError, urllib.error.URLError):
            fails += 1
        time.sleep(0.02)
    out.put({"latencies": lat, "failures": fails})


def summary(lat: list[float]) -> str:
    if not lat:
        return "no answer"
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [lat[0]] * 99
    return f"n={len(lat)} p50 {q[49]:.1f} ms  p99 {q[98]:.1f} ms  max {max(lat):.1f} ms"


# ---------------------------------------------------------------------- ping flood


def ws_connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            "GET /ws/tables/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        buf += chunk
    if b" 101 " not in buf.split(b"\r\n", 1)[0]:
        raise ConnectionError("handshake refused")
    return s


PING = bytes([0x89, 0x80]) + b"\x00\x00\x00\x00"  # a masked empty ping (mask 0)


def flooder(port: int, seconds: float, cpu: str, out: Any) -> None:
    pin(cpu)
    sent = connects = refused = 0
    end = time.monotonic() + seconds
    burst = PING * 256
    while time.monotonic() < end:
        try:
            s = ws_connect(port)
            connects += 1
        except OSError:
            refused += 1
            time.sleep(0.001)
            continue
        s.setblocking(False)
        try:
            while time.monotonic() < end:
                try:
                    s.sendall(burst)
                    sent += 256
                except BlockingIOError:
                    pass
                try:
                    if s.recv(65536) == b"":
                        break
                except BlockingIOError:
                    pass
        except OSError:
            pass
        finally:
            s.close()
    out.put({"pings": sent, "connects": connects, "refused": refused})


def under_attack(
    attackers: list[tuple[Any, ...]], target: Any, url: str, args: argparse.Namespace, cookie: Any
) -> tuple[dict[str, Any], list[Any]]:
    """Run ``target(*a, queue)`` for each ``a`` of ``attackers`` in processes beside a probe
    of ``url``; return the probe's result and each attacker's."""
    q: Any = mp.Queue()
    procs = [mp.Process(target=target, args=(*a, q)) for a in attackers]
    pq: Any = mp.Queue()
    pr = mp.Process(target=probe, args=(url, args.seconds, pq, cookie, args.client_cpu))
    for p in (*procs, pr):
        p.start()
    res = pq.get()
    outs = [q.get() for _ in procs]
    for p in (*procs, pr):
        p.join()
    return res, outs


def attack_ping(port: int, args: argparse.Namespace) -> None:
    attackers = [(port, args.seconds, args.client_cpu)] * args.flooders
    url = f"http://127.0.0.1:{port}/api/config"
    res, floods = under_attack(attackers, flooder, url, args, None)
    print(
        f"ping flood, {args.flooders} connections, {args.seconds:.0f} s: "
        f"{sum(f['pings'] for f in floods):,} pings sent, "
        f"{sum(f['connects'] for f in floods)} connections, "
        f"{sum(f['refused'] for f in floods)} refused"
    )
    print(f"  GET /api/config meanwhile: {summary(res['latencies'])}, {res['failures']} failed")


# ---------------------------------------------------------------------- big upload


def attack_upload(port: int, pid: int, args: argparse.Namespace) -> None:
    before = vm(pid, "VmHWM")
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(
        b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * (1 << 20)
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    t = time.perf_counter()
    try:
        for _ in range(args.upload_mb):
            s.sendall(frame)
            sent += 1
        s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    s.settimeout(30)
    try:
        answer = s.recv(200).split(b"\r\n", 1)[0].decode()
    except OSError as e:
        answer = f"no answer ({e})"
    s.close()
    print(
        f"chunked upload of {args.upload_mb} MiB to /api/register: {sent} MiB sent in "
        f"{time.perf_counter() - t:.1f} s; answer: {answer!r}"
    )
    print(
        f"  server peak memory (VmHWM): {before:.0f} MiB before, {vm(pid, 'VmHWM'):.0f} MiB after"
    )


# ---------------------------------------------------------------------- register flood


def post(port: int, path: str, body: dict[str, Any], cookie: str | None = None) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
    )
    return urllib.request.urlopen(req, timeout=60)


def registrant(port: int, n: int, seconds: float, cpu: str, out: Any) -> None:
    pin(cpu)
    codes: dict[str, int] = {}
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        i += 1
        try:
            post(port, "/api/register", {"username": f"r{n}x{i}", "password": "secret-pass"})
            code = "201"
        except urllib.error.HTTPError as e:
            code = str(e.code)
        except OSError:
            code = "error"
        codes[code] = codes.get(code, 0) + 1
    out.put(codes)


def attack_register(port: int, args: argparse.Namespace) -> None:
    r = post(port, "/api/guest", {})
    cookie = r.headers["Set-Cookie"].split(";")[0]
    attackers = [(port, n, args.seconds, args.client_cpu) for n in range(args.registrants)]
    url = f"http://127.0.0.1:{port}/api/me"
    res, outs = under_attack(attackers, registrant, url, args, cookie)
    totals: dict[str, int] = {}
    for out in outs:
        for k, v in out.items():
            totals[k] = totals.get(k, 0) + v
    print(f"register flood, {args.registrants} clients, {args.seconds:.0f} s: answers {totals}")
    print(f"  GET /api/me meanwhile: {summary(res['latencies'])}, {res['failures']} failed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attack", choices=["ping", "upload", "register", "all"], default="all")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--flooders", type=int, default=4)
    ap.add_argument("--registrants", type=int, default=32)
    ap.add_argument("--upload-mb", type=int, default=400)
    ap.add_argument("--src", type=Path, default=SRC, help="the source tree of the server")
    ap.add_argument("--server-cpu", default="0")
    ap.add_argument("--client-cpu", default="1")
    ap.add_argument(
        "--serve-args",
        default="",
        help="more flags for madang serve, e.g. '--register-limit 1000000/hour' to measure "
        "the hashing pool without the per-address throttle",
    )
    args = ap.parse_args()
    attacks = ["ping", "upload", "register"] if args.attack == "all" else [args.attack]
    print(f"server: {args.src}, load average {os.getloadavg()[0]:.2f}")
    for attack in attacks:
        with tempfile.TemporaryDirectory() as data:
            port = free_port()
            server = start_server(port, data, args.src, args.server_cpu, args.serve_args.split())
            print(f"server memory at start: {vm(server.pid, 'VmRSS'):.0f} MiB")
            try:
                if attack == "ping":
                    attack_ping(port, args)
                elif attack == "upload":
                    attack_upload(port, server.pid, args)
                else:
                    attack_register(port, args)
            finally:
                server.terminate()
                server.wait(10)


if __name__ == "__main__":
    main()
