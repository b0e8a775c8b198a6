"""One conformance test of the game contract (:mod:`madang.core.game`), run over every
registered game and preset — and over the games registered by the test alone: a toy
game, to show that a new game needs nothing outside its own file and one registration
line.

Random games, through the contract only: legal actions non-empty exactly while the game
runs and only for the seats asked, distinct int ids whose notation
(``action_to_string``) reads back as the same id (``string_to_action``; malformed text
is a typed error), the ids of the game's RL encoding where it has one; the default
answer, a timeout's answer (the ``normal`` bot's where the game has one) and a move
made by itself are legal; any legal action steps and anything else (what is not an id,
the id of forged text, another seat's actions) raises a typed error and changes no
view; no view leaks (each seat's view is unchanged when what it cannot see is
dealt again, :meth:`Session.resampled`); the record's replay frames follow every move
to the same end; payments go from one seat to another in positive points. (The server's
claim offers and updates are checked for leaks in ``tests/server/test_leaks.py``.)
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.contract import toy

from madang.arena import run_arena
from madang.bots import Budget, make_bot
from madang.core.errors import InvalidActionError, MadangError
from madang.core.game import Session
from madang.core.registry import games, register_spec, spec, unregister_spec
from madang.rl.encoding import load_encoding

#: Games registered by the tests alone: the toy game.
TEST_SPECS = (toy.SPEC,)
CASES = [(g, p) for g in games() for p in spec(g).presets()] + [
    (s.name, p) for s in TEST_SPECS for p in s.presets()
]
GAMES_PER_CASE = {"matgo": 4, "mahjong": 2, "pairs": 20, "gostop": 6}
FORGED = ["", "x", "play", "discard 9z", "pass pass", "0 go", "\u0000", "play a1 a2", "ron"]
NOT_IDS: list[object] = [-1, 10**6, True, 1.0, "go", "play a1", None]


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    for game in TEST_SPECS:
        register_spec(game)  # the one registration line
    yield
    for game in TEST_SPECS:
        unregister_spec(game.name)


def parsed(s: Session) -> Callable[[str], int | None]:
    """The action id of a forged text, or None where the game rejects it with a typed
    error (it must: a string is an action only in the game's notation)."""

    def parse(text: str) -> int | None:
        try:
            return s.string_to_action(text)
        except InvalidActionError:
            return None

    return parse


def check_actions(s: Session, legal: list[int]) -> None:
    """Legal actions are distinct int ids, each with a notation that reads back as the
    same id; where the game has an RL encoding, its ids are the contract's."""
    assert legal and all(type(a) is int and a >= 0 for a in legal), legal
    assert len(set(legal)) == len(legal)
    texts = [s.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts)
    assert [s.string_to_action(t) for t in texts] == legal
    if spec(s.game).encoding is not None:
        enc = load_encoding(s.game)
        assert max(legal) < enc.num_actions
        assert [enc.move(a) for a in legal] == texts


def views(s: Session) -> str:
    return json.dumps([s.view(seat) for seat in (*range(s.seats), None)], default=str)


def check_views_leak_nothing(s: Session, rng: random.Random) -> int:
    """Each seat's view (and the spectator's) is the same in a world where what it cannot
    see was dealt again: a view depends on the seat's information only. Returns in how
    many of those worlds another seat's view changed (the re-deal moved something)."""
    n = s.seats  # a table's seats (고스톱's 광팔기 presets seat four)
    moved = 0
    for seat in (*range(n), None):
        world = s.resampled(seat, rng)
        assert world.view(seat) == s.view(seat), seat
        # the help a table adds for a person leaks nothing either
        assert world.annotate(world.view(seat), seat) == s.annotate(s.view(seat), seat), seat
        if seat is not None:
            assert world.legal(seat) == s.legal(seat)
        moved += any(world.view(o) != s.view(o) for o in range(n) if o != seat)
    return moved


class _Bot:
    """The bot a table's timeout asks (:class:`madang.core.game.BotSeat`)."""

    def __init__(self, game: str) -> None:
        self.budget = Budget(0.001)
        try:
            self.bot: Any = make_bot(game, "normal")
        except MadangError:
            self.bot = None  # a game without bots: the default answer


def play(s: Session, rng: random.Random) -> int:
    """Play the current game to its end at random, checking the contract at every step;
    return how many re-dealt worlds changed what another seat sees."""
    n = s.seats
    redealt = 0
    bot = _Bot(s.game)
    for _ in range(5000):
        pending = s.pending()
        assert bool(pending) == (not s.over)
        if s.over:
            return redealt
        for seat in range(n):
            legal = s.legal(seat)
            assert bool(legal) == (seat in pending), (seat, pending, legal)
        seat = rng.choice(pending)
        legal = s.legal(seat)
        check_actions(s, legal)
        assert s.default_move(seat) in legal
        assert s.timeout_move(seat, bot, random.Random(0)) in legal
        auto = s.auto_move(seat)
        assert auto is None or auto in legal
        redealt += check_views_leak_nothing(s, rng)
        for viewer in (*range(n), None):  # a person's help only adds to the seat's view
            known = s.view(viewer)
            shown = s.annotate(copy.deepcopy(known), viewer)
            assert {k: shown[k] for k in known} == known, viewer
        before = views(s)
        forged = [a for a in map(parsed(s), FORGED) if a is not None]
        others = [a for o in range(n) if o != seat for a in s.legal(o)]
        for bad in (*NOT_IDS, *forged, *others):
            if bad in legal:
                continue
            with pytest.raises(MadangError):
                s.step(seat, bad)  # type: ignore[arg-type]  # NOT_IDS are not ints on purpose
            assert views(s) == before, bad
        s.step(seat, rng.choice(legal))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "preset"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_random_games_keep_the_contract(game: str, preset: str) -> None:
    game_spec = spec(game)
    assert game_spec.name == game and game_spec.seats >= 2
    assert game_spec.rating in ("pairwise", "placement")
    rng = random.Random(f"{game}/{preset}")
    s = game_spec.session(preset, rng.getrandbits(32))
    redealt = 0
    for _ in range(GAMES_PER_CASE[game]):
        redealt += play(s, rng)
        record = s.record()
        frames = game_spec.frames(record)
        assert len(frames) == len(record["moves"]) + 1
        last: dict[str, Any] = frames[-1]["view"]
        assert last.get("over") or last.get("phase") == "over" or last.get("result")
        for frm, to, points, _ in s.payments():
            assert frm != to and points > 0
            assert {frm, to} <= set(range(s.seats))
        s.next_game()
    assert redealt > 0  # the re-deals did hide something: the leak check is not vacuous


@pytest.mark.parametrize("game", ["matgo", "mahjong", "pairs"])
def test_the_arena_plays_every_game(game: str, tmp_path: Path) -> None:
    n = spec(game).seats
    bots = ["random", *["first"] * (n - 1)]
    out = run_arena(game, bots, deals=3, seed=1, budget=Budget(None, 1), records=str(tmp_path))
    assert out["games"] == 3 * n and out["games_per_deal"] == n
    assert out["wins"]["a"] + out["wins"]["b"] + out["draws"] == out["games"]
    index = json.loads((tmp_path / "index.json").read_text())
    for g in index["games"]:  # every record replays, through the contract, to its result
        frames = spec(game).frames(json.loads((tmp_path / g["file"]).read_text()))
        assert len(frames) >= 2
    assert sum(sum(g["net"]) for g in index["games"]) == 0


def test_unknown_games_and_presets_are_typed_errors() -> None:
    with pytest.raises(MadangError):
        spec("sutda")
    with pytest.raises(MadangError):
        spec([])
    for game in games():
        with pytest.raises(MadangError):
            spec(game).session("no-such-preset", 1)


@pytest.mark.parametrize("game", ["matgo", "mahjong", "pairs", "gostop"])
def test_a_resampled_world_plays_on_without_touching_the_session(game: str) -> None:
    rng = random.Random(7)
    s = spec(game).session(spec(game).presets()[0], 7)
    before = (views(s), json.dumps(s.record(), default=str), s.match_scores())
    world = s.resampled(None, rng)
    for _ in range(5000):
        if world.over:
            break
        seat = world.pending()[0]
        world.step(seat, rng.choice(world.legal(seat)))
    world.next_game()
    assert (views(s), json.dumps(s.record(), default=str), s.match_scores()) == before


@pytest.mark.parametrize("game", ["matgo", "mahjong", "pairs", "gostop"])
def test_the_match_is_the_cores_and_ends_when_the_rules_say(game: str) -> None:
    """Games in series through the generic match (:class:`madang.core.match.Match`):
    each finished game's payments go into the balances when the next is dealt, the game
    number counts on, and where the game's rules end a match (``ends_match``) its final
    totals are ``match_scores`` and the next match starts at zero."""
    rng = random.Random(11)
    s = spec(game).session(spec(game).presets()[0], 11)
    n = spec(game).seats
    ended = 0
    for number in range(1, 8):
        assert s.game_no == number
        assert s.match_scores() is None  # nothing is final while the game runs
        while not s.over:
            seat = s.pending()[0]
            s.step(seat, rng.choice(s.legal(seat)))
        totals = s.series.totals(s.payments())
        assert sum(totals) == 0 and len(totals) == n
        ends = s.ends_match()
        assert s.match_scores() == (totals if ends else None)
        assert s.next_game() is ends
        assert s.series.balances == ([0] * n if ends else totals)
        ended += ends
    if game == "pairs":
        assert ended == 2  # games 3 and 6
