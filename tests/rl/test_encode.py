"""The encodings: the fast path from engine states equals the encoding of the views at
every step of random games, for every seat; action ids round-trip."""

from __future__ import annotations

import random
from typing import Any

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
            # a 나가리 pot carried in: none, within a byte, past one
            pot = (0, 0, 40, 300, 0)[seed]
            st = new_hand(preset(name), seed=seed, dealer=seed % 4, pot=pot)
            while True:
                enc.observe_states([st] * 4, [0, 1, 2, 3], out)
                assert enc.scalar(out[0], "pot") == pot
                for seat in range(4):
                    assert np.array_equal(enc.observe(view(st, seat)), out[seat]), (name, seed)
                if st.over:
                    break
                step(st, rng.choice(legal_actions(st, st.pending[0])))


def test_mahjong_legal_masks_are_the_legal_actions() -> None:
    """The masks written with the observations (``legal=``) and by ``legal_masks`` are
    the ids of ``legal_actions``, for every seat (asked or not) at every step of random
    hands under every preset, and of a hand that is over."""
    from madang.mahjong.encode import MahjongEncoding
    from madang.mahjong.engine import legal_actions, new_hand, step
    from madang.mahjong.rules import PRESETS, preset

    rng = random.Random(1)
    for name in PRESETS:
        enc = MahjongEncoding(preset(name))
        fast = enc.fast()
        for seed in range(4):
            st = new_hand(preset(name), seed=seed, dealer=seed % 4)
            while True:
                want = np.zeros((4, enc.num_actions), dtype=np.int8)
                for seat in range(4):
                    want[seat, [enc.action_id(str(a)) for a in legal_actions(st, seat)]] = 1
                got = np.full_like(want, 7)
                enc.observe_states(
                    [st] * 4, [0, 1, 2, 3], np.zeros((4, enc.obs_size), np.float32), legal=got
                )
                assert np.array_equal(got, want), (name, seed)
                got[:] = 7
                fast.legal_masks([st] * 4, [0, 1, 2, 3], got)
                assert np.array_equal(got, want), (name, seed)
                if st.over:
                    assert not want.any()
                    break
                step(st, rng.choice(legal_actions(st, st.pending[0])))


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_action_ids_round_trip(game: str) -> None:
    from madang.rl.encoding import load_encoding

    enc = load_encoding(game)
    for a in range(enc.num_actions):
        assert enc.action_id(enc.move(a)) == a
    assert len(enc.planes) * enc.plane_size + len(enc.scalars) == enc.obs_size


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_batched_observations_equal_the_views_for_every_seat(game: str) -> None:
    """The fast path encodes a batch of many different states (every seat of each, in a
    shuffled order) exactly as the view-based encoding encodes each seat's view: at
    every step of random games, for every rules preset. Rows must not mix, and nothing
    the view hides may show."""
    import importlib

    from madang.rl.vector import VectorGames

    presets = importlib.import_module(f"madang.{game}.rules").PRESETS
    view = importlib.import_module(f"madang.{game}.view").view
    rng = random.Random(1)
    for name in presets:
        vg = VectorGames(game, 6, seed=len(name), preset=name)
        _, mask = vg.reset()
        enc = vg.encoding
        np_rng = np.random.default_rng(0)
        for _ in range(60 if game == "matgo" else 40):
            pairs = [(st, seat) for st in vg.states for seat in range(vg.num_seats)]
            rng.shuffle(pairs)
            out = np.full((len(pairs), enc.obs_size), np.nan, dtype=np.float32)
            enc.observe_states([st for st, _ in pairs], [seat for _, seat in pairs], out)
            for row, (st, seat) in zip(out, pairs, strict=True):
                assert np.array_equal(row, enc.observe(view(st, seat))), (name, seat)
            _, mask, _, _ = vg.step(np.argmax(mask * np_rng.random(mask.shape), axis=1))


def test_matgo_batched_jokbo_points_equal_the_scoring() -> None:
    from madang.matgo.encode import _jokbo
    from madang.matgo.scoring import jokbo_points

    rng = random.Random(0)
    # random piles of every density, and the full deck
    piles = [rng.getrandbits(52) & rng.getrandbits(52) | rng.getrandbits(52) >> rng.randrange(53)
             for _ in range(4000)] + [(1 << 52) - 1]  # fmt: skip
    expected = [[jokbo_points(m, False), jokbo_points(m, True)] for m in piles]
    assert _jokbo(np.array(piles, dtype=np.int64)).T.tolist() == expected


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_observe_states_writes_into_any_array_layout(game: str) -> None:
    from madang.rl.vector import VectorGames

    vg = VectorGames(game, 5, seed=3)
    obs, _ = vg.reset()
    enc = vg.encoding
    for out in (
        np.zeros((5, enc.obs_size), dtype=np.float32, order="F"),
        np.zeros((5, 2 * enc.obs_size), dtype=np.float32)[:, ::2],
        np.zeros((7, enc.obs_size), dtype=np.float32),  # more rows than states
    ):
        enc.observe_states(vg.states, vg.seats.tolist(), out)
        assert np.array_equal(out[:5], obs)


@pytest.mark.parametrize("game", ["matgo"])
def test_observe_states_writes_the_legal_masks_of_legal_masks(game: str) -> None:
    """The masks written with the observations (``legal=``) are the adapter's
    ``legal_masks``, for every seat of states in play and over, under every preset."""
    import importlib

    from madang.rl.vector import VectorGames

    presets = importlib.import_module(f"madang.{game}.rules").PRESETS
    np_rng = np.random.default_rng(2)
    for name in presets:
        vg = VectorGames(game, 16, seed=7, preset=name)
        _, mask = vg.reset()
        enc, fast = vg.encoding, vg.fast
        over = fast.new(1)
        while fast.current(over) >= 0:
            over.step(over.legal_actions()[0])
        for _ in range(80):
            states = [*vg.states, *vg.states, over]
            seats = [*vg.seats.tolist(), *(1 - vg.seats).tolist(), 0]
            obs = np.zeros((len(states), enc.obs_size), dtype=np.float32)
            got = np.full((len(states), enc.num_actions), 7, dtype=np.int8)
            want = np.zeros_like(got)
            enc.observe_states(states, seats, obs, legal=got)
            fast.legal_masks(states, seats, want)
            assert np.array_equal(got, want), name
            _, mask, _, _ = vg.step(np.argmax(mask * np_rng.random(mask.shape), axis=1))


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_single_state_path_equals_the_batched_path(game: str) -> None:
    """The AEC environment's path, one state and one seat at a time (``fast.observe``,
    ``fast.legal_mask`` and both at once by ``fast.observe_masked``), gives the batched
    path's numbers for every seat at every step of random games under every preset (뻑
    stacks, missions, 고/스톱, 국진, claims and the finished game included), as new
    writable arrays."""
    import importlib

    from madang.core.registry import spec
    from madang.rl.encoding import load_encoding

    gs = spec(game)
    rng = random.Random(5)
    seen_phases: set[Any] = set()
    for preset in gs.presets():
        enc = load_encoding(game, gs.rules(preset, None))
        fast = enc.fast()
        seats = list(range(gs.seats))
        for seed in range(12 if game == "matgo" else 3):
            st = fast.new(seed)
            if game == "mahjong" and seed == 1:
                st.pot = 700  # a pot over a byte
            while True:
                want = np.zeros((gs.seats, enc.obs_size), dtype=np.float32)
                legal = np.zeros((gs.seats, enc.num_actions), dtype=np.int8)
                enc.observe_states([st] * gs.seats, seats, want, legal=legal)
                for seat in seats:
                    obs, mask = fast.observe(st, seat), fast.legal_mask(st, seat)
                    assert obs.dtype == np.float32 and mask.dtype == np.int8
                    assert obs.flags.writeable and mask.flags.writeable
                    assert np.array_equal(obs, want[seat]), (preset, seed, seat)
                    assert np.array_equal(mask, legal[seat]), (preset, seed, seat)
                    both = fast.observe_masked(st, seat)
                    assert both[0].dtype == np.float32 and both[1].dtype == np.int8
                    assert both[0].flags.writeable and both[1].flags.writeable
                    assert np.array_equal(both[0], obs) and np.array_equal(both[1], mask)
                seen_phases.add(getattr(st, "phase", None))
                seat = fast.current(st)
                if seat < 0:
                    break
                fast.step(st, seat, rng.choice(fast.legal_ids(st, seat)))
    if game == "matgo":
        phase = importlib.import_module("madang.matgo.engine").Phase
        assert {phase.PLAY, phase.PICK_PLAY, phase.GO_STOP, phase.OVER} <= seen_phases


def test_matgo_single_state_scores_of_one_pile_with_gukjin_in_every_mode() -> None:
    """The single-state observation remembers scores by captured pile; one pile holding
    국진 scores by its mode (not fixed, 열끗, 쌍피) and the rules' 국진 option, so the
    same pile seen under each gives that mode's score, not the first one remembered."""
    from madang.matgo.cards import GUKJIN_BIT, PI_MASK, SSANGPI_MASK
    from madang.matgo.encode import MatgoEncoding, observe_one
    from madang.matgo.engine import new_game
    from madang.matgo.rules import Gukjin, MatgoRules

    enc = MatgoEncoding()
    # 국진 with 피 worth 8 without it: 쌍피 makes 10 (a 피 score), 열끗 scores nothing
    pile = GUKJIN_BIT | SSANGPI_MASK & -SSANGPI_MASK
    for c in range(48):
        if PI_MASK >> c & 1 and bin(pile & PI_MASK).count("1") < 6:
            pile |= 1 << c
    scores = set()
    for option in (Gukjin.BEFORE_SCORE, Gukjin.ASK):
        g = new_game(MatgoRules(gukjin=option), seed=1)
        g.captured[0] = pile
        for mode in (-1, 0, 1, -1):
            g.gukjin_mode = mode
            want = g.score(0)
            scores.add(want)
            assert enc.scalar(observe_one(g, 0), "score_mine") == want, (option, mode)
            assert enc.scalar(observe_one(g, 1), "score_theirs") == want, (option, mode)
    assert len(scores) > 1  # the modes score the pile differently


def test_mahjong_shown_counts_are_kept_at_every_step() -> None:
    """The counts the mahjong engine keeps of what every seat sees (``HandState.shown``:
    melds, rivers, 불러's waits, declarations, flowers, concealed tiles) equal those
    counted afresh from the hand at every step of random hands under every preset (claims,
    kans, robbed kans, wins on a discard and declarations included), in the hands shown
    while a discard is offered (``offered``) and in worlds dealt from a view."""
    from madang.mahjong.engine import from_view, legal_actions, new_hand, offered, step
    from madang.mahjong.rules import PRESETS, preset
    from madang.mahjong.state import shown_counts
    from madang.mahjong.view import view

    rng = random.Random(3)
    verbs: set[str] = set()
    for name in PRESETS:
        for seed in range(40):
            st = new_hand(preset(name), seed=seed, dealer=seed % 4)
            while True:
                assert st.shown == shown_counts(st), (name, seed, st.history[-1:])
                if st.over:
                    break
                seat = st.pending[0]
                legal = legal_actions(st, seat)
                # the rarer answers first, when offered: they are what the counts must follow
                rare = [
                    a
                    for a in legal
                    if a.declare or a.verb in ("ron", "kan", "ankan", "kakan", "pon")
                ]
                a = rng.choice(rare) if rare and rng.random() < 0.7 else rng.choice(legal)
                if a.verb == "discard" or a.verb == "kakan":
                    shown = offered(st, a)
                    assert shown.shown == shown_counts(shown), (name, seed, str(a))
                if seed % 10 == 0 and st.phase == "discard" and len(st.history) % 7 == 3:
                    world = from_view(view(st, seat), random.Random(seed))
                    assert world.shown == shown_counts(world), (name, seed)
                verbs.add(a.verb + (a.declare and " " + a.declare))
                step(st, a, False)
    assert {"pon", "kan", "ankan", "kakan", "ron", "discard bulleo", "discard eopeo"} <= verbs
    # a 가깡 robbed (the kan back to a 뽕), and one that nobody robs (random hands rarely
    # have one: the crafted hand of the engine's tests)
    from tests.mahjong.test_engine_claims import rob_state
    from tests.mahjong.walls import play

    for answer in ("2 ron", "2 pass"):
        st = rob_state()
        assert st.phase == "rob" and st.shown == shown_counts(st)
        play(st, answer)
        assert st.shown == shown_counts(st), answer


def test_matgo_single_state_scalars_over_a_byte() -> None:
    """The single-state observation writes its scalars as bytes where they fit and as
    floats where one does not (a 나가리 carry of 256 here, at every step of a game): the
    batched path's numbers either way."""
    from madang.matgo.encode import MatgoEncoding, observe_masked
    from madang.matgo.engine import new_game

    enc = MatgoEncoding()
    rng = random.Random(2)
    want = np.zeros((1, enc.obs_size), dtype=np.float32)
    for carry in (1, 256):
        g = new_game(seed=4, carry=carry)
        while True:
            for seat in (0, 1):
                enc.observe_states([g], [seat], want)
                obs, _ = observe_masked(g, seat)
                assert np.array_equal(obs, want[0]), (carry, seat)
                assert enc.scalar(obs, "carry") == carry
            if g.over:
                break
            g.step(rng.choice(g.legal_actions()))
