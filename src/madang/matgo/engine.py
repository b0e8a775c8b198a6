"""The Matgo engine: one game of 맞고 from a seed or a given deck.

:class:`MatgoState` is the whole truth of a game (the deck order included). It is
mutable for speed: :meth:`MatgoState.step` applies one action in place and returns the
events it caused, :meth:`MatgoState.clone` copies it in a few microseconds for search.
Every in-turn question is explicit: :attr:`MatgoState.phase` says what is asked and
:attr:`MatgoState.current` of whom; :meth:`MatgoState.legal_actions` derives from them
and :meth:`MatgoState.default_action` answers for a player whose time ran out.

>>> game = new_game(seed=7)
>>> while not game.over:
...     _ = game.step(game.default_action())
>>> game.over, sum(p[2] for p in game.payments) >= 0
(True, True)
"""

from __future__ import annotations

import random
from _random import Random as _CRandom  # random.Random's generator, in C
from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum
from itertools import starmap
from operator import itemgetter
from typing import Any, ClassVar, Final, NotRequired, TypedDict

from madang.core.errors import (
    IllegalActionError,
    InvalidActionError,
    MadangError,
    RecordError,
    RuleConfigError,
)
from madang.core.slots import compile_clone
from madang.matgo import actions as A
from madang.matgo.cards import (
    ALL_MONTH_CARDS,
    BIT,
    BONUS_MASK,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    CODES,
    GODORI_MASK,
    GUKJIN_BIT,
    GWANG_MASK,
    HONGDAN_MASK,
    MONTH,
    MONTH_MASK,
    PI_MASK,
    SAME_AS,
    SSANGPI_MASK,
    SSEURIPI_MASK,
    cards_of,
    codes_of,
    mask_of,
    parse_card,
    parse_cards,
)
from madang.matgo.events import Event, NoEvents
from madang.matgo.rules import (
    BbeokStealFrom,
    Chongtong,
    Gukjin,
    GwangPayers,
    GwangSeller,
    MatgoRules,
)
from madang.matgo.scoring import (
    MISSIONS,
    PILE_POINTS,
    GukjinMode,
    Mission,
    ScoreSheet,
    best_jokbo_points,
    dokbak_pays,
    flat_sheet,
    jokbo_points,
    mission_by_name,
    remember_points,
    settle,
    settle_factor,
    settle_losers,
    settle_losers_total,
)


class Phase(IntEnum):
    """What the game is waiting for."""

    PLAY = 0  #: the current player plays a card, a bomb, a bonus card or a token flip
    PICK_PLAY = 1  #: 패 선택: which of two floor cards the played card pairs with
    PICK_FLIP = 2  #: 패 선택: which of two floor cards the flipped card pairs with
    GUKJIN = 3  #: 국진 as 열끗 or 쌍피 (``gukjin: ask``)
    GO_STOP = 4  #: 고 or 스톱
    CHONGTONG = 5  #: 총통: stop or play on
    OVER = 6  #: the game has ended
    JOIN = 7  #: 광팔기 (gostop.md §8.3): join the game or die (sit it out)
    SHODANG = 8  #: 쇼당 (gostop.md §7): accept or refuse the call


class Pending(TypedDict):
    """Who must answer what (:meth:`MatgoState.pending`; ``{}`` once the game is over):
    the ``seat``, its ``question`` (the phase's name in lower case) and, at a 패 선택,
    the two floor cards it chooses between (``options``)."""

    seat: NotRequired[int]
    question: NotRequired[str]
    options: NotRequired[list[str]]


class TurnDict(TypedDict):
    """The turn in progress as a view publishes it (:meth:`Turn.to_dict`, the view's
    ``turn``; ``docs/rules/matgo.md``)."""

    mode: str
    """The :class:`TurnMode`'s name in lower case (``none``, ``play`` …)."""
    card: str | None
    """The card played from the hand (None: none this turn)."""
    month: int | None
    """The month of the play or the 폭탄."""
    pair: list[str]
    captured: list[str]
    """The cards taken this turn, not yet in the pile (its bonus cards included)."""
    bonus: list[str]
    flipped: str | None
    """The flipped card awaiting a 패 선택."""
    options: list[str]
    """The two floor cards of a 패 선택."""
    last: bool
    steals: list[str]
    """The 피 steals owed at the end of the turn, by reason."""


class TurnMode(IntEnum):
    """How the turn in progress stands: what the card played from the hand did."""

    NONE = 0  #: no card of the hand is in play (between turns, or a token flip)
    LANDED = 1  #: it landed alone on the floor (a 쪽 if the flip matches it)
    PAIRED = 2  #: it pairs with the one floor card of its month
    PICKED = 3  #: it pairs with one of two floor cards (a 따닥 if the flip matches)
    STACK = 4  #: it took a 뻑 stack (three cards of its month)
    BOMB = 5  #: a 폭탄: three cards of the hand took the fourth on the floor


#: The modes of a turn in which a card was played from the hand (``Turn.card`` means it).
PLAYED_CARD_MODES: Final = frozenset(
    (TurnMode.LANDED, TurnMode.PAIRED, TurnMode.PICKED, TurnMode.STACK)
)


# The phases and rule options as module globals for the hot paths: an enum member read
# from its class costs about ten times a global's read on Python 3.11.
_P_PLAY, _P_PICK_PLAY, _P_PICK_FLIP, _P_GUKJIN, _P_GO_STOP, _P_CHONGTONG, _P_OVER = tuple(Phase)[:7]
_P_JOIN, _P_SHODANG = Phase.JOIN, Phase.SHODANG
_GK_ASK, _GK_BEFORE_SCORE = Gukjin.ASK, Gukjin.BEFORE_SCORE
_CT_INSTANT: Final = Chongtong.INSTANT
_BS_MAKER: Final = BbeokStealFrom.MAKER
_GM_BEST, _GM_PI, _GM_ANIMAL = GukjinMode.BEST, GukjinMode.PI, GukjinMode.ANIMAL

# The modes as module globals, for the engine's hot paths (one lookup, not two).
_NONE, _LANDED, _PAIRED, _PICKED = TurnMode.NONE, TurnMode.LANDED, TurnMode.PAIRED, TurnMode.PICKED
_STACK, _BOMB = TurnMode.STACK, TurnMode.BOMB


class Turn:
    """The turn in progress: between playing a card and the end of the turn (the flip,
    a 패 선택, the captures and steals still to come). Reset by every new turn."""

    __slots__: ClassVar[tuple[str, ...]] = (
        "bonus",
        "bonus_played",
        "cap",
        "card",
        "flip",
        "last",
        "makers",
        "mode",
        "month",
        "options",
        "pair",
        "steals",
    )

    mode: TurnMode  #: what the played card did
    card: int  #: the card played from the hand (meaningful in :data:`PLAYED_CARD_MODES`)
    month: int  #: the month of the play or the 폭탄 (0: none)
    pair: int  #: the two cards the played card pairs (captured after the flip)
    cap: int  #: cards captured this turn, not yet in the pile
    bonus: int  #: bonus cards flipped this turn (captured with the turn)
    flip: int  #: the flipped card awaiting a 패 선택 (-1: none)
    options: int  #: the two floor cards of a 패 선택
    last: bool  #: the last card of the game (no steals, a 7 stops)
    steals: list[str]  #: 피 steals owed at the end of the turn, by reason
    #: the makers of the 뻑 stacks taken this turn whose steal takes from the maker only
    #: (``bbeok_steal_from: maker``), one per ``ppeok_maker`` steal, in order
    makers: tuple[int, ...]
    #: 1 once the player to act has played a bonus card this turn (쇼당 is called before)
    bonus_played: int

    def __init__(self) -> None:
        self.mode = TurnMode.NONE
        self.card = self.month = self.pair = self.cap = self.bonus = self.options = 0
        self.bonus_played = 0
        self.flip = -1
        self.last = False
        self.steals = []
        self.makers = ()

    def copy(self) -> Turn:
        """An independent copy (a body generated by :mod:`madang.core.slots`, as
        :meth:`MatgoState.clone`'s)."""
        return _turn_copy(self)  # type: ignore[no-any-return]

    def snapshot(self) -> tuple[Any, ...]:
        """The turn as a comparable tuple."""
        return (self.mode, self.card, self.month, self.pair, self.cap, self.bonus, self.flip,
                self.options, self.last, tuple(self.steals), self.makers,
                self.bonus_played)  # fmt: skip

    def to_dict(self) -> TurnDict:
        """The turn as the view publishes it (see ``docs/rules/matgo.md``)."""
        played = self.mode in PLAYED_CARD_MODES
        return {
            "mode": self.mode.name.lower(),
            "card": CODES[self.card] if played else None,
            "month": self.month or None,
            "pair": codes_of(self.pair),
            "captured": codes_of(self.cap | self.bonus),
            "bonus": codes_of(self.bonus),
            "flipped": CODES[self.flip] if self.flip >= 0 else None,
            "options": codes_of(self.options),
            "last": self.last,
            "steals": list(self.steals),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        """The inverse of :meth:`to_dict` (bad input: :class:`RecordError`)."""
        try:
            t = cls()
            t.mode = TurnMode[d["mode"].upper()]
            t.card = parse_card(d["card"]) if d["card"] else 0
            month = d["month"] or 0
            if not isinstance(month, int) or not 0 <= month <= 12:
                raise RecordError(f"bad turn month {month!r}")
            t.month = month
            t.pair = mask_of(parse_cards(d["pair"]))
            t.bonus = mask_of(parse_cards(d["bonus"]))
            t.cap = mask_of(parse_cards(d["captured"])) & ~t.bonus
            t.flip = parse_card(d["flipped"]) if d["flipped"] else -1
            t.options = mask_of(parse_cards(d["options"]))
            t.last = bool(d["last"])
            t.steals = [str(x) for x in d["steals"]]
        except (MadangError, KeyError, TypeError, AttributeError) as e:
            raise RecordError(f"bad turn in the view: {e}") from None
        return t


# 국진 mode once fixed: -1 not fixed (auto: best for its owner), 0 animal, 1 피.
_GJ_FREE, _GJ_ANIMAL, _GJ_PI = -1, 0, 1

# 맞고's points of the special endings and instant payments; the engine reads them from
# the rules (``chongtong_points``, ``three_bbeok_points``, ``first_bbeok_points``).
CHONGTONG_POINTS: Final = MatgoRules.chongtong_points
SAM_PPEOK_POINTS: Final = MatgoRules.three_bbeok_points
#: 첫뻑 / 연뻑 / 3연뻑 by turn: (multiple of ``first_bbeok_points``, reason).
INSTANT_PPEOK_TIMES: Final = {1: (1, "cheot_ppeok"), 2: (2, "yeon_ppeok"), 3: (3, "sam_yeon_ppeok")}
INSTANT_PPEOK: Final = {
    turn: (times * MatgoRules.first_bbeok_points, reason)
    for turn, (times, reason) in INSTANT_PPEOK_TIMES.items()
}
CHEOT_TTADAK_POINTS: Final = MatgoRules.first_bbeok_points

_SLOTS: Final = (
    "rules", "deck", "dealer", "carry", "mission", "pile", "hands", "floor", "captured",
    "stack_maker", "stack_extra", "tokens", "shakes", "no_shake", "revealed", "go_count",
    "go_score", "ppeok_count", "ppeok_turns", "turns", "gukjin_mode", "phase", "current",
    "winner", "points", "payments", "sheet", "end_reason", "turn", "events", "moves",
    "_legal", "after", "go_at", "sheets", "no_die", "sitter", "seller", "gwang_due",
    "shodang_by", "shodang_yes", "shodang_no",
)  # fmt: skip


class MatgoState:
    """The whole truth of one Matgo game. Build it with :func:`new_game`."""

    __slots__: ClassVar[tuple[str, ...]] = _SLOTS

    rules: MatgoRules
    deck: tuple[int, ...]  #: the deck as dealt, top first (never leaves the server)
    dealer: int  #: 선
    carry: int  #: 나가리 multiplier in force (1, 2, 4 …)
    mission: Mission | None
    pile: list[int]  #: the draw pile, top last (``pop()`` flips)
    hands: list[int]  #: per seat (every per-seat list has ``rules.players`` entries)
    floor: int
    captured: list[int]
    stack_maker: list[int]  #: per month: who made the 뻑 stack there (-1: none or dealt)
    stack_extra: list[int]  #: per month: bonus cards lying in the stack
    tokens: list[int]  #: bomb tokens
    shakes: list[int]  #: 흔들기 + 폭탄 (+ 총통 played on) per player
    no_shake: list[int]  #: per player, a mask of months that can no longer be shaken
    revealed: list[int]  #: per player, cards shown by a 흔들기 or 총통
    go_count: list[int]
    go_score: list[int]  #: 족보 points at the last 고
    ppeok_count: list[int]
    ppeok_turns: list[int]  #: per player, bit t set = a 뻑 on turn t
    turns: list[int]  #: turns played (bonus plays are not turns)
    gukjin_mode: int
    phase: Phase
    current: int
    winner: int | None
    points: int
    payments: list[tuple[int, int, int, str]]  #: (from, to, points, reason)
    sheet: ScoreSheet | None
    end_reason: str
    turn: Turn  #: the turn in progress
    # a list[Event] or a NoEvents; typed Any so that a build compiled by mypyc calls the
    # object's own append (on a list it would call list.append, bypassing NoEvents')
    events: Any
    moves: list[int]
    _legal: list[int] | None
    #: per seat, the other seats in turn order after it (seats are counter-clockwise,
    #: ``gostop.md`` §1: seat s + 1 plays after s); steals and payments go in this order
    after: tuple[tuple[int, ...], ...]
    go_at: list[int]  #: per seat, the move number of its latest 고 (0: none)
    sheets: tuple[ScoreSheet, ...]  #: a 스톱 win's sheet per loser, in turn order
    #: 광팔기 (``gostop.md`` §8): the seats barred from `die` by 연사 금지 (as given)
    no_die: tuple[int, ...]
    sitter: int  #: the seat sitting this game out (-1: none, or not decided yet)
    seller: int  #: the sitter when it sells 광 (sat out without choosing `die`; else -1)
    gwang_due: int  #: 광값 the winner still owes the seller (``gwang_payers: winner``)
    #: 쇼당 (``gostop.md`` §7): the caller (-1: none yet; -2: not in these rules)
    shodang_by: int
    shodang_yes: int  #: the seats that accepted the 쇼당, as bits
    shodang_no: int  #: the seats that refused it, as bits

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is _P_OVER

    def score(self, seat: int) -> int:
        """The 족보 points of ``seat`` now, as a score check counts them (remembered by
        pile in :data:`~madang.matgo.scoring.PILE_POINTS`)."""
        m = self.captured[seat]
        if not m & GUKJIN_BIT:
            got = PILE_POINTS.get(m)
            return remember_points(m, jokbo_points(m)) if got is None else got
        mode = self.gukjin_mode
        before_score = self.rules.gukjin is _GK_BEFORE_SCORE
        key = m | (mode + 2) << 53 | before_score << 56  # (modes -1 to 1: above the cards)
        got = PILE_POINTS.get(key)
        if got is not None:
            return got
        if mode == _GJ_FREE:  # 열끗 until asked, else the best way
            points = jokbo_points(m, False) if before_score else best_jokbo_points(m)
        else:
            points = jokbo_points(m, mode == _GJ_PI)
        return remember_points(key, points)

    def in_flight(self) -> int:
        """Cards of the turn in progress: captured but not yet in a pile, or just flipped."""
        t = self.turn
        m = t.cap | t.bonus
        if t.flip >= 0:
            m |= BIT[t.flip]
        return m

    def pending(self) -> Pending:
        """Who must answer what (``{}`` once the game is over)."""
        if self.phase is _P_OVER:
            return {}
        out: Pending = {"seat": self.current, "question": self.phase.name.lower()}
        if self.phase in (_P_PICK_PLAY, _P_PICK_FLIP):
            out["options"] = [CODES[c] for c in cards_of(self.turn.options)]
        return out

    def legal_actions(self) -> list[int]:
        """The action ids legal now, sorted (empty exactly when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase is _P_PLAY:
            p = self.current
            hand = self.hands[p]
            floor = self.floor
            out = [
                *_BYTE_IDS[0][hand & 255], *_BYTE_IDS[1][(hand >> 8) & 255],
                *_BYTE_IDS[2][(hand >> 16) & 255], *_BYTE_IDS[3][(hand >> 24) & 255],
                *_BYTE_IDS[4][(hand >> 32) & 255], *_BYTE_IDS[5][(hand >> 40) & 255],
                *_BYTE_IDS[6][hand >> 48],
            ]  # fmt: skip
            # SWAR: per-month counts in each nibble; a nibble of 3 or 4 cards means a
            # 흔들기 or 폭탄 may be on (rare, so the slow path below stays off the hot path).
            a = hand - ((hand >> 1) & _FIVES)
            a = (a & _THREES) + ((a >> 2) & _THREES)
            if (a + _ONES) & _FOURS & ALL_MONTH_CARDS:
                floor = self.floor
                special: list[int] = []
                for g in range(12):
                    shift = g << 2
                    nib = (hand >> shift) & 15
                    if _NIB_COUNT[nib] >= 3:
                        nf = _NIB_COUNT[(floor >> shift) & 15]
                        if nf == 0:
                            if not self.no_shake[p] & (2 << g):
                                special.extend(_NIB_SHAKE[g][nib])
                        elif nf == 1 and _NIB_COUNT[nib] == 3:
                            special.append(A.BOMB + g)
                if special:
                    special.sort()
                    out.extend(special)
            if self.tokens[p]:
                out.append(A.FLIP)
            if self.shodang_by == -1 and self.may_call_shodang(p):
                out.append(A.SHODANG)
            return out
        if phase is _P_PICK_PLAY or phase is _P_PICK_FLIP:
            return [A.PICK + c for c in cards_of(self.turn.options)]
        if phase is _P_GO_STOP:
            return [A.GO, A.STOP]
        if phase is _P_GUKJIN:
            return [A.GUKJIN_ANIMAL, A.GUKJIN_PI]
        if phase is _P_CHONGTONG:
            return [A.CHONGTONG_STOP, A.CHONGTONG_PLAY]
        if phase is _P_JOIN:
            return [A.JOIN, A.DIE]
        if phase is _P_SHODANG:
            return [A.SHODANG_ACCEPT, A.SHODANG_REFUSE]
        return []

    def may_call_shodang(self, p: int) -> bool:
        """쇼당 (shodang, ``gostop.md`` §7, §14.6): whether ``p``, to play, may call it now —
        once per game in all, as the first decision of its turn (before a bonus card),
        holding two hand cards or more, with **both** opponents threatened: each holds
        exactly two cards of the birds, 홍단, 청단 or 초단 and ``p``'s hand the third, or
        exactly two 광 and ``p``'s hand a 광."""
        if self.shodang_by != -1 or self.phase is not _P_PLAY or self.turn.bonus_played:
            return False
        hand = self.hands[p]
        if hand.bit_count() < 2:
            return False
        for o in self.after[p]:
            theirs = self.captured[o]
            if not (
                ((theirs & GWANG_MASK).bit_count() == 2 and hand & GWANG_MASK)
                or any((theirs & s).bit_count() == 2 and hand & s & ~theirs for s in _SHODANG_SETS)
            ):
                return False
        return True

    def legal_mask(self) -> int:
        """The action ids legal now as the bits of an int (bit ``i`` set: id ``i`` is
        legal; :meth:`legal_actions` as bits, for the batched path's masks).

        >>> g = new_game(seed=3)
        >>> [a for a in range(A.NUM_ACTIONS) if g.legal_mask() >> a & 1] == g.legal_actions()
        True
        """
        phase = self.phase
        if phase is _P_PLAY:
            p = self.current
            hand = self.hands[p]
            a = hand - ((hand >> 1) & _FIVES)
            a = (a & _THREES) + ((a >> 2) & _THREES)
            if (a + _ONES) & _FOURS & ALL_MONTH_CARDS or self.shodang_by == -1:
                bits = 0  # a 흔들기 or 폭탄 may be on, or a 쇼당
                for i in self.legal_actions():
                    bits |= 1 << i
                return bits
            return hand | _FLIP_BIT if self.tokens[p] else hand  # PLAY + card is the card
        if phase is _P_PICK_PLAY or phase is _P_PICK_FLIP:
            return self.turn.options << A.PICK
        return _PHASE_LEGAL_BITS[phase]

    def is_legal(self, action: int) -> bool:
        """Whether the action id ``action`` is legal now (as :meth:`step` checks it)."""
        if 0 <= action < A.SHAKE and self.phase is _P_PLAY:  # any card in the hand
            return self.hands[self.current] >> action & 1 == 1
        return action >= 0 and self.legal_mask() >> action & 1 == 1

    def default_action(self) -> int:
        """The answer taken for a player whose time runs out.

        Play: the lowest month card in the hand, else a bonus card, else a token flip.
        Pick: the lowest option. 고/스톱: 스톱. 국진: the count that scores more now
        (열끗 on a tie). 총통: stop (take the 10 points). 광팔기: die. 쇼당: accept.
        """
        t = self.turn
        phase = self.phase
        if phase is _P_PLAY:
            hand = self.hands[self.current]
            months = hand & ~BONUS_MASK
            if months:
                return A.PLAY + (months & -months).bit_length() - 1
            if hand:
                return A.PLAY + (hand & -hand).bit_length() - 1
            return A.FLIP
        if phase is _P_PICK_PLAY or phase is _P_PICK_FLIP:
            return A.PICK + (t.options & -t.options).bit_length() - 1
        if phase is _P_GO_STOP:
            return A.STOP
        if phase is _P_GUKJIN:
            m = self.captured[self.current]
            as_pi = jokbo_points(m, True) > jokbo_points(m, False)
            return A.GUKJIN_PI if as_pi else A.GUKJIN_ANIMAL
        if phase is _P_CHONGTONG:
            return A.CHONGTONG_STOP
        if phase is _P_JOIN:
            return A.DIE  # sitting out risks nothing
        if phase is _P_SHODANG:
            return A.SHODANG_ACCEPT  # accepting never makes the answerer pay more
        raise IllegalActionError("the game is over")

    # ------------------------------------------------------------------ stepping

    def step(self, action: object) -> list[Event]:
        """Apply one action of the player to act; return the events it caused.

        An action that is not legal now raises :class:`IllegalActionError` (a malformed
        one :class:`InvalidActionError`) and leaves the state unchanged.
        """
        # (typed object: a build compiled by mypyc would reject other types with a bare
        # TypeError before these checks)
        if type(action) is int:
            a = action
        elif isinstance(action, str):
            a = A.parse_action(action)
        elif not isinstance(action, int) or isinstance(action, bool):
            raise InvalidActionError(f"an action is an int id or a move string, not {action!r}")
        else:
            a = int(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if a not in legal:
            if self.phase is _P_OVER:
                raise IllegalActionError("the game is over")
            text = A.action_str(a) if 0 <= a < A.NUM_FAMILY_ACTIONS else repr(a)
            raise IllegalActionError(
                f"{text} is not legal now (seat {self.current} must answer "
                f"{self.phase.name.lower()})"
            )
        return self._apply(a)

    def _apply(self, action: int) -> list[Event]:
        """:meth:`step` of an action id known to be legal now (unchecked: the batched
        path checks it against :meth:`legal_mask`)."""
        t = self.turn
        self._legal = None
        self.moves.append(action)
        events = self.events
        start = len(events)
        p = self.current
        if action < A.SHAKE:
            if BIT[action] & BONUS_MASK:
                self._play_bonus(p, action)
            else:
                self._play(p, action, False)
        elif action < A.BOMB:
            self._play(p, action - A.SHAKE, True)
        elif action < A.FLIP:
            self._bomb(p, action - A.BOMB + 1)
        elif action == A.FLIP:
            self.tokens[p] -= 1
            self.turns[p] += 1
            t.last = not self.hands[p] and not self.tokens[p]
            events.append(("token_flip", p, self.tokens[p]))
            t.mode = _NONE
            t.month = 0
            self._flip(p)
        elif action < A.GO:
            card = action - A.PICK
            events.append(("pick", p, card))
            if self.phase is _P_PICK_PLAY:
                t.pair = BIT[card] | BIT[t.card]
                t.mode = _PICKED
                self._flip(p)
            else:
                f = t.flip
                t.flip = -1
                self.floor &= ~BIT[card]
                t.cap |= BIT[card] | BIT[f]
                self._finish_turn(p)
        elif action == A.GO:
            s = self.score(p)
            self.go_count[p] += 1
            self.go_score[p] = s
            self.go_at[p] = len(self.moves)
            events.append(("go", p, self.go_count[p], s))
            self._next_turn(p)
        elif action == A.STOP:
            events.append(("stop", p, self.score(p)))
            self._win(p, "stop")
        elif action == A.GUKJIN_ANIMAL or action == A.GUKJIN_PI:
            self.gukjin_mode = _GJ_PI if action == A.GUKJIN_PI else _GJ_ANIMAL
            events.append(("gukjin_fixed", p, "pi" if action == A.GUKJIN_PI else "animal"))
            self._score_check(p)
        elif action == A.CHONGTONG_STOP:
            self._flat_win(p, "chongtong", "총통", self.rules.chongtong_points)
        elif action == A.CHONGTONG_PLAY:
            months = _chongtong_months(self.hands[p])
            cards = 0
            for m in months:
                cards |= MONTH_MASK[m]
                self.no_shake[p] |= 1 << m
            self.revealed[p] |= cards
            self.shakes[p] += 1
            events.append(("chongtong_play", p, cards))
            self._after_chongtong(p)
        elif action == A.JOIN or action == A.DIE:
            self._answer_join(p, action == A.JOIN)
        else:
            self._shodang(p, action)
        return events[start:]  # type: ignore[no-any-return]

    def _play_bonus(self, p: int, card: int) -> None:
        self.turn.bonus_played = 1
        self.hands[p] &= ~BIT[card]
        self.captured[p] |= BIT[card]
        self.events.append(("bonus_play", p, card))
        if self.rules.bonus_steals_pi:
            self._steal(p, "bonus")
        if self.pile:
            drawn = self.pile.pop()
            self.hands[p] |= BIT[drawn]
            self.events.append(("draw", p, drawn))
        if not self.hands[p] and not self.tokens[p]:
            # Nothing left to play: the turn ends without a play (pile and hand empty).
            self.turn.last = True
            self.turn.bonus_played = 0
            self._score_check(p)
        else:
            self.phase = _P_PLAY

    def _play(self, p: int, card: int, shake: bool) -> None:
        t = self.turn
        bit = BIT[card]
        hand = self.hands[p] & ~bit
        self.hands[p] = hand
        self.turns[p] += 1
        m = MONTH[card]
        mm = MONTH_MASK[m]
        events = self.events
        if shake:
            shown = (hand | bit) & mm
            self.shakes[p] += 1
            self.no_shake[p] |= 1 << m
            self.revealed[p] |= shown
            events.append(("shake", p, m, shown))
        events.append(("play", p, card))
        t.last = not hand and not self.tokens[p]
        t.card = card
        t.month = m
        fm = self.floor & mm
        n = fm.bit_count()
        if n == 0:
            self.floor |= bit
            t.mode = _LANDED
        elif n == 1:
            self.floor |= bit
            t.pair = fm | bit
            t.mode = _PAIRED
        elif n == 2:
            self.floor |= bit
            low = fm & -fm
            if SAME_AS[low.bit_length() - 1] & fm == fm:
                t.pair = low | bit
                t.mode = _PICKED
            else:
                t.options = fm
                self.phase = _P_PICK_PLAY
                return
        else:
            self._take_stack(p, m, fm | bit)
            t.mode = _STACK
        self._flip(p)

    def _bomb(self, p: int, m: int) -> None:
        t = self.turn
        mm = MONTH_MASK[m]
        three = self.hands[p] & mm
        self.hands[p] &= ~mm
        self.floor &= ~mm
        self.turns[p] += 1
        t.cap |= mm
        self.shakes[p] += 1
        self.tokens[p] += 2
        t.last = False
        t.mode = _BOMB
        t.month = m
        self.events.append(("bomb", p, m, three))
        t.steals.append("bomb")
        self._flip(p)

    def _take_stack(self, p: int, m: int, cards: int) -> None:
        """Take the three cards of a stack (with the card that matched them)."""
        t = self.turn
        self.floor &= ~cards
        t.cap |= cards | self.stack_extra[m]
        maker = self.stack_maker[m]
        self.events.append(("take_stack", p, m, maker))
        if maker >= 0 and not t.last:
            if maker != p and self.rules.bbeok_steal_from is _BS_MAKER:
                t.steals.append("ppeok_maker")
                t.makers = (*t.makers, maker)
            else:
                t.steals.append("ppeok")
            if maker == p and self.rules.jabbeok:
                t.steals.append("jabbeok")
        self.stack_maker[m] = -1
        self.stack_extra[m] = 0

    def _flip(self, p: int) -> None:
        t = self.turn
        pile = self.pile
        events = self.events
        f = -1
        while pile:
            c = pile.pop()
            events.append(("flip", p, c))
            if BIT[c] & BONUS_MASK:
                t.bonus |= BIT[c]
                continue
            f = c
            break
        mode = t.mode
        if f < 0:  # the pile ran out: nothing flipped
            if mode in (_PAIRED, _PICKED):
                self.floor &= ~t.pair
                t.cap |= t.pair
            self._finish_turn(p)
            return
        fbit = BIT[f]
        m2 = MONTH[f]
        if m2 == t.month and (mode in (_LANDED, _PAIRED, _PICKED)):
            mm = MONTH_MASK[m2]
            if mode == _LANDED:  # 쪽
                self.floor &= ~BIT[t.card]
                t.cap |= BIT[t.card] | fbit
                events.append(("jjok", p, m2))
                if not t.last:
                    t.steals.append("jjok")
            elif mode == _PICKED:  # 따닥
                t.cap |= (self.floor & mm) | fbit
                self.floor &= ~mm
                events.append(("ttadak", p, m2))
                if not t.last:
                    t.steals.append("ttadak")
                if self.turns[p] == 1:
                    self._pay_each(p, self.rules.first_bbeok_points, "cheot_ttadak")
            elif t.last:  # a would-be 뻑 on the last card is captured as three cards
                t.cap |= (self.floor & mm) | fbit
                self.floor &= ~mm
            else:  # 뻑
                self.floor |= fbit
                self.stack_maker[m2] = p
                self.stack_extra[m2] |= t.bonus
                t.bonus = 0
                self.ppeok_count[p] += 1
                turn = self.turns[p]
                self.ppeok_turns[p] |= 1 << turn
                events.append(("ppeok", p, m2, self.ppeok_count[p]))
                if turn <= 3 and self.ppeok_turns[p] & ((2 << turn) - 2) == (2 << turn) - 2:
                    times, reason = INSTANT_PPEOK_TIMES[turn]
                    self._pay_each(p, times * self.rules.first_bbeok_points, reason)
                if self.ppeok_count[p] >= 3:
                    self._commit_turn(p)
                    t.steals.clear()
                    t.makers = ()
                    self._flat_win(p, "sam_ppeok", "3뻑", self.rules.three_bbeok_points)
                    return
            self._finish_turn(p)
            return
        if mode in (_PAIRED, _PICKED):
            self.floor &= ~t.pair
            t.cap |= t.pair
        fm = self.floor & MONTH_MASK[m2]
        n = fm.bit_count()
        if n == 0:
            self.floor |= fbit
        elif n == 1:
            self.floor &= ~fm
            t.cap |= fm | fbit
        elif n == 2:
            low = fm & -fm
            if SAME_AS[low.bit_length() - 1] & fm == fm:
                self.floor &= ~low
                t.cap |= low | fbit
            else:
                t.flip = f
                t.options = fm
                self.phase = _P_PICK_FLIP
                return
        else:
            self._take_stack(p, m2, fm | fbit)
        self._finish_turn(p)

    def _commit_turn(self, p: int) -> int:
        """Move the turn's captures into ``p``'s pile; reset the turn; return the captures."""
        t = self.turn
        cap = t.cap | t.bonus
        if cap:
            self.captured[p] |= cap
            self.events.append(("capture", p, cap))
        t.cap = t.bonus = t.pair = t.options = 0
        t.flip = -1
        t.mode = _NONE
        return cap

    def _finish_turn(self, p: int) -> None:
        t = self.turn
        bonus_taken = t.bonus.bit_count()
        # _commit_turn, inlined (the hot path of every turn)
        cap = t.cap | t.bonus
        if cap:
            self.captured[p] |= cap
            self.events.append(("capture", p, cap))
        t.cap = t.bonus = t.pair = t.options = t.bonus_played = 0
        t.flip = -1
        t.mode = _NONE
        steals = t.steals
        if not t.last:
            if bonus_taken and self.rules.bonus_steals_pi:
                steals.extend(["bonus"] * bonus_taken)
            if cap and not self.floor:
                self.events.append(("sseul", p))
                steals.append("sseul")
        for reason in steals:
            self._steal(p, reason)
        steals.clear()
        if cap & GUKJIN_BIT and self.rules.gukjin is _GK_ASK and self.gukjin_mode == _GJ_FREE:
            self.current = p
            self.phase = _P_GUKJIN
            return
        self._score_check(p)

    def _steal(self, p: int, reason: str) -> None:
        """피 stealing from each opponent in turn order after ``p`` (``gostop.md`` §3; the
        maker only for ``ppeok_maker``): each gives a single 피, else a 쌍피, else a 쓰리피."""
        if reason == "ppeok_maker":
            t = self.turn
            victims: tuple[int, ...] = t.makers[:1]
            t.makers = t.makers[1:]
            reason = "ppeok"
        else:
            victims = self.after[p]
        captured = self.captured
        for v in victims:
            pile = captured[v]
            give = pile & PI_MASK
            if not give:
                give = pile & SSANGPI_MASK
                if self.gukjin_mode == _GJ_PI:
                    give |= pile & GUKJIN_BIT
            if not give:
                give = pile & SSEURIPI_MASK
            if not give:
                if pile & GUKJIN_BIT and self.gukjin_mode == _GJ_FREE:
                    self.gukjin_mode = _GJ_ANIMAL
                    self.events.append(("gukjin_fixed", v, "animal"))
                self.events.append(("steal_none", p, v, reason))
                continue
            low = give & -give
            captured[v] = pile & ~low
            captured[p] |= low
            self.events.append(("steal", p, v, low.bit_length() - 1, reason))

    def _score_check(self, p: int) -> None:
        go = self.go_count[p]
        m = self.captured[p]
        if (
            m & GUKJIN_BIT
            and self.gukjin_mode == _GJ_FREE
            and self.rules.gukjin is _GK_BEFORE_SCORE
        ):
            # 국진 is asked just before it would matter for a score (seed 002)
            animal, pi = jokbo_points(m, False), jokbo_points(m, True)
            best = max(animal, pi)
            stop = self.rules.stop_points
            if animal != pi and ((best >= stop and go == 0) or (go and best > self.go_score[p])):
                self.current = p
                self.phase = _P_GUKJIN
                return
        s = self.score(p)
        if (go == 0 and s >= self.rules.stop_points) or (go and s > self.go_score[p]):
            if self.turn.last:
                self.events.append(("stop", p, s))
                self._win(p, "last_card")
                return
            self.current = p
            self.phase = _P_GO_STOP
            return
        # _next_turn, inlined for its common case: the next seat has a card to play
        o = self.after[p][0]
        if self.hands[o] or self.tokens[o]:
            self.current = o
            self.phase = _P_PLAY
            return
        self._next_turn(p)

    def _next_turn(self, p: int) -> None:
        """The next seat in turn order with a card or a bomb token plays (a seat with
        neither is skipped, ``gostop.md`` §14.7); nobody left: 나가리."""
        hands, tokens = self.hands, self.tokens
        for o in self.after[p]:
            if hands[o] or tokens[o]:
                self.current = o
                break
        else:
            if not (hands[p] or tokens[p]):
                self._end(None, 0, "nagari")
                return
        self.phase = _P_PLAY

    # ------------------------------------------------------------------ endings

    def _pay(self, frm: int, to: int, points: int, reason: str) -> None:
        self.payments.append((frm, to, points, reason))
        self.events.append(("payment", frm, to, points, reason))

    def _pay_each(self, p: int, points: int, reason: str) -> None:
        """An instant payment to ``p`` from each opponent, in turn order after ``p``
        (none when ``points`` is 0: a payment of nothing is never listed)."""
        if points:
            for o in self.after[p]:
                self._pay(o, p, points, reason)

    def settle_now(self, p: int) -> ScoreSheet:
        """The score sheet of the first loser in turn order after ``p`` if ``p`` stopped
        now (맞고: what 스톱 pays; :meth:`stop_points` sums every loser's payment)."""
        o = self.after[p][0]
        return settle(self.captured[p], self.captured[o], **self._settle_options(p, o))

    def stop_points(self, p: int) -> int:
        """What ``p`` would be paid in all on stopping now (the sum of the settlement's
        payments, 독박 included), without the score sheets (the RL path's observation)."""
        winner = self.captured[p]
        everyone = winner
        for o in self.after[p]:
            everyone |= self.captured[o]
        if not everyone & GUKJIN_BIT:  # no 국진 to count either way (most games)
            go = self.go_count[p]
            base = jokbo_points(winner) + go
            rules = self.rules
            doubles = rules.gobak_doubles_share
            shares = [
                base * settle_factor(
                    winner, self.captured[o], False, False, go,
                    doubles and self.go_count[o] > 0, self.shakes[p], self.carry, rules,
                    self.mission,
                )
                for o in self.after[p]
            ]  # fmt: skip
            return sum(dokbak_pays(shares, *self._dokbak(p)))
        # a 국진 held: the losers' total without the sheets (no 독박), then 독박's
        # multiplier (a payer pays the total times it)
        total = settle_losers_total(winner, **self._settle_args(p))
        payer, times = self._dokbak_payer(p)
        return total if payer is None else total * times

    def _settle_options(self, p: int, loser: int) -> dict[str, Any]:
        """The keyword arguments of :func:`~madang.matgo.scoring.settle` for ``p``
        stopping now, against ``loser``: the 고 counts, shakes, carried multiplier, rules
        and 국진 choice."""
        mode = self.gukjin_mode
        gmode = _GM_BEST if mode == _GJ_FREE else (_GM_PI if mode == _GJ_PI else _GM_ANIMAL)
        return {
            "go": self.go_count[p],
            "loser_went_go": self.rules.gobak_doubles_share and self.go_count[loser] > 0,
            "shakes": self.shakes[p],
            "carry": self.carry,
            "rules": self.rules,
            "winner_gukjin": gmode,
            "loser_gukjin": gmode,
            "mission": self.mission,
        }

    def dokbak_seat(self, p: int) -> int | None:
        """독박 (dokbak): the loser who pays every share if ``p`` wins by 스톱 — the loser
        in 고박 (who called 고; of two, the one whose latest 고 came later), where 고박
        moves shares rather than doubling one (``gostop.md`` §6.2–§6.3); else, after a
        쇼당 that exactly one opponent accepted, that one being ``p``, the one who refused
        (§7); else ``None``."""
        return self._dokbak_payer(p)[0]

    def _dokbak_payer(self, p: int) -> tuple[int | None, int]:
        """:meth:`dokbak_seat` and how many times it pays the shares (``gobak_multiplier``
        for 고박; once for a refused 쇼당, §14.6)."""
        if self.rules.gobak_doubles_share:
            return None, 1
        seat, at = None, 0
        for o in self.after[p]:
            if self.go_count[o] and self.go_at[o] > at:
                seat, at = o, self.go_at[o]
        if seat is not None:
            return seat, self.rules.gobak_multiplier
        yes = self.shodang_yes
        if self.shodang_by >= 0 and yes == (1 << p) and self.shodang_no:
            return self.shodang_no.bit_length() - 1, 1
        return None, 1

    def _dokbak(self, p: int) -> tuple[int | None, int]:
        """:meth:`_dokbak_payer` as an index in ``after[p]`` (the losers' order)."""
        g, times = self._dokbak_payer(p)
        return (None if g is None else self.after[p].index(g)), times

    def _settle_args(self, p: int) -> dict[str, Any]:
        """What the settlement of ``p`` stopping now takes besides ``p``'s pile
        (:func:`~madang.matgo.scoring.settle_losers` and ``settle_losers_total``)."""
        after = self.after[p]
        mode = self.gukjin_mode
        go_count = self.go_count
        return {
            "losers": list(map(self.captured.__getitem__, after)),
            "go": go_count[p],
            "went_go": [go_count[o] > 0 for o in after],
            "shakes": self.shakes[p],
            "carry": self.carry,
            "rules": self.rules,
            "gukjin": _GM_BEST if mode == _GJ_FREE else (_GM_PI if mode == _GJ_PI else _GM_ANIMAL),
            "mission": self.mission,
        }

    def _settlement(self, p: int) -> tuple[tuple[ScoreSheet, ...], list[int]]:
        """The sheet of each loser (in turn order after ``p``) and what each pays if ``p``
        stops now (:func:`~madang.matgo.scoring.settle_losers`)."""
        sheets, shares = settle_losers(self.captured[p], **self._settle_args(p))
        payer, times = self._dokbak(p)
        return sheets, shares if payer is None else dokbak_pays(shares, payer, times)

    def gukjin_as_pi(self, seat: int) -> bool:
        """Whether a 국진 held by ``seat`` counts as 쌍피 in its score now."""
        m = self.captured[seat]
        if not m & GUKJIN_BIT:
            return False
        mode = self.gukjin_mode
        if mode == _GJ_FREE:
            if self.rules.gukjin is _GK_BEFORE_SCORE:
                return False
            return jokbo_points(m, True) > jokbo_points(m, False)
        return mode == _GJ_PI

    def _win(self, p: int, reason: str) -> None:
        """A win by 스톱 (a last-card win included): each loser pays its share, or the
        독박 payer every share; :attr:`points` is what ``p`` is paid in all."""
        sheets, paid = self._settlement(p)
        self.sheets = sheets
        self.sheet = sheets[0]
        for o, points in zip(self.after[p], paid, strict=True):
            if points:
                self._pay(o, p, points, "win")
        self._end(p, sum(paid), reason)

    def _flat_win(self, p: int, name: str, name_ko: str, points: int) -> None:
        """A 3뻑 or 총통 win: fixed points times the carry, from each opponent."""
        sheet = flat_sheet(name, name_ko, points, self.carry)
        self.sheet = sheet
        for o in self.after[p]:
            self._pay(o, p, sheet.points, name)
        self._end(p, sheet.points * len(self.after[p]), name)

    def _end(self, winner: int | None, points: int, reason: str) -> None:
        if self.gwang_due and winner is not None:  # gwang_payers: winner (§8.5, §14.5)
            self._pay(winner, self.seller, self.gwang_due, "gwang_sale")
        self.gwang_due = 0
        self.winner = winner
        self.points = points
        self.end_reason = reason
        self.phase = _P_OVER
        self._legal = []
        self.events.append(("end", winner, points, reason))

    # ------------------------------------------------------------------ 광팔기, 쇼당

    def _ask_join(self, k: int) -> None:
        """광팔기 (``gostop.md`` §8.3): ask 선+k (then 선+k+1, … up to 선+2) join or die,
        skipping a seat barred from `die` by 연사 금지 (it joins unasked); when every
        asked seat joined, or with ``gwang_seller: last``, 선+3 sits out and sells."""
        n = len(self.hands)
        rules = self.rules
        if rules.gwang_seller is GwangSeller.CHOICE:
            for j in range(k, n - 1):
                seat = (self.dealer + j) % n
                if rules.yeonsa_ban and seat in self.no_die:
                    continue
                self.current = seat
                self.phase = _P_JOIN
                return
        seat = (self.dealer + n - 1) % n
        self.events.append(("sell", seat))
        self._sit_out(seat, True)

    def _answer_join(self, p: int, joins: bool) -> None:
        if joins:
            self.events.append(("join", p))
            self._ask_join((p - self.dealer) % len(self.hands) + 1)
        else:
            self.events.append(("die", p))
            self._sit_out(p, False)

    def _sit_out(self, seat: int, sells: bool) -> None:
        """``seat`` sits this game out (§8.4–§8.6, in the order of §14.3): its seven
        cards go under the draw pile in the order dealt (the first dealt flipped first of
        them), a two-총통 redeal among the three, the seller's 광값, a single 총통; then
        선 plays. Turn order, steals and payments skip the sitter from here on."""
        n = len(self.hands)
        hand = self.hands[seat]
        if self.deck:
            hand_at, _ = deal_positions(self.rules.deal, n)
            dealt = [self.deck[i] for i in hand_at[(seat - self.dealer - 1) % n]]
        else:  # a state rebuilt from a view: the order is unknown, and hidden anyway
            dealt = cards_of(hand)
        dealt.reverse()
        self.pile[:0] = dealt
        self.hands[seat] = 0
        self.sitter = seat
        self.seller = seat if sells else -1
        self.after = _AFTER_OUT[n][seat]
        dealer = self.dealer
        full = list(map(_full_months, self.hands))
        ct = [p for p in (dealer, *self.after[dealer]) if full[p]]
        if len(ct) >= 2:
            self.events.append(("redeal", "two_chongtong"))
            self._end(None, 0, "redeal")
            return
        if sells:
            self._sell_gwang(seat, hand)
        self.current = dealer
        self.phase = _P_PLAY
        if ct:
            self._ask_chongtong(ct[0])

    def _sell_gwang(self, seat: int, hand: int) -> None:
        """광값 (gwanggap, §8.5): ``gwang_price`` per 광 in the seller's hand (and bonus
        card, ``gwang_bonus_counts``), doubled once for three or more cards of a month
        (§14.2); paid now by each player but 선 (``non_dealers``) or by each player
        (``all``), in turn order after the seller, or by the winner at the end."""
        rules = self.rules
        count = (hand & GWANG_MASK).bit_count()
        if rules.gwang_bonus_counts:
            count += (hand & BONUS_MASK).bit_count()
        price = rules.gwang_price * count
        if any(_NIB_COUNT[(hand >> (g << 2)) & 15] >= 3 for g in range(12)):
            price *= 2
        if not price:
            return
        payers = rules.gwang_payers
        if payers is GwangPayers.WINNER:
            self.gwang_due = price
            return
        for o in _AFTER[len(self.hands)][seat]:
            if payers is GwangPayers.ALL or o != self.dealer:
                self._pay(o, seat, price, "gwang_sale")

    def _shodang(self, p: int, action: int) -> None:
        """쇼당 (§7): the call (the caller's hand shown to both), then each answer in turn
        order after the caller; both accept: 나가리; else the caller plays its turn."""
        events = self.events
        if action == A.SHODANG:
            self.shodang_by = p
            self.revealed[p] |= self.hands[p]
            events.append(("shodang", p, self.hands[p]))
            self.current = self.after[p][0]
            self.phase = _P_SHODANG
            return
        by = self.shodang_by
        if action == A.SHODANG_ACCEPT:
            self.shodang_yes |= 1 << p
            events.append(("shodang_accept", p))
        else:
            self.shodang_no |= 1 << p
            events.append(("shodang_refuse", p))
        others = self.after[by]
        if p != others[-1]:
            self.current = others[others.index(p) + 1]
            return
        if self.shodang_no == 0:
            self._end(None, 0, "nagari")
            return
        self.current = by
        self.phase = _P_PLAY

    def _after_chongtong(self, p: int) -> None:
        """After a 총통 holder plays on, 선 makes the first move (two 총통 were a redeal)."""
        self.current = self.dealer
        self.phase = _P_PLAY

    def _ask_chongtong(self, p: int) -> None:
        self.events.append(("chongtong", p, _chongtong_months(self.hands[p])))
        if self.rules.chongtong is _CT_INSTANT:
            self._flat_win(p, "chongtong", "총통", self.rules.chongtong_points)
            return
        self.current = p
        self.phase = _P_CHONGTONG

    # ------------------------------------------------------------------ copying

    def clone(self) -> MatgoState:
        """An independent copy, in a few microseconds (events and move history are
        copied too). The body is generated from the field tables below the class
        (:mod:`madang.core.slots`), called rather than assigned to the class, which a
        build compiled by mypyc would not allow."""
        return _clone(self)  # type: ignore[no-any-return]

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that defines the state, as a comparable tuple (for tests)."""
        fields = [getattr(self, n) for n in _SLOTS if n not in ("_legal", "turn")]
        return (*(tuple(v) if isinstance(v, list) else v for v in fields), self.turn.snapshot())

    # ------------------------------------------------------------------ building

    @classmethod
    def blank(cls, rules: MatgoRules, *, dealer: int = 0, carry: int = 1) -> MatgoState:
        """A state before the deal: every field at its starting value (the one place a
        state is built; :func:`new_game` deals into it, :meth:`from_view` fills it)."""
        s = cls()
        s.rules = rules
        s.deck = ()
        s.dealer = dealer
        s.carry = carry
        s.mission = None
        n = rules.players
        zeros = _ZEROS[n]  # copied, never changed (a copy is the cheapest new list)
        s.pile = []
        s.hands = zeros.copy()
        s.floor = 0
        s.captured = zeros.copy()
        s.stack_maker = _NO_MAKERS.copy()
        s.stack_extra = _NO_EXTRAS.copy()
        s.tokens = zeros.copy()
        s.shakes = zeros.copy()
        s.no_shake = zeros.copy()
        s.revealed = zeros.copy()
        s.go_count = zeros.copy()
        s.go_score = zeros.copy()
        s.ppeok_count = zeros.copy()
        s.ppeok_turns = zeros.copy()
        s.turns = zeros.copy()
        s.go_at = zeros.copy()
        s.after = _AFTER[n]
        s.sheets = ()
        s.no_die = ()
        s.sitter = s.seller = -1
        s.gwang_due = s.shodang_yes = s.shodang_no = 0
        s.shodang_by = -1 if rules.shodang else -2
        s.gukjin_mode = _GJ_FREE
        s.phase = _P_PLAY
        s.current = dealer
        s.winner = None
        s.points = 0
        s.payments = []
        s.sheet = None
        s.end_reason = ""
        s.turn = Turn()
        s.events = []
        s.moves = []
        s._legal = None
        return s

    @classmethod
    def from_view(cls, v: Mapping[str, Any], rng: random.Random) -> MatgoState:
        """A full state consistent with a seat's view (:func:`madang.matgo.view.view`):
        every visible fact kept exactly, the cards the seat cannot see (the opponent's
        unrevealed hand and the draw pile) dealt at random (OpenSpiel's
        ResampleFromInfostate). The deck order is unknown: ``deck`` is empty. A bad or
        inconsistent view raises :class:`RecordError`.

        >>> g = new_game(seed=11)
        >>> from madang.matgo.view import view
        >>> w = MatgoState.from_view(view(g, g.current), random.Random(0))
        >>> w.legal_actions() == g.legal_actions(), w.hands[g.current] == g.hands[g.current]
        (True, True)
        """
        seat = v.get("seat")
        seats = range(len(v.get("hand_counts") or ()))
        if type(seat) is not int or seat not in seats or "hand" not in v:
            raise RecordError("a state from a view needs a seat's view (with its hand)")
        try:
            return cls._from_view(v, seat, rng)
        except RecordError:
            raise
        except (MadangError, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise RecordError(f"bad view: {e}") from None

    @classmethod
    def _from_view(cls, v: Mapping[str, Any], seat: int, rng: random.Random) -> MatgoState:
        pub = v["public"]
        rules = rules_class(v.get("game", "matgo")).from_dict(pub["rules"])
        s = cls.blank(rules, dealer=v["dealer"], carry=v["carry"])
        s.mission = mission_by_name(v["mission"]) if v["mission"] else None
        for group in v["floor"]:
            m = group["month"]
            s.floor |= _mask(group["cards"])
            if group["ppeok"] is not None:
                s.stack_maker[m] = group["ppeok"]
            s.stack_extra[m] = _mask(group["bonus"])
        n = s.rules.players
        if len(v["captured"]) != n or len(v["revealed"]) != n or len(v["hand_counts"]) != n:
            raise RecordError(f"the view does not have {n} seats")
        s.captured = [_mask(c) for c in v["captured"]]
        others = _others(n, seat)
        s.revealed = [_mask(c) for c in v["revealed"]]
        s.hands[seat] = _mask(v["hand"])
        s.turn = Turn.from_dict(v["turn"])
        known = s.hands[seat] | s.floor | s.in_flight()
        for c in s.captured:
            known |= c
        for o in others:
            known |= s.revealed[o]
        for extra in s.stack_extra:
            known |= extra
        needs = [v["hand_counts"][o] - s.revealed[o].bit_count() for o in others]
        unseen = s.rules.deck_mask & ~known
        if min(needs) < 0 or sum(needs) + v["pile"] != unseen.bit_count():
            raise RecordError("the view is inconsistent: hidden card counts do not add up")
        for o in others:
            s.hands[o] = s.revealed[o]
        s.pile = [0] * v["pile"]  # the hidden cards are dealt just below
        s.tokens = list(v["tokens"])
        s.shakes = list(v["shakes"])
        s.no_shake = [sum(1 << m for m in months) for months in pub["no_shake"]]
        s.go_count = list(v["go"])
        s.go_score = list(pub["go_score"])
        s.ppeok_count = list(v["ppeok"])
        s.ppeok_turns = list(pub["ppeok_turns"])
        s.turns = list(pub["turns"])
        s.gukjin_mode = _GUKJIN_MODES[v["gukjin"]]
        s.phase = Phase[v["phase"].upper()]
        s.current = v["pending"].get("seat", 0)
        s.winner = v["winner"]
        s.points = v["points"]
        s.payments = [(p["from"], p["to"], p["points"], p["reason"]) for p in v["payments"]]
        table = pub.get("table")
        if table is not None:  # 광팔기 and 쇼당 (gostop.md §7, §8)
            s.no_die = tuple(table["no_die"])
            sitter = v["sitting_out"]
            if sitter is not None:
                s.sitter = sitter
                s.after = _AFTER_OUT[n][sitter]
            s.seller = -1 if v["seller"] is None else v["seller"]
            s.gwang_due = table["gwang_due"]
            sh = table["shodang"]
            if sh["by"] is not None:
                s.shodang_by = sh["by"]
            s.shodang_yes = sum(1 << x for x in sh["accepted"])
            s.shodang_no = sum(1 << x for x in sh["refused"])
            s.turn.bonus_played = int(bool(table["bonus_played"]))
        s._deal_hidden(seat, cards_of(unseen), needs, rng)
        return s

    def resample_hidden(self, seat: int | None, rng: random.Random) -> None:
        """Deal again, at random and in place, the cards ``seat`` (``None``: a spectator,
        who sees no hand) cannot see: the other hands but for the cards they showed, and
        the draw pile (a new world for a search; the deck order is forgotten)."""
        n = len(self.hands)
        hidden = [self.hands[p] & ~self.revealed[p] for p in range(n)]
        if seat is None:
            every = 0
            for h in hidden:
                every |= h
            pool = [*cards_of(every), *self.pile]
            rng.shuffle(pool)
            n0 = hidden[0].bit_count()
            self.hands[0] = self.hands[0] & self.revealed[0] | mask_of(pool[:n0])
            needs = [hidden[o].bit_count() for o in _others(n, 0)]
            self._deal_hidden(0, pool[n0:], needs, rng)
            return
        theirs = 0
        for o in _others(n, seat):
            theirs |= hidden[o]
        needs = [hidden[o].bit_count() for o in _others(n, seat)]
        self._deal_hidden(seat, [*cards_of(theirs), *self.pile], needs, rng)

    def _deal_hidden(
        self, seat: int, pool: list[int], needs: list[int], rng: random.Random
    ) -> None:
        """Shuffle ``pool`` and deal it: to each other seat in seat order its ``needs``
        hidden cards (beside those it showed), the rest to the draw pile."""
        rng.shuffle(pool)
        at = 0
        for o, need in zip(_others(len(self.hands), seat), needs, strict=True):
            hand = self.hands[o] & self.revealed[o]
            for c in pool[at : at + need]:
                hand |= BIT[c]
            self.hands[o] = hand
            at += need
        self.pile = pool[at:]
        self.deck = ()
        self._legal = None

    def total_cards(self) -> int:
        """The mask of every card somewhere in the game (the deck, when all is well)."""
        m = self.floor
        for x in (*self.hands, *self.captured):
            m |= x
        for c in self.pile:
            m |= BIT[c]
        for extra in self.stack_extra:
            m |= extra
        return m | self.in_flight()

    def count_cards(self) -> int:
        """How many cards are somewhere in the game, each place counted separately."""
        n = sum(x.bit_count() for x in (self.floor, *self.hands, *self.captured))
        n += len(self.pile) + sum(x.bit_count() for x in self.stack_extra)
        return n + self.in_flight().bit_count()


_LISTS: Final = (
    "pile", "hands", "captured", "stack_maker", "stack_extra", "tokens", "shakes", "no_shake",
    "revealed", "go_count", "go_score", "ppeok_count", "ppeok_turns", "turns", "payments",
    "moves", "go_at",
)  # fmt: skip
_SCALARS: Final = tuple(n for n in _SLOTS if n not in _LISTS and n not in ("turn", "events"))
# ``_legal`` is shared: a step replaces the cached list and never mutates it.
_clone: Final = compile_clone(MatgoState, shared=_SCALARS, lists=_LISTS, copied=("turn", "events"))
_turn_copy: Final = compile_clone(
    Turn, shared=tuple(n for n in Turn.__slots__ if n != "steals"), lists=("steals",)
)
_GUKJIN_MODES: Final = {"free": _GJ_FREE, "animal": _GJ_ANIMAL, "pi": _GJ_PI}


def _mask(codes: list[str]) -> int:
    return mask_of(parse_cards(codes))


#: Templates of :meth:`MatgoState.blank`'s lists (by seat count; per month), never changed.
_ZEROS: Final = {n: [0] * n for n in range(2, 5)}
_NO_MAKERS: Final = [-1] * 13
_NO_EXTRAS: Final = [0] * 13

#: By seat count, per seat the other seats in turn order after it (counter-clockwise).
_AFTER: Final = {
    n: tuple(tuple((p + k) % n for k in range(1, n)) for p in range(n)) for n in range(2, 5)
}
#: By seat count and sitter (광팔기): ``_AFTER`` without the sitter.
_AFTER_OUT: Final = {
    n: tuple(
        tuple(tuple(o for o in _AFTER[n][p] if o != out) for p in range(n)) for out in range(n)
    )
    for n in range(2, 5)
}
#: The sets of 쇼당's threat (``gostop.md`` §7) but 광: the birds, 홍단, 청단, 초단.
_SHODANG_SETS: Final = (GODORI_MASK, HONGDAN_MASK, CHEONGDAN_MASK, CHODAN_MASK)
#: At most three seats play a game; a fourth sits it out (광팔기, ``gostop.md`` §8).
_MAX_PLAYING: Final = 3


def rules_class(game: object) -> type[MatgoRules]:
    """The rules class of a game of the Go-Stop family by its name (a view's ``game``):
    :class:`~madang.matgo.rules.MatgoRules` or a subclass loaded in this process (고스톱's
    :class:`~madang.gostop.rules.GostopRules`). Another name raises RecordError.

    >>> rules_class("matgo").__name__
    'MatgoRules'
    """
    stack: list[type[MatgoRules]] = [MatgoRules]
    while stack:
        cls = stack.pop()
        if game == cls.GAME:
            return cls
        stack += cls.__subclasses__()
    raise RecordError(f"no rules of the Go-Stop family are loaded for the game {game!r}")


def _others(n: int, seat: int) -> list[int]:
    """The seats of ``n`` other than ``seat``, in seat order."""
    return [o for o in range(n) if o != seat]


DealPlan = tuple[tuple[Callable[[Any], Any], ...], Callable[[Any], Any], int]
"""Per hand (선+1, 선+2, …, 선 last) and for the floor, a getter of the positions of the
dealt cards it gets (an ``itemgetter``); and how many cards are dealt."""
_PLANS: Final[dict[tuple[tuple[tuple[str, int], ...], int], DealPlan]] = {}


def deal_positions(
    layout: tuple[tuple[str, int], ...], players: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The deck positions (top first) a deal by ``layout`` gives each hand (선+1, 선+2,
    …, 선 last) and the floor.

    >>> from madang.matgo.rules import MATGO_DEAL
    >>> hands, floor = deal_positions(MATGO_DEAL, 2)
    >>> hands[0][:6], hands[1][:6], floor
    ((4, 5, 6, 7, 8, 18), (9, 10, 11, 12, 13, 23), (0, 1, 2, 3, 14, 15, 16, 17))
    """
    hands: list[list[int]] = [[] for _ in range(players)]
    floor: list[int] = []
    at = 0
    for place, count in layout:
        for got in [floor] if place == "floor" else hands:
            got.extend(range(at, at + count))
            at += count
    return tuple(map(tuple, hands)), tuple(floor)


def _deal_plan(layout: tuple[tuple[str, int], ...], players: int) -> DealPlan:
    key = (layout, players)
    plan = _PLANS.get(key)
    if plan is None:
        hands, floor = deal_positions(layout, players)
        getters = tuple(itemgetter(*h) for h in hands)
        plan = _PLANS[key] = (getters, itemgetter(*floor), len(floor) + sum(map(len, hands)))
    return plan


#: Per month group g (month - 1; 12 = the bonus cards) and 4-bit pattern: the card ids.
_NIB_IDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(4 * g + i for i in range(4) if nib >> i & 1) for nib in range(16))
    for g in range(13)
)
_NIB_SHAKE: Final = tuple(tuple(tuple(A.SHAKE + c for c in ids) for ids in row) for row in _NIB_IDS)
_NIB_COUNT: Final[tuple[int, ...]] = tuple(n.bit_count() for n in range(16))
#: Per byte position (0–6) and byte value: the card ids of those bits.
_BYTE_IDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * pos + i for i in range(8) if byte >> i & 1) for byte in range(256))
    for pos in range(7)
)
_ONES: Final = int("1" * 13, 16)  # 0x1111…: one per nibble
_FOURS: Final = _ONES * 4
_FIVES: Final = _ONES * 5
_THREES: Final = _ONES * 3
_FLIP_BIT: Final = 1 << A.FLIP
#: MatgoState.legal_mask of the phases whose answers are fixed, by phase (a tuple: an
#: enum member's hash is a Python call).
_PHASE_LEGAL_BITS: Final = tuple(
    {
        _P_GO_STOP: 1 << A.GO | 1 << A.STOP,
        _P_GUKJIN: 1 << A.GUKJIN_ANIMAL | 1 << A.GUKJIN_PI,
        _P_CHONGTONG: 1 << A.CHONGTONG_STOP | 1 << A.CHONGTONG_PLAY,
        _P_JOIN: 1 << A.JOIN | 1 << A.DIE,
        _P_SHODANG: 1 << A.SHODANG_ACCEPT | 1 << A.SHODANG_REFUSE,
    }.get(phase, 0)
    for phase in Phase
)


def _chongtong_months(hand: int) -> list[int]:
    return [m for m in range(1, 13) if hand & MONTH_MASK[m] == MONTH_MASK[m]]


_MONTH_ONES: Final = _ONES & ALL_MONTH_CARDS  # the lowest bit of each month's nibble


def _full_months(m: int) -> int:
    """Nonzero when ``m`` holds all four cards of some month (one bit per such month)."""
    return m & (m >> 1) & (m >> 2) & (m >> 3) & _MONTH_ONES


_DECKS: Final[dict[int, tuple[int, ...]]] = {}
_DEFAULT_RULES: Final = MatgoRules()  # frozen: one instance serves every game
_NO_ARGS: Final = ((),) * len(BIT)  # one empty argument tuple per card id


def shuffled_deck(rules: MatgoRules, seed: int | None = None) -> list[int]:
    """A deck of the rules in force in a uniformly random order fixed by ``seed``.

    The order sorts the cards by independent random keys (one ``random()`` draw per
    card), several times faster than ``Random.shuffle`` and as uniform.
    """
    deck = _DECKS.get(rules.deck_mask)
    if deck is None:
        deck = _DECKS[rules.deck_mask] = tuple(cards_of(rules.deck_mask))
    # an int seeds random.Random's C generator directly: the same numbers as
    # random.Random(seed), which seeds it twice (in __new__, then again in __init__)
    rng = _CRandom(seed) if type(seed) is int else random.Random(seed)
    keys = list(starmap(rng.random, _NO_ARGS))  # one key per card id, whatever the deck
    return sorted(deck, key=keys.__getitem__)


def check_deck(deck: Sequence[int], rules: MatgoRules) -> None:
    """Raise :class:`RecordError` unless ``deck`` holds every card of ``rules`` once."""
    seen = 0
    for c in deck:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < len(BIT):
            raise RecordError(f"not a card id: {c!r}")
        if seen & BIT[c]:
            raise RecordError(f"card {CODES[c]} appears twice in the deck")
        seen |= BIT[c]
    if seen != rules.deck_mask:
        missing = rules.deck_mask & ~seen
        extra = seen & ~rules.deck_mask
        parts = []
        if missing:
            parts.append("missing " + " ".join(CODES[c] for c in cards_of(missing)))
        if extra:
            parts.append("not in these rules " + " ".join(CODES[c] for c in cards_of(extra)))
        raise RecordError("the deck does not match the rules: " + "; ".join(parts))


def new_game(
    rules: MatgoRules | None = None,
    *,
    seed: int | None = None,
    deck: Sequence[int] | Sequence[str] | None = None,
    dealer: int = 0,
    carry: int = 1,
    mission: str | None = None,
    events: bool = True,
    no_die: Sequence[int] = (),
) -> MatgoState:
    """Deal a new game from a ``seed`` or a given ``deck`` (ids or codes, top first).

    ``carry`` is the 나가리 multiplier in force; ``mission`` names the game's mission
    when ``rules.missions`` is on (drawn from the deck's order when not given).
    ``no_die``: with four seats (광팔기), the seats barred from `die` by 연사 금지
    (``gostop.md`` §8.3; ignored when ``rules.yeonsa_ban`` is off).

    ``events=False`` keeps no events (the RL path's games, a little faster): every step
    returns ``[]`` and :attr:`MatgoState.events` stays an empty :class:`NoEvents`, so a
    view of the game shows no last played cards; the game itself is the same.
    """
    rules = rules or _DEFAULT_RULES
    n = rules.players
    if n not in _AFTER:
        raise RuleConfigError(f"the engine seats 2 to 4 players, not {n!r}")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise RecordError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    if no_die:
        if not isinstance(no_die, list | tuple) or not all(
            type(x) is int and 0 <= x < n for x in no_die
        ):
            raise RecordError(f"no_die must be a list of seats from 0 to {n - 1}, not {no_die!r}")
        if n <= _MAX_PLAYING:  # gostop.md §14.4
            raise RecordError(f"no_die is for 4 players (광팔기); with {n} it must be empty")
    if not isinstance(carry, int) or isinstance(carry, bool) or carry < 1 or carry & (carry - 1):
        raise RecordError(f"carry must be a power of two >= 1, not {carry!r}")
    if deck is None:
        ids = shuffled_deck(rules, seed)
    else:
        ids = [parse_card(c) if isinstance(c, str) else c for c in deck]
        check_deck(ids, rules)
    s = MatgoState.blank(rules, dealer=dealer, carry=carry)
    if no_die:
        s.no_die = tuple(sorted(set(no_die)))
    if not events:
        s.events = NoEvents()
    s.deck = tuple(ids)
    if rules.missions:
        if mission is not None:
            s.mission = mission_by_name(mission)
        else:  # drawn apart from the deck, so that it reveals nothing of the deck order
            rng = random.Random(None if seed is None else f"mission:{seed}")
            s.mission = rng.choice(MISSIONS)
    elif mission is not None:
        raise RecordError("a mission needs the rules option missions: true")
    _deal(s, ids)
    return s


def _deal(s: MatgoState, ids: list[int]) -> None:
    """Deal by the rules' layout (``matgo.md`` §2: 4 floor, 5 other, 5 선, 4 floor, 5, 5;
    ``gostop.md`` §2: 4 to each from 선+1 to 선, 3 floor, 3 each, 3 floor); bonus cards
    on the floor go to 선; four of a month on the floor or two 총통: a redeal. With a
    fourth seat, who sits out is decided first (광팔기, ``gostop.md`` §8.3, §14.3)."""
    dealer = s.dealer
    n = len(s.hands)
    hand_at, floor_at, dealt = _deal_plan(s.rules.deal, n)
    # the cards are distinct: a sum is their union (itemgetter: a tuple's __getitem__
    # mapped is several times slower)
    bits = itemgetter(*ids[:dealt])(BIT)
    s.floor = sum(floor_at(bits))
    hands = s.hands
    for k, at in enumerate(hand_at, 1):
        hands[(dealer + k) % n] = sum(at(bits))
    events = s.events
    events.append(("deal", dealer))
    rest = ids[dealt:]
    rest.reverse()  # pop() takes the top
    while s.floor & BONUS_MASK:
        b = s.floor & BONUS_MASK
        low = b & -b
        s.floor ^= low
        s.captured[dealer] |= low
        events.append(("floor_bonus", dealer, low.bit_length() - 1))
        if rest:
            s.floor |= BIT[rest.pop()]
    s.pile = rest
    if _full_months(s.floor):
        events.append(("redeal", "four_on_floor"))
        s._end(None, 0, "redeal")
        return
    if n > _MAX_PLAYING:
        s._ask_join(1)
        return
    full = list(map(_full_months, s.hands))
    if not any(full):
        return
    ct = [p for p in (dealer, *s.after[dealer]) if full[p]]
    if len(ct) >= 2:
        events.append(("redeal", "two_chongtong"))
        s._end(None, 0, "redeal")
        return
    if ct:
        s._ask_chongtong(ct[0])
