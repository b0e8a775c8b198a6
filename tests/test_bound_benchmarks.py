"""The upper-bound benchmarks of issue 29 (``benchmarks/mahjong_danger_bound.py``,
``benchmarks/matgo_oracle_bound.py``): the truth they tell their bots is the truth, and
their patches stay inside their blocks (the bots that play anywhere else see only views)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from madang.bots import matgo_search
from madang.bots.base import Budget
from madang.bots.mahjong_efficiency import EfficiencyBot
from madang.mahjong.engine import legal_actions, new_hand, step
from madang.mahjong.game import MahjongSession
from madang.mahjong.rules import preset
from madang.mahjong.state import ACTION_FORMS, act
from madang.mahjong.view import view as mahjong_view
from madang.matgo.cards import cards_of
from madang.matgo.game import deal as matgo_deal
from madang.matgo.rules import MatgoRules

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    """A benchmark script as a module (the scripts import each other by name, as they do
    when run from ``benchmarks/``)."""
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ron_mask_is_what_the_engine_offers() -> None:
    """At every claim window of a few hands (무판 and 양판), a seat is offered 쏘아 on the
    tile exactly when the bound's ``ron_mask`` holds it."""
    bound = _load("mahjong_danger_bound")
    offered = 0
    for name in ("mupan", "yangpan"):
        for h in range(12):
            st = new_hand(preset(name), seed=h)
            bots = [EfficiencyBot() for _ in range(4)]
            rng = random.Random(h)
            while st.pending:
                if st.phase == "claim":
                    for p in st.pending:
                        ron = any(a.verb == "ron" for a in legal_actions(st, p))
                        assert ron == bool((bound.ron_mask(st, p) >> st.claim_tile) & 1)
                        offered += ron
                s = st.pending[0]
                legal = [a.code for a in legal_actions(st, s)]
                code = bots[s].act(dict(mahjong_view(st, s)), legal, rng, Budget())
                step(st, act(s, *ACTION_FORMS[code]), events=False)
    assert offered > 0


def test_the_mahjong_view_patch_stays_in_its_block() -> None:
    bound = _load("mahjong_danger_bound")
    real = MahjongSession.view
    session = MahjongSession(preset("mupan"), 3, first_seed=3, offers=False)
    with bound.views_with_state():
        assert session.view(0)["_state"] is session.match.hand  # type: ignore[typeddict-item]
    assert MahjongSession.view is real
    assert "_state" not in session.view(0)


def test_the_matgo_worlds_hold_the_truth_only_when_told() -> None:
    """Told the hand, every world deals the opponent its real hand and the pile from the
    rest; told everything, the pile in its real order; told the floor, its cards of the
    floor's months as they are and the rest at random; outside the block the search's
    worlds are its own again and views carry no state."""
    bound = _load("matgo_oracle_bound")
    session = matgo_deal(MatgoRules(), 7)
    truth = session.match.game
    me = truth.current
    opp = 1 - me
    rng = random.Random(0)
    with bound.told_worlds():
        v = dict(session.view(me))
        assert v["_state"] is truth
        for told in ("hand", "all"):
            bound._TRUTH.update(state=truth, told=told)
            worlds = matgo_search._Worlds(v, me, rng)
            for _ in range(3):
                w = worlds.deal()
                assert w.hands[opp] == truth.hands[opp]
                assert sorted(w.pile) == sorted(truth.pile)
                if told == "all":
                    assert w.pile == truth.pile
        bound._TRUTH.update(state=truth, told="floor")
        worlds = matgo_search._Worlds(v, me, rng)
        months = worlds.floor_months  # type: ignore[attr-defined]
        assert months and truth.hands[opp] & months  # this deal: something to tell
        hands = set()
        for _ in range(8):
            w = worlds.deal()
            held = w.hands[opp]
            hands.add(held)
            assert held & months == truth.hands[opp] & months
            assert held.bit_count() == truth.hands[opp].bit_count()
            assert sorted([*cards_of(held), *w.pile]) == sorted(
                [*cards_of(truth.hands[opp]), *truth.pile]
            )
        assert len(hands) > 1  # the other months dealt at random
        bound._TRUTH.update(state=None, told=None)
        untold = matgo_search._Worlds(v, me, rng)
        hands = {untold.deal().hands[opp] for _ in range(5)}
        assert len(hands) > 1  # dealt at random, as always
    assert matgo_search._Worlds is not bound._Told
    assert "_state" not in session.view(me)
