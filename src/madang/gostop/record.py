"""고스톱 game records (``gostop.md`` §11): export, replay and the replay summary.

A record is the seat count, the rules, 선, the 나가리 carry, the seats barred from `die`
(4 players, 광팔기), the whole deck top first and the moves in the order the game asked
for them (``join``/``die`` and the 쇼당 moves among them); replaying it gives the
identical game.

>>> from madang.matgo.engine import new_game
>>> from madang.gostop.rules import GostopRules
>>> g = new_game(GostopRules(), seed=3)
>>> while not g.over:
...     _ = g.step(g.legal_actions()[0])
>>> replay(export_record(g)).snapshot() == g.snapshot()
True
"""

from __future__ import annotations

from typing import Any, Final

from madang.core.errors import RecordError, RulesError
from madang.core.records import check_header
from madang.gostop.rules import GostopRules, NagariCarry, NagariDealer
from madang.matgo.actions import action_str, parse_action
from madang.matgo.cards import CODES, parse_card
from madang.matgo.engine import MatgoState, new_game

__all__ = ["RULESET_VERSION", "export_record", "load_record", "replay", "replay_json", "summary"]

RULESET_VERSION: Final = "1"
"""The version of this implementation of the 고스톱 rules (records may carry it)."""

_KEYS: Final = {
    "game", "ruleset", "players", "rules", "dealer", "carry", "no_die", "deck", "moves",
    "fairness",
}  # fmt: skip


def export_record(state: MatgoState) -> dict[str, Any]:
    """The record of a 고스톱 game so far (a finished game's replays to the same end)."""
    rules = state.rules.to_dict()
    players = rules.pop("players")
    return {
        "game": "gostop",
        "players": players,
        "rules": rules,
        "dealer": state.dealer,
        "carry": state.carry,
        "no_die": list(state.no_die),
        "deck": [CODES[c] for c in state.deck],
        "moves": [action_str(a) for a in state.moves],
    }


def _int(obj: Any, key: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key} must be an integer, not {value!r}")
    return value


def load_record(obj: Any) -> tuple[MatgoState, list[Any]]:
    """Validate a record and deal its game; return the state and the moves to apply."""
    check_header(obj, game="gostop", keys=_KEYS, ruleset=RULESET_VERSION)
    for key in ("players", "dealer", "deck", "moves"):
        if key not in obj:
            raise RecordError(f"the record has no {key!r}")
    players = _int(obj, "players")
    data = obj.get("rules", {})
    if isinstance(data, dict) and data.get("players", players) != players:
        raise RecordError(f"the rules say {data['players']!r} players, the record {players}")
    rules = GostopRules.from_dict({**data, "players": players} if isinstance(data, dict) else data)
    dealer = _int(obj, "dealer")
    if not 0 <= dealer < players:
        raise RecordError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    no_die = obj.get("no_die", [])
    if not isinstance(no_die, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in no_die
    ):
        raise RecordError(f"no_die must be a list of seats, not {no_die!r}")
    if no_die and players == 3:  # gostop.md §14.4
        raise RecordError("no_die is for 4 players (광팔기); with 3 it must be empty")
    if len(set(no_die)) != len(no_die):
        raise RecordError(f"no_die lists a seat twice: {no_die!r}")
    deck = obj["deck"]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("deck must be a list of card codes")
    moves = obj["moves"]
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of move strings")
    try:
        ids = [parse_card(c) for c in deck]
    except RulesError as e:
        raise RecordError(f"bad deck: {e}") from None
    carry = _int(obj, "carry", 1)
    return new_game(rules, deck=ids, dealer=dealer, carry=carry, no_die=no_die), moves


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


def stake(state: MatgoState) -> int:
    """S of ``gostop.md`` §6.1/§11: a 스톱's points before the per-loser 박, a 3뻑 or 총통
    win's points times the carry, 0 with no winner."""
    if state.winner is None or state.sheet is None:
        return 0
    return state.sheets[0].stake if state.sheets else state.sheet.points


def next_game(state: MatgoState) -> dict[str, Any] | None:
    """What the next game of the match starts with (§2, §6.4, §8.3): its 선, its 나가리
    carry and its ``no_die`` (연사 금지: the seat that chose `die` in this game; a
    redeal voids its `die` and keeps this game's, §14.3); ``None`` while the game is in
    progress."""
    if not state.over:
        return None
    rules = state.rules
    if not isinstance(rules, GostopRules):
        raise RecordError("not a gostop game")
    dealer, carry = state.dealer, state.carry
    if state.end_reason == "redeal":
        return {"dealer": dealer, "carry": carry, "no_die": list(state.no_die)}
    if state.winner is not None:
        dealer, carry = state.winner, 1
    elif state.end_reason == "nagari":
        carry = carry * 2 if rules.nagari_carry is NagariCarry.STACK else 2
        if rules.nagari_dealer is NagariDealer.NEXT:
            dealer = (dealer + 1) % rules.players
    died = state.sitter >= 0 and state.seller < 0
    no_die = [state.sitter] if died and rules.yeonsa_ban else []
    return {"dealer": dealer, "carry": carry, "no_die": no_die}


def summary(state: MatgoState) -> dict[str, Any]:
    """The replay contract's summary (``gostop.md`` §11), with the end and the sheets."""
    out: dict[str, Any] = {
        "finished": state.over,
        "winner": state.winner,
        "points": stake(state),
        "sitting_out": None if state.sitter < 0 else state.sitter,
        "seller": None if state.seller < 0 else state.seller,
        "payments": [
            {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in state.payments
        ],
        "next": next_game(state),
        "end": state.end_reason or None,
        "moves": len(state.moves),
    }
    if state.sheets:
        out["sheets"] = [s.to_dict() for s in state.sheets]
    elif state.sheet is not None:
        out["sheets"] = [state.sheet.to_dict()]
    if not state.over:
        out["pending"] = state.pending()
    return out


def replay_json(obj: Any) -> dict[str, Any]:
    """Replay a record and summarise it (what ``madang gostop replay --json`` prints)."""
    return summary(replay(obj))
