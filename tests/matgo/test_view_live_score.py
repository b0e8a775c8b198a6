"""The live score of the Matgo view: what the board shows must be what the engine
counts (points per category, 족보 progress, multipliers in force, 국진 where it counts,
what 스톱 pays now, the last card each side played), and every multiplier's sheet adds up."""

from __future__ import annotations

import random

import pytest
from tests.samples import matgo_sheets

from madang.matgo.actions import action_str
from madang.matgo.cards import CODES, GUKJIN_BIT, pi_value
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.rules import PRESETS
from madang.matgo.view import annotate, view


def _walk(seed: int, preset: str) -> list[tuple[MatgoState, int, list[tuple[object, ...]]]]:
    """Every state of a random game, with the action taken and its events."""
    rng = random.Random(seed)
    g = new_game(PRESETS[preset], seed=seed)
    out = []
    while not g.over:
        a = rng.choice(g.legal_actions())
        before = g.clone()
        events = g.step(a)
        out.append((before, a, events))
    out.append((g, -1, []))
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_board_numbers_are_the_engines(preset: str) -> None:
    for seed in range(25):
        for g, action, events in _walk(seed, preset):
            v = annotate(view(g, 0))
            for p in (0, 1):
                assert sum(i["points"] for i in v["score_items"][p]) == v["scores"][p]
                as_pi = v["gukjin_as"][p] == "pi"
                assert v["progress"][p]["pi"] == pi_value(g.captured[p], as_pi)
                if g.captured[p] & GUKJIN_BIT:
                    assert v["gukjin_as"][p] in ("pi", "animal")
                    assert as_pi == g.gukjin_as_pi(p)
                else:
                    assert v["gukjin_as"][p] is None
            if g.phase is Phase.GO_STOP:
                stop = v["stop_now"]
                assert stop is not None and stop["seat"] == g.current
                after = g.clone()
                after.step("stop")
                assert after.sheet is not None
                assert stop["sheet"] == after.sheet.to_dict()
                assert stop["points"] == after.payments[-1][2]
            else:
                assert v["stop_now"] is None
            if action >= 0:
                plays = [e for e in events if e[0] in ("play", "bonus_play")]
                nxt = view(_after(g, action), 0)
                for e in plays:
                    assert nxt["last_played"][e[1]] == CODES[e[2]]


def _after(g: MatgoState, action: int) -> MatgoState:
    c = g.clone()
    c.step(action)
    return c


def test_multipliers_in_force_are_in_the_winners_sheet() -> None:
    checked = 0
    for seed in range(120):
        states = _walk(seed, "missions" if seed % 2 else "default")
        g = states[-1][0]
        if g.winner is None or g.sheet is None or g.end_reason in ("chongtong", "sam_ppeok"):
            continue
        prev = next(s for s, a, _ in reversed(states[:-1]) if action_str(a) == "stop") if any(
            action_str(a) == "stop" for _, a, _ in states[:-1]) else None  # fmt: skip
        if prev is None:
            continue
        force = {m["name"]: m["factor"] for m in annotate(view(prev, None))["in_force"][g.winner]}
        sheet = {m.name: m.factor for m in g.sheet.multipliers}
        for name, factor in force.items():
            assert sheet.get(name) == factor, (seed, name, sheet)
        checked += 1
    assert checked > 10


def test_every_multiplier_sheet_adds_up() -> None:
    seen: set[str] = set()
    for s in matgo_sheets():
        assert sum(i["points"] for i in s["items"]) == s["jokbo"]  # type: ignore[attr-defined]
        assert s["jokbo"] + s["go"] == s["base"]  # type: ignore[operator]
        total = s["base"]
        for m in s["multipliers"]:  # type: ignore[attr-defined]
            total *= m["factor"]  # type: ignore[operator]
            seen.add(m["name"].split("_")[0] if m["name"].startswith("mission") else m["name"])
        assert total == s["points"]
    assert seen >= {"go", "heundeulgi", "pibak", "gwangbak", "meongtta", "meongbak", "gobak",
                    "mission", "nagari_carry"}  # fmt: skip


def test_mission_info_tells_cards_multiplier_and_success() -> None:
    for seed in range(30):
        g = _walk(seed, "missions")[-1][0]
        info = view(g, None)["mission_info"]
        assert g.mission is not None and info["name"] == g.mission.name
        assert info["multiplier"] == g.mission.multiplier
        for p in (0, 1):
            mine = {c for c in info["cards"] if c in view(g, None)["captured"][p]}
            assert set(info["held"][p]) == mine
            assert info["done"][p] == (len(mine) == len(info["cards"]))
        if g.sheet is not None and g.winner is not None:
            named = any(m.name.startswith("mission_") for m in g.sheet.multipliers)
            assert named == info["done"][g.winner]
