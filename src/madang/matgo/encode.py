"""Matgo for reinforcement learning: fixed action ids and observation tensors.

:class:`MatgoEncoding` is the game's ``encoding`` in its :class:`~madang.core.game.GameSpec`
(:mod:`madang.rl` reads it). Actions are the engine's ids (:mod:`madang.matgo.actions`,
175 of them). An observation is a flat ``float32`` vector of :data:`OBS_SIZE` numbers,
seen from one seat ("mine" is the seat, "theirs" the opponent): :data:`PLANES` planes of
52 cards (ids as in :mod:`madang.matgo.cards`: 48 month cards then 4 bonus cards, 1.0
where the card is in the set), then the :data:`SCALARS`. ``docs/rl/matgo.md`` documents
every channel.

It is built only from the seat's view (:func:`madang.matgo.view.view`), so it cannot show
a hidden card. :meth:`MatgoEncoding.observe_states` is the fast path of the batched
environment: the same numbers computed from engine states without building the view
(a test checks that both agree at every step of random games).

>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> enc = MatgoEncoding()
>>> g = new_game(seed=1)
>>> obs = enc.observe(view(g, 0))
>>> obs.shape, int(obs[:52].sum()), enc.scalar(obs, "pile")
((547,), 10, 22.0)
>>> enc.move(enc.action_id("play 08g shake"))
'play 08g shake'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from madang.matgo import actions as A
from madang.matgo.cards import CODES, MONTH_MASK, NUM_CARDS
from madang.matgo.engine import MatgoState, Phase

__all__ = ["OBS_SIZE", "PLANES", "SCALARS", "MatgoEncoding"]

PLANES: tuple[str, ...] = (
    "hand",  # own hand
    "revealed_theirs",  # the opponent's cards shown by 흔들기 / 총통, still in its hand
    "floor",  # cards on the floor (bonus cards lying in a stack included)
    "ppeok_mine",  # floor cards in a 뻑 stack that this seat made
    "ppeok_theirs",  # floor cards in a 뻑 stack that the opponent made
    "captured_mine",  # own captured pile
    "captured_theirs",  # the opponent's captured pile
    "in_flight",  # cards of the turn in progress: taken but not yet piled, or just flipped
    "seen",  # every card this seat has seen where it is now (the union of the above)
    "mission",  # the cards of the game's 미션 (missions rule), else empty
)
"""The card planes, in order (52 numbers each)."""

SCALARS: tuple[str, ...] = (
    "phase_play",
    "phase_pick_play",
    "phase_pick_flip",
    "phase_gukjin",
    "phase_go_stop",
    "phase_chongtong",
    "phase_over",
    "to_act",  # 1 when this seat must answer now
    "dealer",  # 1 when this seat is 선
    "hand_count_mine",
    "hand_count_theirs",
    "pile",  # cards left in the draw pile
    "score_mine",  # 족보 points now
    "score_theirs",
    "go_mine",  # 고 called
    "go_theirs",
    "shakes_mine",  # 흔들기 + 폭탄 (+ 총통 played on)
    "shakes_theirs",
    "tokens_mine",  # bomb tokens left (flips)
    "tokens_theirs",
    "ppeok_mine",  # 뻑 made
    "ppeok_theirs",
    "carry",  # the 나가리 multiplier in force
    "stop_points",  # at 고/스톱: what 스톱 pays now, else 0
    "gukjin_free",  # 국진 not yet fixed
    "gukjin_animal",  # 국진 fixed as 열끗
    "gukjin_pi",  # 국진 fixed as 쌍피
)
"""The scalars after the planes, in order (raw counts and points, not normalised)."""

NUM_PLANES = len(PLANES)
OBS_SIZE = NUM_PLANES * NUM_CARDS + len(SCALARS)

_CARD_ID = {c: i for i, c in enumerate(CODES)}
_PHASES = ("play", "pick_play", "pick_flip", "gukjin", "go_stop", "chongtong", "over")
_GUKJIN = {"free": 0, "animal": 1, "pi": 2}
_SCALAR_INDEX = {n: NUM_PLANES * NUM_CARDS + i for i, n in enumerate(SCALARS)}

FloatArray = npt.NDArray[np.float32]


def _mask(codes: Sequence[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << _CARD_ID[c]
    return m


def _encode(masks: list[list[int]], scalars: list[list[float]], out: FloatArray) -> None:
    """Write the planes of bitmasks and the scalars of several observations into
    ``out`` (one row each): the masks' bytes unpacked to bits in one numpy call."""
    n = len(masks)
    bits = np.array(masks, dtype="<u8").view(np.uint8)  # (n, 8 * planes), little-endian
    planes = np.unpackbits(bits, axis=1, bitorder="little").reshape(n, NUM_PLANES, 64)
    out[:n, : NUM_PLANES * NUM_CARDS] = planes[:, :, :NUM_CARDS].reshape(n, -1)
    out[:n, NUM_PLANES * NUM_CARDS :] = scalars


class MatgoEncoding:
    """맞고 (matgo) in tensors: the action ids and the observation of one seat."""

    num_actions = A.NUM_ACTIONS
    obs_size = OBS_SIZE
    planes = PLANES
    scalars = SCALARS
    plane_size = NUM_CARDS

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules
        self._scores: dict[tuple[int, int], int] = {}  # 족보 points of a pile and 국진 mode
        self._scores_rules: Any = None

    def action_id(self, move: str) -> int:
        """The id of a move in notation (``play 08g`` → 28)."""
        return A.parse_action(move)

    def move(self, action: int) -> str:
        """The notation of an action id."""
        return A.action_str(int(action))

    def scalar(self, obs: FloatArray, name: str) -> float:
        """One named scalar of an observation."""
        return float(obs[_SCALAR_INDEX[name]])

    def observe(self, view: dict[str, Any]) -> FloatArray:
        """The observation of ``view``'s seat (a seat's view, not a spectator's)."""
        me = view["seat"]
        if me not in (0, 1):
            raise ValueError("an observation is of a seat, not a spectator")
        opp = 1 - me
        floor = ppeok_mine = ppeok_theirs = 0
        for stack in view["floor"]:
            cards = _mask(stack["cards"]) | _mask(stack["bonus"])
            floor |= cards
            if stack["ppeok"] == me:
                ppeok_mine |= cards
            elif stack["ppeok"] == opp:
                ppeok_theirs |= cards
        turn = view["turn"]
        flight = _mask(turn["captured"]) | (_mask([turn["flipped"]]) if turn["flipped"] else 0)
        mission = view["mission_info"]
        pending = view["pending"]
        stop = view["stop_now"]
        phase = view["phase"]
        masks = [
            _mask(view["hand"]),
            _mask(view["revealed"][opp]),
            floor,
            ppeok_mine,
            ppeok_theirs,
            _mask(view["captured"][me]),
            _mask(view["captured"][opp]),
            flight,
            0,
            _mask(mission["cards"]) if mission else 0,
        ]
        masks[8] = masks[0] | masks[1] | floor | masks[5] | masks[6] | flight
        gukjin = _GUKJIN[view["gukjin"]]
        scalars = [float(phase == p) for p in _PHASES]
        scalars += [
            float(pending.get("seat") == me),
            float(view["dealer"] == me),
            view["hand_counts"][me],
            view["hand_counts"][opp],
            view["pile"],
            view["scores"][me],
            view["scores"][opp],
            view["go"][me],
            view["go"][opp],
            view["shakes"][me],
            view["shakes"][opp],
            view["tokens"][me],
            view["tokens"][opp],
            view["ppeok"][me],
            view["ppeok"][opp],
            view["carry"],
            stop["points"] if stop else 0,
            float(gukjin == 0),
            float(gukjin == 1),
            float(gukjin == 2),
        ]
        out = np.zeros((1, OBS_SIZE), dtype=np.float32)
        _encode([masks], [scalars], out)
        row: FloatArray = out[0]
        return row

    def observe_states(
        self, states: Sequence[MatgoState], seats: Sequence[int], out: FloatArray
    ) -> None:
        """The observations of ``seats[i]`` in ``states[i]`` into ``out[i]``: the numbers
        of :meth:`observe` of their views, from the engine states directly (fast)."""
        masks: list[list[int]] = []
        scalars: list[list[float]] = []
        scores = self._scores
        for s, me in zip(states, seats, strict=True):
            opp = 1 - me
            extra = 0
            ppeok_mine = ppeok_theirs = 0
            floor = s.floor
            makers = s.stack_maker
            stack_extra = s.stack_extra
            if max(makers) < 0 and not any(stack_extra):
                extra = floor  # no 뻑 stack and no bonus card in one: the plain floor
            else:
                for m in range(1, 13):
                    cards = floor & MONTH_MASK[m]
                    if cards:
                        cards |= stack_extra[m]
                        extra |= cards
                        if makers[m] == me:
                            ppeok_mine |= cards
                        elif makers[m] == opp:
                            ppeok_theirs |= cards
            flight = s.in_flight()
            hands = s.hands
            captured = s.captured
            revealed = s.revealed[opp] & hands[opp]
            seen = hands[me] | revealed | extra | captured[0] | captured[1] | flight
            mission = s.mission
            masks.append(
                [
                    hands[me],
                    revealed,
                    extra,
                    ppeok_mine,
                    ppeok_theirs,
                    captured[me],
                    captured[opp],
                    flight,
                    seen,
                    mission.cards if mission is not None else 0,
                ]
            )
            phase = s.phase
            over = phase is Phase.OVER
            gukjin = s.gukjin_mode
            # 족보 points are a function of the pile and the 국진 mode under fixed rules:
            # cached per rules object (held, so that its identity is not reused)
            if s.rules is not self._scores_rules or len(scores) > 500_000:
                self._scores_rules = s.rules
                scores = self._scores = {}
            key = (captured[me], gukjin)
            score_mine = scores.get(key)
            if score_mine is None:
                score_mine = scores[key] = s.score(me)
            key = (captured[opp], gukjin)
            score_theirs = scores.get(key)
            if score_theirs is None:
                score_theirs = scores[key] = s.score(opp)
            row = [0.0] * 7
            row[phase] = 1.0
            row += [
                float(not over and s.current == me),
                float(s.dealer == me),
                hands[me].bit_count(),
                hands[opp].bit_count(),
                len(s.pile),
                score_mine,
                score_theirs,
                s.go_count[me],
                s.go_count[opp],
                s.shakes[me],
                s.shakes[opp],
                s.tokens[me],
                s.tokens[opp],
                s.ppeok_count[me],
                s.ppeok_count[opp],
                s.carry,
                s.settle_now(s.current).points if phase is Phase.GO_STOP else 0,
                float(gukjin == -1),
                float(gukjin == 0),
                float(gukjin == 1),
            ]
            scalars.append(row)
        if masks:
            _encode(masks, scalars, out)

    def render(self, view: dict[str, Any]) -> str:
        """The table of ``view`` as plain text, from the terminal renderer."""
        from rich.text import Text

        from madang.matgo.render import table_lines

        return "\n".join(Text.from_markup(line).plain for line in table_lines(view))

    def session_from_view(self, view: dict[str, Any], rng: random.Random) -> Any:
        """A session whose game is a random world consistent with a seat's ``view``
        (:meth:`MatgoState.from_view <madang.matgo.engine.MatgoState.from_view>`: the
        cards the seat cannot see dealt at random), for a search bot that is given only
        a view (OpenSpiel's ISMCTS in the arena)."""
        from madang.matgo.game import deal

        session = deal(self.rules, 0)
        session.match.game = MatgoState.from_view(view, rng)
        session._public = None  # the public view cached for the game it replaced
        return session

    def fast(self) -> MatgoFast:
        """The engine adapter of the batched environment (:mod:`madang.rl.vector`)."""
        return MatgoFast(self)


class MatgoFast:
    """The engine stepped by action id, for many games at once (``madang.rl.vector``)."""

    def __init__(self, encoding: MatgoEncoding) -> None:
        from madang.matgo.rules import MatgoRules

        self.encoding = encoding
        self.rules = encoding.rules if encoding.rules is not None else MatgoRules()

    def new(self, seed: int) -> MatgoState:
        """A new game dealt from ``seed`` (the dealer drawn from it too)."""
        from madang.matgo.engine import new_game

        return new_game(self.rules, seed=seed, dealer=seed & 1, events=False)

    def current(self, state: MatgoState) -> int:
        """The seat to answer (-1 once the game is over)."""
        return -1 if state.over else state.current

    def legal_ids(self, state: MatgoState, seat: int) -> list[int]:
        """The action ids legal for ``seat`` now."""
        return state.legal_actions() if not state.over and state.current == seat else []

    def step(self, state: MatgoState, seat: int, action: int) -> None:
        """Apply ``seat``'s action id."""
        state.step(action)

    def payments(self, state: MatgoState) -> Sequence[tuple[int, int, int, str]]:
        """Every payment made so far (instant ones during the game, then the settlement)."""
        return state.payments
