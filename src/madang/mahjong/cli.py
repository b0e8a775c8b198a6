"""The ``madang mahjong`` sub-commands: ``score`` and ``replay`` (``notation.md``).

Bad input raises a typed :class:`~madang.core.errors.MadangError`; the top-level
``madang.cli.main`` prints it as one line on standard error and exits 2.

>>> hand, melds, ctx, rules = parse_score_input(
...     {"hand": "123m456p789p11z 55z5z", "melds": [], "win": "5z", "by": "ron",
...      "seat": "2z", "round": "1z", "flowers": 1, "flags": [], "rules": {"min_pan": 2}})
>>> sheet_to_json(score_hand(hand, melds, ctx, rules))["points"]
11
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from madang.core.errors import MadangError
from madang.mahjong.rules import MahjongRules
from madang.mahjong.scoring import (
    FLAGS,
    Meld,
    ScoreInputError,
    ScoreSheet,
    WinContext,
    score_hand,
)
from madang.mahjong.tiles import WINDS, parse_tile, parse_tiles, tile_name

__all__ = ["SCORE_KEYS", "parse_score_input", "register_cli", "sheet_to_json"]

SCORE_KEYS: Final = {
    "hand": True,
    "win": True,
    "by": True,
    "seat": True,
    "round": True,
    "melds": False,
    "flowers": False,
    "flags": False,
    "rules": False,
    "pot": False,
}
"""Keys of ``madang mahjong score`` input: ``True`` = required. Any other key is an error."""


def register_cli(sub: Any) -> None:
    """Add ``mahjong score`` and ``mahjong replay`` to the ``madang`` sub-parsers."""
    parser = sub.add_parser("mahjong", help="Korean mahjong (104 tiles): scoring and records")
    msub = parser.add_subparsers(dest="mahjong_command", required=True)

    score = msub.add_parser(
        "score",
        help="score a won hand read as JSON (notation.md)",
        description="Score a won hand. Input: a JSON object on standard input (or FILE), "
        'e.g. {"hand": "123m456p789p11z555z", "win": "5z", "by": "ron", "seat": "2z", '
        '"round": "1z"}.',
    )
    score.add_argument("file", nargs="?", default="-", help="JSON input file (default: stdin)")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.set_defaults(handler=_score_command)

    replay = msub.add_parser("replay", help="replay a mahjong game record (FILE - is stdin)")
    replay.add_argument("file", help="the record, JSON; - for standard input")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(handler=_replay_command)


# -- score ---------------------------------------------------------------------------


def _want(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = obj[key]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise ScoreInputError(f"{key!r} must be {what}, not {value!r}")
    return value


def _wind(obj: dict[str, Any], key: str) -> int:
    text = _want(obj, key, str, "a wind tile 1z–4z")
    kind = parse_tile(text)
    if kind not in WINDS:
        raise ScoreInputError(f"{key!r} must be a wind tile 1z–4z, not {text!r}")
    return kind


def parse_score_input(obj: Any) -> tuple[list[int], list[Meld], WinContext, MahjongRules]:
    """Check and convert the JSON input of ``madang mahjong score``.

    Every problem raises a ``MadangError`` (``ScoreInputError``, ``TileNotationError``,
    ``InvalidActionError`` or ``RuleConfigError``): missing or unknown keys, wrong
    types, tiles that do not exist, unknown or repeated flags, a non-wind seat or round.
    """
    if not isinstance(obj, dict):
        raise ScoreInputError(f"the input must be a JSON object, not {type(obj).__name__}")
    unknown = sorted(str(k) for k in obj if k not in SCORE_KEYS)
    if unknown:
        raise ScoreInputError(
            f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(SCORE_KEYS)}"
        )
    missing = [k for k, required in SCORE_KEYS.items() if required and k not in obj]
    if missing:
        raise ScoreInputError(f"missing key(s) {', '.join(map(repr, missing))}")

    hand = parse_tiles(_want(obj, "hand", str, "a string of tiles like '123m456p11z'"))
    if any(k >= 25 for k in hand):
        raise ScoreInputError("flowers are not part of 'hand': give their number in 'flowers'")
    win = parse_tile(_want(obj, "win", str, "one tile like '3m'"))
    by = _want(obj, "by", str, "'ron' or 'tsumo'")
    if by not in ("ron", "tsumo"):
        raise ScoreInputError(f"'by' must be 'ron' or 'tsumo', not {by!r}")
    seat = _wind(obj, "seat")
    round_wind = _wind(obj, "round")

    melds: list[Meld] = []
    if "melds" in obj:
        for text in _want(obj, "melds", list, "a list like ['pon 5z', 'ankan 1z']"):
            melds.append(Meld.parse(text))
    flowers = 0
    if "flowers" in obj:
        flowers = _want(obj, "flowers", int, "an integer 0–4")
        if not 0 <= flowers <= 4:
            raise ScoreInputError(f"'flowers' must be 0–4 (there are four flowers), not {flowers}")
    flags: set[str] = set()
    if "flags" in obj:
        for flag in _want(obj, "flags", list, f"a list of flags ({', '.join(sorted(FLAGS))})"):
            if not isinstance(flag, str) or flag not in FLAGS:
                raise ScoreInputError(f"unknown flag {flag!r}; known: {', '.join(sorted(FLAGS))}")
            if flag in flags:
                raise ScoreInputError(f"flag {flag!r} given twice")
            flags.add(flag)
    pot = 0
    if "pot" in obj:
        pot = _want(obj, "pot", int, "a non-negative integer")
        if pot < 0:
            raise ScoreInputError(f"'pot' must be a non-negative integer, not {pot}")
    rules = MahjongRules()
    if "rules" in obj:
        rules = MahjongRules.from_dict(_want(obj, "rules", dict, "an object of rules options"))

    ctx = WinContext(
        by=by,
        win_tile=win,
        seat_wind=seat,
        round_wind=round_wind,
        flowers=flowers,
        flags=frozenset(flags),
        pot=pot,
    )
    return hand, melds, ctx, rules


def sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The JSON form of a score sheet, as ``madang mahjong score --json`` prints it."""
    if not sheet.valid:
        payment: dict[str, Any] = {}
    elif sheet.by == "ron":
        payment = {"discarder": sheet.points * sheet.ron_pays}
    else:
        payment = {"each": sheet.points, "total": 3 * sheet.points}
    return {
        "valid": sheet.valid,
        "reason": sheet.reason,
        "base_pan": sheet.base_pan,
        "extra_pan": sheet.extra_pan,
        "total_pan": sheet.total_pan,
        "base_points": sheet.base_points,
        "pot": sheet.pot,
        "pan_value": sheet.pan_value,
        "points": sheet.points,
        "base_items": [
            {"name": i.name, "name_ko": i.name_ko, "pan": i.pan} for i in sheet.base_items
        ],
        "extra_items": [
            {"name": i.name, "name_ko": i.name_ko, "pan": i.pan} for i in sheet.extra_items
        ],
        "sets": list(sheet.sets),
        "wait": sheet.wait,
        "by": sheet.by,
        "payment": payment,
    }


def _sheet_text(sheet: ScoreSheet, ctx: WinContext) -> str:
    if not sheet.valid:
        return f"not valid: {sheet.reason}"
    lines = [f"{' '.join(sheet.sets)}   ({tile_name(ctx.win_tile)} {sheet.by}, {sheet.wait})"]
    for title, items in (("기본판", sheet.base_items), ("부가판", sheet.extra_items)):
        for i in items:
            lines.append(f"  {title} {i.pan:>3}  {i.name_ko} ({i.name})")
    lines.append(f"  판 {sheet.base_pan} + {sheet.extra_pan} = {sheet.total_pan}")
    if sheet.base_points:
        lines.append(f"  기본점수 {sheet.base_points}")
    if sheet.pot:
        lines.append(f"  나가리 {sheet.pot}")
    lines.append(f"points: {sheet.points}")
    return "\n".join(lines)


def _score_command(args: argparse.Namespace) -> int:
    from madang.cli import print_json, read_json_input

    hand, melds, ctx, rules = parse_score_input(read_json_input(args.file))
    sheet = score_hand(hand, melds, ctx, rules)
    if args.json:
        print_json(sheet_to_json(sheet))
    else:
        print(_sheet_text(sheet, ctx))
    return 0


# -- replay --------------------------------------------------------------------------


def _replay_command(args: argparse.Namespace) -> int:
    from madang.cli import print_json, read_json_input
    from madang.mahjong.record import replay_json

    result = replay_json(read_json_input(args.file))
    if not isinstance(result, dict):  # pragma: no cover - a contract of record.py
        raise MadangError("replay produced no result object")
    if args.json:
        print_json(result)
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
