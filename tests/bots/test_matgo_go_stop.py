"""The hard Matgo bot decides 고/스톱 by expected payment: concrete positions both ways."""

from __future__ import annotations

import random
import statistics

from madang.bots import Budget
from madang.bots.matgo_greedy import Knowledge, choose
from madang.bots.matgo_search import SearchBot, _Worlds, net_points, playout
from madang.matgo import actions as A
from madang.matgo.cards import BIT, mask_of, parse_cards
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.view import view


def _position(mine: str, theirs: str, hand: str, opp_hand: str, floor: str) -> MatgoState:
    """Seat 0 to answer 고/스톱 with these piles, hands and floor; the rest is the pile."""
    g = new_game(seed=0)
    placed = [mask_of(parse_cards(t)) for t in (mine, theirs, hand, opp_hand, floor)]
    every = placed[0] | placed[1] | placed[2] | placed[3] | placed[4]
    rest = [c for c in range(len(BIT)) if g.rules.deck_mask & BIT[c] and not every & BIT[c]]
    random.Random(0).shuffle(rest)
    g.captured = [placed[0], placed[1]]
    g.hands = [placed[2], placed[3]]
    g.floor = placed[4]
    g.pile = rest
    g.turns = [10 - g.hands[0].bit_count()] * 2
    g.phase = Phase.GO_STOP
    g.current = 0
    g._legal = None
    assert g.total_cards() == g.rules.deck_mask and g.count_cards() == g.rules.deck_mask.bit_count()
    assert g.score(0) >= 7 and g.legal_actions() == [A.GO, A.STOP]
    return g


def _payments(g: MatgoState, samples: int) -> tuple[float, float, float]:
    """스톱's payment, and 고's mean payment with its standard error, measured apart from
    the bot: ``samples`` worlds dealt from seat 0's view, each played to the end."""
    worlds = _Worlds(view(g, 0), 0, random.Random(12345))
    n_pay = len(worlds.base.payments)
    stopped = worlds.base.clone()
    stopped.step(A.STOP)
    outcomes = []
    for _ in range(samples):
        world = worlds.deal().clone()
        world.step(A.GO)
        playout(world)
        outcomes.append(net_points(world, 0, n_pay))
    se = statistics.stdev(outcomes) / samples**0.5
    return float(net_points(stopped, 0, n_pay)), statistics.fmean(outcomes), se


def _answers(g: MatgoState) -> tuple[int, int]:
    """The hard bot's answer (300 sampled worlds) and the greedy rule's."""
    v = view(g, 0)
    hard = SearchBot().act(v, g.legal_actions(), random.Random(0), Budget(None, 300))
    return hard, choose(Knowledge.from_view(v), g.legal_actions())


def test_go_when_it_is_worth_more_than_stop() -> None:
    # 8 points (홍단, 청단, six 띠), a 광 and nine 피 against 2 피: no 박 either way; six
    # cards in hand that pair with 초단 ribbons on the floor; the opponent's months are
    # not on the floor.
    g = _position(
        "01g 01r 02r 03r 06r 09r 10r 01p2 02p2 03p2 04p2 05p2 07p2 08p2 12d",
        "06p1 07p1",
        "04a 05a 07a 08a 04p1 05p1",
        "09a 09p1 09p2 10a 10p1 10p2",
        "04r 05r 07r 08p1 03g 02p1 11p1 11p2",
    )
    stop, go, se = _payments(g, 2000)
    assert stop == 8 and go > stop + 10 * se + 5
    hard, _ = _answers(g)
    assert hard == A.GO


def _gobak_risk() -> MatgoState:
    """8 points (three 광 and 고도리) against a pile with no 광: 스톱 pays 16 with 광박;
    the opponent has 4 points and holds 10r towards 청단, so 고 risks a 고박."""
    return _position(
        "01g 03g 08g 02a 04a 08a",
        "05p1 05p2 04r 05r 07r 06r 09r",
        "01p1 02p1 03p1 06a 07a 09a 10a 12a",
        "01p2 02p2 03p2 06p1 07p1 09p1 10r 12r",
        "04p1 05a 06p2 07p2 09p2 10p2 11p1 12d",
    )


def test_stop_when_go_is_worth_less_even_where_the_greedy_rule_goes() -> None:
    # 8 points (three 광 and 고도리) against a pile with no 광: 스톱 pays 16 with 광박.
    # The opponent has 4 points (초단, five 띠) and holds 10r towards 청단: 고 risks a
    # 고박, with no 피 of one's own to keep off 피박.
    g = _gobak_risk()
    stop, go, se = _payments(g, 2000)
    assert stop == 16 and go < stop - 10 * se - 5
    hard, greedy = _answers(g)
    assert hard == A.STOP and greedy == A.GO  # the old rule would have gone


def test_the_greedy_rule_still_answers_with_search_go_off() -> None:
    g = _gobak_risk()
    bot = SearchBot(search_go=False)
    assert bot.act(view(g, 0), g.legal_actions(), random.Random(0), Budget(None, 5)) == A.GO


def _risky_go() -> MatgoState:
    """13 points with one card in hand (11g), 스톱 pays 13; the opponent holds two
    cards with 11p1 towards its 11 and 16 cards of its own: 고 pays more on average but
    the opponent takes the game in about one world in seven."""
    return _position(
        "01g 01r 01p1 01p2 02a 02r 02p1 02p2 04r 04p2 06a 06r 08g 08a 08p1 08p2 09a 09r"
        " 10a 10r 12a 12d b2 b3",
        "04a 04p1 05a 05r 06p1 06p2 07p1 07p2 09p1 09p2 10p1 10p2 11d 11p2 12g 12r",
        "11g",
        "05p2 11p1",
        "03r 03p1 03p2 07a",
    )


def test_stop_when_go_pays_more_but_loses_too_often() -> None:
    g = _risky_go()
    stop, go, se = _payments(g, 2000)
    assert stop == 13 and go > stop + 2 * se
    worlds = _Worlds(view(g, 0), 0, random.Random(7))
    n_pay = len(worlds.base.payments)
    lost = 0
    for _ in range(2000):
        world = worlds.deal().clone()
        world.step(A.GO)
        playout(world)
        lost += net_points(world, 0, n_pay) < 0
    assert 0.08 < lost / 2000 < 0.25  # well above hard's 5% go_risk
    v, legal = view(g, 0), g.legal_actions()
    assert SearchBot().act(v, legal, random.Random(0), Budget(None, 300)) == A.STOP
    # by expected payment alone (no cap on the risk) the bot goes
    reckless = SearchBot(go_risk=1.0)
    assert reckless.act(v, legal, random.Random(0), Budget(None, 300)) == A.GO
