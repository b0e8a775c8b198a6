"""마작 (mahjong): what a deal gave each seat, for :mod:`madang.stats`.

The deal (``mahjong.md`` §2, :func:`madang.mahjong.engine.new_hand`): from the dealer
(동, who discards first), each seat takes 4, 4, 4 and 1 tiles from the top of the wall,
and the dealer a 14th: 53 of the 104 tiles. The four flowers (춘 하 추 동) lie in 104
places of a uniformly shuffled wall, so the flowers dealt to the seats 동, 남, 서, 북 and
left in the wall (14, 13, 13, 13 and 51 places) are a multivariate hypergeometric draw of
4 of 104, and the number of flowers dealt is hypergeometric (104, 4, 53). The rules have
no redeal; the one event the deal alone decides is 천화 (cheonhwa): the dealer's 14 tiles
(after the flower replacements) are already a winning hand.

>>> from madang.mahjong.engine import new_hand
>>> obs = observe_state(new_hand(seed=2))
>>> sum(obs.values["flowers_by_seat"])
4
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from madang.mahjong.engine import legal_actions, new_hand, step
from madang.mahjong.record import replay
from madang.mahjong.state import HandState
from madang.mahjong.tiles import NUM_KINDS, tile_name
from madang.stats import Observation, StatDef, hypergeom_pmf

__all__ = ["STATS", "observe_record", "observe_session", "observe_state", "play_random"]

_WALL: Final = 104
_FLOWERS: Final = 4
_DEALT: Final = 53
_PLACES: Final = (14, 13, 13, 13, _WALL - _DEALT)  # 동 남 서 북, the wall

STATS: Final[tuple[StatDef, ...]] = (
    StatDef(
        "flowers_by_seat",
        "flowers dealt per seat (동 = dealer, moves first) and left in the wall",
        "자리별로 들어온 꽃 (동 = 선, 먼저 둠), 벽에 남은 꽃",
        ("east", "south", "west", "north", "wall"),
        "exact",
        pooled=True,
    ),
    StatDef(
        "flowers_dealt",
        "flowers dealt in a hand (all seats)",
        "한 판에 들어온 꽃 (모든 자리)",
        ("0", "1", "2", "3", "4"),
        "exact",
    ),
    StatDef(
        "flowers_to_dealer",
        "flowers dealt to the dealer (동)",
        "선 (동)에게 들어온 꽃",
        ("0", "1", "2", "3", "4"),
        "exact",
    ),
    StatDef(
        "cheonhwa",
        "천화 dealt: the dealer's first 14 tiles win",
        "천화: 선의 첫 14장이 이미 완성",
        ("no", "yes"),
        "simulation",
    ),
    StatDef(
        "winner",
        "who won: 동 (dealer, moves first), 남, 서, 북, nobody (나가리)",
        "승자: 동 (선, 먼저 둠), 남, 서, 북, 나가리",
        ("east", "south", "west", "north", "nagari"),
        "self_play",
    ),
)

_P_BY_SEAT: Final = tuple(n / _WALL for n in _PLACES)
_P_DEALT: Final = tuple(hypergeom_pmf(_WALL, _FLOWERS, _DEALT, k) for k in range(5))
_P_DEALER: Final = tuple(hypergeom_pmf(_WALL, _FLOWERS, _PLACES[0], k) for k in range(5))


def _deal_places(offset: int) -> list[int]:
    """Wall indices of the tiles dealt to the seat ``offset`` places after the dealer
    (the engine's deal: rows of 16, 4 each, then one each; the dealer's 14th at 52)."""
    pos = [16 * r + 4 * offset + j for r in range(3) for j in range(4)]
    pos.append(48 + offset)
    if offset == 0:
        pos.append(52)
    return pos


_PLACE_OF: Final = tuple(
    next((o for o in range(4) if i in _deal_places(o)), 4) for i in range(_WALL)
)


def observe_state(state: HandState) -> Observation:
    """The observation of a hand: its deal (from its wall and dealer), 천화 (dealt
    again from the wall), and once it is over its winner relative to the dealer."""
    wall = state.wall
    by_place = [0] * 5
    for i, k in enumerate(wall):
        if k >= NUM_KINDS:
            by_place[_PLACE_OF[i]] += 1
    obs = Observation()
    v = obs.values
    v["flowers_by_seat"] = tuple(by_place)
    obs.probs["flowers_by_seat"] = _P_BY_SEAT
    obs.draw["flowers_by_seat"] = (_FLOWERS, _WALL)
    v["flowers_dealt"] = _FLOWERS - by_place[4]
    obs.probs["flowers_dealt"] = _P_DEALT
    v["flowers_to_dealer"] = by_place[0]
    obs.probs["flowers_to_dealer"] = _P_DEALER
    start = new_hand(
        state.rules,
        wall=[tile_name(k) for k in wall],
        dealer=state.dealer,
        round_wind=state.round_wind,
        pot=state.pot,
    )
    v["cheonhwa"] = int(any(a.verb == "tsumo" for a in legal_actions(start, state.dealer)))
    res = state.result
    if res is not None:
        v["winner"] = (
            4 if res.nagari or not res.winners else (res.winners[0].seat - state.dealer) % 4
        )
    return obs


def observe_record(record: Any) -> Observation:
    """The observation of a hand's record (replayed; a malformed one raises RecordError)."""
    return observe_state(replay(record))


def observe_session(session: Any) -> Observation:
    """The observation of a session's current hand (a
    :class:`~madang.mahjong.game.MahjongSession`)."""
    state: HandState = session.match.hand
    return observe_state(state)


def play_random(session: Any, rngs: Sequence[random.Random]) -> None:
    """Play a session's hand to its end as the ``random`` bot plays every seat (the
    same uniform choice among the legal actions of the first seat asked, one draw of
    its generator each), on the engine's actions, keeping no events."""
    st: HandState = session.match.hand
    while not st.over:
        seat = st.pending[0]
        actions = legal_actions(st, seat)
        step(st, actions[rngs[seat].randrange(len(actions))], events=False)
