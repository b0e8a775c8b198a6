"""The encodings: the fast path from engine states equals the encoding of the views at
every step of random games, for every seat; action ids round-trip."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")


def test_matgo_state_path_equals_view_path() -> None:
    from madang.matgo.encode import MatgoEncoding
    from madang.matgo.engine import new_game
    from madang.matgo.rules import PRESETS, preset
    from madang.matgo.view import view

    rng = random.Random(0)
    for name in PRESETS:
        enc = MatgoEncoding(preset(name))
        out = np.zeros((2, enc.obs_size), dtype=np.float32)
        for seed in range(25):
            g = new_game(preset(name), seed=seed)
            while True:
                enc.observe_states([g, g], [0, 1], out)
                for seat in (0, 1):
                    assert np.array_equal(enc.observe(view(g, seat)), out[seat]), (name, seed)
                if g.over:
                    break
                g.step(rng.choice(g.legal_actions()))


def test_mahjong_state_path_equals_view_path() -> None:
    from madang.mahjong.encode import MahjongEncoding
    from madang.mahjong.engine import legal_actions, new_hand, step
    from madang.mahjong.rules import PRESETS, preset
    from madang.mahjong.view import view

    rng = random.Random(0)
    for name in PRESETS:
        enc = MahjongEncoding(preset(name))
        out = np.zeros((4, enc.obs_size), dtype=np.float32)
        for seed in range(5):
            st = new_hand(preset(name), seed=seed, dealer=seed % 4)
            while True:
                enc.observe_states([st] * 4, [0, 1, 2, 3], out)
                for seat in range(4):
                    assert np.array_equal(enc.observe(view(st, seat)), out[seat]), (name, seed)
                if st.over:
                    break
                step(st, rng.choice(legal_actions(st, st.pending[0])))


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_action_ids_round_trip(game: str) -> None:
    from madang.rl.encoding import load_encoding

    enc = load_encoding(game)
    for a in range(enc.num_actions):
        assert enc.action_id(enc.move(a)) == a
    assert len(enc.planes) * enc.plane_size + len(enc.scalars) == enc.obs_size
