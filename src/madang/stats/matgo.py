"""맞고 (matgo): what a deal gave 선 (seon, the dealer, who moves first) and the other
seat, for :mod:`madang.stats`.

The deal (``matgo.md`` §2, :func:`madang.matgo.engine.new_game`): 4 cards to the floor,
5 to the other seat, 5 to 선, then 4, 5, 5 again; the deck's first 28 cards. So with a
uniform shuffle of ``N`` cards of which ``K`` are bonus cards, the bonus cards in 선's
ten are hypergeometric (``N``, ``K``, 10), and so are the other seat's and (eight) the
floor's; 선's cards by month are a multivariate hypergeometric draw of 10 of ``N``.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=1)
>>> obs = observe_state(g)
>>> sum(obs.values["months_to_seon"])
10
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from madang.matgo.cards import MONTH, NUM_MONTH_CARDS
from madang.matgo.engine import MatgoState
from madang.matgo.record import replay
from madang.stats import Observation, StatDef, hypergeom_pmf

__all__ = ["STATS", "observe_record", "observe_session", "observe_state", "play_random"]

_COUNTS: Final = ("0", "1", "2", "3")
_SEATS: Final = ("none", "seon", "other", "both")

STATS: Final[tuple[StatDef, ...]] = (
    StatDef(
        "bonus_to_seon",
        "bonus cards dealt to 선 (first player)",
        "선에게 들어온 보너스 패",
        _COUNTS,
        "exact",
    ),
    StatDef(
        "bonus_to_other",
        "bonus cards dealt to the other seat",
        "후공에게 들어온 보너스 패",
        _COUNTS,
        "exact",
    ),
    StatDef(
        "bonus_on_floor",
        "bonus cards dealt to the floor (they go to 선)",
        "바닥에 깔린 보너스 패 (선이 가져감)",
        _COUNTS,
        "exact",
    ),
    StatDef(
        "months_to_seon",
        "선's ten cards by month",
        "선의 패 열 장의 월별 분포",
        (*(str(m) for m in range(1, 13)), "bonus"),
        "exact",
        pooled=True,
    ),
    StatDef(
        "chongtong",
        "총통 dealt (all four cards of a month in a hand)",
        "총통 (한 달 네 장)",
        _SEATS,
        "simulation",
    ),
    StatDef(
        "redeal",
        "redeals (four of a month on the floor, or two 총통)",
        "재경기 (바닥 네 장, 양쪽 총통)",
        ("none", "four_on_floor", "two_chongtong"),
        "simulation",
    ),
    StatDef(
        "first_turn_ppeok",
        "뻑 on the player's first turn (첫뻑)",
        "첫 턴 뻑 (첫뻑)",
        _SEATS,
        "self_play",
    ),
    StatDef(
        "winner",
        "who won: 선 (moves first), the other seat, nobody (나가리)",
        "승자: 선 (먼저 둠), 후공, 나가리",
        ("seon", "other", "nagari"),
        "self_play",
    ),
)


def _month_of(card: int) -> int:
    """The month category index (0-11), 12 for a bonus card."""
    return MONTH[card] - 1 if card < NUM_MONTH_CARDS else 12


def _hypergeom(pop: int, succ: int, draws: int) -> tuple[float, ...]:
    return tuple(hypergeom_pmf(pop, succ, draws, k) for k in range(len(_COUNTS)))


def _seats(seon: bool, other: bool) -> int:
    return int(seon) + 2 * int(other)


def _full_month(cards: list[int]) -> bool:
    per = [0] * 13
    for c in cards:
        per[_month_of(c)] += 1
    return any(n == 4 for n in per[:12])


def observe_state(state: MatgoState) -> Observation:
    """The observation of a game: its deal (from its deck, dealer and rules) and, once
    it is over, its end (the events of its first turns, the winner)."""
    deck = state.deck
    dealer = state.dealer
    rules = state.rules
    size = len(deck)
    bonus = len(rules.bonus_ids)
    floor = [*deck[0:4], *deck[14:18]]
    other = [*deck[4:9], *deck[18:23]]
    seon = [*deck[9:14], *deck[23:28]]
    months = [0] * 13
    for c in seon:
        months[_month_of(c)] += 1
    obs = Observation()
    v = obs.values
    v["bonus_to_seon"] = sum(c >= NUM_MONTH_CARDS for c in seon)
    v["bonus_to_other"] = sum(c >= NUM_MONTH_CARDS for c in other)
    v["bonus_on_floor"] = sum(c >= NUM_MONTH_CARDS for c in floor)
    v["months_to_seon"] = tuple(months)
    obs.probs["bonus_to_seon"] = obs.probs["bonus_to_other"] = _hypergeom(size, bonus, 10)
    obs.probs["bonus_on_floor"] = _hypergeom(size, bonus, 8)
    obs.probs["months_to_seon"] = (*([4 / size] * 12), bonus / size)
    obs.draw["months_to_seon"] = (10, size)
    v["chongtong"] = _seats(_full_month(seon), _full_month(other))
    redeal = next((e[1] for e in state.events if e[0] == "redeal"), None)
    v["redeal"] = {None: 0, "four_on_floor": 1, "two_chongtong": 2}[redeal]
    if state.over and redeal is None:
        first = [bool(state.ppeok_turns[p] & 2) for p in (dealer, 1 - dealer)]
        v["first_turn_ppeok"] = _seats(*first)
        w = state.winner
        v["winner"] = 2 if w is None else (0 if w == dealer else 1)
    return obs


def observe_record(record: Any) -> Observation:
    """The observation of a record (replayed; a malformed one raises RecordError)."""
    return observe_state(replay(record))


def observe_session(session: Any) -> Observation:
    """The observation of a session's current game (:class:`~madang.matgo.game.MatgoSession`)."""
    state: MatgoState = session.match.game
    return observe_state(state)


def play_random(session: Any, rngs: Sequence[random.Random]) -> None:
    """Play a session's game to its end as the ``random`` bot plays every seat (the
    same uniform choice among the legal actions, one draw of the seat's generator
    each), on the engine's actions, without the views and move strings it ignores."""
    g: MatgoState = session.match.game
    while not g.over:
        actions = g.legal_actions()
        g.step(actions[rngs[g.current].randrange(len(actions))])
