"""고스톱 (gostop) for reinforcement learning: fixed action ids and observation tensors
of a seat at a table of ``rules.players``.

:class:`GostopEncoding` is the game's ``encoding`` (:mod:`madang.rl` reads it). Actions
are the family engine's ids (:mod:`madang.matgo.actions`): 맞고's and any the family adds
for 고스톱 (every id the notation names). An
observation is a flat ``float32`` vector seen from one seat, the other seats in turn
order after it (``o1`` plays next, ``o2`` after it): card planes of 52 numbers (1.0
where the card is in the set; ids as in :mod:`madang.matgo.cards`), then scalars (raw
counts and points). The names of both, for a table of ``n`` seats, are
:func:`planes` and :func:`scalars`. It is built from the seat's view only
(:func:`madang.matgo.view.view`), so it cannot show a hidden card. 맞고 keeps its own
encoding (:class:`madang.matgo.encode.MatgoEncoding`, unchanged).

>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> from madang.gostop.rules import GostopRules
>>> enc = GostopEncoding(GostopRules())
>>> g = new_game(GostopRules(), seed=1)
>>> obs = enc.observe(view(g, 0))
>>> obs.shape == (enc.obs_size,), int(obs[:52].sum()), enc.scalar(obs, "pile")
(True, 7, 24.0)
>>> enc.scalar(obs, "hand_count_o2"), enc.obs_size == 13 * 52 + len(scalars(3))
(7.0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from madang.core.errors import InvalidActionError, RuleConfigError
from madang.matgo import actions as A
from madang.matgo.cards import CODES, NUM_CARDS
from madang.matgo.engine import MatgoState, Phase

__all__ = ["GostopEncoding", "planes", "scalars"]

FloatArray = npt.NDArray[np.float32]

_CARD_BIT: Final = {c: 1 << i for i, c in enumerate(CODES)}
#: The engine's questions, one-hot in the observation (every phase of :class:`Phase`).
_PHASES: Final = tuple(p.name.lower() for p in Phase)
_GUKJIN: Final = ("free", "animal", "pi")
#: The per-seat scalars, each once per seat (``_mine``, then ``_o1``, ``_o2`` …).
_PER_SEAT: Final = ("dealer", "hand_count", "score", "go", "shakes", "tokens", "ppeok")
#: The view's list of a per-seat scalar where its name differs.
_VIEW_KEY: Final = {"hand_count": "hand_counts", "score": "scores"}


def _who(n: int) -> list[str]:
    """The seat suffixes: the observing seat, then the others in turn order after it."""
    return ["mine", *(f"o{i}" for i in range(1, n))]


def planes(n: int) -> tuple[str, ...]:
    """The card planes of a table of ``n`` seats, in order.

    >>> planes(3)[:4]
    ('hand', 'floor', 'in_flight', 'seen')
    """
    who = _who(n)
    return (
        "hand",  # own hand
        "floor",  # cards on the floor (bonus cards lying in a stack included)
        "in_flight",  # the turn in progress: taken but not yet piled, or just flipped
        "seen",  # every card this seat has seen where it is now (the union of the others)
        "mission",  # the cards of the game's 미션 (missions rule), else empty
        *(f"captured_{w}" for w in who),  # each seat's captured pile
        *(f"ppeok_{w}" for w in who),  # floor cards in a 뻑 stack that seat made
        *(f"revealed_{w}" for w in who[1:]),  # shown by 흔들기 / 총통, still in that hand
    )


def scalars(n: int) -> tuple[str, ...]:
    """The scalars of a table of ``n`` seats, after the planes, in order.

    >>> scalars(3)[-3:], "stop_points" in scalars(3)
    (('ppeok_mine', 'ppeok_o1', 'ppeok_o2'), True)
    """
    return (
        *(f"phase_{p}" for p in _PHASES),
        "to_act",  # 1 when this seat must answer now
        "pile",  # cards left in the draw pile
        "carry",  # the 나가리 multiplier in force
        "stop_points",  # at 고/스톱: what 스톱 pays now, every loser together (독박 too)
        *(f"gukjin_{g}" for g in _GUKJIN),  # 국진 not fixed / fixed as 열끗 / as 쌍피
        *(f"{name}_{w}" for name in _PER_SEAT for w in _who(n)),
    )


def _mask(codes: Sequence[str]) -> int:
    m = 0
    for c in codes:
        m |= _CARD_BIT[c]
    return m


def _count_actions() -> int:
    """How many action ids the family's notation names (ids from 0 up, without a gap):
    맞고's and every one 고스톱 adds.

    >>> _count_actions() >= A.NUM_ACTIONS
    True
    """
    n = A.NUM_ACTIONS
    while True:
        try:
            A.action_str(n)
        except InvalidActionError:
            return n
        n += 1


class GostopEncoding:
    """고스톱 in tensors: the action ids and the observation of one seat."""

    num_actions = _count_actions()
    plane_size = NUM_CARDS

    def __init__(self, rules: Any = None) -> None:
        from madang.gostop.rules import GostopRules

        self.rules = GostopRules() if rules is None else rules
        self.seats: int = self.rules.players
        self.planes = planes(self.seats)
        self.scalars = scalars(self.seats)
        self.obs_size = len(self.planes) * NUM_CARDS + len(self.scalars)
        start = len(self.planes) * NUM_CARDS
        self._index = {name: start + i for i, name in enumerate(self.scalars)}

    def action_id(self, move: str) -> int:
        """The id of a move in notation (``play 08g`` → 28)."""
        return A.parse_action(move)

    def move(self, action: int) -> str:
        """The notation of an action id."""
        return A.action_str(int(action))

    def scalar(self, obs: FloatArray, name: str) -> float:
        """One named scalar of an observation."""
        return float(obs[self._index[name]])

    def observe(self, view: dict[str, Any]) -> FloatArray:
        """The observation of ``view``'s seat (a seat's view, not a spectator's)."""
        me = view["seat"]
        n = len(view["hand_counts"])
        if n != self.seats:
            raise RuleConfigError(f"a view of {n} seats, not {self.seats}")
        if type(me) is not int or not 0 <= me < n:
            raise ValueError("an observation is of a seat, not a spectator")
        order = [(me + i) % n for i in range(n)]  # me, then the others in turn order
        floor = 0
        ppeok = dict.fromkeys(order, 0)
        for stack in view["floor"]:
            cards = _mask(stack["cards"]) | _mask(stack["bonus"])
            floor |= cards
            if stack["ppeok"] is not None:
                ppeok[stack["ppeok"]] |= cards
        turn = view["turn"]
        flight = _mask(turn["captured"]) | (_CARD_BIT[turn["flipped"]] if turn["flipped"] else 0)
        mission = view["mission_info"]
        hand = _mask(view["hand"])
        captured = [_mask(view["captured"][s]) for s in order]
        revealed = [_mask(view["revealed"][s]) for s in order[1:]]
        seen = hand | floor | flight
        for m in (*captured, *revealed):
            seen |= m
        masks = [
            hand,
            floor,
            flight,
            seen,
            _mask(mission["cards"]) if mission else 0,
            *captured,
            *(ppeok[s] for s in order),
            *revealed,
        ]
        out = np.zeros(self.obs_size, dtype=np.float32)
        for p, m in enumerate(masks):
            while m:
                low = m & -m
                out[p * NUM_CARDS + low.bit_length() - 1] = 1.0
                m ^= low
        phase = view["phase"]
        gukjin = view["gukjin"]
        values: list[float] = [float(phase == p) for p in _PHASES]
        values += [
            float(view["pending"].get("seat") == me),
            view["pile"],
            view["carry"],
            self._stop_points(view) if phase == "go_stop" else 0.0,
            *(float(gukjin == g) for g in _GUKJIN),
        ]
        values += [float(view["dealer"] == s) for s in order]
        for name in _PER_SEAT[1:]:
            key = _VIEW_KEY.get(name, name)
            values += [view[key][s] for s in order]
        out[len(self.planes) * NUM_CARDS :] = values
        return out

    @staticmethod
    def _stop_points(view: dict[str, Any]) -> float:
        """What 스톱 pays the seat now, every loser's payment together (독박 included):
        the settlement of the piles on the table, which the view shows in full (the
        hidden cards, dealt at random, take no part in it)."""
        state = MatgoState.from_view(view, random.Random(0))
        return float(state.stop_points(view["seat"]))

    def observe_states(
        self, states: Sequence[MatgoState], seats: Sequence[int], out: FloatArray
    ) -> None:
        """The observations of ``seats[i]`` in ``states[i]`` into ``out[i]``, through
        the seats' views (고스톱 has no fast path of its own yet)."""
        from madang.matgo.view import view

        for i, (s, seat) in enumerate(zip(states, seats, strict=True)):
            out[i] = self.observe(dict(view(s, seat)))

    def render(self, view: dict[str, Any]) -> str:
        """The table of ``view`` as plain text, from the terminal renderer."""
        from rich.text import Text

        from madang.matgo.render import table_lines

        names = ("나", *(f"o{i}" for i in range(1, self.seats)))
        return "\n".join(Text.from_markup(line).plain for line in table_lines(view, names))

    def fast(self) -> Any:
        """고스톱 has no engine adapter for the batched environment yet: its
        environment is :class:`~madang.rl.aec.MadangAECEnv` (through the contract)."""
        raise RuleConfigError("gostop has no fast engine path yet: use MadangAECEnv")
