"""복기 on the replay page in Debian's headless Chromium, in Korean and English: a
finished game's review is asked for one seat, its decisions are listed with their marks,
and a decision that was not the best shows its mark, the best move in words and that
card highlighted on the board. 고스톱's too, on the board of three and of four seats (a
button per seat; 광팔기's join/die with each answer's expected payment).

The server is the app in this process (uvicorn in a thread, SQLite in a temporary
folder) holding games played by random bots (so there are mistakes to find).
Screenshots go to ``artifacts/``. Skipped when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.serving import serve

CHROMIUM = shutil.which("chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)

#: The finished games the server holds, by id from 1: game, preset, how many.
GAMES = [
    ("matgo", "default", 1),
    ("gostop", "default", 1),
    ("gostop", "gwangpalgi", 1),
    ("mahjong", "default", 1),
]


def sessions(game: str, preset: str, n: int) -> Iterator[Any]:
    """``n`` finished games of random bots: Matgo's from the deal statistics' simulation
    (seed 7), 고스톱's dealt from seeds 7, 8, … under ``preset``."""
    from madang import stats
    from madang.bots.base import Budget, make_bot, play
    from madang.core.registry import spec

    if game == "matgo":
        yield from stats.simulated_sessions(game, n, 7)
        return
    g = spec(game)
    for i in range(n):
        s = g.deal(g.rules(preset), 7 + i)
        bots = [make_bot(game, "random")] * s.seats
        play(s, bots, [random.Random(f"{i}:{k}") for k in range(s.seats)], Budget(None, 1))
        yield s


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from madang.server import db, store
    from madang.server.app import create_app
    from madang.server.config import ServerConfig
    from madang.server.db import make_engine, migrate

    url = f"sqlite:///{tmp_path_factory.mktemp('review') / 'madang.sqlite3'}"
    eng = make_engine(url)
    migrate(eng)
    users = [store.create_user(eng, f"player{i}", None)["id"] for i in range(4)]
    for game, preset, n in GAMES:
        for s in sessions(game, preset, n):
            players = users[: s.seats]
            tid, _ = store.create_table(
                eng, game=game, preset=preset, stake=1, private=False, invite="x",
                seats=[], created_by=users[0],
            )  # fmt: skip
            gid = store.start_game(
                eng, table_id=tid, game=game, preset=preset, stake=1, game_no=1,
                players=players, record=s.record(),
            )  # fmt: skip
            store.finish_game(
                eng, game_id=gid, game=game, stake=1, players=players, outcome=s.outcome(),
                payments=[], record=s.record(), match_scores=None,
            )  # fmt: skip
    with eng.begin() as c:  # finished tables: nothing to resume at start
        c.execute(db.tables.update().values(status="closed"))
    eng.dispose()
    app = create_app(ServerConfig(database_url=url, review_samples=60))
    with serve(app) as base:
        yield base


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_replay_page_shows_a_review(server: str, browser: Any, lang: str) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(server + "/leaderboard")
        page.evaluate(f"localStorage.setItem('madang:lang', '{lang}')")
        page.goto(server + "/replay/1")
        page.wait_for_selector("[data-testid=replay-pos]")
        page.click("[data-testid=review-seat-0]")
        page.wait_for_selector("[data-testid=review-list] li", timeout=60_000)
        items = page.locator("[data-testid=review-list] li")
        assert items.count() >= 3
        marks = ("좋은 수", "아쉬운 수", "실수", "큰 실수") if lang == "ko" else (
            "Good move", "Inaccuracy", "Mistake", "Blunder")  # fmt: skip
        for text in items.all_inner_texts():
            assert any(m in text for m in marks), text
        worse = page.locator("[data-testid=review-list] li:not(.review-good)")
        assert worse.count() >= 1, "random play makes some mistakes"
        found = False
        for k in range(worse.count()):
            worse.nth(k).locator("button").click()
            box = page.locator("[data-testid=review-mark]")
            assert box.get_attribute("data-mark") in ("inaccuracy", "mistake", "blunder")
            best = page.locator("[data-testid=review-best]")
            assert best.count() == 1
            assert ("최선" if lang == "ko" else "best") in best.inner_text()
            if page.locator(".board-wrap .review-best").count() >= 1:
                found = True  # the best card is highlighted on the board
                break
        assert found, "no best move was a card on the board"
        text = page.locator("#app").inner_text()
        assert "⟦" not in text  # no missing message
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"review-{lang}.png"), full_page=True)
    finally:
        page.close()


@pytest.mark.parametrize(("game_id", "seats"), [(2, 3), (3, 4)], ids=["three", "four"])
def test_a_gostop_review_on_the_board_of_n_seats(
    server: str, browser: Any, game_id: int, seats: int
) -> None:
    from madang.review import review

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/leaderboard")
        page.evaluate("localStorage.setItem('madang:lang', 'ko')")
        record = page.evaluate(f"fetch('/api/games/{game_id}').then(r => r.json())")["record"]
        assert record["game"] == "gostop" and record["players"] == seats
        # the server's reviews are the library's (seed 0, the server's 60 samples): pick
        # the seat and the decision to look at from them — the last seat that played a
        # card where another was best, so its hand is one of the others along the top
        reviews = [review(record, s, samples=60)["decisions"] for s in range(seats)]
        seat, d = next(
            (s, d)
            for s in reversed(range(seats))
            for d in reviews[s]
            if d["best"] != d["move"] and d["best"].startswith("play ")
        )
        page.goto(server + f"/replay/{game_id}")
        page.wait_for_selector("[data-testid=replay-pos]")
        page.keyboard.press("ArrowRight")
        assert page.locator(".board.matgo.multi .opponents .opp").count() == seats - 1
        assert page.locator("[data-testid^=review-seat-]").count() == seats  # a button each
        page.click(f"[data-testid=review-seat-{seat}]")
        page.wait_for_selector("[data-testid=review-list] li", timeout=60_000)
        items = page.locator("[data-testid=review-list] li")
        assert items.count() == len(reviews[seat])
        marks = ("좋은 수", "아쉬운 수", "실수", "큰 실수")
        for text in items.all_inner_texts():
            assert any(m in text for m in marks), text
        items.nth(reviews[seat].index(d)).locator("button").click()
        assert page.locator("[data-testid=replay-pos]").inner_text().startswith(f"{d['index']} /")
        box = page.locator("[data-testid=review-mark]")
        assert box.get_attribute("data-mark") == d["mark"]
        described = page.evaluate(
            "m => import('/static/js/matgo.js').then(js => js.describeMatgoMove(m))", d["best"]
        )
        assert page.locator("[data-testid=review-best]").inner_text() == f"최선: {described}"
        card = d["best"].split()[1]
        assert page.locator(f".board-wrap .review-best[data-code='{card}']").count() >= 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"review-gostop-{seats}.png"), full_page=True)
        if seats == 4:  # 선+1's join/die: each answer's expected payment to the end
            asked, join = next(
                (s, x) for s in range(seats) for x in reviews[s] if x.get("question") == "join"
            )
            page.click(f"[data-testid=review-seat-{asked}]")
            page.wait_for_selector(f"[data-testid=review-list] li >> nth={len(reviews[asked]) - 1}")
            page.locator("[data-testid=review-list] li").nth(reviews[asked].index(join)).locator(
                "button"
            ).click()
            answers = page.locator("[data-testid=review-answers]").inner_text()
            assert "끝까지 둔 기대 점수" in answers and "참가" in answers and "죽기 0점" in answers
            assert (
                page.locator("[data-testid=review-mark]").get_attribute("data-mark") == join["mark"]
            )
            page.screenshot(path=str(ARTIFACTS / "review-gostop-4-join.png"), full_page=True)
        assert "⟦" not in page.locator("#app").inner_text()  # no missing message
        assert errors == []
    finally:
        page.close()


def test_a_mahjong_review_outlines_one_tile_in_the_seats_hand(server: str, browser: Any) -> None:
    """The best discard is outlined once, in the reviewed seat's hand, though the tile
    has copies there, in the other hands (all shown in a replay) and in the rivers."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # seat 0's hand is the one along the bottom, seat 2's one of the others
        for seat, hand in (
            (0, ".mj-hand[data-seat='0']"),
            (2, ".mj-seat[data-seat='2'] .concealed"),
        ):
            page.goto(server + "/replay/4")
            page.wait_for_selector("[data-testid=replay-pos]")
            page.click(f"[data-testid=review-seat-{seat}]")
            page.wait_for_selector("[data-testid=review-list] li", timeout=60_000)
            worse = page.locator("[data-testid=review-list] li:not(.review-good)")
            checked = 0
            for k in range(worse.count()):
                worse.nth(k).locator("button").click()
                best = page.locator(".board-wrap .review-best")
                if best.count() == 0:
                    continue  # the best move was no discard (a claim answer, 쯔모 …)
                code = best.first.get_attribute("data-code")
                if page.locator(f".board-wrap [data-code='{code}']").count() < 2:
                    continue  # the tile is on the board once: nothing to tell apart
                assert best.count() == 1, (seat, code)
                assert page.locator(f"{hand} .review-best").count() == 1, (seat, code)
                checked += 1
            assert checked >= 1, f"seat {seat}: no best discard had a copy on the board"
        assert not errors, errors
    finally:
        page.close()
