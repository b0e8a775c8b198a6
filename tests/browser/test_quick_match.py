"""빠른 시작 and the ranking page in Debian's headless Chromium.

Two guests who press 빠른 시작 for the same game and stake land at one table, each in
a seat, and are dealt; one alone for mahjong is seated with the computer after the fill
time; 취소 takes a person out of the queue. The ranking page shows this week's money and
the rating ladder with what each means, in Korean and English. Screenshots go to
``artifacts/`` (``quick_*``, ``ranking_*``). The server is the app in this process on
SQLite (:func:`tests.server.live.running`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from tests.browser.test_play import CHROMIUM, DESKTOP, Axe, scan_korean, shot
from tests.server.live import running

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)

FILL = 1.5
"""The server's ``quick_fill_seconds``."""


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The SQLite database of the module's server."""
    return f"sqlite:///{tmp_path_factory.mktemp('quick') / 'madang.sqlite3'}"


@pytest.fixture(scope="module")
def server(database: str) -> Iterator[str]:
    from madang.server.config import ServerConfig

    config = ServerConfig(
        database_url=database,
        deal_seed=100,
        argon2_time_cost=1,
        argon2_memory_kib=8192,
        bot_delay=0.2,
        quick_fill_seconds=FILL,
        rank_min_games=2,
        entropy_seconds=0.0,
    )
    with running(config) as live:
        yield live.url("")


def as_guest(browser: Any, server: str) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#quick-match")
    return ctx, page, errors


def test_quick_match_seats_two_people_together(server: str, browser: Any, axe: Axe) -> None:
    a_ctx, a, errors = as_guest(browser, server)
    b_ctx, b, errors_b = as_guest(browser, server)
    try:
        axe.check(b, "lobby with the quick-match panel")  # before anyone waits (FILL)
        help_text = a.inner_text("[data-testid=quick-help]")
        assert f"{FILL:g}초" in help_text and "컴퓨터" in help_text
        a.select_option("#quick-game", "matgo")
        a.select_option("#quick-stake", "10")
        a.click("#btn-quick")
        a.wait_for_selector("#quick-wait:not([hidden])")
        assert "상대를 찾는 중" in a.inner_text("#quick-wait")
        assert a.is_disabled("#btn-quick")
        scan_korean(a, "quick match waiting")
        shot(a, "quick_waiting")
        b.select_option("#quick-game", "matgo")
        b.select_option("#quick-stake", "10")
        start = time.monotonic()
        b.click("#btn-quick")
        b.wait_for_url("**/table/*")
        a.wait_for_url("**/table/*")
        seated = time.monotonic() - start
        assert a.url == b.url
        assert seated < FILL, seated  # the second person completed the table: no wait
        for p in (a, b):
            p.wait_for_selector(".board[data-version]", timeout=30_000)
        names = a.locator(".seat-name, .player-name").all_inner_texts()
        text = a.inner_text("#app")
        assert "컴퓨터" not in " ".join(names), names
        assert "점당 10" in text or "10" in text
        scan_korean(a, "quick match table")
        shot(a, "quick_seated_people")
        print(f"\nquick match in the browser, person + person: {seated * 1000:.0f} ms")
        assert not errors and not errors_b, errors + errors_b
    finally:
        a_ctx.close()
        b_ctx.close()
    axe.finish()


def test_quick_match_with_the_computer_and_cancel(server: str, browser: Any) -> None:
    ctx, page, errors = as_guest(browser, server)
    try:
        # 취소: out of the queue, the panel is back
        page.select_option("#quick-game", "mahjong")
        page.click("#btn-quick")
        page.wait_for_selector("#quick-wait:not([hidden])")
        page.click("#btn-quick-cancel")
        page.wait_for_selector("#quick-wait[hidden]", state="attached")
        assert page.is_enabled("#btn-quick")
        assert page.url.rstrip("/") == server
        # alone at 고스톱 of four (광팔기, a rules preset of its own queue): the computer
        # fills the three other seats after the wait
        assert page.locator("#quick-preset option").count() >= 1
        page.select_option("#quick-game", "gostop")
        offered = page.eval_on_selector_all("#quick-preset option", "os => os.map(o => o.value)")
        assert offered[0] == "default" and "gwangpalgi" in offered, offered
        page.select_option("#quick-preset", "gwangpalgi")
        start = time.monotonic()
        page.click("#btn-quick")
        page.wait_for_url("**/table/*", timeout=20_000)
        seated = time.monotonic() - start
        assert FILL <= seated < FILL + 5, seated
        page.wait_for_selector(".board[data-version]", timeout=30_000)
        assert page.locator(".board.matgo.multi .opponents .opp").count() == 3
        assert page.inner_text("#app").count("컴퓨터") >= 3
        shot(page, "quick_seated_computer")
        print(f"\nquick match in the browser, person + computer (fill {FILL} s): {seated:.2f} s")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_ranking_page_explains_itself(
    server: str, database: str, browser: Any, lang: str, axe: Axe
) -> None:
    from madang.server import store
    from madang.server.db import make_engine

    eng = make_engine(database)
    try:
        if store.user_by_name(eng, "gosu") is None:
            ids = [
                store.create_user(eng, n, None, start=100_000)["id"]
                for n in ("gosu", "hasu", "jungsu", "chosu")
            ]
            for i in range(2):
                for game, players, pays, scores in (
                    ("matgo", ids[:2], [(1, 0, 5 + i, "score")], None),
                    ("mahjong", ids, [(3, 0, 8, "score")], [40, 30, 20, 10]),
                ):
                    tid, _ = store.create_table(
                        eng, game=game, preset="default", stake=10, private=False,
                        invite="x", seats=[], created_by=ids[0],
                    )  # fmt: skip
                    gid = store.start_game(
                        eng, table_id=tid, game=game, preset="default", stake=10,
                        game_no=1, players=players,
                    )  # fmt: skip
                    store.finish_game(
                        eng, game_id=gid, game=game, stake=10, players=players,
                        outcome={"winner": 0, "points": 1, "reason": "test"}, payments=pays,
                        record={}, match_scores=scores,
                    )  # fmt: skip
    finally:
        eng.dispose()
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/leaderboard")
        page.evaluate(f"localStorage.setItem('madang:lang', '{lang}')")
        page.reload()
        page.wait_for_selector("#week-ranking tbody tr")
        week = page.locator("#week-ranking tbody tr").all_inner_texts()
        assert "gosu" in week[0] and "+110" in week[0], week  # 50 + 60 this week
        assert "hasu" in week[1] and "−110" in week[1], week
        ladder = page.locator("#leaderboard tbody tr").all_inner_texts()
        assert [r.split("\t")[1] for r in ladder] == ["gosu", "hasu"]
        period = page.inner_text("[data-testid=week-period]")
        monday = store.week_start(store.now())
        assert monday.date().isoformat() in period, period
        assert (monday + timedelta(days=6)).date().isoformat() in period, period
        note = page.inner_text("[data-testid=week-note]")
        if lang == "ko":
            assert "월요일 0시" in note and "2판 이상" in note
            scan_korean(page, "ranking")
        else:
            assert "Monday at 00:00 UTC" in note and "at least 2 rated games" in note
        shot(page, f"ranking_matgo_{lang}")
        axe.check(page, f"ranking {lang}")
        page.click(".tabs button[data-game=mahjong]")
        page.wait_for_selector("#leaderboard tbody tr:nth-child(4)")
        rows = page.locator("#leaderboard tbody tr").all_inner_texts()
        assert [r.split("\t")[1] for r in rows] == ["gosu", "hasu", "jungsu", "chosu"]
        note = page.inner_text("[data-testid=rank-note]")
        assert ("1등 +30" in note) if lang == "ko" else ("1st +30" in note), note
        assert "⟦" not in page.inner_text("#app")
        shot(page, f"ranking_mahjong_{lang}")
        assert not errors, errors
    finally:
        ctx.close()
    axe.finish()
