"""``madang matgo review``, ``madang gostop review`` and ``madang mahjong review``: the
review of a finished game."""

from __future__ import annotations

import argparse
from typing import Any

from madang.cli import print_json, read_json_input
from madang.core.errors import RecordError
from madang.review import DEFAULT_SAMPLES, MARK_KO, review


def add_review_parser(msub: Any, game: str) -> None:
    """Add ``review`` to a game's sub-parsers (``madang GAME review RECORD.json``)."""
    p = msub.add_parser(
        "review",
        help="복기: score a seat's decisions in a finished game (FILE '-' is standard input)",
    )
    p.add_argument("file", help="the record, JSON; - for standard input")
    p.add_argument("--seat", type=int, default=0, help="the seat reviewed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--seed", type=int, default=0, help="the seed of the sampled worlds")
    p.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"sampled worlds per decision (default {DEFAULT_SAMPLES}; Matgo and 고스톱)",
    )
    p.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="also stop each decision's sampling after this many ms (machine-dependent)",
    )
    p.set_defaults(handler=_review_command, review_game=game)


def _review_command(args: argparse.Namespace) -> int:
    record = read_json_input(args.file)
    if not isinstance(record, dict) or record.get("game") != args.review_game:
        raise RecordError(f"not a {args.review_game} record")
    result = review(
        record, args.seat, seed=args.seed, samples=args.samples, budget_ms=args.budget_ms
    )
    if args.json:
        print_json(result)
        return 0
    print(table_text(result))
    return 0


def table_text(result: dict[str, Any]) -> str:
    """The review as a readable table: one line per decision, then the counts."""
    lines = [f"복기 — {result['game']}, seat {result['seat']}"]
    lines.append(f"{'#':>4}  {'played':<18} {'mark':<6}  {'loss':>6}  best")
    for d in result["decisions"]:
        best = "" if d["best"] == d["move"] else d["best"]
        line = f"{d['index']:>4}  {d['move']:<18} {d['mark_ko']:<6}  {d['loss']:>6.2f}  {best}"
        gs = d.get("go_stop")
        if gs is not None:
            line += (
                f"  (스톱 {gs['stop']['expected']:+.2f}; 고 {gs['go']['expected']:+.2f},"
                f" win {gs['go']['win']:.0%} lose {gs['go']['lose']:.0%})"
            )
        elif "answers" in d:  # 고스톱's join/die and 쇼당: each answer to the end
            odds = "; ".join(
                f"{a['move']} {a['expected']:+.2f}, win {a['win']:.0%} lose {a['lose']:.0%}"
                for a in d["answers"]
            )
            line += f"  ({odds})"
        elif "shanten" in d:
            line += f"  (shanten {d['shanten']}, ukeire {d['ukeire']}, risk {d['risk']:.2f})"
        lines.append(line)
    counts = ", ".join(f"{MARK_KO[m]} {n}" for m, n in result["counts"].items())
    lines.append(counts)
    return "\n".join(lines)
