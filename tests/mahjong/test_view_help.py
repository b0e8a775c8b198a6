"""What the mahjong view tells at the moment of decision and at the end: the discards
that keep a hand ready with their waits and the 엎어/불러 they allow (with their 판), and
a settlement whose rows add up to the points and the payments."""

from __future__ import annotations

import random

from madang.mahjong.engine import MahjongMatch, build_wall, legal_actions, new_hand, step
from madang.mahjong.hand import waits
from madang.mahjong.patterns import by_name
from madang.mahjong.rules import PRESETS
from madang.mahjong.state import PHASE_DISCARD
from madang.mahjong.tiles import parse_tile, tile_name
from madang.mahjong.view import declare_pan, discard_help, view
from madang.server.games import make_session


def _play(seed: int, preset: str = "default") -> list[dict[str, object]]:
    """A random hand; checks the help at every turn; returns the finished views."""
    rng = random.Random(seed)
    st = MahjongMatch(PRESETS[preset], seed=seed).hand
    while not st.over:
        seat = st.pending[0]
        if st.phase == PHASE_DISCARD:
            _check_help(st, seat)
            for other in range(4):
                if other != seat:
                    assert discard_help(st, other) is None
        acts = legal_actions(st, seat)
        wins = [a for a in acts if a.verb in ("ron", "tsumo")]
        decl = [a for a in acts if a.declare]
        step(st, rng.choice(wins or decl or acts) if rng.random() < 0.8 else rng.choice(acts))
    assert discard_help(st, 0) is None
    return [view(st, s) for s in range(4)]


def _check_help(st: object, seat: int) -> None:
    help_ = discard_help(st, seat)  # type: ignore[arg-type]
    assert help_ is not None
    legal = legal_actions(st, seat)  # type: ignore[arg-type]
    first = st.discards_made[seat] == 0  # type: ignore[attr-defined]
    pans = declare_pan(first)
    by_tile = {x["tile"]: x for x in help_}
    hand = st.hands[seat]  # type: ignore[attr-defined]
    melds = len(st.melds[seat])  # type: ignore[attr-defined]
    for a in legal:
        if a.verb != "discard":
            continue
        name = tile_name(a.tile)
        if a.declare:  # every declarable discard is listed with its 판
            assert by_tile[name][a.declare] == pans[a.declare]
            continue
        c = list(hand)
        c[a.tile] -= 1
        ws = waits(c, melds, st.rules.quad_as_two_pairs)  # type: ignore[attr-defined]
        if ws:
            assert by_tile[name]["waits"] == [tile_name(k) for k in ws]
        else:
            assert name not in by_tile
    for x in help_:
        for d in ("eopeo", "bulleo"):
            assert (x[d] is not None) == any(
                a.declare == d and a.tile == parse_tile(x["tile"]) for a in legal
            )


def test_declare_pan_comes_from_the_pattern_table() -> None:
    assert declare_pan(False) == {"eopeo": by_name("eopeo").pan, "bulleo": by_name("bulleo").pan}
    assert declare_pan(True) == {"eopeo": 5, "bulleo": 6}


def test_first_turn_bulleo_is_offered_with_its_pan() -> None:
    # the dealer holds 123456789m 1135p + 7z: discarding 7z leaves a wait on 4p
    st = new_hand(wall=build_wall(["123456789m1135p", "", "", ""], draws="7z"))
    help_ = discard_help(st, 0)
    assert help_ is not None
    row = next(x for x in help_ if x["tile"] == "7z")
    assert row["waits"] == ["4p"] and row["eopeo"] == 5 and row["bulleo"] == 6


def test_help_and_settlements_over_random_hands() -> None:
    kinds: set[str] = set()
    for seed in range(120):
        for preset in ("default", "yangpan") if seed < 30 else ("default",):
            views = _play(seed, preset)
            res = views[0]["result"]
            assert isinstance(res, dict)
            if res["nagari"]:
                kinds.add("nagari")
                assert [h["seat"] for h in res["hands"]] == [0, 1, 2, 3]
                for s in range(4):  # the revealed hands are the seats' own
                    own = views[s]["players"][s]["hand"]  # type: ignore[index]
                    assert sorted(res["hands"][s]["hand"]) == sorted(own)
                continue
            assert "hands" not in res
            paid = {w["seat"]: 0 for w in res["winners"]}
            for p in res["payments"]:
                paid[p["to"]] += p["points"]
            for w in res["winners"]:
                kinds.add(w["by"])
                assert w["total_pan"] == w["base_pan"] + w["extra_pan"]
                assert sum(i["pan"] for i in w["items"]) == w["total_pan"]
                assert w["pan_points"] == w["total_pan"] * w["pan_value"]
                assert w["pan_points"] + w["base_points"] + w["pot"] == w["points"]
                payers = 1 if w["by"] == "ron" else 3
                assert paid[w["seat"]] == w["points"] * w["ron_pays"] * payers
    assert kinds == {"nagari", "ron", "tsumo"}


def test_the_adapter_adds_match_totals_and_the_hand_counter() -> None:
    s = make_session("mahjong", "default", seed=11)
    rng = random.Random(0)
    repeat = 0
    for _hand in range(6):
        while not s.over:
            seat = s.pending()[0]
            v = s.view(seat)
            assert "help" not in v  # what bots and RL get: knowledge only
            assert s.annotate(v, seat)["help"] == discard_help(s.match.hand, seat)  # type: ignore[attr-defined]
            s.step(seat, rng.choice(s.legal(seat)))
        v = s.view(None)
        m = v["match"]
        before = list(s.match.scores)  # type: ignore[attr-defined]
        for p in v["result"]["payments"]:
            before[p["from"]] -= p["points"]
            before[p["to"]] += p["points"]
        assert m["scores"] == before and sum(m["scores"]) == 0
        assert m["repeat"] == repeat and m["hand_no"] == _hand + 1
        keeps = v["result"]["dealer_keeps"]
        if s.next_game():
            break
        repeat = repeat + 1 if keeps else 0
        assert s.view(None)["match"]["scores"] == before


def test_matgo_adapter_shows_the_first_dealer_draw() -> None:
    s = make_session("matgo", "default", seed=5)
    m = s.view(0)["match"]
    draws = m["first_draws"]
    assert draws and all(a != b for a, b in draws[-1:])
    a, b = draws[-1]
    assert s.view(0)["dealer"] == (0 if a > b else 1)
    assert all(a == b for a, b in draws[:-1])
    while not s.over:
        seat = s.pending()[0]
        s.step(seat, s.legal(seat)[0])
    s.next_game()
    assert s.view(0)["match"]["first_draws"] == []
