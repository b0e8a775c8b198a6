"""``madang gostop …``: replay a record, score a settlement (``gostop.md`` §11).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> register_cli(sub)
>>> sorted(sub.choices["gostop"]._subparsers._group_actions[0].choices)
['replay', 'score']
"""

from __future__ import annotations

import argparse
from typing import Any

from madang.cli import print_json, read_json_input
from madang.gostop.record import replay, summary
from madang.gostop.score import score_json


def register_cli(sub: Any) -> None:
    gostop = sub.add_parser("gostop", help="Go-Stop (고스톱): records and scoring")
    gsub = gostop.add_subparsers(dest="gostop_command", required=True)

    p = gsub.add_parser("replay", help="replay a game record (FILE '-' is standard input)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_replay)

    p = gsub.add_parser("score", help="score a won game's captured piles (JSON on stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_score)


def _replay(args: argparse.Namespace) -> int:
    result = summary(replay(read_json_input(args.file)))
    if args.json:
        print_json(result)
        return 0
    if not result["finished"]:
        print(f"in progress after {result['moves']} moves; waiting for {result['pending']}")
    elif result["winner"] is None:
        print(f"finished: no winner ({result['end']})")
    else:
        print(f"finished: player {result['winner']} wins, S = {result['points']} ({result['end']})")
    if result["sitting_out"] is not None:  # 광팔기 (four seats)
        how = "sells 광" if result["seller"] is not None else "dies"
        print(f"  player {result['sitting_out']} sits out ({how})")
    for pay in result["payments"]:
        print(f"  {pay['from']} pays {pay['to']} {pay['points']} ({pay['reason']})")
    for i, sheet in enumerate(result.get("sheets", [])):
        print(f"  sheet {i}:")
        _print_sheet(sheet)
    if result["next"] is not None:
        nxt = result["next"]
        no_die = f", no die: {nxt['no_die']}" if nxt["no_die"] else ""
        print(f"next game: dealer {nxt['dealer']}, carry x{nxt['carry']}{no_die}")
    return 0


def _score(args: argparse.Namespace) -> int:
    result = score_json(read_json_input("-"))
    if args.json:
        print_json(result)
        return 0
    for i, sheet in enumerate(result["sheets"]):
        print(f"loser {i}:")
        _print_sheet(sheet)
    print(f"base {result['base']}, S = {result['points']}, pays {result['pays']}")
    return 0


def _print_sheet(sheet: dict[str, Any]) -> None:
    for item in sheet["items"]:
        print(f"    {item['name_ko']} ({item['name']}): {item['points']}")
    if sheet["go"]:
        print(f"    고 x{sheet['go']}: +{sheet['go']}")
    for m in sheet["multipliers"]:
        print(f"    x{m['factor']} {m['name_ko']} ({m['name']})")
    print(f"    points: {sheet['points']}")
