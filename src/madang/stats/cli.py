"""``madang stats deals``: the deal statistics of finished games (``docs/deal-stats.md``).

The games are read from the server's database (``--data DIR`` / ``--database-url``, as
``madang serve`` takes them), from record files (``--records``), or simulated
(``--simulate-only N``: N games dealt from random seeds and played by ``--bot``). Each
statistic is printed with the observed counts, the expected counts (exact theory, or
``--simulate`` games simulated from ``--seed``) and a χ² p-value; ``--json`` prints one
JSON object. Bad input is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from madang import stats
from madang.cli import print_json

DEFAULT_SIMULATE = 10_000


def register_cli(sub: Any) -> None:
    """Add ``stats deals`` to the ``madang`` parser."""
    p = sub.add_parser("stats", help="statistics of the server's games")
    inner = p.add_subparsers(dest="stats_command", required=True)
    d = inner.add_parser(
        "deals",
        help="test what was dealt against theory (χ² p-values, expectations from simulation)",
    )
    src = d.add_argument_group("the games (default: the database of --data)")
    src.add_argument("--data", default="data", help="data folder (SQLite database)")
    src.add_argument("--database-url", default="", help="postgresql://… instead of SQLite")
    src.add_argument(
        "--records",
        nargs="+",
        metavar="PATH",
        help="record files (one record, or a JSON list of records) or folders of *.json",
    )
    src.add_argument(
        "--simulate-only",
        type=int,
        metavar="N",
        help="N simulated games of each game instead (from --observed-seed)",
    )
    src.add_argument(
        "--observed-seed",
        type=int,
        default=None,
        metavar="S",
        help="the seed of --simulate-only's games (default: a random one, printed)",
    )
    d.add_argument(
        "--game", choices=sorted(stats.GAMES), help="one game only (default: every game)"
    )
    d.add_argument("--preset", default="default", help="the rules preset counted (default)")
    d.add_argument(
        "--simulate",
        type=int,
        default=DEFAULT_SIMULATE,
        metavar="M",
        help=f"games simulated for the expectations (default {DEFAULT_SIMULATE})",
    )
    d.add_argument("--seed", type=int, default=0, help="the expectations' seed (default 0)")
    d.add_argument(
        "--bot", default="random", help="the bot of the simulated games' play (default random)"
    )
    d.add_argument("--json", action="store_true", help="print one JSON object")
    d.set_defaults(handler=_deals)


def _record_files(paths: list[str]) -> Iterator[Path]:
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(p.glob("*.json"))
        else:
            yield p


def _records(paths: list[str]) -> dict[str, list[Any]]:
    """The records of the files, by game (a record of no known game: StatsError)."""
    from madang.cli import read_json_input

    out: dict[str, list[Any]] = {g: [] for g in stats.GAMES}
    for f in _record_files(paths):
        obj = read_json_input(str(f))
        for rec in obj if isinstance(obj, list) else [obj]:
            game = rec.get("game") if isinstance(rec, dict) else None
            if game not in out:
                raise stats.StatsError(f"{f}: not a record of {' or '.join(stats.GAMES)}")
            out[game].append(rec)
    return out


def _check(args: argparse.Namespace) -> None:
    if args.simulate < 1:
        raise stats.StatsError(f"--simulate must be at least 1, not {args.simulate}")
    if args.simulate_only is not None and args.simulate_only < 1:
        raise stats.StatsError(f"--simulate-only must be at least 1, not {args.simulate_only}")
    if args.simulate_only is not None and args.records:
        raise stats.StatsError("--records and --simulate-only exclude each other")
    from madang.bots.base import bot_names
    from madang.core.registry import spec

    for g in _games(args):
        spec(g).rules(args.preset)  # an unknown preset: RuleConfigError
        if args.bot not in bot_names(g):
            raise stats.StatsError(
                f"no {g} bot {args.bot!r} (known: {', '.join(sorted(bot_names(g)))})"
            )


def _games(args: argparse.Namespace) -> list[str]:
    return [args.game] if args.game else list(stats.GAMES)


def _engine(args: argparse.Namespace) -> Any:
    from madang.server.config import ServerConfig
    from madang.server.db import make_engine

    config = ServerConfig(database_url=args.database_url, data_dir=args.data)
    if not args.database_url:
        path = Path(args.data) / "madang.sqlite3"
        if not path.is_file():
            raise stats.StatsError(f"no database at {path} (see --data, --database-url)")
    return make_engine(config.url())


def _deals(args: argparse.Namespace) -> int:
    _check(args)
    from madang.core.registry import spec
    from madang.server.deal_stats import finished_records

    t0 = time.perf_counter()
    observed_seed = args.observed_seed
    if args.simulate_only is not None and observed_seed is None:
        observed_seed = secrets.randbits(63)
    files = _records(args.records) if args.records else None
    engine = _engine(args) if files is None and args.simulate_only is None else None
    reports = []
    try:
        for g in _games(args):
            rules = spec(g).rules(args.preset).to_dict()
            counts = stats.RecordCounts()
            observed: Iterable[stats.Observation]
            if args.simulate_only is not None:
                observed = stats.simulate(
                    g, args.simulate_only, observed_seed, bot=args.bot, preset=args.preset
                )
            else:
                records: Iterable[Any]
                if files is not None:
                    records = files[g]
                else:
                    assert engine is not None
                    records = finished_records(engine, g)
                observed = stats.observations_of(
                    g, records, rules, strict=files is not None, counts=counts
                )
            ref = stats.simulate(g, args.simulate, args.seed, bot=args.bot, preset=args.preset)
            reports.append(
                stats.report(
                    g,
                    observed,
                    ref,
                    preset=args.preset,
                    simulated=args.simulate,
                    bot=args.bot,
                    seed=args.seed,
                    counts=counts,
                )
            )
    finally:
        if engine is not None:
            engine.dispose()
    seconds = time.perf_counter() - t0
    source = (
        {"simulated": args.simulate_only, "seed": observed_seed}
        if args.simulate_only is not None
        else {"records": len(list(_record_files(args.records)))}
        if args.records
        else {"database": args.database_url or str(Path(args.data) / "madang.sqlite3")}
    )
    if args.json:
        print_json(
            {
                "source": source,
                "alpha": stats.ALPHA,
                "seconds": round(seconds, 3),
                "games": {r.game: r.to_dict() for r in reports},
            }
        )
        return 0
    print(f"games from {json.dumps(source, ensure_ascii=False)}; {seconds:.1f} s")
    for r in reports:
        _print_report(r)
    return 0


def _fmt_p(p: float | None) -> str:
    if p is None:
        return "—"
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.1e}"


def _print_report(r: stats.DealReport) -> None:
    print()
    print(
        f"{r.game} ({r.preset}): {r.games} games, {r.skipped} under other rules, "
        f"{r.unreadable} unreadable; simulation: {r.simulated} games, bot {r.bot}, seed {r.seed}"
    )
    for s in r.statistics:
        flag = f"  << p < {stats.ALPHA:g}" if s.flagged else ""
        ref = " (reference: depends on play)" if s.source == "self_play" else ""
        test = s.test
        if test.method == "chi2":
            chi = "—" if test.statistic is None else f"{test.statistic:.2f}"
            how = f"χ²={chi} df={test.dof}"
        else:
            how = f"{test.method} exact test"
        print(f"  {s.name}: {s.title}{ref}\n    {s.source}, {how} p={_fmt_p(test.p_value)}{flag}")
        width = max(len(c) for c in s.categories)
        for c, o, e in zip(s.categories, s.observed, s.expected, strict=True):
            print(f"      {c:<{width}}  {o:>9}  {e:>12.2f}")
    if r.flagged:
        sys.stdout.write(f"  flagged: {', '.join(r.flagged)}\n")
