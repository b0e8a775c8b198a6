"""The batched path: its observations and masks are the view-based ones, its rewards
the payments, finished games are dealt anew."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from madang.rl.vector import VectorGames  # noqa: E402


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_vector_matches_the_views(game: str) -> None:
    vg = VectorGames(game, 6, seed=1)
    obs, mask = vg.reset()
    rng = np.random.default_rng(0)
    ended = 0
    views = __import__(f"madang.{game}.view", fromlist=["view"]).view
    for _ in range(150 if game == "matgo" else 120):
        for i, st in enumerate(vg.states):
            seat = int(vg.seats[i])
            v = views(st, seat)
            assert np.array_equal(obs[i], vg.encoding.observe(v))
            legal = vg.fast.legal_ids(st, seat)
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal)
        before = [list(vg.fast.payments(st)) for st in vg.states]
        obs, mask, rewards, done = vg.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        assert (rewards.sum(1) == 0).all()
        ended += int(done.sum())
        for i in np.flatnonzero(~done):
            new = list(vg.fast.payments(vg.states[i]))[len(before[i]) :]
            assert (
                sum(p for _, to, p, _ in new if to == 0)
                - sum(p for frm, _, p, _ in new if frm == 0)
                == rewards[i, 0]
            )
    assert ended > 0
    assert mask.any(1).all()
