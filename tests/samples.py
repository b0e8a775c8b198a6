"""Samples of everything a client names, made by the engines themselves: one event of
each kind (as a seat sees it, hidden parts redacted), every move string, prompt,
payment / end / steal reason, score sheets for every multiplier, mahjong results.

The catalogue test renders each through the terminal's words, the browser test through
the client's (``tests/browser/test_play.py``): no key may be missing, no raw code shown.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from madang.mahjong.engine import MahjongMatch, legal_actions, step
from madang.mahjong.events import redact_all
from madang.mahjong.rules import PRESETS as MJ_PRESETS
from madang.mahjong.view import view as mj_view
from madang.matgo.actions import action_str
from madang.matgo.cards import mask_of, parse_cards
from madang.matgo.engine import Phase, new_game
from madang.matgo.events import EVENT_FIELDS, GOSTOP_EVENTS, redact
from madang.matgo.rules import PRESETS as MG_PRESETS
from madang.matgo.rules import MatgoRules, Meong
from madang.matgo.scoring import MISSIONS, settle
from madang.matgo.view import annotate as mg_annotate
from madang.matgo.view import view as mg_view


def _cards(text: str) -> int:
    return mask_of(parse_cards(text))


@cache
def matgo_samples() -> dict[str, Any]:
    """Events by type, moves, questions and reasons seen in random Matgo games."""
    rng = random.Random(12)
    events: dict[str, dict[str, Any]] = {}
    moves: set[str] = set()
    questions: set[str] = set()
    views: list[dict[str, Any]] = []
    for i in range(400):
        rules = list(MG_PRESETS.values())[i % len(MG_PRESETS)]
        g = new_game(rules, seed=i)
        for e in g.events:
            events.setdefault(e[0], redact(e, 0))
        while not g.over:
            questions.add(g.phase.name.lower())
            legal = g.legal_actions()
            for a in legal:
                moves.add(action_str(a))
            if g.phase is Phase.GO_STOP and len(views) < 3:
                views.append(mg_annotate(mg_view(g, g.current)))  # as the table sends it
            for e in g.step(rng.choice(legal)):
                key = (
                    e[0]
                    if e[0] not in ("payment", "end", "steal", "steal_none")
                    else (f"{e[0]}:{e[-1]}")
                )
                events.setdefault(key, redact(e, 0))
                if e[0] == "draw":  # the drawer's own view shows the card
                    events.setdefault("draw:own", redact(e, e[1]))
        if i < 40 and g.over:
            views.append(mg_annotate(mg_view(g, 0)))
    # (고스톱's own events — 광팔기, 쇼당 — never come in 맞고)
    missing = set(EVENT_FIELDS) - GOSTOP_EVENTS - {k.split(":")[0] for k in events}
    assert not missing, f"no sample of {missing}"
    return {"events": list(events.values()), "moves": sorted(moves),
            "questions": sorted(questions), "views": views}  # fmt: skip


def matgo_sheets() -> list[dict[str, Any]]:
    """Score sheets with every multiplier (go, 흔들기, 피박, 광박, 멍따, 멍박, 고박, each
    mission, 나가리), each as the engine settles it."""
    gwang = _cards("01g 03g 08g 11g 12g")
    animals = _cards("02a 04a 05a 06a 07a 08a 10a")
    pi = _cards("01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1 05p2 06p1 06p2")
    out = [
        settle(gwang | pi, _cards("07p1"), go=4, shakes=2, carry=2, loser_went_go=True),
        settle(animals | pi, _cards("09p1"), rules=MatgoRules(meong=Meong.MEONGBAK)),
        settle(animals, _cards("09p1 11g")),
    ]
    for m in MISSIONS:
        out.append(settle(gwang | animals | m.cards | pi, _cards("07p1"), mission=m))
    return [s.to_dict() for s in out]


@cache
def mahjong_samples() -> dict[str, Any]:
    """Events by type, moves and finished results (wins by 쏘아 and 올라, 나가리)."""
    rng = random.Random(3)
    events: dict[str, dict[str, Any]] = {}
    moves: set[str] = set()
    results: dict[str, dict[str, Any]] = {}
    for i in range(400):
        if len(results) == 3 and i >= 60:
            break
        m = MahjongMatch(list(MJ_PRESETS.values())[i % len(MJ_PRESETS)], seed=i)
        st = m.hand
        for e in redact_all(st.deal_events, 0):
            events.setdefault(e["type"], e)
        while not st.over:
            for a in legal_actions(st):
                moves.add(str(a))
            acts = legal_actions(st, st.pending[0])
            wins = [a for a in acts if a.verb in ("ron", "tsumo")]
            declares = [a for a in acts if a.declare]
            pick = (wins or declares or acts) if rng.random() < 0.9 else acts
            for e in redact_all(step(st, rng.choice(pick)), 0):
                key = e["type"] if e["type"] != "discard" else f"discard:{e.get('declare', '')}"
                events.setdefault(key, e)
        v = mj_view(st, 0)
        res = v["result"]
        kind = "nagari" if res["nagari"] else res["winners"][0]["by"]
        results.setdefault(kind, v)
    return {"events": list(events.values()), "moves": sorted(moves),
            "results": list(results.values())}  # fmt: skip
