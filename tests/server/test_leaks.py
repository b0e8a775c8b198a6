"""No client ever receives another seat's hidden cards or the deck/wall order, nor
learns whether another seat was asked to claim a mahjong discard.

Random games run through the real room actor; every seat and a spectator is a client
that answers its prompts with random legal moves (through the actor's queue, like a
WebSocket client) and checks every message it is sent against the live game state at
the moment of sending.

Verifiable deals (``docs/fairness.md``): the tables deal verifiably and every seat
sends its entropy when it sees a commitment. No message holds a game's secret seed (or
its deal key, in hex) before that game's result; the result reveals the seed, which
verifies the game's record; every seat and the spectator are shown the same commitment,
before the deal.

Claims: after every discard (and 가깡) a seat that was not asked must see the same
thing whether or not anyone was — the content (a window that asks nobody, no timers,
no prompt), the grouping (the discard alone in its update) and the timing (nothing
more until ``claim_seconds`` after the discard). How long the pause goes on past that
is measured in ``tests/server/test_claim_pace.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from madang.core import fair
from madang.core.registry import spec
from madang.matgo.cards import BIT, CODES
from madang.server import store
from madang.server.config import ServerConfig
from madang.server.db import make_engine, migrate
from madang.server.room import Act, Conn, Entropy, Kind, Ready, Room, Seat

FORBIDDEN_KEYS = {"deck", "wall", "seed", "pile_order"}


def walk(obj: Any, keys: set[str], strings: list[str]) -> None:
    if isinstance(obj, dict):
        keys.update(obj)
        for v in obj.values():
            walk(v, keys, strings)
    elif isinstance(obj, list):
        for v in obj:
            walk(v, keys, strings)
    elif isinstance(obj, str):
        strings.append(obj)


def matgo_hidden(room: Room, seat: int | None) -> set[str]:
    g = room.session.match.game  # type: ignore[union-attr]
    hidden = 0
    for c in g.pile:
        hidden |= BIT[c]
    for p in range(len(g.hands)):  # 맞고's two seats, 고스톱's three
        if p != seat:
            hidden |= g.hands[p] & ~g.revealed[p]
    return {CODES[c] for c in range(len(CODES)) if hidden >> c & 1}


CLAIM_SECONDS = 0.03


def check_mahjong(msg: dict[str, Any], seat: int | None) -> None:
    view = msg.get("view")
    if view:
        for p in view["players"]:
            if p["seat"] != seat:
                assert p["hand"] is None and p["drawn"] is None and p["golla"] is None
        if view["phase"] in ("claim", "rob"):
            asked = seat is not None and seat in view["pending"]
            assert view["pending"] == ([seat] if asked else []), view["pending"]
            if not asked:
                assert view["legal_actions"] == [] and msg["timers"] == []
    for e in msg.get("events", []):
        if e.get("seat") != seat or seat is None:
            assert e["type"] not in ("ask", "answer"), e
            if e["type"] == "draw":
                assert "tile" not in e, e
            if e["type"] == "deal":
                assert "tiles" not in e, e
    prompt = msg.get("prompt")
    assert prompt is None or prompt["seat"] == seat


class Checker(Conn):
    """A client that checks each message and answers its prompts at random."""

    def __init__(self, room: Room, seat: int | None, rng: random.Random) -> None:
        super().__init__(seat, None)
        self.room = room
        self.rng = rng
        self.version = 0
        self.count = 0
        self.hello = True
        self.offered_at: float | None = None
        self.offers = 0
        self.windows = 0
        self.failures: list[str] = []
        self.commitments: dict[int, str] = {}
        """The commitment shown per game number, before that game's deal."""
        self.verified = 0

    def send(self, text: str) -> None:
        # The room actor survives an exception in a message (it logs it), so a failed
        # check is kept here and asserted by the test.
        try:
            self.check(text)
        except AssertionError as e:
            self.failures.append(f"seat {self.seat}: {e!r}"[:2000])

    def secrets(self) -> list[str]:
        """The seeds (and deal keys), in hex, that no message may hold now: the next
        game's, and the current game's until its result."""
        room = self.room
        out = []
        if room.fair_next is not None:
            out.append(room.fair_next.seed.hex())
        if room.fair is not None and room.session is not None and not room.session.over:
            out += [room.fair.seed.hex(), room.fair.key().hex()]
        return out

    def check_fair(self, msg: dict[str, Any]) -> None:
        """Commitments before deals, the strings mixed in, the reveal verifies."""
        if msg["type"] == "fair_commit":
            n = msg["binding"]["game_no"]
            assert n not in self.commitments, n
            self.commitments[n] = msg["commitment"]
            if self.seat is not None:
                self.room.submit(Entropy(self, f"seat {self.seat} game {n}"))
        dealt = msg.get("fair")
        if msg["type"] == "update" and dealt is not None:  # the deal's update
            n = dealt["binding"]["game_no"]
            assert self.commitments.get(n) == dealt["commitment"], n  # shown before
            assert dealt["entropy"] == [f"seat {s} game {n}" for s in range(len(dealt["entropy"]))]
        result = msg.get("result")
        if result is not None and "fair" in result:
            revealed = result.pop("fair")
            assert self.commitments.get(revealed["game_no"]) == revealed["commitment"]
            rec = self.room._record(reveal=True)
            fair.verify(rec, commitment_seen=revealed["commitment"])
            assert rec["fairness"] == revealed
            self.verified += 1

    def check(self, text: str) -> None:
        for secret in self.secrets():
            assert secret not in text, ("a secret before the result", text[:300])
        msg = json.loads(text)
        self.count += 1
        self.check_fair(msg)
        keys: set[str] = set()
        strings: list[str] = []
        walk(msg, keys, strings)
        assert not keys & FORBIDDEN_KEYS, keys & FORBIDDEN_KEYS
        if msg["type"] not in ("update", "snapshot"):
            return
        if self.room.game in ("matgo", "gostop"):
            leaked = set(strings) & matgo_hidden(self.room, self.seat)
            assert not leaked, (self.seat, leaked, msg)
        else:
            check_mahjong(msg, self.seat)
            self.check_offer(msg)
        self.version = msg["version"]
        prompt = msg.get("prompt")
        if prompt and self.seat is not None:
            self.room.submit(Act(self, self.version, self.rng.choice(prompt["legal"])))
        if "result" in msg and self.seat is not None:
            self.room.submit(Ready(self))

    def check_offer(self, msg: dict[str, Any]) -> None:
        now = time.monotonic()
        types = [e["type"] for e in msg.get("events", [])]
        mine = {"ask", "answer"}
        if self.offered_at is not None and not set(types) <= mine:
            # the first update after an offer that is not this seat's own question or
            # answer: not before the pause is over, whatever happened meanwhile
            assert now >= self.offered_at, (now - self.offered_at, types)
            self.offered_at = None
        if msg["type"] == "update" and {"discard", "kakan"} & set(types):
            assert set(types) - mine <= {"discard", "kakan"}, types  # alone in its update
            assert msg["view"]["phase"] in ("claim", "rob")  # offered, window or not
            assert self.room.offer_until is not None  # the pause is on
            self.offered_at = self.room.offer_min  # its uniform part: never over sooner
            self.offers += 1
            self.windows += bool(self.room.session.window())  # type: ignore[union-attr]


async def run_games(
    game: str, games: int, seed: int, preset: str = "default"
) -> tuple[int, int, int, int, list[str], list[Checker]]:
    eng = make_engine("sqlite://")
    migrate(eng)
    seats = (
        len(spec(game).session(preset, 0).view(None)["hand_counts"])
        if game == "gostop"
        else SEATS_OF[game]
    )
    # game money enough for every deal (a person below the entry minimum is dealt none)
    users = [store.create_user(eng, f"user{i}", None, start=10**6) for i in range(seats)]
    config = ServerConfig(
        bot_delay=0.0, next_game_seconds=30.0, claim_seconds=CLAIM_SECONDS,
        claim_decision_seconds=1.0, first_pick_seconds=0.05, first_pick_reveal_seconds=0.0,
    )  # fmt: skip
    room = Room(
        table_id=store.create_table(
            eng,
            game=game,
            preset=preset,
            stake=1,
            private=False,
            invite="x",
            seats=[],
            created_by=users[0]["id"],
        )[0],
        game=game,
        preset=preset,
        stake=1,
        private=False,
        invite="x",
        seats=[
            Seat(i, Kind.HUMAN, user_id=u["id"], username=u["username"])
            for i, u in enumerate(users)
        ],
        config=config,
        engine=eng,
        seed=seed,
        fair=True,
    )
    rng = random.Random(seed)
    conns = [Checker(room, s, rng) for s in range(seats)] + [Checker(room, None, rng)]
    for c in conns:
        room._attach(c)
    room.start()
    deadline = time.monotonic() + 240
    while room.games_played < games and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    await room.shutdown()
    spectator = conns[-1]
    return (
        room.games_played,
        sum(c.count for c in conns),
        spectator.offers,
        spectator.windows,
        [f for c in conns for f in c.failures],
        conns,
    )


SEATS_OF = {"matgo": 2, "mahjong": 4, "gostop": 3}


@pytest.mark.parametrize(
    ("game", "games", "preset"),
    [
        ("matgo", 40, "default"),
        ("mahjong", 6, "default"),
        ("gostop", 20, "default"),
        ("gostop", 8, "gwangpalgi"),
    ],
    ids=["matgo", "mahjong", "gostop", "gostop-four"],
)
def test_no_message_leaks_hidden_cards(game: str, games: int, preset: str) -> None:
    """(고스톱 of four, 광팔기: the sitter's cards, under the pile, are in no message,
    the sitter's own included; the verifiable deal takes an entropy string per seat.)"""
    played, messages, offers, windows, failures, conns = asyncio.run(
        run_games(game, games, seed=11, preset=preset)
    )
    assert failures == []
    assert played >= games
    # every seat and the spectator saw the same commitments, and verified each game
    assert all(c.commitments == conns[0].commitments for c in conns)
    if spec(game).fair_deal is None:
        assert conns[0].commitments == {} and all(c.verified == 0 for c in conns)
    else:
        assert len(conns[0].commitments) >= played
        assert all(c.verified >= games for c in conns)
    assert messages > games * 20
    if game == "mahjong":  # both kinds of offer were seen, and looked the same
        assert offers > windows > 0
