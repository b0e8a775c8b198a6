"""Wrong passwords from many addresses while an honest player logs in (review §3.4).

Starts ``madang serve`` (SQLite, a fresh data folder, argon2 at its real cost unless
``--cheap``), registers ``--names`` accounts, then ``--flooders`` clients, each bound to
an address of its own (127.0.1.N), send wrong passwords for those names (the honest
player's among them) as fast as they are answered for ``--seconds``, while the honest
player logs in with the right password from 127.0.2.1, waiting ``--every`` seconds after
each answer. Prints the share of honest logins that succeeded, their times, and how the
flood was answered::

    python3 benchmarks/login_flood.py                       # a known device (its cookie)
    python3 benchmarks/login_flood.py --new-device          # a browser never used before
    python3 benchmarks/login_flood.py --set login_address_failures=1000000  # lanes only

Everything stays on 127.0.0.0/8 and ends after ``--seconds`` (plus the set-up).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.flood import loopback_aliases_work, register, run_flood, serve


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--flooders", type=int, default=32, help="addresses sending wrong passwords")
    p.add_argument("--seconds", type=float, default=30.0, help="how long the flood lasts")
    p.add_argument("--every", type=float, default=0.5, help="the honest player's pause")
    p.add_argument("--names", type=int, default=20, help="accounts the flood aims at")
    p.add_argument("--new-device", action="store_true", help="the honest player has no cookie")
    p.add_argument("--cheap", action="store_true", help="argon2 at the tests' cost")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a server setting (madang serve --set)")  # fmt: skip
    args = p.parse_args()
    if not loopback_aliases_work():
        print("this host cannot bind 127.0.1.x: nothing measured")
        return 1
    extra = [x for item in args.set for x in ("--set", item)]
    if args.cheap:
        extra += ["--set", "argon2_time_cost=1", "--set", "argon2_memory_kib=32768"]
    with tempfile.TemporaryDirectory() as data, serve(Path(data), *extra) as base:

        async def run() -> None:
            names = [f"player{i}" for i in range(max(1, args.names))]
            for name in names[1:]:
                await register(base, name, "secret-password")
            cookies = await register(base, names[0], "right-password")
            flood = await run_flood(
                base,
                names=names,
                honest=(names[0], "right-password"),
                device=None if args.new_device else cookies["madang_device"],
                flooders=args.flooders,
                seconds=args.seconds,
                every=args.every,
            )
            device = "a new device" if args.new_device else "a known device"
            print(f"{args.flooders} addresses for {args.seconds:.0f} s, {device}: {flood.line()}")

        asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
