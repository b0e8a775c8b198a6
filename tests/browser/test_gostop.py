"""고스톱 (gostop) in the browser: a table of three made in the lobby (the person and two
bots), played by clicking to the settlement on Matgo's board laid out for three seats —
the two others along the top (the seat after the person's on the right), each with its
face-down hand, its count, its captured piles and its score — then the settlement (a
sheet per loser that adds up to what that loser pays), its replay, and the same board at
phone size. Screenshots go to ``artifacts/`` (``gostop_*``).

The server is ``madang serve`` at the browser tests' pace (``tests/browser/test_play.py``:
tables dealt from fixed seeds, bots answering at once).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import (
    CHROMIUM,
    DESKTOP,
    Axe,
    _serve,
    create_table,
    payments_of,
    phone_shot,
    scan_korean,
    shot,
    wait_change,
    wait_turn,
    watched_page,
)
from tests.server.conftest import DEAL_SEED

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on the PATH")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(tmp_path_factory.mktemp("data"), DEAL_SEED)


def board_layout(page: Any) -> dict[str, Any]:
    """Where the board puts each seat, and what it shows of the others."""
    out: dict[str, Any] = page.evaluate(
        """() => {
          const b = document.querySelector('.board');
          const opps = [...b.querySelectorAll('.opponents > .opp')];
          const box = (e) => e.getBoundingClientRect();
          return {
            multi: b.classList.contains('multi'),
            opps: opps.map(o => ({
              seat: +o.dataset.seat, side: o.dataset.side,
              left: box(o).left, top: box(o).top, bottom: box(o).bottom,
              backs: o.querySelectorAll('.opp-hand .card').length,
              count: o.querySelector('.hand-n').textContent,
              piles: o.querySelectorAll('.captured .pile').length,
              score: o.querySelector('.score').textContent,
            })),
            hand: document.querySelectorAll('.board > .hand .card').length,
            handTop: box(b.querySelector(':scope > .hand')).top,
            floorTop: box(b.querySelector('.floor')).top,
            faces: [...b.querySelectorAll('.opponents .opp-hand .card:not(.revealed)')]
              .map(c => c.dataset.code).filter(c => c && c !== 'back'),
          };
        }"""
    )
    return out


def check_layout(page: Any, seat: int) -> None:
    lay = board_layout(page)
    assert lay["multi"] and len(lay["opps"]) == 2, lay
    left, right = lay["opps"]
    # counter-clockwise play: the seat after this one sits on the right
    assert (left["seat"], right["seat"]) == ((seat + 2) % 3, (seat + 1) % 3), lay
    assert (left["side"], right["side"]) == ("left", "right")
    assert left["left"] < right["left"] and abs(left["top"] - right["top"]) < 2
    for o in lay["opps"]:
        assert o["backs"] >= 1 and str(o["backs"]) in o["count"], o  # its hand, face down
        assert o["piles"] == 4 and o["score"].endswith("점"), o
        assert o["bottom"] <= lay["floorTop"] + 1, (o, lay)  # above the floor
    assert lay["faces"] == [], lay  # no other hand's card face up (but those 흔들기 showed)
    assert lay["hand"] >= 1 and lay["handTop"] > lay["floorTop"]


def play_gostop(page: Any) -> dict[str, Any]:
    """Play the person's seat by clicking until the settlement: a hand card that can be
    played, else the first choice (a floor card to pick, 스톱 at a 고/스톱 question)."""
    seen: dict[str, Any] = {"clicks": 0, "checked": False, "stop_now": None}
    for turn in range(200):
        st = wait_turn(page)
        if st["over"]:
            return seen
        version, q = st["version"], st["question"]
        if q == "play" and not st["sub"]:
            flip = page.locator(".prompt button[data-move='flip']")
            playable = page.locator(".board > .hand .card.playable")
            if playable.count():
                playable.nth(turn % playable.count()).click()
            else:
                flip.click()
        elif q == "go_stop":
            seen["stop_now"] = int(
                page.locator("[data-testid=stop-now]").get_attribute("data-points") or "-1"
            )
            page.click(".prompt button[data-move='stop']")
        else:  # a sub-choice (흔들기, 폭탄) or a pick: its first button
            page.locator(".prompt button.choice").first.click()
        seen["clicks"] += 1
        if seen["clicks"] == 2:
            check_layout(page, 0)
            scan_korean(page, "gostop table")
            shot(page, "gostop_table_desktop")
            phone_shot(page, "gostop_table_phone")
            seen["checked"] = True
        wait_change(page, version)
    raise AssertionError("the 고스톱 game did not end within 200 decisions")


def check_settlement(page: Any) -> int | None:
    """Each loser's sheet adds up (족보 items to the 족보 total, plus 고 to the base,
    times its multipliers to its total) and is what that loser pays; payments sum to 0."""
    pays = payments_of(page)
    sheets = page.locator("[data-testid=settlement] .loser-sheet")
    net = [0, 0, 0]
    for p in pays:
        net[p["from"]] -= p["points"]
        net[p["to"]] += p["points"]
    assert sum(net) == 0
    # the title says what the person (seat 0) paid the winner, or won
    title = page.inner_text("[data-testid=settlement] h2")
    mine = sum(p["points"] for p in pays if p["from"] == 0 and p["reason"] == "win")
    won = sum(p["points"] for p in pays if p["to"] == 0 and p["reason"] == "win")
    if mine or won:
        assert f"{mine or won}점" in title, (title, pays)
    if not sheets.count():  # 나가리, or a flat win (총통, 3뻑) with one sheet for all
        return None
    win = [p for p in pays if p["reason"] == "win"]
    assert len({p["to"] for p in win}) == 1
    totals = {}
    for i in range(sheets.count()):
        loser = int(sheets.nth(i).get_attribute("data-loser") or "-1")
        rows: list[list[Any]] = sheets.nth(i).evaluate(
            "s => [...s.querySelectorAll('tr')].map(r => [r.dataset.kind, +r.dataset.value])"
        )
        value = {k: v for k, v in rows if k not in ("item", "mult")}
        assert sum(v for k, v in rows if k == "item") == value["jokbo"]
        assert value["jokbo"] + value.get("go", 0) == value["base"]
        total = value["base"]
        for k, v in rows:
            if k == "mult":
                total *= v
        assert total == value["total"]
        totals[loser] = total
    payers = {p["from"]: p["points"] for p in win}
    if len(payers) == len(totals):  # each loser pays its own sheet
        assert payers == totals
    else:  # 독박: one loser pays every share (times gobak_multiplier)
        assert len(payers) == 1 and next(iter(payers.values())) >= sum(totals.values())
    return sheets.count()


def test_gostop_against_two_bots_by_clicking(server: str, browser: Any, axe: Axe) -> None:
    context, page, errors = watched_page(browser, DESKTOP)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#btn-register")
        page.fill("#login-name", "고스톱")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "gostop")
        # three seats; the bots offered are the levels that play three seats
        seats = page.locator(".seat-choices select")
        assert seats.count() == 3
        offered = seats.nth(1).evaluate("s => [...s.options].map(o => o.value)")
        config = page.evaluate("fetch('/api/config').then(r => r.json())")
        levels = config["games"]["gostop"]["bot_levels"]
        assert offered == ["human", *[f"bot:{lv}" for lv in levels]]
        shot(page, "gostop_lobby_desktop")
        create_table(page, "gostop")
        log = page.inner_text(".log")
        assert "선 정하기" in log  # the first 선 drawn among three, in the log
        axe.check(page, "gostop table")
        seen = play_gostop(page)
        assert seen["checked"] and seen["clicks"] >= 2
        over = page.locator("[data-testid=settlement]")
        assert over.is_visible()
        # Matgo's layers over the board: the deal of three and every card played flew,
        # the sounds were asked for, the captions kept up
        hooks = page.evaluate(
            """() => ({motion: window.__madangMotion.started,
                       sounds: window.__madangSounds.triggered,
                       captions: window.__madangCaptions || []})"""
        )
        assert hooks["motion"].get("deal", 0) >= 1 and hooks["motion"].get("play", 0) >= 3
        assert hooks["motion"].get("flip", 0) >= 3, hooks["motion"]
        assert hooks["sounds"].get("deal", 0) >= 1 and hooks["sounds"].get("play", 0) >= 3
        assert hooks["captions"], hooks  # at least 스톱 (or 나가리) was captioned
        scan_korean(page, "gostop settlement")
        check_settlement(page)
        axe.check(page, "gostop settlement")
        shot(page, "gostop_settlement_desktop")
        phone_shot(page, "gostop_settlement_phone")
        # its replay: every hand shown, on the same board
        game_id = page.locator("[data-testid=settlement] a[href^='/replay/']").first
        href = game_id.get_attribute("href")
        assert href
        page.goto(server + href)
        page.wait_for_selector("[data-testid=replay-pos]")
        page.keyboard.press("ArrowRight")
        assert page.locator(".board.matgo.multi .opponents .opp").count() == 2
        assert page.locator("[data-testid^=review-seat-]").count() == 3  # 복기 of each seat
        scan_korean(page, "gostop replay")
        shot(page, "gostop_replay_desktop")
        assert errors == []
    finally:
        context.close()
    axe.finish()


def gostop_samples() -> dict[str, Any]:
    """Views a 고스톱 table shows, from random games: a 스톱 win's (a sheet per loser)
    and the first view of a session whose 선 draw was tied."""
    import random

    from madang.core.registry import spec

    out: dict[str, Any] = {"won": None, "tied": None}
    for seed in range(400):
        s = spec("gostop").session("default", seed)
        first = s.annotate(s.view(0), 0)
        if out["tied"] is None and len(first["match"]["first_draws"]) > 1:
            out["tied"] = first
        rng = random.Random(seed)
        while not s.over:
            seat = s.pending()[0]
            s.step(seat, rng.choice(s.legal(seat)))
        v = s.annotate(s.view(0), 0)
        if v.get("sheets") and out["won"] is None:
            out["won"] = {"view": v, "result": {**s.outcome(), "payments": [
                {"from": f, "to": to, "points": p, "reason": r} for f, to, p, r in s.payments()
            ]}}  # fmt: skip
        if all(out.values()):
            return out
    raise AssertionError(f"no sample of {[k for k, v in out.items() if v is None]}")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_gostop_words_in_both_languages(server: str, browser: Any, lang: str) -> None:
    """The 선 draw among three (a tie drawn again), a sheet per loser and a 나가리, by the
    client's module: no missing key in either language, and in Korean no raw code."""
    samples = gostop_samples()
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(server + "/login")
        page.wait_for_selector("#btn-register")
        page.evaluate("(l) => localStorage.setItem('madang:lang', l)", lang)
        page.reload()
        page.wait_for_selector("#btn-register")
        got = page.evaluate(
            """async (text) => {
              const S = JSON.parse(text);
              const { h } = await import('/static/js/util.js');
              const { GAMES } = await import('/static/js/games.js');
              const mod = GAMES.gostop;
              const name = (s) => ['민수', '지우', '서윤'][s];
              const app = document.getElementById('app');
              app.replaceChildren();
              const ul = h('ul');
              app.append(ul);
              for (const line of mod.intro(S.tied, name)) ul.append(h('li', {}, line));
              app.append(mod.settlement(S.won.view, S.won.result, name));
              // a 나가리: no sheet, the end's reason
              app.append(mod.settlement({}, {winner: null, reason: 'nagari', payments: []}, name));
              return {lines: ul.children.length, missing: [...window.__madangMissing],
                      sheets: [...app.querySelectorAll('.loser-sheet')].map(
                        (s) => +s.dataset.loser),
                      title: mod.titlePoints(S.won.result, S.won.view.winner)};
            }""",
            __import__("json").dumps(samples),
        )
        won = samples["won"]
        w = won["view"]["winner"]
        assert got["missing"] == [], got
        assert got["sheets"] == [(w + 1) % 3, (w + 2) % 3]
        assert got["lines"] == len(samples["tied"]["match"]["first_draws"]) + 2
        assert got["title"] == won["result"]["points"]
        if lang == "ko":
            scan_korean(page, "gostop samples")
    finally:
        page.close()


def play_four(page: Any, seen: dict[str, Any]) -> None:
    """Play the person's seat at a table of four by clicking until the settlement: 참가
    at the join/die question, a playable hand card, 스톱, else the first choice; once,
    check the board laid out for four (the other three along the top, the sitter
    badged with no hand) and take its screenshots."""
    for turn in range(200):
        st = wait_turn(page)
        if st["over"]:
            return
        version, q = st["version"], st["question"]
        if q == "join":
            assert page.inner_text(".prompt .q") == "이번 판에 참가하시겠습니까? (죽기: 쉬기)"
            labels = page.locator(".prompt button.choice").all_inner_texts()
            assert [x.split("\n")[-1] for x in labels] == ["참가", "죽기 (이번 판 쉬기)"]
            seen["join"] += 1
            page.click(".prompt button[data-move='join']")
        elif q == "play" and not st["sub"]:
            playable = page.locator(".board > .hand .card.playable")
            if playable.count():
                playable.nth(turn % playable.count()).click()
            else:
                page.click(".prompt button[data-move='flip']")
        elif q == "go_stop":
            page.click(".prompt button[data-move='stop']")
        else:  # a pick, a sub-choice, an answer to a 쇼당 (받기 comes first)
            page.locator(".prompt button.choice").first.click()
        lay = board_layout(page)
        sitter = page.locator(".opponents .badge.sitter")
        if not seen["checked"] and sitter.count():
            assert [o["side"] for o in lay["opps"]] == ["left", "top", "right"], lay
            assert [o["seat"] for o in lay["opps"]] == [3, 2, 1], lay
            opp = page.locator(".opponents .opp", has=sitter)
            assert opp.locator(".opp-hand .card").count() == 0  # the sitter holds no hand
            assert sitter.inner_text() in ("광 팜", "쉼")
            assert lay["faces"] == [], lay
            scan_korean(page, "gostop table of four")
            shot(page, "gostop4_table_desktop")
            phone_shot(page, "gostop4_table_phone")
            seen["checked"] = True
        wait_change(page, version)
    raise AssertionError("the game of four did not end within 200 decisions")


def test_gostop_table_of_four_with_a_seller_by_clicking(server: str, browser: Any) -> None:
    """광팔기 in the browser: the lobby's form shows four seat selectors for the 4-seat
    preset (three for the default), the table lays the other three out along the top
    with the sitter badged and handless, the person answers the join/die question with
    its buttons, and games are played by clicking until one has a seller: its
    settlement names the seller and lists the 광값 (``gwang_sale``) payments, which sum
    to zero with the rest. Screenshots ``gostop4_*``, desktop and phone."""
    context, page, errors = watched_page(browser, DESKTOP)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#btn-register")
        page.fill("#login-name", "광팔기")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "gostop")
        seats = page.locator(".seat-choices select")
        assert seats.count() == 3
        page.select_option("#new-preset", "gwangpalgi")
        assert seats.count() == 4
        page.select_option("#new-preset", "default")
        assert seats.count() == 3
        page.select_option("#new-preset", "gwangpalgi")  # the option itself counts too
        page.click("#new-rules summary")
        page.select_option("#new-rules select[data-option=players]", "3")
        assert seats.count() == 3
        page.select_option("#new-rules select[data-option=players]", "4")
        assert seats.count() == 4
        shot(page, "gostop4_lobby_desktop")
        page.click("#btn-create")
        page.wait_for_url("**/table/*")
        page.wait_for_selector(".board[data-version]")
        seen: dict[str, Any] = {"join": 0, "checked": False}
        for _game in range(8):
            play_four(page, seen)
            pays = payments_of(page)
            net = [0, 0, 0, 0]
            for p in pays:
                net[p["from"]] -= p["points"]
                net[p["to"]] += p["points"]
            assert sum(net) == 0
            note = page.locator("[data-testid=settlement] .gostop-note.sitter")
            assert note.count() == 1
            sales = [p for p in pays if p["reason"] == "gwang_sale"]
            if "광 팜" in note.inner_text():
                seller = int(note.get_attribute("data-seat") or "-1")
                assert {p["to"] for p in sales} <= {seller}  # none if it held no 광
                lines = page.locator("[data-testid=payments] li[data-reason=gwang_sale]")
                assert lines.count() == len(sales)
                # a sale paid, while the person played (a game it sat out has no board)
                if sales and seen["checked"]:
                    assert "광값" in lines.first.inner_text()
                    scan_korean(page, "gostop settlement of four")
                    shot(page, "gostop4_settlement_desktop")
                    phone_shot(page, "gostop4_settlement_phone")
                    break
            else:
                assert sales == []  # 죽기: nothing for the one who sat out
            version = page.get_attribute(".board", "data-version")
            page.click("#btn-next")
            # the next game's first update (a game the person sits out, played by the
            # bots at once, is already over: its settlement is then up)
            page.wait_for_function(
                "(n) => document.querySelector('.board')?.dataset.version !== n", arg=version
            )
        else:
            raise AssertionError("no game of eight had a 광값 paid while the person played")
        assert seen["checked"], seen
        assert errors == []
    finally:
        context.close()


def question_samples() -> dict[str, Any]:
    """Boards to render at the table's own questions, from sessions: the join/die
    question of a table of four, a 쇼당 that can be called, the question to the next
    seat, and the ends of a 쇼당 (both accept: 나가리; refused, the accepter won)."""
    from tests.server.conftest import DEAL_SEED
    from tests.server.test_gostop import shodang_game

    from madang.core.registry import spec

    def board(s: Any, seat: int) -> dict[str, Any]:
        legal = [s.action_to_string(a) for a in s.legal(seat)]
        return {
            "view": s.annotate(s.view(seat), seat),
            "prompt": {"seat": seat, "question": s.question(seat), "legal": legal},
            "seat": seat,
        }

    out: dict[str, Any] = {}
    s = spec("gostop").session("gwangpalgi", 5)
    out["join"] = board(s, s.pending()[0])
    for answers in (("shodang accept", "shodang accept"), ("shodang accept", "shodang refuse")):
        moves, caller = shodang_game(answers)
        s = spec("gostop").session("shodang", DEAL_SEED + 1)
        for m in moves:
            seat = s.pending()[0]
            if m == "shodang" and "call" not in out:
                out["call"] = board(s, seat)
            s.step(seat, s.string_to_action(m))
            if m == "shodang" and "answer" not in out:
                out["answer"] = board(s, s.pending()[0])
        end = board(s, caller)
        end["result"] = {**s.outcome(), "payments": []}
        out[answers[1]] = end
    return out


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_gostop_join_and_shodang_buttons(server: str, browser: Any, lang: str) -> None:
    """The board's buttons for the table's own questions, by the client's module: 참가 /
    죽기 at the join question, a 쇼당 button beside the hand when it can be called, 받기 /
    거절 to the seat asked (the caller's hand shown face up, the caller badged), and the
    settlement's note of a 쇼당 (나가리, or who refused); each button sends its move, and
    no key is missing in either language."""
    samples = question_samples()
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(server + "/login")
        page.wait_for_selector("#btn-register")
        page.evaluate("(l) => localStorage.setItem('madang:lang', l)", lang)
        page.reload()
        page.wait_for_selector("#btn-register")
        got = page.evaluate(
            """async (text) => {
              const S = JSON.parse(text);
              const { GAMES } = await import('/static/js/games.js');
              const mod = GAMES.gostop;
              const name = (s) => ['민수', '지우', '서윤', '하준'][s];
              const app = document.getElementById('app');
              const out = {};
              for (const key of ['join', 'call', 'answer']) {
                app.replaceChildren();
                const acted = [];
                const b = mod.createBoard(app, { act: (m) => acted.push(m), name,
                                                 timer: () => null });
                b.render({ ...S[key], seats: [], version: 1, events: [] });
                const buttons = [...app.querySelectorAll('.prompt button.choice')];
                for (const btn of buttons) if (btn.dataset.move) btn.click();
                out[key] = { acted, q: app.querySelector('.prompt .q').textContent,
                  badges: [...app.querySelectorAll('.badge.shodang')].map(
                    (e) => e.closest('[data-seat]').dataset.seat),
                  shown: app.querySelectorAll('.opp-hand .card.revealed').length };
              }
              out.notes = ['shodang accept', 'shodang refuse'].map((k) =>
                mod.settlement(S[k].view, S[k].result, name).querySelector('.gostop-note.shodang')
                  ?.textContent);
              out.missing = [...window.__madangMissing];
              return out;
            }""",
            __import__("json").dumps(samples),
        )
        assert got["missing"] == [], got
        assert got["join"]["acted"] == ["join", "die"]
        assert [m for m in got["call"]["acted"] if not m.startswith("play")] == ["shodang"]
        assert got["answer"]["acted"] == ["shodang accept", "shodang refuse"]
        caller = samples["answer"]["view"]["public"]["table"]["shodang"]["by"]
        assert got["answer"]["badges"] == [str(caller)]
        hand = samples["answer"]["view"]["hand_counts"][caller]
        assert hand > 0 and got["answer"]["shown"] == hand  # the caller's hand, face up
        assert all(got["notes"]), got["notes"]
        if lang == "ko":
            assert got["join"]["q"] == "이번 판에 참가하시겠습니까? (죽기: 쉬기)"
            assert got["answer"]["q"] == "쇼당! 받으시겠습니까?"
            assert "나가리" in got["notes"][0] and "거절" in got["notes"][1]
    finally:
        page.close()
