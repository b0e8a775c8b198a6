"""선 뽑기 (issue 26 item 5, U25; seeds 000 and 003): the first 선 of a verifiable Matgo
table with a person seated is chosen by each seat picking one of the face-down cards laid
out from the deal key. The layout is the key's (deterministic, verifiable); the same
month picks again; a seat that does not pick in time (and a bot) gets the first free
card; the cards under the picks are shown to nobody until both seats have picked; the
picks enter the record and ``madang verify``; tables of bots only keep the first 선
drawn from the key."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import play_out, recv_until, register, use_session
from tests.server.test_absent import two_people
from tests.server.test_ws import new_table

from madang.core import fair
from madang.core.errors import FairnessError
from madang.matgo.cards import MONTH
from madang.matgo.first_pick import SLOTS, FirstPick
from madang.matgo.match import dealer_of_draw
from madang.matgo.rules import FirstDealer, MatgoRules
from madang.server.config import ServerConfig
from madang.server.db import make_engine
from madang.server.room import Kind, Room, Seat

VECTOR_KEY = bytes.fromhex("9a467f6828b7ab922c57296b887723ff3366ecc35acef6653bbecb5cea0ceba1")
"""The deal key of ``docs/fairness.md``'s first test vector."""


def _fair_client(make_client: Callable[..., TestClient], **kw: Any) -> TestClient:
    """Verifiable deals, dealt as soon as the table could be (no wait for entropy)."""
    return make_client(deal_seed=None, entropy_seconds=0.0, **kw)


def _hello(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    return recv_until(ws, "snapshot")


def _pick(ws: Any, slot: object) -> None:
    ws.send_text(json.dumps({"type": "first_pick", "slot": slot}))


def _until_first_pick(ws: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next ``first_pick`` message (every message read is kept in ``seen``)."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        seen.append(m)
        if m["type"] == "first_pick":
            return m
        assert m["type"] != "error", m


def _until_revealed(ws: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        m = _until_first_pick(ws, seen)
        if m["cards"] is not None and m["dealer"] is not None:
            return m


# ---------------------------------------------------------------------- the layout


def test_the_layout_is_the_keys_test_vector() -> None:
    """docs/fairness.md, 선 뽑기: the first vector's key lays out these cards; picks
    (0, 5) tie on March, the next round's (1, 4) give October against August."""
    p = FirstPick(MatgoRules(), VECTOR_KEY)
    assert p.codes(0) == ["03g", "04p2", "08g", "07p2", "04r", "03p1", "12a", "09p2"]
    assert p.codes(1) == ["11p1", "10a", "11g", "11d", "08g", "10r", "07p1", "09a"]
    assert p.winner(0, [0, 5]) is None
    first, second = p.layout(0), p.layout(1)
    assert p.decide([[0, 5], [1, 4]]) == (0, [(first[0], first[5]), (second[1], second[4])])
    assert (
        FirstPick(MatgoRules(first_dealer=FirstDealer.NIGHT_LOW), VECTOR_KEY).decide(
            [[0, 5], [1, 4]]
        )[0]
        == 1
    )  # 밤일낮장: the lower month


@pytest.mark.parametrize("seed", range(20))
def test_layouts_are_deterministic_distinct_month_cards(seed: int) -> None:
    key = hashlib.sha256(bytes([seed])).digest()
    a, b = FirstPick(MatgoRules(), key), FirstPick(MatgoRules(), key)
    for r in range(4):
        lay = a.layout(r)
        assert len(lay) == SLOTS == len(set(lay)) and all(0 <= c < 48 for c in lay)
        assert lay == b.layout(r)  # the key's: the same every time it is asked
    other = FirstPick(MatgoRules(), hashlib.sha256(key).digest())
    assert [other.layout(r) for r in range(4)] != [a.layout(r) for r in range(4)]


def _tied_key() -> tuple[bytes, list[int]]:
    for i in range(1000):
        key = hashlib.sha256(b"tie" + bytes([i % 256, i // 256])).digest()
        lay = FirstPick(MatgoRules(), key).layout(0)
        for x in range(SLOTS):
            for y in range(SLOTS):
                if x != y and MONTH[lay[x]] == MONTH[lay[y]]:
                    return key, [x, y]
    raise AssertionError("no tied layout")  # pragma: no cover


def test_the_same_month_picks_again_and_the_picks_must_decide() -> None:
    key, tie = _tied_key()
    p = FirstPick(MatgoRules(), key)
    assert p.winner(0, tie) is None
    lay = p.layout(1)
    decisive = next(
        [x, y] for x in range(SLOTS) for y in range(SLOTS) if MONTH[lay[x]] != MONTH[lay[y]]
    )
    dealer, draws = p.decide([tie, decisive])
    assert dealer == dealer_of_draw(MatgoRules(), lay[decisive[0]], lay[decisive[1]])
    assert dealer == (0 if MONTH[lay[decisive[0]]] > MONTH[lay[decisive[1]]] else 1)
    assert len(draws) == 2
    for bad in ([tie], [decisive, tie], [[0, 0]], [[0, SLOTS]], [], [[0]]):
        with pytest.raises(FairnessError):
            p.decide(bad)


# ---------------------------------------------------------------------- at the table


def test_a_person_picks_a_card_the_bot_picks_and_the_record_verifies(
    make_client: Callable[..., TestClient],
) -> None:
    c = _fair_client(make_client, first_pick_seconds=30.0, first_pick_reveal_seconds=0.0)
    register(c)
    tid = new_table(c)
    seen: list[dict[str, Any]] = []
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws)
        assert snap["view"] is None
        laid = snap["first_pick"] or _until_first_pick(ws, seen)
        while laid["picks"][1] is None:  # the bot picks after its pause (0 s here)
            laid = _until_first_pick(ws, seen)
        assert laid["round"] == 0 and laid["slots"] == SLOTS and laid["cards"] is None
        assert laid["picks"] == [None, 0] and laid["remaining_ms"] > 20_000
        # the lobby tells a table drawing for 선 from one waiting for players
        listed = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}[tid]
        assert listed["status"] == "waiting" and listed["picking"] is True
        # no entropy is taken once the cards are laid out (they are the key's)
        ws.send_text(json.dumps({"type": "fair_entropy", "entropy": "late"}))
        assert recv_until(ws, "error")["code"] == "entropy_closed"
        _pick(ws, 0)  # the bot's
        assert recv_until(ws, "error")["code"] == "bad_pick"
        for bad in (SLOTS, -1, "3", None, 1.0):
            _pick(ws, bad)
            assert recv_until(ws, "error")["code"] == "bad_pick"
        while True:  # a tie (same month) lays out a new round: the bot takes 0 again
            _pick(ws, 5)
            shown = _until_first_pick(ws, seen)
            while shown["cards"] is None:
                shown = _until_first_pick(ws, seen)
            assert shown["picks"] == [5, 0] and len(shown["cards"]) == 2
            if not shown["tie"]:
                break
            laid = _until_first_pick(ws, seen)
            while laid["picks"][1] is None:
                laid = _until_first_pick(ws, seen)
            assert laid["round"] == shown["round"] + 1 and laid["cards"] is None
        assert shown["dealer"] in (0, 1)
        deal = recv_until(ws, "update")
        listed = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}[tid]
        assert listed["status"] == "playing" and listed["picking"] is False
        last = play_out(ws, 0, deal, random.Random(1).choice)
        _pick(ws, 6)  # the deal was made: nothing to pick
        assert recv_until(ws, "error")["code"] == "pick_closed"
    revealed = last["result"]["fair"]
    rounds = revealed["first_picks"]
    assert rounds[-1] == [5, 0] and all(r[1] != r[0] for r in rounds)
    record = c.get(f"/api/games/{last['result']['game_id']}").json()["record"]
    checked = fair.verify(record)
    assert checked.deal["dealer"] == record["dealer"]
    p = FirstPick(record["rules"], checked.key)
    assert shown["cards"] == [p.codes(len(rounds) - 1)[5], p.codes(len(rounds) - 1)[0]]
    assert record["dealer"] == shown["dealer"] == p.decide(rounds)[0]
    # the board says how 선 was chosen: the months of every round
    months = [[MONTH[a], MONTH[b]] for a, b in p.decide(rounds)[1]]
    assert deal["view"]["match"]["first_draws"] == months
    # the picks swapped give the other seat 선: that record does not verify
    swapped = {**revealed, "first_picks": [*rounds[:-1], [rounds[-1][1], rounds[-1][0]]]}
    with pytest.raises(fair.VerificationError, match="dealer"):
        fair.verify({**record, "fairness": swapped})
    # picks that decide nothing (a round after the decisive one) are refused
    extra = {**revealed, "first_picks": [*rounds, [1, 2]]}
    with pytest.raises(FairnessError, match="decided"):
        fair.verify({**record, "fairness": extra})


def test_a_person_out_of_time_gets_the_first_free_card(
    make_client: Callable[..., TestClient],
) -> None:
    c = _fair_client(make_client, first_pick_seconds=0.3, first_pick_reveal_seconds=0.0)
    register(c)
    tid = new_table(c)
    seen: list[dict[str, Any]] = []
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        _hello(ws)
        shown = _until_revealed(ws, seen)  # nobody clicked: the bot took 0, the person 1
        assert shown["picks"][0] == 1 and shown["picks"][1] == 0
        deal = recv_until(ws, "update")
    assert deal["view"]["dealer"] == shown["dealer"]


def test_the_first_picker_learns_no_card_before_the_other_picks(
    make_client: Callable[..., TestClient],
) -> None:
    c = _fair_client(make_client, first_pick_seconds=5.0, first_pick_reveal_seconds=0.0)
    tid, host, other = two_people(c)
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    use_session(c, host)
    host_seen: list[dict[str, Any]] = []
    other_seen: list[dict[str, Any]] = []
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:
        _hello(ws_host)
        use_session(c, other)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
            _hello(ws_other)
            _until_first_pick(ws_host, host_seen)
            _pick(ws_host, 2)
            m = _until_first_pick(ws_host, host_seen)
            assert m["picks"] == [2, None] and m["cards"] is None
            mark = len(host_seen)  # everything the host learnt before the other picked
            seen_by_other = _until_first_pick(ws_other, other_seen)
            while seen_by_other["picks"][0] is None:
                seen_by_other = _until_first_pick(ws_other, other_seen)
            assert seen_by_other["picks"] == [2, None] and seen_by_other["cards"] is None
            _pick(ws_other, 2)  # the host's card: taken
            assert recv_until(ws_other, "error")["code"] == "bad_pick"
            _pick(ws_other, 7)
            shown = _until_first_pick(ws_host, host_seen)
            while shown["cards"] is None:
                shown = _until_first_pick(ws_host, host_seen)
            assert shown["round"] == 0 and shown["picks"] == [2, 7]  # (a tie: 5 s more)
            # a spectator cannot pick
            c.cookies.clear()
            with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
                _hello(spectator)
                _pick(spectator, 1)
                assert recv_until(spectator, "error")["code"] == "not_seated"
            rng = random.Random(2)
            ws_host.send_text(json.dumps({"type": "ping"}))
            last = None
            deal_h = recv_until(ws_host, "update")
            deal_o = recv_until(ws_other, "update")
            while last is None:
                for ws, seat, st in ((ws_host, 0, deal_h), (ws_other, 1, deal_o)):
                    p = st["prompt"]
                    if p and p["seat"] == seat:
                        move = rng.choice(p["legal"])
                        act = {"type": "act", "version": st["version"], "action": move}
                        ws.send_text(json.dumps(act))
                deal_h = recv_until(ws_host, "update")
                deal_o = recv_until(ws_other, "update")
                if "result" in deal_h:
                    last = deal_h
    record = c.get(f"/api/games/{last['result']['game_id']}").json()["record"]
    key = fair.verify(record).key
    assert record["fairness"]["first_picks"][0] == [2, 7]
    p = FirstPick(record["rules"], key)
    hidden = {p.codes(0)[7]}  # the card under the other's pick
    before = json.dumps(host_seen[:mark])
    assert not any(f'"{code}"' in before for code in hidden)
    assert shown["cards"][1] in hidden


def test_a_table_of_bots_only_keeps_the_first_dealer_of_the_key() -> None:
    eng = make_engine("sqlite://")
    room = Room(
        table_id=1, game="matgo", preset="default", stake=1, private=False, invite="x",
        seats=[Seat(0, Kind.BOT, level="easy"), Seat(1, Kind.BOT, level="easy")],
        config=ServerConfig(), engine=eng, seed=1, fair=True,
    )  # fmt: skip
    room._commit_next(1)
    assert room.fair_next is not None
    assert room._first_pick_due() is None and room.first_pick is None


def test_a_seeded_table_has_no_first_pick(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws)
        assert snap["first_pick"] is None and snap["view"] is not None
        _pick(ws, 0)
        assert recv_until(ws, "error")["code"] == "pick_closed"
