"""``madang matgo …``: replay a record, score a settlement (``notation.md`` contracts)."""

from __future__ import annotations

import argparse
from typing import Any

from madang.cli import print_json, read_json_input
from madang.core.errors import RecordError, RulesError
from madang.matgo.cards import BIT, CODES, GUKJIN_BIT, mask_of, parse_card
from madang.matgo.record import replay, summary
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import GukjinMode, ScoreSheet, settle

_SCORE_KEYS = {"winner", "loser", "go", "loser_went_go", "shakes", "carry", "gukjin", "rules"}


def register_cli(sub: Any) -> None:
    matgo = sub.add_parser("matgo", help="Matgo (맞고): records and scoring")
    msub = matgo.add_subparsers(dest="matgo_command", required=True)

    p = msub.add_parser("replay", help="replay a game record (FILE '-' is standard input)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_replay)

    p = msub.add_parser("score", help="score a won game's captured piles (JSON on stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_score)


def _replay(args: argparse.Namespace) -> int:
    state = replay(read_json_input(args.file))
    result = summary(state)
    if args.json:
        print_json(result)
    else:
        if not result["finished"]:
            print(f"in progress after {result['moves']} moves; waiting for {result['pending']}")
        elif result["winner"] is None:
            print(f"finished: no winner ({result['end']})")
        else:
            print(f"finished: player {result['winner']} wins {result['points']} ({result['end']})")
        for pay in result["payments"]:
            print(f"  {pay['from']} pays {pay['to']} {pay['points']} ({pay['reason']})")
        if state.sheet is not None:
            _print_sheet(state.sheet)
    return 0


def _int(obj: dict[str, Any], key: str, default: int, minimum: int) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RecordError(f"{key!r} must be an integer >= {minimum}, not {value!r}")
    return value


def _pile(obj: dict[str, Any], key: str, rules: MatgoRules) -> int:
    if key not in obj:
        raise RecordError(f"missing {key!r}: the {key}'s captured cards")
    cards = obj[key]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise RecordError(f"{key!r} must be a list of card codes")
    try:
        ids = [parse_card(c) for c in cards]
    except RulesError as e:
        raise RecordError(f"{key}: {e}") from None
    for c in ids:
        if not rules.deck_mask & BIT[c]:
            raise RecordError(f"{key}: card {CODES[c]} is not in the deck of these rules")
    if len(set(ids)) != len(ids):
        raise RecordError(f"{key}: a card is listed twice")
    return mask_of(ids)


def score_json(obj: Any) -> dict[str, Any]:
    """The ``madang matgo score --json`` calculator: input and output per notation.md."""
    if not isinstance(obj, dict):
        raise RecordError("input must be a JSON object")
    unknown = set(obj) - _SCORE_KEYS
    if unknown:
        raise RecordError(f"unknown field(s): {', '.join(sorted(unknown))}")
    rules = MatgoRules.from_dict(obj.get("rules", {}))
    winner = _pile(obj, "winner", rules)
    loser = _pile(obj, "loser", rules)
    if winner & loser:
        raise RecordError("a card is in both piles")
    go = _int(obj, "go", 0, 0)
    shakes = _int(obj, "shakes", 0, 0)
    carry = _int(obj, "carry", 1, 1)
    if carry & (carry - 1):
        raise RecordError(f"'carry' must be 1, 2, 4 …, not {carry}")
    went = obj.get("loser_went_go", False)
    if not isinstance(went, bool):
        raise RecordError("'loser_went_go' must be true or false")
    try:
        mode = GukjinMode(obj.get("gukjin", "best"))
    except (ValueError, TypeError):
        raise RecordError('\'gukjin\' must be "animal", "pi" or "best"') from None
    sheet = settle(
        winner,
        loser,
        go=go,
        loser_went_go=went,
        shakes=shakes,
        carry=carry,
        rules=rules,
        winner_gukjin=mode,
        loser_gukjin=mode,
    )
    out: dict[str, Any] = {"base": sheet.base, "points": sheet.points}
    out.update(sheet.to_dict())
    out["gukjin_holder"] = (
        "winner" if winner & GUKJIN_BIT else "loser" if loser & GUKJIN_BIT else None
    )
    return out


def _score(args: argparse.Namespace) -> int:
    result = score_json(read_json_input("-"))
    if args.json:
        print_json(result)
    else:
        for item in result["items"]:
            print(f"  {item['name_ko']} ({item['name']}): {item['points']}")
        print(f"  고: +{result['go']}  base {result['base']}")
        for m in result["multipliers"]:
            print(f"  x{m['factor']} {m['name_ko']} ({m['name']})")
        print(f"points: {result['points']}")
    return 0


def _print_sheet(sheet: ScoreSheet) -> None:
    for item in sheet.items:
        print(f"    {item.name_ko} ({item.name}): {item.points}")
    if sheet.go:
        print(f"    고 x{sheet.go}: +{sheet.go}")
    for m in sheet.multipliers:
        print(f"    x{m.factor} {m.name_ko} ({m.name})")
