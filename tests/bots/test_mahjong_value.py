"""The value mahjong bot: discards and calls weighed by the 판 a hand can reach."""

from __future__ import annotations

import random
from typing import Any

import pytest

from madang.bots import mahjong_value
from madang.bots.base import Budget, make_bot
from madang.bots.mahjong_defensive import DangerModel, DefensiveBot
from madang.bots.mahjong_efficiency import EfficiencyBot, Table, discard_options
from madang.bots.mahjong_value import (
    ValueBot,
    ValueDanger,
    line_pan,
    wait_points,
    win_chance,
)
from madang.mahjong.engine import build_wall, legal_actions, new_hand, step
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import Action, HandState
from madang.mahjong.tiles import parse_tile, parse_tiles, to_counts
from madang.mahjong.view import view

BUDGET = Budget(0.05)


def ask(
    bot: Any, v: dict[str, Any], legal: list[Action], rng: random.Random, budget: Budget
) -> Action:
    """``bot``'s answer among the seat's ``legal`` actions: a bot takes and returns action
    ids (:attr:`Action.code`)."""
    by_code = {a.code: a for a in legal}
    return by_code[bot.act(v, list(by_code), rng, budget)]


def _act(bot: Any, state: HandState, seat: int) -> Any:
    return ask(bot, view(state, seat), list(legal_actions(state, seat)), random.Random(0), BUDGET)


def _offered(hand: str, tile: str, rules: MahjongRules | None = None) -> HandState:
    """Seat 1 holds ``hand`` and is offered ``tile``, the dealer's first discard."""
    state = new_hand(rules, wall=build_wall([tile, hand, "", ""], draws="7z"))
    k = parse_tile(tile)
    discard = next(
        a for a in legal_actions(state, 0) if a.verb == "discard" and a.tile == k and not a.declare
    )
    step(state, discard)
    assert state.phase == "claim" and 1 in state.pending
    return state


def test_hard_is_the_value_bot() -> None:
    assert make_bot("mahjong", "hard").name == "value"
    assert make_bot("mahjong", "defensive").name == "defensive"


def test_keeps_a_cheongilsaek_line_where_acceptance_says_otherwise() -> None:
    # 1112234555679m + 6p: throwing 9m keeps the most tiles that help (6p still joins
    # 5p/7p), throwing 6p keeps a hand of one suit only — 청일색, 8 판.
    state = new_hand(wall=build_wall(["1112234555679m", "", "", ""], draws="6p"))
    t = Table.from_view(view(state, 0))
    opts = {k: (sh, uk) for k, sh, uk, _ in discard_options(t.hand, 0, t.unseen)}
    six_p, nine_m = parse_tile("6p"), parse_tile("9m")
    assert opts[six_p][0] == opts[nine_m][0] and opts[six_p][1] < opts[nine_m][1]
    assert _act(DefensiveBot(), state, 0).tile == nine_m
    assert _act(ValueBot(), state, 0).tile == six_p


def test_declines_a_cheap_call_that_gives_up_menjen() -> None:
    # 뽕 on 5m makes 55m234m678m345p9p1z ready, but open and worth next to nothing
    # under 무판; concealed it keeps 멘젠 and its base points.
    state = _offered("55m234m678m345p9p1z", "5m")
    assert _act(EfficiencyBot(), state, 1).verb == "pon"
    assert _act(ValueBot(), state, 1).verb == "pass"


def test_calls_when_the_open_hand_is_worth_it() -> None:
    # 뽕 on 1m makes 11344456669m55z ready in one suit with a dragon pair: 혼일색.
    state = _offered("11344456669m55z", "1m")
    assert _act(ValueBot(), state, 1).verb == "pon"


def test_line_pan_weighs_patterns() -> None:
    vk = (22, 23, 24, 18, 18)
    unseen = [2] * 25
    concealed = to_counts(parse_tiles("234567m345p6688p"))
    assert line_pan(concealed, [], vk, unseen) > line_pan(concealed, [("pon", 9, 1)], vk, unseen)
    with_dragons = to_counts(parse_tiles("234m567m345p555z"))
    without = to_counts(parse_tiles("234m567m345p333z"))  # 서 (West): no 역패 here
    assert line_pan(with_dragons, [], vk, unseen) >= line_pan(without, [], vk, unseen) + 1


def test_win_chance_falls_with_distance_and_the_wall() -> None:
    assert win_chance(0, 8, 40) > win_chance(1, 8, 40) > win_chance(2, 8, 40)
    assert win_chance(0, 8, 40) > win_chance(0, 2, 40)
    assert win_chance(1, 16, 40) > win_chance(1, 16, 10)
    assert win_chance(0, 8, 40, others=1) < win_chance(0, 8, 40)


@pytest.mark.parametrize("min_pan", [0, 2, 3], ids=["mupan", "yangpan", "sampan"])
def test_plays_whole_hands_legally_under_each_minimum(min_pan: int) -> None:
    rules = MahjongRules(min_pan=min_pan)
    bots: list[Any] = [ValueBot(), EfficiencyBot(), ValueBot(), DefensiveBot()]
    for seed in range(3):
        state = new_hand(rules, seed=seed)
        while not state.over:
            seat = state.pending[0]
            legal = list(legal_actions(state, seat))
            action = ask(bots[seat], view(state, seat), legal, random.Random(seed), BUDGET)
            assert action in legal
            step(state, action)
        for w in state.result.winners:
            assert w.sheet.base_pan >= min_pan


def test_declares_bulleo_on_any_ready_hand() -> None:
    # 123456789m 2345p after throwing 5z: ready on 2p/5p, six tiles unseen — the
    # efficiency bot lays it down with 엎어; the value bot announces it with 불러 (2 부가판).
    state = new_hand(wall=build_wall(["123456789m2345p", "", "", ""], draws="5z"))
    five_z = parse_tile("5z")
    eff = _act(EfficiencyBot(), state, 0)
    assert (eff.verb, eff.tile, eff.declare) == ("discard", five_z, "eopeo")
    val = _act(ValueBot(), state, 0)
    assert (val.verb, val.tile, val.declare) == ("discard", five_z, "bulleo")


def test_value_danger_halves_a_concealed_undeclared_threat() -> None:
    state = new_hand(seed=5)
    t = Table.from_view(view(state, 0))
    t.rivers[1] = list(range(10))  # ten discards, no meld, no declaration
    assert ValueDanger(t).threat[1] == pytest.approx(DangerModel(t).threat[1] / 2)
    t.declared[1] = "eopeo"
    assert ValueDanger(t).threat[1] == DangerModel(t).threat[1] == 1.0


def test_a_ready_concealed_hand_is_valued_with_its_bulleo() -> None:
    state = new_hand(wall=build_wall(["123456789m2345p", "", "", ""], draws="5z"))
    t = Table.from_view(view(state, 0))
    c13 = to_counts(parse_tiles("123456789m2345p"))
    waits = [parse_tile("2p"), parse_tile("5p")]
    bot = ValueBot()
    tiles, declared = bot.ready_value(t, c13, [], waits)
    t.wall_count = 3  # too late to declare
    assert bot.ready_value(t, c13, [], waits) == (tiles, pytest.approx(declared - 4.6))


def test_tiles_let_pass_by_a_declared_seat_are_safe_against_it() -> None:
    state = new_hand(seed=5)
    t = Table.from_view(view(state, 0))
    five_m, six_m, seven_p = parse_tile("5m"), parse_tile("6m"), parse_tile("7p")
    t.rivers = [[], [], [], []]
    t.declared[2] = "eopeo"
    t.wall_count = 40
    bot = ValueBot()
    assert bot.passed(t) == [0, 0, 0, 0]  # the declaration first seen: nothing let pass yet
    t.rivers[1].append(five_m)  # discarded after the declaration, its window closed
    t.wall_count = 39
    assert bot.passed(t)[2] == 1 << five_m
    assert DangerModel(t).tile_danger(five_m, 2) > 0  # 진팅 and 골라 do not cover it
    assert bot.danger(t).tile_danger(five_m, 2) == 0.0
    t.rivers[1].append(six_m)  # offered now: seat 2 has not let it pass yet
    t.phase, t.claim_tile, t.claim_from = "claim", six_m, 1
    assert bot.passed(t)[2] == 1 << five_m
    t.phase, t.claim_tile, t.claim_from = "discard", -1, -1
    t.wall_count = 38
    assert bot.passed(t)[2] == 1 << five_m | 1 << six_m
    t.rivers = [[], [seven_p], [], []]  # a new hand: fewer discards, the wall refilled
    t.wall_count = 50
    assert bot.passed(t) == [0, 0, 0, 0]
    t.declared[2] = None
    assert bot.passed(t) == [0, 0, 0, 0]
    t.declared[2] = "bulleo"
    bot.passed(t)
    t.rivers[1].append(five_m)
    t.wall_count = 49
    assert bot.passed(t)[2] == 1 << five_m
    t.seat = 1  # the same bot asked for another seat: it knows nothing of that seat yet
    assert bot.passed(t) == [0, 0, 0, 0]


@pytest.mark.parametrize("min_pan", [0, 2], ids=["mupan", "yangpan"])
def test_one_from_ready_looks_at_the_ready_hands_of_the_next_draw(min_pan: int) -> None:
    # Under 양판 and 무판 alike: 678m8m 11p22p 345p78p + 7z: throwing 8m or 7z leaves a
    # hand one from ready with twelve tiles that help either way, and every ready hand
    # the next draw makes throws the other single: the two lines are worth the same.
    # line_pan saw a 역패 line in the lone 중 and kept it; the lookahead values them
    # alike, so the usual order (an isolated honor first) decides.
    rules = MahjongRules(min_pan=min_pan)
    state = new_hand(rules, wall=build_wall(["6788m1122345p78p", "", "", ""], draws="7z"))
    t = Table.from_view(view(state, 0))
    opts = {k: (sh, uk) for k, sh, uk, _ in discard_options(t.hand, 0, t.unseen)}
    seven_z, eight_m = parse_tile("7z"), parse_tile("8m")
    assert opts[seven_z] == opts[eight_m] == (1, 12)

    class NoLookahead(ValueBot):
        lookahead = (False, False, False, False)

    assert _act(NoLookahead(), state, 0).tile == eight_m
    assert _act(ValueBot(), state, 0).tile == seven_z
    bot = ValueBot()
    values = bot.discard_values(t, t.hand, [])
    assert values[seven_z] == pytest.approx(values[eight_m])


def test_win_chance_is_the_logistic_of_its_features() -> None:
    import numpy as np

    from madang.bots._mahjong_win_train import design
    from madang.bots.mahjong_value import WIN_COEFFICIENTS

    rows = [(0, 6.0, 40, 0, 0), (1, 12.0, 20, 1, 2), (3, 30.0, 60, 2, 0), (2, 0.0, 4, 3, 3)]
    z = WIN_COEFFICIENTS[0] + design(rows) @ np.asarray(WIN_COEFFICIENTS[1:])
    assert np.allclose(1 / (1 + np.exp(-z)), [win_chance(*r) for r in rows])


def test_the_win_fit_recovers_known_coefficients() -> None:
    import numpy as np

    from madang.bots._mahjong_win_train import design, fit

    rng = random.Random(3)
    rows = [
        (
            rng.randrange(5),
            rng.uniform(0, 40),
            rng.randrange(80),
            rng.randrange(4),
            rng.choice((0, 2)),
        )
        for _ in range(30000)
    ]
    x = design(rows)
    true = np.array([-1.5, -0.8, 1.2, 0.6, 0.2, -0.1, -0.5, -0.3])
    p = 1 / (1 + np.exp(-(true[0] + x @ true[1:])))
    y = (np.random.default_rng(3).random(len(p)) < p).astype(np.float64)
    assert np.allclose(fit(x, y, l2=0.0), true, atol=0.15)


def test_win_rows_are_hards_discards_labelled_by_its_wins() -> None:
    from madang.bots._mahjong_win_train import collect

    rows, won, hands = collect("mupan", 77, range(3))
    assert len(rows) == len(won) == len(hands) > 40
    assert {seat for _, seat in hands} == {0, 1, 2, 3}
    last: dict[tuple[int, int], tuple[int, float, int, int, int]] = {}
    for r, w, h in zip(rows, won, hands, strict=True):
        assert w in (0.0, 1.0) and 0 <= r[0] <= 8 and r[1] >= 0 and 0 <= r[3] <= 3
        last[h] = r
    # a hand hard won was ready after its last discard; and it did win some hand
    winners = {h for h, w in zip(hands, won, strict=True) if w}
    assert winners and all(last[h][0] == 0 for h in winners)


def _differences(twin_attrs: dict[str, Any], min_pan: int, hands: int) -> int:
    """How often ``hard`` (one seat, against three ``normal``) and a twin with
    ``twin_attrs`` changed answer differently, each difference checked (by
    :func:`_check_difference`) before ``hard``'s move. The twin is asked whenever
    ``hard`` is, so it remembers what ``hard`` does."""
    twin_cls = type("Twin", (ValueBot,), twin_attrs)
    out = 0
    for h in range(hands):
        state = new_hand(MahjongRules(min_pan=min_pan), seed=h)
        me = h % 4
        bots: list[Any] = [EfficiencyBot() for _ in range(4)]
        hard = bots[me] = ValueBot()
        twin = twin_cls()
        while not state.over:
            seat = state.pending[0]
            action = _act(bots[seat], state, seat)
            if seat == me:
                other = _act(twin, state, seat)
                if other != action:
                    out += 1
                    _check_difference(twin_attrs, state, seat, hard, (action, other))
            step(state, action)
    return out


def _check_difference(
    twin_attrs: dict[str, Any],
    state: HandState,
    seat: int,
    hard: ValueBot,
    moves: tuple[Action, Action],
) -> None:
    """A difference is a discard where ``hard`` pushes a riskier tile than the twin."""
    action, other = moves
    assert state.phase == "discard"
    danger = hard.danger(Table.from_view(view(state, seat)))
    d = danger.danger(action.tile)
    assert danger.danger(other.tile) < d
    if "safe_by_min" in twin_attrs:  # the fold limit: the push tile between the limits
        assert 0.04 < d <= 0.08
    if "fold_loss" in twin_attrs:  # the fold called off: the value outweighs the risk
        loss, d = ValueBot.fold_loss[state.rules.min_pan], min(d, 1.0)
        assert hard._values[action.tile] * (1 - d) >= d * loss


def test_under_mupan_a_fold_lets_a_slightly_riskier_push_discard_through() -> None:
    """``safe_by_min``: under 무판 a fold is called off when the push discard's danger is
    at most 0.08 (0.04 under 양판/삼판). Where that changes the discard, the push tile's
    danger is between the two limits and the 0.04 bot's fold tile is safer."""
    assert _differences({"safe_by_min": (0.04, 0.04, 0.04, 0.04)}, 0, 40)


@pytest.mark.parametrize("min_pan", [0, 2])
def test_a_valuable_hand_pushes_where_the_distance_from_ready_folds(min_pan: int) -> None:
    """``fold_loss``: a fold called for by the distance from ready is called off when
    the push discard's expected points × the chance it does not deal in reach its
    danger × 20 points. Where that changes the discard, the bot that folds by distance
    alone (``fold_loss`` 0) plays a safer tile, and the push discard's values pass the
    test; the bot never folds where the distance rule would not."""
    assert _differences({"fold_loss": (0.0, 0.0, 0.0, 0.0)}, min_pan, 40)


def test_under_yangpan_the_fold_limit_is_unchanged() -> None:
    assert not _differences({"safe_by_min": (0.04, 0.04, 0.04, 0.04)}, 2, 12)


def test_scores_kept_between_decisions_value_hands_as_a_fresh_bot_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot keeps the scores of the ready hands it valued from one decision to the
    next (:func:`wait_points`): at every decision of whole hands its discard values
    equal those of a bot that scores every wait afresh."""
    wait_points.cache_clear()
    checked = 0
    for h in range(16):
        rules = MahjongRules(min_pan=2 if h % 2 else 0)
        state = new_hand(rules, seed=100 + h)
        me = h % 4
        bots: list[Any] = [EfficiencyBot() for _ in range(4)]
        bots[me] = warm = ValueBot()
        while not state.over:
            seat = state.pending[0]
            action = _act(bots[seat], state, seat)
            if seat == me and state.phase == "discard":
                t = Table.from_view(view(state, seat))
                kept = warm.discard_values(t, list(t.hand), t.my_melds)
                with monkeypatch.context() as m:
                    m.setattr(mahjong_value, "wait_points", wait_points.__wrapped__)
                    cold = ValueBot().discard_values(t, list(t.hand), t.my_melds)
                assert kept == cold
                checked += 1
            step(state, action)
    assert checked > 20
    assert wait_points.cache_info().hits > 10  # the scores were kept, not made again
