"""Matgo game records (``notation.md``): export, replay, and the replay summary.

A record is the rules, the dealer, the whole deck top first and the moves in the order
the game asked for them. Replaying it gives the identical game. An optional
``fairness`` field proves the deck was the one committed to (``docs/fairness.md``,
``madang verify``); replay checks its form only.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=3)
>>> while not g.over:
...     _ = g.step(g.legal_actions()[0])
>>> replay(export_record(g)).snapshot() == g.snapshot()
True
"""

from __future__ import annotations

from typing import Any

from madang.core.errors import RecordError, RulesError
from madang.core.records import check_header
from madang.matgo.actions import action_str, parse_action
from madang.matgo.cards import CODES, parse_card
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.rules import RULESET_VERSION, MatgoRules

_KEYS = {"game", "ruleset", "rules", "dealer", "deck", "moves", "carry", "mission", "fairness"}


def export_record(state: MatgoState) -> dict[str, Any]:
    """The record of a game so far (a finished game's record replays to the same end)."""
    rec: dict[str, Any] = {
        "game": "matgo",
        "ruleset": RULESET_VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "deck": [CODES[c] for c in state.deck],
        "moves": [action_str(a) for a in state.moves],
    }
    if state.carry != 1:
        rec["carry"] = state.carry
    if state.mission is not None:
        rec["mission"] = state.mission.name
    return rec


def load_record(obj: Any) -> tuple[MatgoState, list[Any]]:
    """Validate a record and deal its game; return the state and the moves to apply."""
    check_header(obj, game="matgo", keys=_KEYS, ruleset=RULESET_VERSION)
    for key in ("dealer", "deck", "moves"):
        if key not in obj:
            raise RecordError(f"the record has no {key!r}")
    rules = MatgoRules.from_dict(obj.get("rules", {}))
    deck = obj["deck"]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("deck must be a list of card codes")
    moves = obj["moves"]
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of move strings")
    dealer = obj["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError(f"dealer must be 0 or 1, not {dealer!r}")
    mission = obj.get("mission")
    if mission is not None and not isinstance(mission, str):
        raise RecordError("mission must be a mission name")
    if rules.missions and mission is None:
        raise RecordError("a record played with missions: true must name its mission")
    try:
        ids = [parse_card(c) for c in deck]
    except RulesError as e:
        raise RecordError(f"bad deck: {e}") from None
    state = new_game(rules, deck=ids, dealer=dealer, carry=obj.get("carry", 1), mission=mission)
    return state, moves


def replay(obj: Any) -> MatgoState:
    """Replay a record; an illegal or malformed move is a RecordError naming its index."""
    state, moves = load_record(obj)
    for i, move in enumerate(moves):
        if state.over:
            raise RecordError(f"move {i} ({move!r}): the game is already over", index=i)
        try:
            state.step(parse_action(move))
        except RulesError as e:
            raise RecordError(f"move {i} ({move!r}): {e}", index=i) from None
    return state


def summary(state: MatgoState) -> dict[str, Any]:
    """The replay contract's summary: finished, winner, points, payments (and more)."""
    out: dict[str, Any] = {
        "finished": state.over,
        "winner": state.winner,
        "points": state.points,
        "payments": [
            {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in state.payments
        ],
        "end": state.end_reason or None,
        "moves": len(state.moves),
    }
    if state.sheet is not None:
        out["sheet"] = state.sheet.to_dict()
    if not state.over:
        out["pending"] = state.pending()
    return out


def replay_json(obj: Any) -> dict[str, Any]:
    """Replay a record and summarise it (what ``madang matgo replay --json`` prints)."""
    return summary(replay(obj))
