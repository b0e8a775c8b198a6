"""The mahjong engine: deal, flowers, turns, kans, 엎어/불러, 하이떼이, 나가리, match,
actions, events and views — on crafted walls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.mahjong.walls import options, play

from madang.core.errors import IllegalActionError, InvalidActionError, RecordError
from madang.mahjong.engine import (
    MahjongMatch,
    build_wall,
    default_action,
    legal_actions,
    new_hand,
    step,
    tile_counts,
)
from madang.mahjong.events import redact, redact_all
from madang.mahjong.state import Action, HandState
from madang.mahjong.tiles import parse_tiles, tile_name, to_counts
from madang.mahjong.view import view

FULL = [4] * 25 + [1] * 4


def deal(
    hands: list[str],
    rules: dict[str, Any] | None = None,
    *,
    pot: int = 0,
    dealer: int = 0,
    **kw: Any,
) -> HandState:
    return new_hand(rules, wall=build_wall(hands, dealer=dealer, **kw), dealer=dealer, pot=pot)


def run_default(st: HandState, until: Any = None) -> None:
    while not st.over and not (until and until(st)):
        for seat in list(st.pending):
            step(st, default_action(st, seat))


# -- actions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "0 discard 3m",
        "1 discard 9p eopeo",
        "2 discard 7z bulleo",
        "3 tsumo",
        "0 ron",
        "1 pon",
        "2 kan",
        "3 ankan 1z",
        "0 kakan 5p",
        "1 pass",
    ],
)
def test_action_notation_round_trips(text: str) -> None:
    a = Action.parse(text)
    assert a.move == text
    assert Action.parse(str(a), seat=a.seat) == a
    assert eval(repr(a)) == a


@pytest.mark.parametrize(
    "text",
    [
        "discard 3m",
        "0 discard",
        "0 discard 3s",
        "0 discard 1f",
        "0 discard 3m riichi",
        "0 pon 3m",
        "4 pass",
        "0 chi",
        "0",
        "",
        "0 ankan",
        "0 tsumo now",
    ],
)
def test_malformed_actions_raise(text: str) -> None:
    with pytest.raises(InvalidActionError):
        Action.parse(text)


def test_action_fields_are_validated() -> None:
    with pytest.raises(InvalidActionError):
        Action(0, "discard", 25)
    with pytest.raises(InvalidActionError):
        Action(0, "pon", 3)
    with pytest.raises(InvalidActionError):
        Action(0, "pass", -1, "eopeo")


# -- deal and flowers -----------------------------------------------------------------


def test_deal_order_4_4_4_1_and_the_dealers_14th() -> None:
    # positions 0-47: blocks of four of kinds 0-11; 48-51: kinds 12-15; 52: kind 16
    kinds = [k for k in range(12) for _ in range(4)] + [12, 13, 14, 15, 16]
    rest = [k for k in range(29) for _ in range((4 if k < 25 else 1) - kinds.count(k))]
    codes = [tile_name(k) for k in kinds + rest]
    st = new_hand(wall=codes, dealer=2)
    for offset, seat in enumerate((2, 3, 0, 1)):
        dealt = [offset] * 4 + [offset + 4] * 4 + [offset + 8] * 4 + [12 + offset]
        if seat == 2:
            dealt.append(16)
        assert st.hands[seat] == to_counts(dealt)
    assert st.turn == 2 and st.pending == [2] and st.draws[2] == 1 and st.drawn == 16
    assert st.front == 53 and st.back == 104 and st.wall_count == 51
    assert tile_counts(st) == FULL


def test_flowers_replaced_from_the_back_dealer_first() -> None:
    hands = ["1f123m456m789m23p", "", "2f3f147m258p", ""]
    st = deal(hands, draws="9p", back="4f7z6z5z")
    assert st.flowers == [[25, 28], [], [26, 27], []]
    assert st.hands[0][24] == 1  # 4f replaced by 7z: dealer's 1f took 4f then 7z
    assert st.hands[2][23] == 1 and st.hands[2][22] == 1  # 6z for 2f, 5z for 3f
    assert st.back == 100 and st.drawn == 17  # the dealer's 14th (9p) stays its draw
    assert tile_counts(st) == FULL
    types = [e["type"] for e in st.deal_events]
    assert types.count("flower") == 4 and types[:2] == ["deal", "draw"]


def test_dealer_14th_flower_is_replaced_and_counts_as_the_draw() -> None:
    st = deal(["123m456m789m123p4p", "", "", ""], draws="1f", back="5z")
    assert st.flowers[0] == [25] and st.drawn == 22


def test_flower_drawn_in_play() -> None:
    hands = ["147m258p369p1234z", "258m147p67z1234z6m", "99m15m37p67z1234z5p", "123p456p789p234m5z"]
    st = deal(hands, draws="7z 2f", back="3z")
    events = play_events(st, "0 discard 7z")
    assert [e["type"] for e in events] == ["discard", "flower", "draw"]
    assert events[2] == {"type": "draw", "seat": 1, "tile": "3z", "back": True}
    assert st.flowers[1] == [26] and st.drawn == 20 and st.back == 103


def play_events(st: HandState, move: str) -> list[dict[str, Any]]:
    return step(st, Action.parse(move))


# -- kans ---------------------------------------------------------------------------


def test_ankan_and_kan_draw_tsumo() -> None:
    st = deal(["1111z234m567m89p5z", "", "", ""], draws="5z", back="7p")
    assert "ankan 1z" in options(st, 0)
    play(st, "0 ankan 1z")
    assert [(m.kind, m.tile) for m in st.melds[0]] == [("ankan", 18)]
    assert st.kan_draw and st.drawn == 15 and st.back == 103
    assert st.any_call
    assert options(st, 0)[0] == "tsumo"
    play(st, "0 tsumo")
    assert st.result is not None
    win = st.result.winners[0]
    assert "kan_draw" in win.flags and "first_draw" not in win.flags
    assert tile_counts(st) == FULL


# -- 엎어 / 불러 -------------------------------------------------------------------------


def test_eopeo_and_bulleo_offered_for_discards_that_leave_a_ready_hand() -> None:
    st = deal(["123m456m789m234p5z", "", "", ""], draws="9p")
    opts = options(st, 0)
    assert [o for o in opts if o.endswith("eopeo")] == ["discard 9p eopeo", "discard 5z eopeo"]
    assert [o for o in opts if o.endswith("bulleo")] == ["discard 9p bulleo", "discard 5z bulleo"]


def test_bulleo_reveals_waits_and_freezes_the_hand() -> None:
    st = deal(["1112z456m789m234p", "", "", ""], draws="5z 1m 1m 1m 1z")
    ev = play_events(st, "0 discard 5z bulleo")
    assert ev[0] == {
        "type": "discard",
        "seat": 0,
        "tile": "5z",
        "declare": "bulleo",
        "double": True,
        "waits": ["2z"],
    }
    assert st.declared[0] == 2 and st.double[0]
    for seat in (1, 2, None):
        assert view(st, seat)["players"][0]["waits"] == ["2z"]
        assert view(st, seat)["players"][0]["face_down"]
    run_default(st, lambda s: s.turn == 0 and s.phase == "discard")
    assert st.drawn == 18  # the fourth 1z: no ankan after 엎어
    assert options(st, 0) == ["discard 1z"]


def test_eopeo_hand_wins_with_its_flags() -> None:
    st = deal(["123m456m789m234p5z", "", "", ""], draws="9p 1z 1z 1z 5z")
    play(st, "0 discard 9p eopeo")
    run_default(st, lambda s: s.turn == 0 and s.phase == "discard")
    assert options(st, 0) == ["tsumo", "discard 5z"]
    play(st, "0 tsumo")
    assert st.result is not None
    assert st.result.winners[0].flags == frozenset({"double_eopeo"})


@pytest.mark.parametrize(
    ("hand", "min_pan", "offered"),
    [
        ("123m456m234p678p5z", 0, True),
        ("123m456m234p678p5z", 2, False),  # 멘젠 1 on 쏘아: under 양판 no 엎어
        ("123m456m789m234p5z", 2, True),  # 통관 2 + 멘젠 1
        ("123m456m789m234p5z", 3, True),
        ("123m456m234p678p5z", 3, False),
    ],
    ids=["menjen-mupan", "menjen-yangpan", "ittsu-yangpan", "ittsu-sampan", "menjen-sampan"],
)
def test_eopeo_needs_a_wait_reaching_the_minimum(hand: str, min_pan: int, offered: bool) -> None:
    st = deal([hand, "", "", ""], {"min_pan": min_pan}, draws="9p")
    assert ("discard 9p eopeo" in options(st, 0)) is offered


def test_eopeo_needs_four_tiles_in_the_wall() -> None:
    # Seats 0 and 3 are ready and discard every tile they draw; seat 0 draws when the
    # wall holds 3, 7, 11 … tiles, seat 3 when it holds 0, 4, 8 …
    hands = ["1234f123m456m789m", "55z2589m147p1236z", "147m258m369m1p2p3p", "123p456p789p234m6z"]
    st = new_hand(wall=build_wall(hands, back="1p2p3p5z"))
    seen: set[tuple[int, int]] = set()
    while not st.over:
        if st.phase == "discard" and st.turn in (0, 3):
            has = any(o.endswith("eopeo") for o in options(st, st.turn))
            assert has is (st.wall_count >= 4)
            seen.add((st.turn, st.wall_count))
        for seat in list(st.pending):
            step(st, default_action(st, seat))
    assert {(0, 3), (0, 7), (3, 0), (3, 4)} <= seen


def test_no_eopeo_with_an_open_hand() -> None:
    hands = ["147m258p369p1234z", "555z123m456m789m2p", "258m147p67z1234z6m", "369m369p67z123z4p"]
    st = deal(hands, draws="5z")
    play(st, "0 discard 5z", "1 pon")
    assert not any("eopeo" in o for o in options(st, 1))


# -- first draw, 하이떼이, 나가리 ----------------------------------------------------------


def test_cheonhwa_dealer_wins_on_the_first_14() -> None:
    st = deal(["123m456m789m234p5z", "", "", ""], draws="5z")
    assert options(st, 0)[0] == "tsumo"
    play(st, "0 tsumo")
    assert st.result is not None
    assert "first_draw" in st.result.winners[0].flags
    assert st.result.dealer_keeps


def test_inhwa_non_dealer_wins_on_its_first_draw() -> None:
    hands = ["147m258p369p1234z", "123m456m789m234p5z", "", ""]
    st = deal(hands, draws="7z 5z")
    play(st, "0 discard 7z")
    assert st.turn == 1 and st.phase == "discard"
    play(st, "1 tsumo")
    assert st.result is not None
    w = st.result.winners[0]
    assert w.seat == 1 and "first_draw" in w.flags
    assert not st.result.dealer_keeps
    assert sorted(p[0] for p in st.result.payments) == [0, 2, 3]


HAITEI = ["1234f147m258p369p", "2589m147p12366z", "147m258m369m1p2p3p", "123p456p789p234m5z"]


def test_haitei_tsumo_on_the_last_tile() -> None:
    st = new_hand(wall=build_wall(HAITEI, back="1z1z7z7z", tail="5z"))
    run_default(st, lambda s: s.phase == "discard" and s.wall_count == 0)
    assert st.turn == 3 and options(st, 3)[:1] == ["tsumo"]
    play(st, "3 tsumo")
    assert st.result is not None and "haitei" in st.result.winners[0].flags


def test_nagari_adds_to_the_pot_and_the_dealer_keeps() -> None:
    st = new_hand(wall=build_wall(HAITEI, back="1z1z7z7z", tail="5z"), pot=5)
    ev: list[dict[str, Any]] = []
    while not st.over:
        for seat in list(st.pending):
            ev = step(st, default_action(st, seat))
    assert st.result is not None and st.result.nagari
    assert st.result.next_pot == 10 and st.result.dealer_keeps
    assert ev[-2:] == [{"type": "nagari", "pot": 10}, {"type": "end"}]
    assert legal_actions(st) == [] and st.pending == []
    with pytest.raises(IllegalActionError):
        step(st, Action(0, "pass"))


# -- illegal actions ----------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        "1 discard 1m",
        "0 discard 1p",
        "0 ron",
        "0 pon",
        "0 tsumo",
        "0 ankan 1m",
        "0 kakan 1m",
        "0 pass",
        "0 discard 1m eopeo",
    ],
)
def test_illegal_action_raises_and_changes_nothing(move: str) -> None:
    st = new_hand(wall=build_wall(["147m258p369p1234z", "", "", ""], draws="7z"))
    before = st.snapshot()
    with pytest.raises(IllegalActionError):
        step(st, Action.parse(move))
    assert st.snapshot() == before


def test_illegal_claim_answer_changes_nothing() -> None:
    hands = ["147m258p369p1234z", "258m147p55z1236z7z", "123m456m789m234p5z", "369m369p123467z5p"]
    st = deal(hands, draws="5z")
    play(st, "0 discard 5z", "1 pon")
    before = st.snapshot()
    for move in ("1 pass", "2 pon", "3 pass", "0 discard 1m", "2 kan"):
        with pytest.raises(IllegalActionError):
            step(st, Action.parse(move))
        assert st.snapshot() == before


def test_not_an_action() -> None:
    st = new_hand(seed=1)
    with pytest.raises(IllegalActionError):
        step(st, "0 discard 1m")  # type: ignore[arg-type]


def test_bad_walls_and_settings() -> None:
    with pytest.raises(RecordError):
        new_hand(wall=["1m"] * 104)
    with pytest.raises(RecordError):
        new_hand(wall=list(range(103)))
    with pytest.raises(RecordError):
        build_wall(["11111m", "", "", ""])
    with pytest.raises(RecordError):
        new_hand(wall=[*build_wall(["", "", "", ""])[:-1], "8z"])


# -- defaults -------------------------------------------------------------------------


def test_default_actions() -> None:
    hands = ["147m258p369p1234z", "258m147p55z1236z7z", "123m456m789m234p5z", "369m369p123467z5p"]
    st = deal(hands, draws="5z")
    assert default_action(st, 0) == Action(0, "discard", 22)
    with pytest.raises(IllegalActionError):
        default_action(st, 1)
    play(st, "0 discard 5z")
    assert default_action(st, 1) == Action(1, "pass")
    assert default_action(st, 2) == Action(2, "pass")
    play(st, "2 pass", "1 pon")
    assert default_action(st, 1) == Action(1, "discard", 24)  # the highest tile: 7z


# -- views and events -------------------------------------------------------------------


def test_view_hides_others_and_the_wall() -> None:
    st = new_hand(seed=8)
    for seat in (0, 1, 2, 3, None):
        v = view(st, seat)
        json.dumps(v)
        assert "wall" not in v and v["wall_count"] == st.wall_count
        for p in v["players"]:
            if p["seat"] == seat and seat is not None:
                assert sorted(parse_tiles("".join(p["hand"]))) == [
                    k for k in range(25) for _ in range(st.hands[seat][k])
                ]
            else:
                assert p["hand"] is None and p["drawn"] is None and p["golla"] is None
            assert p["concealed"] == sum(st.hands[p["seat"]])
    assert "legal_actions" not in view(st, 0)  # the table adds it for a person
    with pytest.raises(InvalidActionError):
        view(st, 4)


def test_claim_window_pending_shown_only_to_the_asked_seat() -> None:
    hands = ["147m258p369p1234z", "258m147p55z1236z7z", "123m456m789m234p5z", "369m369p123467z5p"]
    st = deal(hands, draws="5z")
    events = play_events(st, "0 discard 5z")
    assert view(st, 1)["pending"] == [1] and view(st, 3)["pending"] == []
    assert view(st, None)["pending"] == []
    asks = [e for e in events if e["type"] == "ask"]
    assert [e["seat"] for e in asks] == [1, 2]
    assert redact_all(events, 3) == [events[0]]
    assert redact_all(events, 1) == [events[0], asks[0]]


def test_draw_and_deal_events_are_redacted() -> None:
    st = new_hand(seed=3)
    deal_ev = st.deal_events
    for seat in range(4):
        mine = next(e for e in deal_ev if e["type"] == "deal" and e["seat"] == seat)
        assert redact(mine, seat) == mine
        other = redact(mine, (seat + 1) % 4)
        assert other == {"type": "deal", "seat": seat, "count": 13}
    e = {"type": "draw", "seat": 2, "tile": "5z", "back": True}
    assert redact(e, 1) == {"type": "draw", "seat": 2, "back": True}
    assert redact(e, None) == {"type": "draw", "seat": 2, "back": True}


# -- the match -------------------------------------------------------


def test_clone_is_independent() -> None:
    st = new_hand(seed=9)
    c = st.clone()
    step(c, default_action(c, 0))
    assert c.snapshot() != st.snapshot()
    assert st.snapshot() == new_hand(seed=9).snapshot()


def _finish(st: HandState, rng_choice: Any) -> None:
    while not st.over:
        acts = legal_actions(st)
        wins = [a for a in acts if a.verb in ("tsumo", "ron")]
        step(st, wins[0] if wins else rng_choice(acts))


@pytest.mark.parametrize("rounds", [1, 2])
def test_match_dealer_rotation_and_ledger(rounds: int) -> None:
    import random

    rng = random.Random(rounds)
    m = MahjongMatch({"rounds": rounds}, seed=rounds)
    dealers: list[int] = []
    while not m.over:
        st = m.hand
        dealers.append(st.dealer)
        assert st.round_wind == 18 + m.passes // 4
        _finish(st, rng.choice)
        before = m.dealer
        assert st.result is not None
        keeps = st.result.dealer_keeps
        m.next_hand()
        if not m.over:
            assert (m.dealer == before) is keeps
            assert m.hand.pot == st.result.next_pot
    assert m.passes == 4 * rounds
    assert sum(m.scores) == 0
    assert m.scores == [
        sum(p for f, t, p, _ in m.ledger if t == s) - sum(p for f, t, p, _ in m.ledger if f == s)
        for s in range(4)
    ]
    assert m.next_hand() is None
    assert dealers[0] == 0


def test_match_next_hand_needs_a_finished_hand() -> None:
    m = MahjongMatch(seed=1)
    with pytest.raises(IllegalActionError):
        m.next_hand()
