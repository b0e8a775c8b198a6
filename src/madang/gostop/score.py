"""The 고스톱 settlement calculator (``gostop.md`` §11, what ``madang gostop score --json``
prints): a won game's captured piles in, S and what each
of the two losers pays out, 독박 included.

>>> score_json({"winner": ["01g", "03g", "08g"], "losers": [["11g"], []]})["pays"]
[3, 6]
"""

from __future__ import annotations

from typing import Any, Final

from madang.core.errors import RecordError, RulesError
from madang.gostop.rules import GostopRules
from madang.matgo.cards import BIT, CODES, mask_of, parse_card
from madang.matgo.scoring import GukjinMode, settle_losers

__all__ = ["score_json"]

_KEYS: Final = {"winner", "losers", "go", "gobak", "shakes", "carry", "gukjin", "rules"}


def _int(obj: dict[str, Any], key: str, default: int, minimum: int) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RecordError(f"{key!r} must be an integer >= {minimum}, not {value!r}")
    return value


def _pile(cards: Any, where: str, rules: GostopRules) -> int:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise RecordError(f"{where} must be a list of card codes")
    try:
        ids = [parse_card(c) for c in cards]
    except RulesError as e:
        raise RecordError(f"{where}: {e}") from None
    for c in ids:
        if not rules.deck_mask & BIT[c]:
            raise RecordError(f"{where}: card {CODES[c]} is not in the deck of these rules")
    if len(set(ids)) != len(ids):
        raise RecordError(f"{where}: a card is listed twice")
    return mask_of(ids)


def score_json(obj: Any) -> dict[str, Any]:
    """Settle ``{"winner": [cards], "losers": [[cards], [cards]], "go", "gobak": 0|1|null,
    "shakes", "carry", "gukjin": "animal"|"pi"|"best", "rules"}``: ``base`` (족보 + 고),
    ``points`` (S) and ``pays`` (per loser, after 독박), with each loser's sheet."""
    if not isinstance(obj, dict):
        raise RecordError("input must be a JSON object")
    unknown = set(obj) - _KEYS
    if unknown:
        raise RecordError(f"unknown field(s): {', '.join(sorted(unknown))}")
    rules = GostopRules.from_dict(obj.get("rules", {}))
    if "winner" not in obj or "losers" not in obj:
        raise RecordError("the input needs 'winner' and 'losers'")
    winner = _pile(obj["winner"], "winner", rules)
    losers_in = obj["losers"]
    if not isinstance(losers_in, list) or len(losers_in) != 2:
        raise RecordError("'losers' must be the two losers' captured cards")
    losers = [_pile(cards, f"losers[{i}]", rules) for i, cards in enumerate(losers_in)]
    if winner & losers[0] or winner & losers[1] or losers[0] & losers[1]:
        raise RecordError("a card is in two piles")
    go = _int(obj, "go", 0, 0)
    shakes = _int(obj, "shakes", 0, 0)
    carry = _int(obj, "carry", 1, 1)
    gobak = obj.get("gobak")
    if (gobak is not None and gobak not in (0, 1)) or isinstance(gobak, bool):
        raise RecordError(f"'gobak' must be 0, 1 or null, not {gobak!r}")
    try:
        mode = GukjinMode(obj.get("gukjin", "best"))
    except (ValueError, TypeError):
        raise RecordError('\'gukjin\' must be "animal", "pi" or "best"') from None
    sheets, pays = settle_losers(
        winner,
        losers,
        go=go,
        went_go=[gobak == 0, gobak == 1],
        dokbak=gobak,
        shakes=shakes,
        carry=carry,
        rules=rules,
        gukjin=mode,
    )
    return {
        "base": sheets[0].base,
        "points": sheets[0].stake,
        "pays": pays,
        "sheets": [s.to_dict() for s in sheets],
    }
