"""고스톱 with four at the table (광팔기, ``gostop.md`` §8, §13.15–16, §14.1–5): the deal,
who sits out (join/die in order, 연사 금지, or 선+3 always), the sitter's cards under the
pile and in no view, 광값 and who pays it, the order of the checks, and play among the
three with the seat numbers kept."""

from __future__ import annotations

import json
import random

import pytest
from tests.gostop.tables import give, stop_with, table
from tests.gostop.test_properties import check_views, shown_cards

from madang.core.errors import IllegalActionError, RecordError
from madang.gostop.game import GostopMatch, GostopSession
from madang.gostop.record import export_record, next_game, replay, replay_json
from madang.gostop.rules import GostopRules
from madang.matgo import actions as A
from madang.matgo.cards import BIT, CODES, format_cards, parse_cards
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.rules import BonusCards, Chongtong, GwangPayers, GwangSeller
from madang.matgo.view import view

G4 = GostopRules(players=4)
#: §13.15: P3's hand: 3 광 and a May triple
SELLER = "01g 11g 12g 05p1 05p2 05a 09r"


def four(
    hands: dict[int, str] | None = None, *, rules: GostopRules = G4, **kw: object
) -> MatgoState:
    return table(hands or {3: SELLER}, rules=rules, **kw)  # type: ignore[arg-type]


def seats_paid(g: MatgoState) -> list[tuple[int, int, int, str]]:
    return list(g.payments)


# ------------------------------------------------------------------ deal and decisions


def test_deal_of_four_positions() -> None:
    # §8.2: 선+1 0–3, 19–21; 선+2 4–7, 22–24; 선+3 8–11, 25–27; 선 12–15, 28–30; floor
    # 16–18, 31–33; pile from 34 — here 선 is P1, so 선+1 is P2 … 선+3 is P0
    g = next(
        g
        for seed in range(50)
        if (g := new_game(G4, seed=seed, dealer=1)).phase is Phase.JOIN and not g.captured[1]
    )
    ids = g.deck
    spans = {
        2: [*range(0, 4), *range(19, 22)],
        3: [*range(4, 8), *range(22, 25)],
        0: [*range(8, 12), *range(25, 28)],
        1: [*range(12, 16), *range(28, 31)],
    }
    for seat, at in spans.items():
        assert g.hands[seat] == sum(BIT[ids[i]] for i in at), seat
    assert g.floor == sum(BIT[ids[i]] for i in (16, 17, 18, 31, 32, 33))
    assert len(g.pile) == 17 and g.pile[-1] == ids[34]
    assert g.pending() == {"seat": 2, "question": "join"} and g.legal_actions() == [175, 176]


def test_forced_sale_both_join() -> None:
    # §13.15: P1 join, P2 join: P3 sits out and sells 1 x 3 x 2 = 6, paid by P1 and P2
    # before P0's first move; its seven cards go under the pile; play is P0, P1, P2
    g = four()
    g.step("join")
    assert g.pending() == {"seat": 2, "question": "join"}
    g.step("join")
    assert (g.sitter, g.seller) == (3, 3)
    assert seats_paid(g) == [(1, 3, 6, "gwang_sale"), (2, 3, 6, "gwang_sale")]
    assert (g.current, g.phase) == (0, Phase.PLAY) and not g.hands[3]
    assert format_cards(sum(BIT[c] for c in g.pile[:7])) == format_cards(
        sum(BIT[c] for c in parse_cards(SELLER))
    )
    assert [c for c in reversed(g.pile[:7])] == [g.deck[i] for i in (8, 9, 10, 11, 25, 26, 27)]
    assert len(g.pile) == 24
    seen = []
    for _ in range(6):
        seen.append(g.current)
        g.step(g.default_action())
        while g.phase is not Phase.PLAY and not g.over:
            g.step(g.default_action())
    assert seen == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(
    ("payers", "want"),
    [
        (GwangPayers.NON_DEALERS, [(1, 3, 6), (2, 3, 6)]),
        (GwangPayers.ALL, [(0, 3, 6), (1, 3, 6), (2, 3, 6)]),
        (GwangPayers.WINNER, []),
    ],
    ids=["non_dealers", "all", "winner"],
)
def test_who_pays_the_gwang_price(payers: GwangPayers, want: list[tuple[int, int, int]]) -> None:
    # §13.15: with "all" 선 pays 6 too; with "winner" only the winner pays, after its win
    g = four(rules=GostopRules(players=4, gwang_payers=payers))
    g.step("join")
    g.step("join")
    assert [p[:3] for p in g.payments] == want
    stop_with(g, 1, {1: "01r 02r 03r", 0: "06p1", 2: "07p1"})
    assert g.payments[len(want) :] == [(2, 1, 3, "win"), (0, 1, 3, "win")] + (
        [(1, 3, 6, "gwang_sale")] if payers is GwangPayers.WINNER else []
    )
    assert g.points == 6  # 광값 is not the win's


def test_winner_pays_nothing_after_nagari() -> None:
    # §14.5: gwang_payers "winner": a 나가리 (here both accept a 쇼당) pays no 광값
    rules = GostopRules(players=4, gwang_payers=GwangPayers.WINNER, shodang=True)
    g = four({3: SELLER, 0: "08a 03r 10p1"}, rules=rules)
    run_moves(g, ["join", "join"])
    give(g, 1, "02a 04a")
    give(g, 2, "01r 02r")
    run_moves(g, ["shodang", "shodang accept", "shodang accept"])
    assert g.over and g.end_reason == "nagari" and g.winner is None and g.payments == []
    assert next_game(g) == {"dealer": 0, "carry": 2, "no_die": []}


def run_moves(g: MatgoState, moves: list[str]) -> None:
    for m in moves:
        g.step(m)


def test_voluntary_die() -> None:
    # §13.16: P1 dies: it sits out and is paid nothing; P2 is not asked; play is P0, P2,
    # P3, with steals among them only; next game P1 is in no_die and is not asked
    g = four({0: "05p1", 3: "01g 11g 12g"}, pile="05p2")
    give(g, 1, "03p1")
    g.step("die")
    assert (g.sitter, g.seller, g.payments) == (1, -1, [])
    assert (g.current, g.phase) == (0, Phase.PLAY)
    give(g, 2, "04p1")
    give(g, 3, "06p1")
    g.step("play 05p1")  # 쪽: P2 and P3 give, P1 (sitting out) is never stolen from
    assert [(e[2], e[4]) for e in g.events if e[0] == "steal"] == [(2, "jjok"), (3, "jjok")]
    assert g.current == 2
    g.step(g.default_action())
    while g.phase is not Phase.PLAY:
        g.step(g.default_action())
    assert g.current == 3
    while not g.over:
        g.step(g.default_action())
    assert all(1 not in (f, t) for f, t, _, _ in g.payments)
    assert next_game(g)["no_die"] == [1]  # type: ignore[index]
    # the next game: P1 (선+1) is not asked and joins; P2 is asked
    nxt = four(dealer=0, no_die=[1])
    assert nxt.pending() == {"seat": 2, "question": "join"}
    nxt.step("die")
    assert nxt.sitter == 2
    # without 연사 금지 no_die is ignored: P1 is asked again
    lax = four(rules=GostopRules(players=4, yeonsa_ban=False), no_die=[1])
    assert lax.pending() == {"seat": 1, "question": "join"}
    assert next_game(_played_out(GostopRules(players=4, yeonsa_ban=False), "die"))["no_die"] == []  # type: ignore[index]


def _played_out(rules: GostopRules, first: str) -> MatgoState:
    for seed in range(100):
        g = new_game(rules, seed=seed)
        if g.phase is Phase.JOIN:
            g.step(first)
            while not g.over:
                g.step(g.default_action())
            if g.end_reason != "redeal":
                return g
    raise AssertionError("no game")  # pragma: no cover


def test_both_barred_seats_join_and_last_sells() -> None:
    # no_die holding 선+1 and 선+2: nobody is asked; 선+3 sells at once
    g = four(no_die=[1, 2])
    assert (g.sitter, g.seller, g.phase, g.current) == (3, 3, Phase.PLAY, 0)


def test_gwang_seller_last_asks_nobody() -> None:
    g = four(rules=GostopRules(players=4, gwang_seller=GwangSeller.LAST), dealer=0)
    assert (g.sitter, g.seller, g.phase) == (3, 3, Phase.PLAY)
    assert [e[0] for e in g.events if e[0] in ("join", "die", "sell")] == ["sell"]
    assert [p[:3] for p in g.payments] == [(1, 3, 6), (2, 3, 6)]
    with pytest.raises(IllegalActionError, match="join is not legal now"):
        g.step("join")


@pytest.mark.parametrize(
    ("rules", "hand", "price"),
    [
        (G4, "01p1 02p1 03p1 04p1 06p1 07p1 10p1", 0),  # §14.1: no 광: seller, nothing paid
        (G4, "01g 02p1 03p1 04p1 06p1 07p1 10p1", 1),
        (G4, "01g 06p1 06p2 06a 02p1 03p1 04p1", 2),  # §14.2: any triple doubles once
        (G4, "01g 06p1 06p2 06a 06r 02p1 03p1", 2),  # four of a month: still once
        (G4, "01g b3 02p1 03p1 04p1 06p1 07p1", 2),  # a bonus card counts as a 광
        (GostopRules(players=4, gwang_bonus_counts=False), "01g b3 02p1 03p1 04p1 06p1 07p1", 1),
        (GostopRules(players=4, gwang_price=2), SELLER, 12),
        (GostopRules(players=4, gwang_price=0), SELLER, 0),
    ],
    ids=["no-gwang", "one", "triple", "four", "bonus", "bonus-off", "price-2", "price-0"],
)
def test_gwang_price(rules: GostopRules, hand: str, price: int) -> None:
    g = four({3: hand}, rules=rules)
    run_moves(g, ["join", "join"])
    assert (g.sitter, g.seller) == (3, 3)
    want = [(1, 3, price, "gwang_sale"), (2, 3, price, "gwang_sale")] if price else []
    assert g.payments == want
    assert replay_json(export_record(g))["seller"] == 3


# ------------------------------------------------------------------ the order of the checks


def test_two_chongtong_among_the_three_is_a_redeal_after_the_decisions() -> None:
    # §14.3: a redeal has no payment at all; sitting_out and seller still report the
    # decisions; no_die carries over unchanged (the voided game's die does not count)
    seller = "01g 11g 12g 05p1 05p2 05a 10r"
    g = four({0: "08g 08a 08p1 08p2", 2: "09a 09r 09p1 09p2", 3: seller}, no_die=[2])
    assert g.pending() == {"seat": 1, "question": "join"}
    g.step("join")  # P2 is barred: it joins; P3 sells
    assert g.over and g.end_reason == "redeal" and g.payments == []
    out = replay_json(export_record(g))
    assert (out["sitting_out"], out["seller"], out["winner"]) == (3, 3, None)
    assert out["next"] == {"dealer": 0, "carry": 1, "no_die": [2]}
    g = four({0: "08g 08a 08p1 08p2", 2: "09a 09r 09p1 09p2", 3: seller})
    g.step("join")
    g.step("die")  # P2 sits out with its 총통: it counts for nothing; P0's wins
    assert g.end_reason == "chongtong" and g.winner == 0
    assert g.payments == [(1, 0, 5, "chongtong"), (3, 0, 5, "chongtong")]
    assert next_game(g) == {"dealer": 0, "carry": 1, "no_die": [2]}


def test_a_single_chongtong_comes_after_the_gwang_price() -> None:
    g = four({1: "08g 08a 08p1 08p2", 3: SELLER})
    run_moves(g, ["join", "join"])
    assert g.payments == [
        (1, 3, 6, "gwang_sale"), (2, 3, 6, "gwang_sale"),
        (2, 1, 5, "chongtong"), (0, 1, 5, "chongtong"),
    ]  # fmt: skip
    # the sitter's 총통 counts for nothing (but doubles its 광값: 2 광 x 2)
    g = four({3: "08g 08a 08p1 08p2 01g 02p1 03p1"})
    run_moves(g, ["join", "join"])
    assert not g.over and g.payments == [(1, 3, 4, "gwang_sale"), (2, 3, 4, "gwang_sale")]
    # chongtong: choice: the holder is asked after the sale, before 선's first move
    rules = GostopRules(players=4, chongtong=Chongtong.CHOICE)
    g = four({2: "08g 08a 08p1 08p2", 3: SELLER}, rules=rules)
    run_moves(g, ["join", "join"])
    assert (g.phase, g.current, len(g.payments)) == (Phase.CHONGTONG, 2, 2)


def test_four_on_the_floor_redeals_before_anyone_decides() -> None:
    g = four({3: SELLER}, floor="08g 08a 08p1 08p2", no_die=[1])
    assert g.over and g.end_reason == "redeal" and g.sitter == -1
    out = replay_json(export_record(g))
    assert (out["sitting_out"], out["seller"]) == (None, None)
    assert out["next"] == {"dealer": 0, "carry": 1, "no_die": [1]}


# ------------------------------------------------------------------ what is seen


def test_the_sitters_cards_are_in_no_view() -> None:
    # the seller's seven lie under the pile: no view (seats 0–3, the spectator) shows
    # them, during the decisions or after, nor do the session's events
    for moves in (["join", "join"], ["die"]):
        g = four()
        sitter_cards = g.hands[3] if moves == ["join", "join"] else g.hands[1]
        run_moves(g, moves)
        for seat in (0, 1, 2, 3, None):
            v = view(g, seat)
            assert not shown_cards(json.loads(json.dumps(v))) & sitter_cards, seat
            if seat == g.sitter:
                assert v["hand"] == []
            assert v["sitting_out"] == g.sitter and v["hand_counts"][g.sitter] == 0
        check_views(g)
        rng = random.Random(2)
        while not g.over:  # the seven come up from the pile only when flipped
            check_views(g)
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])


def test_a_session_of_four() -> None:
    s = GostopSession(GostopMatch(G4, seed=5, dealer=0))
    assert s.seats == 4 and s.pending() == [s.match.game.current]
    asked = s.pending()[0]
    assert s.question(asked) == "join" and s.legal(asked) == [175, 176]
    assert s.action_to_string(s.default_move(asked)) == "die"  # a timeout sits out
    assert [len(s.view(p)["hand"]) for p in range(4)] == [7, 7, 7, 7]
    assert "hand" not in s.view(None)
    with pytest.raises(IllegalActionError):
        s.step((asked + 1) % 4, 175)
    s.step(asked, 176)  # die
    rng = random.Random(1)
    while not s.over:
        seat = s.pending()[0]
        s.step(seat, rng.choice(s.legal(seat)))
    game = s.match.game
    assert s.outcome()["sitting_out"] == asked and s.outcome()["seller"] is None
    want = next_game(game)
    assert want is not None
    s.deal_next(False)
    assert s.match.no_die == want["no_die"] and s.match.game.no_die == tuple(want["no_die"])
    assert s.match.records[-1]["no_die"] == [] and s.match.records[-1]["players"] == 4


# ------------------------------------------------------------------ records and bad input


def test_records_of_four_round_trip() -> None:
    for seed in range(30):
        rules = GostopRules(players=4, shodang=seed % 2 == 1)
        g = new_game(rules, seed=seed, dealer=seed % 4, no_die=[(seed + 1) % 4] if seed % 3 else [])
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
        rec = json.loads(json.dumps(export_record(g)))
        assert rec["players"] == 4 and rec["no_die"] == list(g.no_die)
        assert replay(rec).snapshot() == g.snapshot()
        out = replay_json(rec)
        assert out["sitting_out"] == (None if g.sitter < 0 else g.sitter)
        assert out["seller"] == (None if g.seller < 0 else g.seller)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"no_die": [4]}, "no_die must be a list of seats"),
        ({"no_die": [1, 1]}, "no_die lists a seat twice"),
        ({"dealer": 4}, "dealer must be a seat from 0 to 3"),
        ({"moves": ["join", "die", "join"]}, r"move 2 \('join'\): join is not legal now"),
        ({"moves": ["shodang"]}, r"move 0 \('shodang'\): shodang is not legal now"),
        ({"moves": ["play 01g"]}, r"move 0 \('play 01g'\): play 01g is not legal now"),
        ({"moves": ["joinx"]}, r"move 0 \('joinx'\): malformed move"),
        ({"deck": None}, "deck must be a list"),
    ],
)
def test_bad_four_seat_records(change: dict[str, object], message: str) -> None:
    rec = json.loads(json.dumps(export_record(four())))
    if change.get("deck", 0) is None:
        change = {"deck": rec["deck"][:-1]}
        message = "does not match the rules"
    with pytest.raises(RecordError, match=message):
        replay({**rec, **change})


def test_join_and_die_are_not_moves_of_three_seats_or_matgo() -> None:
    g = table({0: "01g"})
    assert 175 not in g.legal_actions() and 176 not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.step("die")
    m = new_game(seed=1)
    with pytest.raises(IllegalActionError):
        m.step("join")
    assert CODES  # the card codes are shared
    assert GostopRules(players=4, bonus_cards=BonusCards.NONE).deck_size == 48


def test_a_state_from_a_four_seat_view_keeps_the_view() -> None:
    # bots rebuild worlds from a view: the decisions, the sitter, the sale and a 쇼당's
    # state come back, and with them the legal moves (the join question included)
    rules = GostopRules(players=4, shodang=True, gwang_payers=GwangPayers.WINNER)
    checked = 0
    for seed in range(60):
        g = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            if rng.random() < 0.3:
                for seat in range(4):
                    v = view(g, seat)
                    w = MatgoState.from_view(v, random.Random(seat))
                    got, want = view(w, seat), view(g, seat)
                    assert {k: x for k, x in got.items() if k != "last_played"} == {
                        k: x for k, x in want.items() if k != "last_played"
                    }
                    assert (w.sitter, w.seller, w.after) == (g.sitter, g.seller, g.after)
                    if g.current == seat:
                        assert w.legal_actions() == g.legal_actions()
                        checked += 1
            legal = g.legal_actions()
            g.step(A.SHODANG if A.SHODANG in legal else rng.choice(legal))
    assert checked > 100
