"""Deals of 고스톱 from a fairness key (``docs/fairness.md``, :mod:`madang.gostop.fair`):
the deck by Matgo's scheme, a table's first 선 drawn for every seat, the session's
``redeal`` and the contract's ``fair_deal`` agreeing with the record."""

from __future__ import annotations

import random

import pytest

from madang.core.errors import FairnessError, IllegalActionError
from madang.gostop.fair import fair_deal, fair_deck, fair_first_dealer
from madang.gostop.game import SPEC, GostopMatch, GostopSession
from madang.gostop.rules import GostopRules
from madang.matgo.cards import CODES
from madang.matgo.rules import FirstDealer

KEYS = [bytes([k]) * 32 for k in range(40)]


@pytest.mark.parametrize("players", [3, 4])
def test_first_dealer_draw(players: int) -> None:
    rules = GostopRules(players=players)
    low = GostopRules(players=players, first_dealer=FirstDealer.NIGHT_LOW)
    dealers = set()
    tied = 0
    for key in KEYS:
        dealer, rounds = fair_first_dealer(rules, key)
        assert (dealer, rounds) == fair_first_dealer(rules, key)  # fixed by the key
        dealers.add(dealer)
        assert len(rounds[0]) == players and None not in rounds[0]
        drawing = list(range(players))
        for months in rounds:  # each round: the tied-for-best seats draw again
            drawn = [months[s] for s in drawing]
            assert all(m is not None for m in drawn)
            assert all(months[s] is None for s in range(players) if s not in drawing)
            best = max(m for m in drawn if m is not None)
            drawing = [s for s in drawing if months[s] == best]
        assert drawing == [dealer]
        tied += len(rounds) > 1
        # 밤일낮장: the same cards, the lowest month wins
        d_low, r_low = fair_first_dealer(low, key)
        assert r_low[0] == rounds[0]
        first = r_low[-1]
        assert first[d_low] == min(m for m in first if m is not None)
    assert dealers == set(range(players)) and tied > 0


def test_fair_deal_and_the_sessions_redeal_agree() -> None:
    for players in (3, 4):
        rules = GostopRules(players=players)
        s = GostopSession(GostopMatch(rules, seed=1))
        key = KEYS[players]
        s.redeal(key)
        record = s.record()
        want = fair_deal({**record["rules"], "players": players}, key, 1)
        assert {k: record[k] for k in want} == want
        assert record["deck"] == [CODES[c] for c in fair_deck(rules, key)]
        assert s.view(0)["match"]["first_draws"] == fair_first_dealer(rules, key)[1]
        assert SPEC.fair_deal is not None
        # later games: the key fixes the deck only; 선 and the carry are the match's
        rng = random.Random(players)
        while not s.over:
            seat = s.pending()[0]
            s.step(seat, rng.choice(s.legal(seat)))
        s.next_game()
        dealer, no_die = s.match.dealer, s.match.no_die
        s.redeal(KEYS[9])
        assert s.match.game.dealer == dealer and list(s.match.game.no_die) == no_die
        assert fair_deal(record["rules"], KEYS[9], 2) == {"deck": s.record()["deck"]}


def test_bad_redeals() -> None:
    s = GostopSession(GostopMatch(GostopRules(), seed=2))
    with pytest.raises(IllegalActionError, match="no 선 뽑기"):
        s.redeal(KEYS[1], first_picks=[[0, 1, 2]])
    seat = s.pending()[0]
    s.step(seat, s.legal(seat)[0])
    with pytest.raises(IllegalActionError, match="has begun"):
        s.redeal(KEYS[1])
    with pytest.raises(FairnessError, match="no 선 뽑기"):
        fair_deal({}, KEYS[1], 1, first_picks=[[0, 1]])
    with pytest.raises(FairnessError, match="32 bytes"):
        fair_deal({}, b"short", 1)
