"""``madang verify RECORD.json [--json] [--commitment HEX]``: check a finished game's
deal (``docs/fairness.md``).

The record's revealed seed must open its commitment (bound to its game, table, game
number, ruleset and rules), and the deal key must re-deal exactly the record's deck or
wall (and Matgo's first 선 and mission). ``--commitment`` also checks that the record's
commitment is the one shown before the deal. RECORD ``-`` is standard input. A record
that verifies prints a summary (``--json``: one object with ``"ok": true``) and exits 0;
a malformed record, or one that does not verify, is one line on standard error and
exit status 2, as for every ``madang`` command.
"""

from __future__ import annotations

import argparse
from typing import Any

from madang.cli import print_json, read_json_input
from madang.core.fair import verify


def register_cli(sub: Any) -> None:
    """Add ``verify`` to the ``madang`` parser."""
    p = sub.add_parser(
        "verify", help="check that a finished game's deal is the one committed to before it"
    )
    p.add_argument("file", help="a game record with its fairness data ('-' is standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--commitment", metavar="HEX", help="the commitment shown before the deal (64 hex digits)"
    )
    p.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    result = verify(read_json_input(args.file), commitment_seen=args.commitment).to_dict()
    if args.json:
        print_json(result)
        return 0
    print(
        f"verified: {result['game']} at table {result['table']}, game {result['game_no']} "
        f"({result['scheme']})"
    )
    print(f"  commitment {result['commitment']} opened by the revealed seed")
    print(f"  deal key   {result['deal_key']}")
    print(f"  dealt again and equal: {', '.join(result['checked'][1:])}")
    return 0
