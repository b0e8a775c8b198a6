"""What the check before every deal costs (game money and self-care, ``docs/server.md``,
Money): a person with ``N`` finished games (and their ledger rows) today, with both daily
limits set and without, on SQLite in a temporary folder.

Run: ``python3 benchmarks/money_deal_check.py [N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from madang.server import db, money, selfcare, store
from madang.server.db import make_engine, migrate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=1000)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        eng = make_engine(f"sqlite:///{Path(tmp) / 'madang.sqlite3'}")
        migrate(eng)
        person = store.create_user(eng, "player", None, start=10**6)["id"]
        house = store.bot_user(eng, "easy")["id"]
        tid, _ = store.create_table(
            eng, game="matgo", preset="default", stake=1, private=False, invite="x",
            seats=[], created_by=person,
        )  # fmt: skip
        now = datetime.now(UTC)
        with eng.begin() as c:
            for i in range(args.games):
                gid = c.execute(
                    sa.insert(db.games).values(
                        table_id=tid, game="matgo", preset="default", stake=1, game_no=i + 1,
                        status="finished", started_at=now, finished_at=now,
                    )
                ).inserted_primary_key[0]  # type: ignore[index]  # fmt: skip
                c.execute(sa.insert(db.game_players), [
                    {"game_id": gid, "seat": 0, "user_id": person},
                    {"game_id": gid, "seat": 1, "user_id": house},
                ])  # fmt: skip
                c.execute(sa.insert(db.ledger), [
                    {"user_id": person, "game_id": gid, "amount": -5, "points": -5,
                     "reason": "win", "counterparty_id": house, "created_at": now},
                    {"user_id": house, "game_id": gid, "amount": 5, "points": 5,
                     "reason": "win", "counterparty_id": person, "created_at": now},
                ])  # fmt: skip
        rules = money.MoneyRules()

        def per_deal() -> float:
            money.first_refusal(eng, [(person, "player")], 1, rules, tid)  # warm
            t = time.perf_counter()
            for _ in range(args.repeat):
                assert money.first_refusal(eng, [(person, "player")], 1, rules, tid) is None
            return (time.perf_counter() - t) / args.repeat * 1000

        bare = per_deal()
        for kind, value in (("loss", 10**9), ("play_minutes", 1440)):
            selfcare.set_limit(eng, person, kind, value, zone="UTC", cooloff_s=86400)
        limited = per_deal()
        eng.dispose()
    print(f"{args.games} games today: {bare:.2f} ms per deal without limits, "
          f"{limited:.2f} ms with both daily limits")  # fmt: skip


if __name__ == "__main__":
    main()
