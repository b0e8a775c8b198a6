"""The turn rules of ``matgo.md`` §2–§8 as a table of crafted deals and moves.

Each case deals a crafted deck (``mg.game``: the dealer is seat 0 unless said) or sets
up a late position directly (``mg.position``: for last-card situations), applies the
moves, and checks the captured piles, the floor cards of the months the case names,
the events, the steals, the payments and the phase.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from madang.core.errors import IllegalActionError
from madang.matgo import actions as A
from madang.matgo.actions import action_str
from madang.matgo.cards import MONTH, MONTH_MASK, format_cards, parse_cards
from madang.matgo.engine import Phase
from madang.matgo.record import export_record, replay, replay_json
from madang.matgo.view import view

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "matgo"
GOLDEN_NAMES = sorted(
    p.name[: -len(".json")] for p in GOLDEN.glob("*.json") if ".expected" not in p.name
)


@dataclass(frozen=True)
class Case:
    """One row of the rule table."""

    moves: tuple[str, ...]
    deal: dict[str, Any] = field(default_factory=dict)  #: mg.game arguments
    pos: dict[str, Any] | None = None  #: mg.position arguments (instead of a deal)
    cap: tuple[str | None, str | None] = (None, None)  #: each seat's whole captured pile
    floor: str | None = None  #: the floor cards of the months the case names
    events: tuple[str, ...] = ()  #: event types that must occur, in this order
    no_events: tuple[str, ...] = ()  #: event types that must not occur
    steals: tuple[tuple[int, str, str], ...] | None = None  #: (thief, card, reason)
    pays: tuple[tuple[int, int, int, str], ...] = ()  #: every payment of the game
    phase: Phase = Phase.PLAY
    current: int | None = None


def _named_months(case: Case) -> int:
    spec = case.pos if case.pos is not None else case.deal
    codes: list[str] = []
    for key in ("dealer_hand", "other_hand", "floor", "pile"):
        v = spec.get(key)
        if v:
            codes += v.split()
    for v in spec.get("hands", ()) + spec.get("captured", ()):
        if v:
            codes += v.split()
    m = 0
    for c in parse_cards(codes):
        m |= MONTH_MASK[MONTH[c]]
    return m


def _subsequence(needle: tuple[str, ...], hay: list[str]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


# Deals reused by several rows.
_PPEOK_BY_P1 = {  # P1 makes a 뻑 of month 5 on its 2nd turn (so no 첫뻑)
    "dealer_hand": "01p1 02p1 05r 09p2",
    "other_hand": "03p1 05p2",
    "floor": "01p2 03p2 05p1",
    "pile": "09p1 10p1 11p1 05a 12g",
}
_PPEOK_MOVES = ("play 01p1", "play 03p1", "play 02p1", "play 05p2")
_JABBEOK = {  # P0 makes a 뻑 of month 5 on its 2nd turn and takes it back on its 3rd
    "dealer_hand": "01p1 05p2 05r",
    "other_hand": "03p1 04p1",
    "floor": "01p2 03p2 04p2 05p1",
    "pile": "09p1 10p1 05a 12g 11p1",
}
_JABBEOK_MOVES = ("play 01p1", "play 03p1", "play 05p2", "play 04p1", "play 05r")
_SWEEP = {  # the floor is one 피 of months 1–8; two cards leave it each turn
    "dealer_hand": "01p2 03p2 09p1",
    "other_hand": "05p2 07p2",
    "floor": "01p1 02p1 03p1 04p1 05p1 06p1 07p1 08p1",
    "pile": "02p2 06p2 04p2 08p2 09p2",
}
_LATE = {"turns": (9, 9)}  # a position in which each seat has played 9 turns


CASES: dict[str, Case] = {
    # --- §3.1 the played card --------------------------------------------------------
    "pair/05p2-on-05p1": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "05p1", "pile": "08p1"},
        cap=("05p1 05p2", ""),
        floor="08p1",
        events=("play", "flip", "capture"),
        no_events=("steal", "steal_none", "ppeok"),
        current=1,
    ),
    "land/05p2-no-match": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "09p1", "pile": "08p1"},
        cap=("", ""),
        floor="05p2 08p1 09p1",
        no_events=("capture",),
        current=1,
    ),
    "pick-played/asks": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "05a 05p1", "pile": "08p1"},
        cap=("", ""),
        no_events=("flip",),  # asked at once, before the flip
        phase=Phase.PICK_PLAY,
        current=0,
    ),
    "pick-played/05a": Case(
        ("play 05p2", "pick 05a"),
        {"dealer_hand": "05p2", "floor": "05a 05p1", "pile": "08p1"},
        cap=("05a 05p2", ""),
        floor="05p1 08p1",
        events=("play", "pick", "flip", "capture"),
    ),
    "pick-played/05p1": Case(
        ("play 05p2", "pick 05p1"),
        {"dealer_hand": "05p2", "floor": "05a 05p1", "pile": "08p1"},
        cap=("05p1 05p2", ""),
        floor="05a 08p1",
    ),
    "pick-flipped/asks": Case(
        ("play 08p1",),
        {"dealer_hand": "08p1", "floor": "05a 05p1", "pile": "05p2"},
        cap=("", ""),
        events=("play", "flip"),
        phase=Phase.PICK_FLIP,
        current=0,
    ),
    "pick-flipped/05a": Case(
        ("play 08p1", "pick 05a"),
        {"dealer_hand": "08p1", "floor": "05a 05p1", "pile": "05p2"},
        cap=("05a 05p2", ""),
        floor="05p1 08p1",
        events=("flip", "pick", "capture"),
    ),
    "no-question/played-onto-05p1-05p2": Case(
        ("play 05a",),
        {"dealer_hand": "05a", "floor": "05p1 05p2", "pile": "08p1"},
        cap=("05a 05p1", ""),
        floor="05p2 08p1",
        no_events=("pick",),
    ),
    "no-question/flipped-onto-11p1-11p2": Case(
        ("play 08p1",),
        {"dealer_hand": "08p1", "floor": "11p1 11p2", "pile": "11g"},
        cap=("11g 11p1", ""),
        floor="08p1 11p2",
        no_events=("pick",),
    ),
    "pick-played/11d-or-11p1-asks": Case(
        ("play 11g",),
        {"dealer_hand": "11g", "floor": "11d 11p1", "pile": "08p1"},
        cap=("", ""),
        phase=Phase.PICK_PLAY,
        current=0,
    ),
    "dealt-triple/played-takes-four-no-steal": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "05a 05r 05p1", "pile": "08p1"},
        cap=("05a 05r 05p1 05p2", ""),
        floor="08p1",
        events=("play", "take_stack", "flip", "capture"),
        no_events=("steal", "steal_none"),
    ),
    "dealt-triple/flipped-takes-four-no-steal": Case(
        ("play 08p1",),
        {"dealer_hand": "08p1", "floor": "05a 05r 05p1", "pile": "05p2"},
        cap=("05a 05r 05p1 05p2", ""),
        floor="08p1",
        no_events=("steal", "steal_none"),
    ),
    # --- §3.2 flipped bonus cards ------------------------------------------------------
    "flip-bonus/captured-with-the-pair": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "05p1", "pile": "b3 10p1"},
        cap=("05p1 05p2 b3", ""),
        floor="10p1",
        events=("play", "flip", "flip", "capture"),
    ),
    "flip-bonus/captured-even-alone": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "09p1", "pile": "b3 10p1"},
        cap=("b3", ""),
        floor="05p2 09p1 10p1",
    ),
    "flip-bonus/two-in-a-row": Case(
        ("play 05p2",),
        {"dealer_hand": "05p2", "floor": "05p1", "pile": "b3 b2 10p1"},
        cap=("05p1 05p2 b2 b3", ""),
        floor="10p1",
        events=("flip", "flip", "flip"),
    ),
    # --- §3.3 뻑 -----------------------------------------------------------------------
    "ppeok/second-turn": Case(
        ("play 01p1", "play 03p1", "play 05p2"),
        {
            "dealer_hand": "01p1 05p2",
            "other_hand": "03p1",
            "floor": "01p2 03p2 05p1",
            "pile": "09p1 10p1 05a",
        },
        cap=("01p1 01p2", "03p1 03p2"),
        floor="05a 05p1 05p2 09p1 10p1",
        events=("play", "flip", "ppeok"),
        no_events=("payment",),
        current=1,
    ),
    "ppeok/flipped-bonus-stays-in-stack": Case(
        ("play 01p1", "play 03p1", "play 05p2"),
        {
            "dealer_hand": "01p1 05p2",
            "other_hand": "03p1",
            "floor": "01p2 03p2 05p1",
            "pile": "09p1 10p1 b3 05a",
        },
        cap=("01p1 01p2", "03p1 03p2"),
        floor="05a 05p1 05p2 09p1 10p1",
        events=("flip", "flip", "ppeok"),
    ),
    "ppeok/taken-by-other-with-play": Case(
        (*_PPEOK_MOVES, "play 05r"),
        _PPEOK_BY_P1,
        cap=("01p1 01p2 03p1 05a 05r 05p1 05p2", "03p2"),
        floor="02p1 09p1 10p1 11p1 12g",
        events=("ppeok", "play", "take_stack", "flip", "capture", "steal"),
        steals=((0, "03p1", "ppeok"),),
    ),
    "ppeok/taken-by-other-with-flip": Case(
        (*_PPEOK_MOVES, "play 09p2"),
        {
            "dealer_hand": "01p1 02p1 09p2",
            "other_hand": "03p1 05p2",
            "floor": "01p2 03p2 05p1",
            "pile": "09p1 10p1 11p1 05a 05r",
        },
        cap=("01p1 01p2 03p1 05a 05r 05p1 05p2 09p1 09p2", "03p2"),
        steals=((0, "03p1", "ppeok"),),
    ),
    "ppeok/jabbeok-steals-two": Case(
        _JABBEOK_MOVES,
        _JABBEOK,
        cap=("01p1 01p2 03p1 03p2 05a 05r 05p1 05p2", "04p1 04p2"),
        steals=((0, "03p1", "ppeok"), (0, "03p2", "jabbeok")),
    ),
    # --- §3.3 따닥 and 쪽 ----------------------------------------------------------------
    "ttadak/takes-four-steals-one": Case(
        ("play 01p1", "play 03p1", "play 05p2", "pick 05a"),
        {
            "dealer_hand": "01p1 05p2",
            "other_hand": "03p1",
            "floor": "01p2 03p2 05a 05p1",
            "pile": "09p1 10p1 05r",
        },
        cap=("01p1 01p2 03p1 05a 05r 05p1 05p2", "03p2"),
        events=("pick", "flip", "ttadak", "capture", "steal"),
        steals=((0, "03p1", "ttadak"),),
    ),
    "ttadak/interchangeable-pair-no-question": Case(
        ("play 01p1", "play 03p1", "play 05a"),
        {
            "dealer_hand": "01p1 05a",
            "other_hand": "03p1",
            "floor": "01p2 03p2 05p1 05p2",
            "pile": "09p1 10p1 05r",
        },
        cap=("01p1 01p2 03p1 05a 05r 05p1 05p2", "03p2"),
        no_events=("pick",),
        steals=((0, "03p1", "ttadak"),),
    ),
    "jjok/takes-two-steals-one": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "01p1"),
            "turns": (3, 3),
        },
        cap=("01p1 05r 05p2", ""),
        floor="09p1",
        events=("play", "flip", "jjok", "capture", "steal"),
        steals=((0, "01p1", "jjok"),),
    ),
    # --- §3.5 싹쓸이 ---------------------------------------------------------------------
    "sseul/empty-floor-steals-one": Case(
        ("play 01p2", "play 05p2", "play 03p2", "play 07p2"),
        _SWEEP,
        cap=("01p2 02p1 02p2 03p1 03p2 04p1 04p2", "01p1 05p1 05p2 06p1 06p2 07p1 07p2 08p1 08p2"),
        floor="",
        events=("capture", "sseul", "steal"),
        steals=((1, "01p1", "sseul"),),
        current=0,
    ),
    "sseul/jjok-on-empty-floor-steals-two": Case(
        ("play 01p2", "play 05p2", "play 03p2", "play 07p2", "play 09p1"),
        _SWEEP,
        floor="",
        events=("sseul", "jjok", "capture", "sseul", "steal", "steal"),
        steals=((1, "01p1", "sseul"), (0, "01p1", "jjok"), (0, "05p1", "sseul")),
    ),
    # --- §3 the last card: no steals, no 뻑 ---------------------------------------------
    "last-card/ttadak-no-steal": Case(
        ("play 05p2", "pick 05a"),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "05a 05p1 09p1",
            "pile": "05r",
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05a 05r 05p1 05p2", "01p1 11d"),
        events=("ttadak",),
        no_events=("steal", "steal_none"),
    ),
    "last-card/jjok-no-steal": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05r 05p2", "01p1 11d"),
        events=("jjok",),
        no_events=("steal", "steal_none"),
    ),
    "last-card/jjok-sseul-no-steal": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "",
            "pile": "05r",
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05r 05p2", "01p1 11d"),
        floor="",
        events=("jjok",),
        no_events=("sseul", "steal", "steal_none"),
    ),
    "last-card/sseul-no-steal": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "05p1 09p1",
            "pile": "09p2",
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05p1 05p2 09p1 09p2", "01p1 11d"),
        floor="",
        no_events=("sseul", "steal", "steal_none"),
    ),
    "last-card/ppeok-captured-as-three": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "05p1 09p1",
            "pile": "05r",
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05r 05p1 05p2", "01p1 11d"),
        floor="09p1",
        no_events=("ppeok", "steal", "steal_none"),
    ),
    "last-card/taking-a-ppeok-stack-no-steal": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2", "06p1"),
            "floor": "05a 05r 05p1 09p1",
            "pile": "10p1",
            "captured": ("", "01p1 11d"),
            "ppeok": {5: 1},
            **_LATE,
        },
        cap=("05a 05r 05p1 05p2", "01p1 11d"),
        events=("take_stack",),
        no_events=("steal", "steal_none"),
    ),
    "not-last-card/taking-a-ppeok-stack-steals": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p2", "06p1"),
            "floor": "05a 05r 05p1 09p1",
            "pile": "10p1",
            "captured": ("", "01p1 11d"),
            "ppeok": {5: 1},
            **_LATE,
        },
        cap=("01p1 05a 05r 05p1 05p2", "11d"),
        steals=((0, "01p1", "ppeok"),),
    ),
    "last-card/token-flip-is-last": Case(
        ("flip",),
        pos={
            "hands": ("", "06p1"),
            "floor": "05r",
            "pile": "05p2",
            "tokens": (1, 0),
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("05r 05p2", "01p1 11d"),
        floor="",
        events=("token_flip", "flip", "capture"),
        no_events=("sseul", "steal", "steal_none"),
        current=1,
    ),
    "not-last-card/token-flip-with-a-token-left-sweeps": Case(
        ("flip",),
        pos={
            "hands": ("", "06p1"),
            "floor": "05r",
            "pile": "05p2",
            "tokens": (2, 0),
            "captured": ("", "01p1 11d"),
            **_LATE,
        },
        cap=("01p1 05r 05p2", "11d"),
        events=("token_flip", "flip", "capture", "sseul", "steal"),
    ),
    # --- stealing a 피: single, then 쌍피, then 쓰리피, then nothing --------------------
    "steal-order/single-pi-first": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "04p1 11d b3"),
            "turns": (3, 3),
        },
        cap=("04p1 05r 05p2", "11d b3"),
        steals=((0, "04p1", "jjok"),),
    ),
    "steal-order/then-ssangpi": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "11d b3"),
            "turns": (3, 3),
        },
        cap=("05r 05p2 11d", "b3"),
        steals=((0, "11d", "jjok"),),
    ),
    "steal-order/bonus-b2-is-a-ssangpi": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "b2 b3"),
            "turns": (3, 3),
        },
        cap=("05r 05p2 b2", "b3"),
        steals=((0, "b2", "jjok"),),
    ),
    "steal-order/then-sseuripi": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "01g b3"),
            "turns": (3, 3),
        },
        cap=("05r 05p2 b3", "01g"),
        steals=((0, "b3", "jjok"),),
    ),
    "steal-order/then-nothing": Case(
        ("play 05p2",),
        pos={
            "hands": ("05p2 06p1", "07p1"),
            "floor": "09p1",
            "pile": "05r",
            "captured": ("", "01g 01r 02a"),
            "turns": (3, 3),
        },
        cap=("05r 05p2", "01g 01r 02a"),
        events=("jjok", "steal_none"),
        steals=(),
    ),
    # --- bonus cards -------------------------------------------------------------------
    "bonus-play/captured-and-draw-same-turn": Case(
        ("play b2",),
        {"dealer_hand": "b2 05p2", "floor": "05p1", "pile": "09p1 10p1"},
        cap=("b2", ""),
        events=("bonus_play", "draw"),
        no_events=("flip",),
        current=0,
    ),
    "bonus-play/then-a-normal-play": Case(
        ("play b2", "play 05p2"),
        {"dealer_hand": "b2 05p2", "floor": "05p1", "pile": "09p1 10p1"},
        cap=("05p1 05p2 b2", ""),
        floor="10p1",
        events=("bonus_play", "draw", "play", "flip", "capture"),
        current=1,
    ),
    "bonus-play/then-a-drawn-card": Case(
        ("play b3", "play 09p1"),
        {"dealer_hand": "b3", "floor": "09p2", "pile": "09p1 10p1"},
        cap=("09p1 09p2 b3", ""),
        floor="10p1",
        current=1,
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_rule_table(case: Case, mg: SimpleNamespace) -> None:
    g = mg.position(**case.pos) if case.pos is not None else mg.game(**case.deal)
    events = mg.run(g, case.moves)
    kinds = mg.types(events)
    for seat in (0, 1):
        want = case.cap[seat]
        if want is not None:
            assert mg.cap(g, seat) == mg.sorted_codes(want), f"captured[{seat}]"
    if case.floor is not None:
        assert format_cards(g.floor & _named_months(case)) == mg.sorted_codes(case.floor)
    assert _subsequence(case.events, kinds), kinds
    for t in case.no_events:
        assert t not in kinds
    if case.steals is not None:
        assert mg.steals(events) == list(case.steals)
    assert mg.pays(g) == list(case.pays)
    assert g.phase is case.phase
    if case.current is not None:
        assert g.current == case.current
    assert g.total_cards() == g.rules.deck_mask
    assert g.count_cards() == g.rules.deck_size


# ------------------------------------------------------------------ details of the table


def test_pick_options_are_the_two_floor_cards(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05p2", floor="05a 05p1", pile="08p1", moves=["play 05p2"])
    assert g.pending() == {"seat": 0, "question": "pick_play", "options": ["05a", "05p1"]}
    assert [action_str(a) for a in g.legal_actions()] == ["pick 05a", "pick 05p1"]
    with pytest.raises(IllegalActionError):
        g.step("pick 05p2")
    g = mg.game(dealer_hand="08p1", floor="05a 05p1", pile="05p2", moves=["play 08p1"])
    assert g.pending()["options"] == ["05a", "05p1"]
    assert view(g, 1)["turn"]["flipped"] == "05p2"  # the flipped card is face up


def test_ppeok_stack_remembers_its_maker(mg: SimpleNamespace) -> None:
    g = mg.game(**_PPEOK_BY_P1, moves=_PPEOK_MOVES)
    assert g.stack_maker[5] == 1
    assert g.ppeok_count == [0, 1]
    entry = next(e for e in view(g, 0)["floor"] if e["month"] == 5)
    assert entry["cards"] == ["05a", "05p1", "05p2"] and entry["ppeok"] == 1
    mg.run(g, ["play 05r"])
    assert g.stack_maker[5] == -1


def test_dealt_triple_is_not_a_ppeok(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05p2", floor="05a 05r 05p1", pile="08p1")
    entry = next(e for e in view(g, 0)["floor"] if e["month"] == 5)
    assert entry["ppeok"] is None
    events = mg.run(g, ["play 05p2"])
    take = next(e for e in events if e[0] == "take_stack")
    assert take[3] == -1


def test_flip_takes_own_stack_with_the_bonus(mg: SimpleNamespace) -> None:
    g = mg.game(
        dealer_hand="01p1 05p2 09p2",
        other_hand="03p1 04p1",
        floor="01p2 03p2 04p2 05p1 09p1",
        pile="10p1 11p1 b3 05a 12g 05r",
        moves=["play 01p1", "play 03p1", "play 05p2", "play 04p1"],
    )
    assert g.stack_maker[5] == 0 and g.stack_extra[5]
    events = mg.run(g, ["play 09p2"])
    assert mg.types(events)[:5] == ["play", "flip", "take_stack", "capture", "steal"]
    assert {"05a", "05r", "05p1", "05p2", "b3", "09p1", "09p2"} <= set(mg.cap(g, 0).split())
    assert [s[2] for s in mg.steals(events)] == ["ppeok", "jabbeok"]


def test_floor_bonus_goes_to_the_dealer_and_is_refilled(mg: SimpleNamespace) -> None:
    for dealer in (0, 1):
        g = mg.game(floor="b2 05p1", pile="b3 09p1 10p1", dealer=dealer)
        assert mg.cap(g, dealer) == "b2 b3"
        assert g.captured[1 - dealer] == 0
        assert g.floor.bit_count() == 8
        assert "09p1" in mg.floor(g).split() and "05p1" in mg.floor(g).split()
        assert mg.types(g.events) == ["deal", "floor_bonus", "floor_bonus"]
        assert g.pile[-1] == parse_cards("10p1")[0]  # 10p1 is now the top of the pile
        assert g.phase is Phase.PLAY and g.current == dealer


# ------------------------------------------------------------------ 흔들기 and 폭탄


def test_shake_is_offered_only_for_three_with_none_on_the_floor(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05a 05r 05p1 06p1 06p2", floor="09p1")
    legal = {action_str(a) for a in g.legal_actions()}
    assert {"play 05a shake", "play 05r shake", "play 05p1 shake"} <= legal
    assert not any(t.startswith("play 06") and t.endswith("shake") for t in legal)
    assert not any(t.startswith("bomb") for t in legal)
    g = mg.game(dealer_hand="05a 05r 05p1", floor="05p2")
    legal = {action_str(a) for a in g.legal_actions()}
    assert not any(t.endswith("shake") for t in legal)
    assert "bomb 05" in legal


def test_shake_reveals_the_triple_to_the_opponent(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05a 05r 05p1", floor="09p1", pile="10p1")
    assert view(g, 1)["revealed"] == [[], []]
    events = mg.run(g, ["play 05a shake"])
    assert mg.types(events)[:2] == ["shake", "play"]
    assert g.shakes == [1, 0]
    assert view(g, 1)["revealed"][0] == ["05r", "05p1"]
    assert view(g, None)["revealed"][0] == ["05r", "05p1"]
    assert "05a" in mg.floor(g).split()
    # the month cannot be shaken again, and an undeclared shake is lost
    g = mg.game(dealer_hand="05a 05r 05p1", floor="09p1", pile="10p1", moves=["play 05a"])
    assert g.shakes == [0, 0] and view(g, 1)["revealed"] == [[], []]


def test_shake_doubles_a_win(mg: SimpleNamespace) -> None:
    pos = {
        "hands": ("05a 05r 05p1 06p1", "07p1"),
        "floor": "03p1 09p1",
        "pile": "03r 10p1",
        "captured": ("01g 03g 08g 11g 01r 02r", "12g"),
    }
    g = mg.position(**pos)
    mg.run(g, ["play 05a shake"])
    assert g.phase is Phase.GO_STOP and g.score(0) == 7
    mg.run(g, ["stop"])
    assert g.winner == 0 and g.points == 7 * 2
    assert [m.name for m in g.sheet.multipliers] == ["heundeulgi"]
    g = mg.position(**pos)
    mg.run(g, ["play 05a", "stop"])
    assert g.points == 7


def test_bomb_takes_four_steals_one_and_gives_two_tokens(mg: SimpleNamespace) -> None:
    g = mg.game(
        dealer_hand="08g 08a 08p2 02p1",
        other_hand="01p1",
        floor="08p1 01p2",
        pile="09p1 10p1 11p1 12g",
        moves=["play 02p1", "play 01p1"],
    )
    assert "bomb 08" in {action_str(a) for a in g.legal_actions()}
    events = mg.run(g, ["bomb 08"])
    assert mg.types(events)[:4] == ["bomb", "flip", "capture", "steal"]
    assert {"08g", "08a", "08p1", "08p2"} <= set(mg.cap(g, 0).split())
    assert mg.steals(events) == [(0, "01p1", "bomb")]
    assert g.tokens == [2, 0] and g.shakes == [1, 0]
    assert g.floor & MONTH_MASK[8] == 0
    assert view(g, 1)["tokens"] == [2, 0]


def test_a_paused_bomb_turn_shows_no_played_card(mg: SimpleNamespace) -> None:
    # A bomb plays no single card: while its flip waits for 패 선택, the view must not
    # name one (it once showed the engine's unused t_card, 01g, from the other hand).
    g = mg.game(
        dealer_hand="08g 08a 08p2",
        other_hand="01g",
        floor="08p1 07a 07r",
        pile="07p2 10p1",
    )
    mg.run(g, ["bomb 08"])
    assert g.phase is Phase.PICK_FLIP
    for seat in (0, None):
        v = view(g, seat)
        assert v["turn"]["card"] is None
        assert v["turn"]["mode"] == "bomb" and v["turn"]["month"] == 8
        assert v["turn"]["flipped"] == "07p2" and v["turn"]["options"] == ["07a", "07r"]
        assert "01g" not in json.dumps(v)


def test_bomb_token_flip(mg: SimpleNamespace) -> None:
    g = mg.game(
        dealer_hand="08g 08a 08p2",
        other_hand="03p1",
        floor="08p1 02p1 03p2",
        pile="11p1 12g 02a 10p1",
        moves=["bomb 08", "play 03p1"],
    )
    assert A.FLIP in g.legal_actions()
    before = g.hands[0]
    events = mg.run(g, ["flip"])
    assert mg.types(events)[:3] == ["token_flip", "flip", "capture"]
    assert g.hands[0] == before  # nothing played from the hand
    assert {"02a", "02p1"} <= set(mg.cap(g, 0).split())
    assert g.tokens == [1, 0] and g.turns[0] == 2
    assert g.current == 1


def test_tokens_keep_a_player_in_the_game(mg: SimpleNamespace) -> None:
    g = mg.position(hands=("", "06p1 07p1"), floor="09p1", pile="10p1 11p1", tokens=(2, 0))
    g.current = 1
    mg.run(g, ["play 06p1"])
    assert g.current == 0 and [action_str(a) for a in g.legal_actions()] == ["flip"]
    mg.run(g, ["flip", "play 07p1"])
    assert g.current == 0 and not g.over
    mg.run(g, ["flip"])
    assert g.over and g.end_reason == "nagari"


# ------------------------------------------------------------------ 총통 and redeals


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("holder", ["dealer_hand", "other_hand"])
def test_chongtong_stop(mg: SimpleNamespace, holder: str, dealer: int) -> None:
    g = mg.game(**{holder: "05a 05r 05p1 05p2"}, dealer=dealer)
    seat = dealer if holder == "dealer_hand" else 1 - dealer
    assert g.phase is Phase.CHONGTONG and g.current == seat
    assert g.pending() == {"seat": seat, "question": "chongtong"}
    mg.run(g, ["chongtong stop"])
    assert g.over and g.winner == seat and g.points == 10
    assert mg.pays(g) == [(1 - seat, seat, 10, "chongtong")]


def test_chongtong_stop_is_multiplied_by_the_carry_only(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05a 05r 05p1 05p2", carry=4, moves=["chongtong stop"])
    assert g.points == 40 and mg.pays(g) == [(1, 0, 40, "chongtong")]


@pytest.mark.parametrize("dealer", [0, 1])
def test_chongtong_play_on_counts_as_a_shake(mg: SimpleNamespace, dealer: int) -> None:
    holder = 1 - dealer  # the non-dealer is asked first, then 선 moves
    g = mg.game(
        other_hand="05a 05r 05p1 05p2", dealer_hand="09p2", dealer=dealer, floor="09p1", pile="10p1"
    )
    events = mg.run(g, ["chongtong play"])
    assert mg.types(events) == ["chongtong_play"]
    assert g.shakes[holder] == 1
    assert g.phase is Phase.PLAY and g.current == dealer
    assert view(g, dealer)["revealed"][holder] == ["05a", "05r", "05p1", "05p2"]
    mg.run(g, ["play 09p2"])
    legal = {action_str(a) for a in g.legal_actions()}
    assert g.current == holder
    assert not any(t.startswith("play 05") and t.endswith("shake") for t in legal)


def test_both_chongtong_is_a_redeal(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="05a 05r 05p1 05p2", other_hand="06a 06r 06p1 06p2")
    assert g.over and g.winner is None and g.payments == [] and g.end_reason == "redeal"
    assert g.legal_actions() == []
    assert ("redeal", "two_chongtong") in g.events


@pytest.mark.parametrize(
    ("floor", "pile"),
    [("05a 05r 05p1 05p2", "09p1"), ("b2 05a 05r 05p1", "05p2")],
    ids=["dealt", "after-bonus-refill"],
)
def test_four_of_a_month_on_the_floor_is_a_redeal(
    mg: SimpleNamespace, floor: str, pile: str
) -> None:
    g = mg.game(floor=floor, pile=pile)
    assert g.over and g.winner is None and g.points == 0 and g.payments == []
    assert ("redeal", "four_on_floor") in g.events
    summary = replay_json(export_record(g))
    assert summary["finished"] is True and summary["winner"] is None
    assert summary["payments"] == []


# ------------------------------------------------------------------ 고 and 스톱


_GO = {  # P0 reaches 7 with 03r (홍단), then adds nothing, then 5 광 with 12d
    "hands": ("03r 06p1 12d 07p2", "04p1 05p1 10p1 11p2"),
    "floor": "03p1 04p2 05p2 12g 10p2",
    "pile": "09p1 11p1 08p1 07p1 08p2 10a 02p1",
    "captured": ("01g 03g 08g 11g 01r 02r", "12a 09a"),
}


def test_go_then_no_question_until_the_score_rises(mg: SimpleNamespace) -> None:
    g = mg.position(**_GO)
    mg.run(g, ["play 03r"])
    assert g.phase is Phase.GO_STOP and g.current == 0 and g.score(0) == 7
    assert [action_str(a) for a in g.legal_actions()] == ["go", "stop"]
    events = mg.run(g, ["go"])
    assert events == [("go", 0, 1, 7)]
    assert g.pending() == {"seat": 1, "question": "play"}
    mg.run(g, ["play 04p1", "play 06p1"])  # P0's score stays 7: no question
    assert g.score(0) == 7 and g.pending() == {"seat": 1, "question": "play"}
    mg.run(g, ["play 05p1", "play 12d"])  # 12d x 12g: 5 광 (15) + 홍단 (3) = 18 > 7
    assert g.phase is Phase.GO_STOP and g.score(0) == 18
    mg.run(g, ["stop"])
    assert g.winner == 0 and g.end_reason == "stop"
    # (18 + 1) x2 광박 (P1 holds no 광)
    assert g.sheet.base == 19 and g.points == 38
    assert mg.pays(g) == [(1, 0, 38, "win")]


def test_seven_on_the_last_card_stops_automatically(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("03r", "04p1"),
        floor="03p1 04p2",
        pile="09p1 10p1",
        captured=("01g 03g 08g 11g 01r 02r", "12g"),
        **_LATE,
    )
    events = mg.run(g, ["play 03r"])
    assert g.over and g.winner == 0 and g.end_reason == "last_card"
    assert "go" not in mg.types(events) and ("stop", 0, 7) in events
    assert g.points == 7


def test_go_then_last_card_raise_stops(mg: SimpleNamespace) -> None:
    g = mg.position(**_GO)
    mg.run(g, ["play 03r", "go", "play 04p1", "play 06p1", "play 05p1", "play 07p2"])
    mg.run(g, ["play 10p1"])
    events = mg.run(g, ["play 12d"])  # P0's last card raises the score: stop at once
    assert g.over and g.end_reason == "last_card" and ("stop", 0, 18) in events


def test_gobak_doubles_when_the_loser_called_go(mg: SimpleNamespace) -> None:
    pos = {
        "hands": ("06p1 07p1", "03r 08p2"),
        "floor": "03p1 09p1",
        "pile": "10p1 11p1",
        "captured": ("03g 04p1", "01g 08g 11g 12g 01r 02r"),
        "current": 1,
    }
    g = mg.position(**pos, go=(1, 0))
    mg.run(g, ["play 03r"])
    assert g.phase is Phase.GO_STOP and g.current == 1
    mg.run(g, ["stop"])
    assert g.winner == 1
    names = [m.name for m in g.sheet.multipliers]
    assert names == ["gobak"] and g.points == 14
    g = mg.position(**pos)
    mg.run(g, ["play 03r", "stop"])
    assert g.points == 7


# ------------------------------------------------------------------ 뻑 payments and 3뻑

_PPEOK3 = {
    "dealer_hand": "01p2 02p2 03p2",
    "other_hand": "09p1 10p1",
    "floor": "01p1 02p1 03p1 09p2 10p2",
}
_PPEOK3_MOVES = ["play 01p2", "play 09p1", "play 02p2", "play 10p1", "play 03p2"]


@pytest.mark.parametrize(
    ("pile", "pays", "over"),
    [
        pytest.param(
            "01r 11p1 02r 12g 03r",
            [(1, 0, 7, "cheot_ppeok"), (1, 0, 14, "yeon_ppeok"),
             (1, 0, 21, "sam_yeon_ppeok"), (1, 0, 7, "sam_ppeok")],
            True,
            id="3yeon-ppeok-49",
        ),
        pytest.param("01r 11p1 02r 12g 04p1", [(1, 0, 7, "cheot_ppeok"),
                     (1, 0, 14, "yeon_ppeok")], False, id="cheot-and-yeon-ppeok"),
        pytest.param("01r 11p1 04p1 12g 03r", [(1, 0, 7, "cheot_ppeok")], False,
                     id="turns-1-and-3-only-cheot"),
        pytest.param("04p1 11p1 02r 12g 03r", [], False, id="turns-2-and-3-nothing"),
    ],
)  # fmt: skip
def test_instant_ppeok_payments(
    mg: SimpleNamespace, pile: str, pays: list[tuple[int, int, int, str]], over: bool
) -> None:
    g = mg.game(**_PPEOK3, pile=pile, moves=_PPEOK3_MOVES)
    assert mg.pays(g) == pays
    assert g.over is over
    if over:
        assert g.winner == 0 and g.points == 7 and g.end_reason == "sam_ppeok"
        assert sum(p[2] for p in g.payments) == 49


def test_sam_ppeok_flat_seven_times_carry_only(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2 06p1", "07p1"),
        floor="05p1 09p1",
        pile="05r",
        captured=("01g 03g 08g 12a 09a", ""),
        ppeok_count=(2, 0),
        carry=2,
    )
    events = mg.run(g, ["play 05p2"])
    assert "ppeok" in mg.types(events)
    assert g.over and g.winner == 0 and g.end_reason == "sam_ppeok"
    assert g.points == 14 and mg.pays(g) == [(1, 0, 14, "sam_ppeok")]


def test_instant_payments_are_not_multiplied_by_the_carry(mg: SimpleNamespace) -> None:
    g = mg.game(**_PPEOK3, pile="01r 11p1 02r 12g 03r", carry=4, moves=_PPEOK3_MOVES)
    assert mg.pays(g) == [
        (1, 0, 7, "cheot_ppeok"),
        (1, 0, 14, "yeon_ppeok"),
        (1, 0, 21, "sam_yeon_ppeok"),
        (1, 0, 28, "sam_ppeok"),
    ]


@pytest.mark.parametrize(("first", "pays"), [(True, [(1, 0, 7, "cheot_ttadak")]), (False, [])])
def test_cheot_ttadak(mg: SimpleNamespace, first: bool, pays: list[Any]) -> None:
    if first:
        g = mg.game(dealer_hand="05p2", floor="05a 05p1", pile="05r")
        moves = ["play 05p2", "pick 05a"]
    else:
        g = mg.game(
            dealer_hand="09p1 05p2", other_hand="10p1", floor="05a 05p1", pile="11p1 12g 05r"
        )
        moves = ["play 09p1", "play 10p1", "play 05p2", "pick 05a"]
    events = mg.run(g, moves)
    assert "ttadak" in mg.types(events)
    assert mg.pays(g) == pays


# ------------------------------------------------------------------ 나가리


def test_nagari_when_the_hands_run_out(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2", "06p2"),
        floor="05p1 06p1",
        pile="09p1 10p1",
        captured=("01g 03g", "02a 04a"),
        **_LATE,
    )
    mg.run(g, ["play 05p2"])
    assert not g.over and g.current == 1
    events = mg.run(g, ["play 06p2"])
    assert g.over and g.winner is None and g.points == 0 and g.payments == []
    assert g.end_reason == "nagari" and events[-1] == ("end", None, 0, "nagari")
    assert g.legal_actions() == []


def test_nagari_after_a_go_that_never_rose(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2", "06p2"),
        floor="05p1 06p1",
        pile="09p1 10p1",
        captured=("01g 03g 08g 01r 02r 03r 04r 07r", ""),
        go=(1, 0),
        **_LATE,
    )
    assert g.score(0) == 7
    mg.run(g, ["play 05p2", "play 06p2"])
    assert g.over and g.winner is None and g.end_reason == "nagari"


# ------------------------------------------------------------------ golden records


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_records(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    got = replay_json(record)
    for key in ("finished", "winner", "points"):
        assert got[key] == expected[key], key
    assert [{k: p[k] for k in ("from", "to", "points")} for p in got["payments"]] == expected[
        "payments"
    ]
    state = replay(record)
    assert export_record(state)["moves"] == record["moves"]
    assert state.total_cards() == state.rules.deck_mask


def test_there_are_five_golden_records() -> None:
    assert len(GOLDEN_NAMES) == 5
