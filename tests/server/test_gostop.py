"""고스톱 (gostop) at the server: tables of three (a person and two bots, people only),
the bot levels it offers, the settlement (each loser pays the winner, points × stake,
payments summing to zero), ratings by placement, replays, and what goes over the wire
(no other hand; the leak check over every message is ``tests/server/test_leaks.py``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import DEAL_SEED, START, recv_until, register, use_session

from madang.server.games import BotPlayer, bot_level_for, bot_levels, make_session
from madang.server.ratings import placement_deltas

GOSTOP_VS_BOTS = {
    "game": "gostop",
    "stake": 10,
    "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "easy"}] * 2],
}


def new_table(c: TestClient, body: dict[str, Any]) -> int:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid: int = r.json()["table"]["id"]
    return tid


def hello(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    recv_until(ws, "welcome")
    return recv_until(ws, "snapshot")


def own_hand_only(view: dict[str, Any], seat: int, seats: int = 3) -> None:
    """A seat's view over the wire: its own hand and the others' as counts; a sitter
    (광팔기) holds none, even in its own view (its cards are under the pile)."""
    assert view["game"] == "gostop" and view["seat"] == seat
    assert "hands" not in view and len(view["hand_counts"]) == seats
    assert len(view["hand"]) == view["hand_counts"][seat]
    if view.get("sitting_out") is not None:
        assert view["hand_counts"][view["sitting_out"]] == 0


def play_to_result(
    ws: Any,
    seat: int,
    snap: dict[str, Any],
    rng: random.Random,
    seats: int = 3,
    prefer: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Answer ``seat``'s prompts at random (a move of ``prefer`` where legal), checking
    each update's view, until the game's result; the last update."""
    version, prompt = snap["version"], snap.get("prompt")
    own_hand_only(snap["view"], seat, seats)
    for _ in range(5000):
        if prompt and prompt["seat"] == seat:
            wanted = [m for m in prompt["legal"] if m in prefer]
            move = wanted[0] if wanted else rng.choice(prompt["legal"])
            ws.send_text(json.dumps({"type": "act", "version": version, "action": move}))
        m = ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] != "update":
            continue
        assert m["version"] == version + 1
        version, prompt = m["version"], m["prompt"]
        own_hand_only(m["view"], seat, seats)
        if "result" in m:
            return m
    raise AssertionError("the game did not end")


def test_config_offers_gostop_with_its_working_bot_levels(client: TestClient) -> None:
    config = client.get("/api/config").json()
    assert config["games"]["gostop"]["seats"] == 3
    assert config["games"]["gostop"]["bot_levels"] == bot_levels("gostop")
    assert config["games"]["matgo"]["bot_levels"] == ["easy", "normal", "hard"]
    assert "gostop" in client.get("/api/rules").json()["games"]
    # a quick match fills 고스톱's seats with the strongest level it has
    assert bot_level_for("gostop", "normal") in bot_levels("gostop")
    assert bot_level_for("matgo", "normal") == "normal"
    # a person's stand-in (away, out of time) is a bot of the game, not the default answer
    assert BotPlayer("gostop", bot_level_for("gostop", "normal"), 0.01).bot is not None


def test_a_table_of_three_needs_three_seats_and_a_level_the_game_has(client: TestClient) -> None:
    register(client)
    two = {**GOSTOP_VS_BOTS, "seats": GOSTOP_VS_BOTS["seats"][:2]}
    r = client.post("/api/tables", json=two)
    assert r.status_code == 400 and "3 seats" in r.json()["error"]["message"]
    missing = [lv for lv in ("easy", "normal", "hard") if lv not in bot_levels("gostop")]
    for level in missing:  # a level whose bot cannot play three seats is not offered
        seats = [{"kind": "human"}, {"kind": "bot", "level": level}, {"kind": "bot"}]
        r = client.post("/api/tables", json={**GOSTOP_VS_BOTS, "seats": seats})
        assert r.status_code == 400 and "gostop bot level" in r.json()["error"]["message"]
    # the seats follow the rules: four with 광팔기 (players: 4), so three are refused
    for body in ({"rules": {"players": 4}}, {"preset": "gwangpalgi"}):
        r = client.post("/api/tables", json={**GOSTOP_VS_BOTS, **body})
        assert r.status_code == 400 and "needs 4 seats" in r.json()["error"]["message"], body
    four = {**GOSTOP_VS_BOTS, "seats": [*GOSTOP_VS_BOTS["seats"], {"kind": "bot"}]}
    r = client.post("/api/tables", json={**four, "preset": "gwangpalgi", "rules": {"players": 3}})
    assert r.status_code == 400 and "needs 3 seats" in r.json()["error"]["message"]
    presets = client.get("/api/config").json()["games"]["gostop"]["presets"]
    assert {"default", "shodang", "gwangpalgi", "gwangpalgi_last"} <= set(presets)
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_gostop_against_two_bots_plays_to_the_settlement(client: TestClient) -> None:
    register(client)
    tid = new_table(client, GOSTOP_VS_BOTS)
    table = client.get(f"/api/tables/{tid}").json()["table"]
    assert table["game"] == "gostop" and len(table["seats"]) == 3
    assert table["worth"]["max_points"] > 0  # the stake cap knows the game's bound
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing"
        last = play_to_result(ws, 0, snap, random.Random(4))
    result = last["result"]

    pays = result["payments"]
    net = [0, 0, 0]
    for p in pays:
        assert p["amount"] == p["points"] * 10 and p["from"] != p["to"]
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]
    assert sum(net) == 0
    if result["winner"] is not None:
        assert {p["to"] for p in pays if p["reason"] == "win"} <= {result["winner"]}
    me = client.get("/api/me").json()
    assert me["balance"] == START + net[0]
    ledger = client.get("/api/ledger").json()["entries"]
    assert sum(e["amount"] for e in ledger if e["game_id"]) == net[0]
    games = client.get("/api/games").json()["games"]
    assert games[0]["game"] == "gostop" and games[0]["players"] == ["minsu", "bot-easy", "bot-easy"]
    detail = client.get(f"/api/games/{result['game_id']}").json()
    assert detail["record"]["game"] == "gostop" and detail["payments"] == pays
    frames = client.get(f"/api/games/{result['game_id']}/replay").json()["frames"]
    assert len(frames) == len(detail["record"]["moves"]) + 1
    assert all(len(h) == 7 for h in frames[0]["view"]["hands"])  # the replay shows them
    assert "match_scores" not in result and not result["match_over"]  # the table goes on
    # this deal (seed 101, the person's moves from seed 4) is won: the person is rated by
    # placement (the bots share one account, which keeps its rating)
    assert result["winner"] is not None
    assert set(result["ratings"]) == {"0"}
    assert me["ratings"]["gostop"]["games"] == 1 and "rd" not in me["ratings"]["gostop"]
    moved = result["ratings"]["0"]["after"] - result["ratings"]["0"]["before"]
    expected = placement_deltas([1500.0] * 3, net, [0] * 3)[0]
    assert expected != 0 and moved == pytest.approx(expected, abs=0.1)
    # every loser's own sheet, as the person's page shows it
    winner = result["winner"]
    assert [s["loser"] for s in last["view"]["sheets"]] == [(winner + 1) % 3, (winner + 2) % 3]


def test_three_people_at_a_table(client: TestClient) -> None:
    """People only: two join the table made by a third; every seat plays its prompts,
    and each sees its own hand only."""
    cookies = []
    for name in ("minsu", "jiwoo", "seoyun"):
        client.cookies.clear()
        register(client, name)
        cookies.append(client.cookies.get("madang_session") or "")
    use_session(client, cookies[0])
    people = {**GOSTOP_VS_BOTS, "seats": [{"kind": "human"}] * 3}
    tid = new_table(client, people)
    for i in (1, 2):
        use_session(client, cookies[i])
        r = client.post(f"/api/tables/{tid}/join", json={"stake": 10})
        assert r.status_code == 200 and r.json()["seat"] == i, r.text
    socks = []
    for i in range(3):
        use_session(client, cookies[i])
        socks.append(client.websocket_connect(f"/ws/tables/{tid}").__enter__())
    try:
        state = [hello(ws) for ws in socks]
        for i, ws in enumerate(socks):  # a seat connected before the deal: the deal's update
            if state[i]["status"] != "playing":
                state[i] = recv_until(ws, "update")
        versions = [s["version"] for s in state]
        prompts = [s.get("prompt") for s in state]
        rng = random.Random(9)
        result = None
        for _ in range(2000):
            seat = next((i for i, p in enumerate(prompts) if p and p["seat"] == i), None)
            assert seat is not None, "nobody is asked"
            move = rng.choice(prompts[seat]["legal"])
            socks[seat].send_text(
                json.dumps({"type": "act", "version": versions[seat], "action": move})
            )
            for i, ws in enumerate(socks):  # every seat gets the one update
                m = recv_until(ws, "update")
                own_hand_only(m["view"], i)
                versions[i], prompts[i] = m["version"], m["prompt"]
                result = m.get("result")
            if result is not None:
                break
        assert result is not None
        assert sum(p["amount"] * (1 if p["to"] == 0 else -1 if p["from"] == 0 else 0)
                   for p in result["payments"]) == result["money"]["0"]["net"]  # fmt: skip
        assert sum(int(v["net"]) for v in result["money"].values()) == 0
    finally:
        for ws in socks:
            ws.__exit__(None, None, None)


def test_a_gostop_table_resumes_after_a_restart(
    make_client: Callable[..., TestClient],
) -> None:
    """The server stops with a game of three in progress: after the restart the table
    plays on from the same position (the journal replays the session, seats and match)."""
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c, GOSTOP_VS_BOTS)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        prompt = snap["prompt"]
        assert prompt and prompt["seat"] == 0  # seed 101: the person plays first
        move = prompt["legal"][0]
        ws.send_text(json.dumps({"type": "act", "version": snap["version"], "action": move}))
        before = recv_until(ws, "update")
        while before["prompt"] is None or before["prompt"]["seat"] != 0:
            before = recv_until(ws, "update")  # the bots played on to the person's turn
    c.__exit__(None, None, None)
    c2 = make_client()
    use_session(c2, cookie)
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing" and snap["game_no"] == before["game_no"]
        assert snap["view"]["hand"] == before["view"]["hand"]
        assert snap["view"]["hand_counts"] == before["view"]["hand_counts"]
        assert snap["prompt"]["legal"] == before["prompt"]["legal"]
        last = play_to_result(ws, 0, snap, random.Random(2))
    result = last["result"]
    mine = sum(p["amount"] * ((p["to"] == 0) - (p["from"] == 0)) for p in result["payments"])
    assert mine == result["money"]["0"]["net"]


def test_a_quick_match_of_gostop_fills_in_with_the_bots_it_has(db_url: str) -> None:
    """빠른 시작 for 고스톱: alone, the person is seated with two bots after the fill time,
    of the server's ``quick_bot_level`` where the game has it, else its strongest."""
    from tests.server.conftest import test_config
    from tests.server.live import running
    from tests.server.test_quickmatch import call, guest

    config = test_config(db_url, quick_fill_seconds=0.2)
    with running(config) as live:
        code, got = call(live, "/api/quick", {"game": "gostop", "stake": 1}, guest(live))
        assert code == 201, got
        seats = got["table"]["seats"]
        assert got["table"]["game"] == "gostop" and len(seats) == 3
        level = bot_level_for("gostop", config.quick_bot_level)
        assert sorted(s["kind"] for s in seats) == ["bot", "bot", "human"]
        assert {s["level"] for s in seats if s["kind"] == "bot"} == {level}
        assert got["table"]["preset"] == "default"


def test_a_quick_match_of_four_with_gwang_selling_is_its_own_queue(db_url: str) -> None:
    """빠른 시작 for 고스톱 of four (광팔기): two people who ask for it are seated together
    at a table of four under that preset, bots in the two other seats; one who asks for
    the table of three waits in another queue; a preset the game has not is refused."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.server.conftest import test_config
    from tests.server.live import running
    from tests.server.test_quickmatch import call, guest, wait_until

    config = test_config(db_url, quick_fill_seconds=2.0)  # b comes within it, even on CI
    with running(config) as live:
        a, b, c = guest(live), guest(live), guest(live)
        four = {"game": "gostop", "preset": "gwangpalgi", "stake": 1}
        code, got = call(live, "/api/quick", {**four, "preset": "sampan"}, a)
        assert (code, got["error"]["code"]) == (400, "bad_request")
        assert "gwangpalgi" in got["error"]["message"]
        with ThreadPoolExecutor(3) as pool:
            fa = pool.submit(call, live, "/api/quick", four, a)
            wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is not None)
            queued = call(live, "/api/quick", None, a)[1]["queued"]
            assert (queued["game"], queued["preset"]) == ("gostop", "gwangpalgi")
            fc = pool.submit(call, live, "/api/quick", {"game": "gostop", "stake": 1}, c)
            fb = pool.submit(call, live, "/api/quick", four, b)
            (ca, ra), (cb, rb), (cc, rc) = fa.result(), fb.result(), fc.result()
        assert (ca, cb, cc) == (201, 201, 201), (ra, rb, rc)
        assert ra["table"]["id"] == rb["table"]["id"] != rc["table"]["id"]
        table = ra["table"]
        assert table["preset"] == "gwangpalgi" and len(table["seats"]) == 4
        assert sorted(s["kind"] for s in table["seats"]) == ["bot", "bot", "human", "human"]
        assert rc["table"]["preset"] == "default" and len(rc["table"]["seats"]) == 3
        assert rc["people"] == 1


@pytest.mark.parametrize("seller", ["choice", "last"])
def test_a_table_of_four_sells_gwang_and_rates_the_three_who_played(
    client: TestClient, seller: str
) -> None:
    """광팔기 at a table: four seats (a person and three bots) under the 4-seat preset;
    each game one sits out (죽기 after the join/die question, or the seller paid its
    광값), the payments (광값 among them) sum to zero and are the ledger's, and only the
    three who played are rated (the bots share an account, which keeps its rating)."""
    register(client)
    bots = [{"kind": "bot", "level": "easy"}] * 3
    body = {**GOSTOP_VS_BOTS, "preset": "gwangpalgi", "seats": [{"kind": "human"}, *bots]}
    body["rules"] = {"gwang_seller": seller}
    tid = new_table(client, body)
    assert len(client.get(f"/api/tables/{tid}").json()["table"]["seats"]) == 4
    rng = random.Random(3)
    net = [0, 0, 0, 0]
    sold = sat = rated_games = 0
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        for game_no in (1, 2, 3):
            assert snap["game_no"] == game_no
            last = play_to_result(ws, 0, snap, rng, seats=4, prefer=("join",))
            result, view = last["result"], last["view"]
            sitter, seller = view["sitting_out"], view["seller"]
            assert sitter is not None and seller in (None, sitter)
            pays = result["payments"]
            assert sum(p["amount"] for p in pays if p["from"] == sitter) == 0  # never pays
            got = [p for p in pays if p["to"] == sitter]
            assert all(p["reason"] == "gwang_sale" for p in got)  # paid 광값 only
            if seller is not None:
                sold += 1
            sat += sitter == 0
            for p in pays:
                assert p["amount"] == p["points"] * 10 and p["from"] != p["to"]
                net[p["from"]] -= p["amount"]
                net[p["to"]] += p["amount"]
            rated = set(result["ratings"])
            assert rated == ({"0"} if sitter != 0 and result["winner"] is not None else set())
            if rated:  # placed among the three who played, by the three-seat bases
                three = [s for s in range(4) if s != sitter]
                pts = [0, 0, 0, 0]
                for p in pays:
                    pts[p["from"]] -= p["points"]
                    pts[p["to"]] += p["points"]
                before = result["ratings"]["0"]["before"]
                want = placement_deltas(
                    [before if s == 0 else 1500.0 for s in three],
                    [pts[s] for s in three],
                    [rated_games if s == 0 else 0 for s in three],
                )[three.index(0)]
                moved = result["ratings"]["0"]["after"] - before
                assert moved == pytest.approx(want, abs=0.11)
                rated_games += 1
            ws.send_text(json.dumps({"type": "ready"}))  # the bots are ready at once
            snap = recv_until(ws, "update")
            while snap["game_no"] == game_no:
                snap = recv_until(ws, "update")
    assert sum(net) == 0 and sold == (3 if seller == "last" else sold) and sat < 3
    assert rated_games > 0  # (these deals: the person played and someone won)
    me = client.get("/api/me").json()
    assert me["balance"] == START + net[0]
    ledger = client.get("/api/ledger").json()["entries"]
    assert sum(e["amount"] for e in ledger if e["game_id"]) == net[0]
    games = client.get("/api/games").json()["games"]
    assert len(games) == 3 and all(len(g["players"]) == 4 for g in games)
    detail = client.get(f"/api/games/{games[0]['id']}").json()
    assert detail["record"]["players"] == 4


def shodang_game(answers: tuple[str, str]) -> tuple[list[str], int]:
    """Moves of table 1's first game under the 쇼당 preset (dealt from seed
    ``DEAL_SEED + 1``) up to a 쇼당 call, the call, ``answers`` in turn order and, after
    a refusal, the play to an end won by the one who accepted (the refuser then pays
    every share, ``gostop.md`` §7); and the caller. Found by random play from the
    deal (the call is rare: about one game in a hundred)."""
    for r in range(1000):
        s = make_session("gostop", "shodang", seed=DEAL_SEED + 1)
        rng = random.Random(r)
        moves: list[str] = []
        caller = None
        while not s.over:
            seat = s.pending()[0]
            names = [s.action_to_string(a) for a in s.legal(seat)]
            if caller is None and "shodang" in names:
                caller, move = seat, "shodang"
            elif s.question(seat) == "shodang":
                move = answers[len(moves) - moves.index("shodang") - 1]
            else:
                move = rng.choice([n for n in names if n != "shodang"])
            moves.append(move)
            s.step(seat, s.string_to_action(move))
        if caller is None:
            continue
        if answers == ("shodang accept", "shodang accept"):
            return moves, caller
        accepter = s.match.game.after[caller][answers.index("shodang accept")]
        if s.outcome()["winner"] == accepter:
            return moves, caller
    raise AssertionError("no 쇼당 found")


@pytest.mark.parametrize(
    "answers",
    [("shodang accept", "shodang accept"), ("shodang accept", "shodang refuse")],
    ids=["both-accept-nagari", "refuser-pays"],
)
def test_shodang_at_a_table_of_three_people(client: TestClient, answers: tuple[str, str]) -> None:
    """쇼당 at a table: the caller's hand is shown to both others, each answers in turn;
    both accept: 나가리 (nobody pays); one refuses and the one who accepted wins: the
    refuser pays every loser's share."""
    moves, caller = shodang_game(answers)
    cookies = []
    for name in ("minsu", "jiwoo", "seoyun"):
        client.cookies.clear()
        register(client, name)
        cookies.append(client.cookies.get("madang_session") or "")
    use_session(client, cookies[0])
    tid = new_table(
        client, {**GOSTOP_VS_BOTS, "preset": "shodang", "seats": [{"kind": "human"}] * 3}
    )
    for i in (1, 2):
        use_session(client, cookies[i])
        assert client.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    socks = []
    for i in range(3):
        use_session(client, cookies[i])
        socks.append(client.websocket_connect(f"/ws/tables/{tid}").__enter__())
    try:
        state = [hello(ws) for ws in socks]
        for i, ws in enumerate(socks):
            if state[i]["status"] != "playing":
                state[i] = recv_until(ws, "update")
        hand = None
        result: dict[str, Any] | None = None
        for move in moves:
            seat = next(i for i, s in enumerate(state) if s["prompt"] and s["prompt"]["seat"] == i)
            assert move in state[seat]["prompt"]["legal"], (move, state[seat]["prompt"])
            if move == "shodang":
                assert seat == caller
                hand = sorted(state[seat]["view"]["hand"])
            ver = state[seat]["version"]
            socks[seat].send_text(json.dumps({"type": "act", "version": ver, "action": move}))
            for i, ws in enumerate(socks):
                state[i] = recv_until(ws, "update")
                own_hand_only(state[i]["view"], i)
            if move == "shodang":  # shown to both, and the next seat is asked
                kinds = [e["type"] for e in state[0]["events"]]
                assert "shodang" in kinds
                for i in range(3):
                    assert sorted(state[i]["view"]["revealed"][caller]) == hand
                nxt = state[(caller + 1) % 3]["prompt"]
                assert nxt["legal"] == ["shodang accept", "shodang refuse"]
            result = state[0].get("result")
        assert result is not None
        pays = result["payments"]
        if answers[1] == "shodang accept":
            assert result["winner"] is None and result["reason"] == "nagari" and pays == []
        else:
            refuser = (caller + 2) % 3
            assert result["winner"] == (caller + 1) % 3
            assert pays and {p["from"] for p in pays if p["reason"] == "win"} == {refuser}
        assert sum(int(v["net"]) for v in result["money"].values()) == 0
    finally:
        for ws in socks:
            ws.__exit__(None, None, None)


@pytest.mark.parametrize("level", bot_levels("gostop"))
def test_every_bot_level_answers_shodang_at_a_table(level: str) -> None:
    """A table's bots (:class:`BotPlayer`) answer the 쇼당 question with a legal move and
    play the game on to its end (the call itself: the play question's ``shodang``)."""
    moves, caller = shodang_game(("shodang accept", "shodang refuse"))
    s = make_session("gostop", "shodang", seed=DEAL_SEED + 1)
    for m in moves[: moves.index("shodang") + 1]:
        s.step(s.pending()[0], s.string_to_action(m))
    bots = [BotPlayer("gostop", level, 0.01) for _ in range(3)]
    rng = random.Random(1)
    answered = []
    while not s.over:
        seat = s.pending()[0]
        question = s.question(seat)
        move = s.bot_move(seat, bots[seat], rng)
        assert move in s.legal(seat)
        if question == "shodang":
            answered.append(seat)
        s.step(seat, move)
    assert answered == [(caller + 1) % 3, (caller + 2) % 3]


def test_a_table_of_four_resumes_after_a_restart(make_client: Callable[..., TestClient]) -> None:
    """A table of four (광팔기) is rebuilt after a restart with its four seats (a table's
    seats are its rules', not the game's three) and plays on to the settlement."""
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    bots = [{"kind": "bot", "level": "easy"}] * 3
    body = {**GOSTOP_VS_BOTS, "preset": "gwangpalgi", "seats": [{"kind": "human"}, *bots]}
    body["rules"] = {"gwang_seller": "last"}  # the person (선 at seed 101) plays
    tid = new_table(c, body)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["prompt"] and snap["prompt"]["seat"] == 0, snap["prompt"]
        move = snap["prompt"]["legal"][0]
        ws.send_text(json.dumps({"type": "act", "version": snap["version"], "action": move}))
        before = recv_until(ws, "update")
        while before["prompt"] is None or before["prompt"]["seat"] != 0:
            before = recv_until(ws, "update")
    c.__exit__(None, None, None)
    c2 = make_client()
    use_session(c2, cookie)
    assert len(c2.get(f"/api/tables/{tid}").json()["table"]["seats"]) == 4
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing" and snap["game_no"] == before["game_no"]
        assert snap["view"]["hand"] == before["view"]["hand"]
        assert snap["view"]["sitting_out"] == before["view"]["sitting_out"] is not None
        last = play_to_result(ws, 0, snap, random.Random(2), seats=4)
    pays = last["result"]["payments"]
    assert (
        sum(p["amount"] * ((p["to"] == 0) - (p["from"] == 0)) for p in pays)
        == (last["result"]["money"]["0"]["net"])
    )
