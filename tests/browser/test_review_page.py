"""복기 on the replay page in Debian's headless Chromium, in Korean and English: a
finished game's review is asked for one seat, its decisions are listed with their marks,
and a decision that was not the best shows its mark, the best move in words and that
card highlighted on the board.

The server is the app in this process (uvicorn in a thread, SQLite in a temporary
folder) holding games played by random bots (so there are mistakes to find).
Screenshots go to ``artifacts/``. Skipped when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

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

GAMES = {"matgo": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:

    from madang import stats
    from madang.server import db, store
    from madang.server.app import create_app
    from madang.server.config import ServerConfig
    from madang.server.db import make_engine, migrate

    url = f"sqlite:///{tmp_path_factory.mktemp('review') / 'madang.sqlite3'}"
    eng = make_engine(url)
    migrate(eng)
    users = [store.create_user(eng, f"player{i}", None)["id"] for i in range(4)]
    for game, n in GAMES.items():
        for s in stats.simulated_sessions(game, n, 7):
            players = users[: s.seats]
            tid, _ = store.create_table(
                eng, game=game, preset="default", stake=1, private=False, invite="x",
                seats=[], created_by=users[0],
            )  # fmt: skip
            gid = store.start_game(
                eng, table_id=tid, game=game, preset="default", stake=1, game_no=1,
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
