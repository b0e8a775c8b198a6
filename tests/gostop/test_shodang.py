"""쇼당 (shodang, ``gostop.md`` §7, §13.17, §14.6, option ``shodang``): when a player may
call it, the answers in turn order, 나가리 when both accept, and the refuser paying every
share when the one who accepted wins by 스톱."""

from __future__ import annotations

import pytest
from tests.gostop.tables import give, stop_with, table

from madang.core.errors import IllegalActionError
from madang.gostop.record import next_game
from madang.gostop.rules import GostopRules
from madang.matgo import actions as A
from madang.matgo.cards import codes_of, parse_cards
from madang.matgo.engine import MatgoState, Phase
from madang.matgo.view import view

SH = GostopRules(shodang=True)


def called(
    rules: GostopRules = SH,
    hand: str = "08a 03r 10p1",
    answers: tuple[str, str] = ("accept", "refuse"),
) -> MatgoState:
    """§13.17: P0 holds 08a and 03r; P1 captured 02a 04a (birds), P2 01r 02r (홍단); P0
    calls 쇼당 and P1, then P2, answer."""
    g = table({0: hand}, rules=rules)
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    assert A.SHODANG in g.legal_actions()
    g.step("shodang")
    for a in answers:
        g.step(f"shodang {a}")
    return g


def test_worked_example_17() -> None:
    g = table({0: "08a 03r 10p1"}, rules=SH)
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    hand = g.hands[0]
    g.step("shodang")
    # P0's hand is shown to both; P1 answers first, then P2
    assert g.revealed[0] == hand
    assert view(g, 1)["revealed"][0] == view(g, 0)["hand"] == codes_of(hand)
    assert view(g, 2)["revealed"][0] == view(g, None)["revealed"][0] == codes_of(hand)
    assert g.pending() == {"seat": 1, "question": "shodang"}
    assert g.legal_actions() == [A.SHODANG_ACCEPT, A.SHODANG_REFUSE]
    g.step("shodang accept")
    assert g.pending() == {"seat": 2, "question": "shodang"}
    g.step("shodang refuse")
    assert (g.current, g.phase) == (0, Phase.PLAY) and A.SHODANG not in g.legal_actions()
    # P1 (who accepted) wins with 고도리 (5) and no 박: P2 pays both shares
    stop_with(g, 1, {1: "02a 04a 08a", 0: "06p1", 2: "07p1"})
    assert g.payments == [(2, 1, 10, "win")]


def test_both_accept_is_nagari() -> None:
    g = called(answers=("accept", "accept"))
    assert g.over and g.winner is None and g.end_reason == "nagari" and g.payments == []
    assert next_game(g) == {"dealer": 0, "carry": 2, "no_die": []}


@pytest.mark.parametrize(
    ("answers", "winner", "want"),
    [
        (("accept", "refuse"), 2, [(0, 2, 5, "win"), (1, 2, 5, "win")]),  # the refuser wins
        (("refuse", "refuse"), 1, [(2, 1, 5, "win"), (0, 1, 5, "win")]),  # nobody accepted
        (("refuse", "accept"), 0, [(1, 0, 5, "win"), (2, 0, 5, "win")]),  # the caller wins
        (("refuse", "accept"), 2, [(1, 2, 10, "win")]),  # P2 accepted and wins: P1 pays
    ],
)
def test_the_refuser_pays_only_when_the_one_who_accepted_wins(
    answers: tuple[str, str], winner: int, want: list[tuple[int, int, int, str]]
) -> None:
    g = called(answers=answers)
    piles = {0: "06p1", 1: "07p1", 2: "09p1"}
    piles[winner] = "02a 04a 08a"
    stop_with(g, winner, piles)
    assert g.payments == want


def test_gobak_takes_precedence_and_the_multiplier_is_not_the_refusers() -> None:
    # P0 (the caller) called 고: it is in 고박 and pays every share, x2 with
    # gobak_multiplier 2; without 고박 the refuser's payment is never doubled
    g = called(GostopRules(shodang=True, gobak_multiplier=2))
    stop_with(g, 1, {1: "02a 04a 08a", 0: "06p1", 2: "07p1"}, go=[0])
    assert g.payments == [(0, 1, 20, "win")]
    g = called(GostopRules(shodang=True, gobak_multiplier=2))
    stop_with(g, 1, {1: "02a 04a 08a", 0: "06p1", 2: "07p1"})
    assert g.payments == [(2, 1, 10, "win")]


def test_no_refuser_pays_after_three_ppeok() -> None:
    # §14.6: P1 accepted and wins by 3뻑: each other player pays its points
    g = table({0: "08a 03r 12g", 1: "07p1 10a"}, floor="07r", pile="11g 07p2", rules=SH)
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    g.ppeok_count[1] = 2
    g.turns[1] = 4
    g.ppeok_turns[1] = 1 << 2 | 1 << 4  # earlier 뻑 on turns 2 and 4: no instant payment
    for m in ("shodang", "shodang accept", "shodang refuse", "play 12g", "play 07p1"):
        g.step(m)
    assert g.end_reason == "sam_ppeok" and g.winner == 1
    assert g.payments == [(2, 1, 3, "sam_ppeok"), (0, 1, 3, "sam_ppeok")]


def test_when_shodang_may_be_called() -> None:
    # both opponents threatened: one is not enough
    g = table({0: "08a 03r 10p1"}, rules=SH)
    give(g, 1, "02a 04a")
    give(g, 2, "01r 03p1")
    assert A.SHODANG not in g.legal_actions()
    # a 광 threat: P1 and P2 each hold exactly two 광, P0 a third — one card may do both,
    # but the caller needs two hand cards (a bonus card counts, a bomb token does not)
    for hand, tokens, legal in (("12g b2", 0, True), ("12g", 1, False), ("12g 10p1", 0, True)):
        g = table({0: hand}, rules=SH)
        give(g, 1, "01g 03g")
        give(g, 2, "08g 11g")
        g.hands[0] = sum(1 << c for c in parse_cards(hand))
        g.tokens[0] = tokens
        g._legal = None
        assert (A.SHODANG in g.legal_actions()) is legal, hand
    # not after a bonus card was played this turn; not with the option off
    g = table({0: "b2 08a 03r"}, pile="10p2", rules=SH)
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    assert A.SHODANG in g.legal_actions()
    g.step("play b2")
    assert (g.current, g.phase) == (0, Phase.PLAY) and A.SHODANG not in g.legal_actions()
    with pytest.raises(IllegalActionError, match="shodang is not legal now"):
        g.step("shodang")
    g = table({0: "08a 03r 10p1"})
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    assert A.SHODANG not in g.legal_actions()


def test_once_per_game_in_all() -> None:
    g = called(answers=("refuse", "refuse"))
    assert g.shodang_by == 0
    give(g, 0, "01g 03g")  # now P0 and P2 would threaten … no one may call again
    g.step(g.default_action())
    while not g.over:
        assert A.SHODANG not in g.legal_actions()
        g.step(g.default_action())


def test_default_answer_is_accept() -> None:
    g = called(answers=())
    assert g.default_action() == A.SHODANG_ACCEPT
    assert g.pending() == {"seat": 1, "question": "shodang"}
