"""The ranking page's 컴퓨터 실력 section in Debian's headless Chromium, in Korean and
English: for each game the published strength ladder (``GET /api/ladder``) as a rating
per level and every pair's points and win rate, each with its 95% interval.

The server is the app in this process (uvicorn in a thread, SQLite in a temporary
folder). Skipped when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.serving import serve

from madang import ladder

CHROMIUM = shutil.which("chromium")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:

    from madang.server.app import create_app
    from madang.server.config import ServerConfig
    from madang.server.db import make_engine, migrate

    url = f"sqlite:///{tmp_path_factory.mktemp('ladder') / 'madang.sqlite3'}"
    eng = make_engine(url)
    migrate(eng)
    eng.dispose()
    app = create_app(ServerConfig(database_url=url))
    with serve(app) as base:
        yield base


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_ranking_page_shows_the_computer_players_strength(
    server: str, browser: Any, lang: str
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(server + "/leaderboard")
        page.evaluate(f"localStorage.setItem('madang:lang', '{lang}')")
        page.reload()
        for game in ("matgo", "mahjong"):
            page.click(f".tabs button[data-game='{game}']")
            page.wait_for_selector(f"#bot-ladder[data-game='{game}']", timeout=30_000)
            panel = page.locator("#bot-ladder")
            heading = panel.locator("h2").inner_text()
            assert heading == ("컴퓨터 실력" if lang == "ko" else "Computer players' strength")
            text = panel.inner_text()
            assert "⟦" not in text  # no missing message
            data = ladder.published(game)
            if data is None:
                assert panel.locator("p.empty").count() == 1
                continue
            ratings = panel.locator("#bot-ratings tbody tr")
            assert ratings.count() == len(data["bots"])
            best = max(data["bots"], key=lambda b: data["points_ratings"][b]["points"])
            level = {"hard": "고급", "normal": "중급", "easy": "초급"} if lang == "ko" else {}
            assert level.get(best, best) in ratings.nth(0).inner_text()
            pairs = panel.locator("#bot-pairs tbody tr")
            assert pairs.count() == len(data["pairs"])
            first = data["pairs"][0]
            cells = pairs.nth(0).locator("td").all_inner_texts()
            lo, hi = first["points_ci95"]
            assert cells[3] == f"{lo:+.2f} ~ {hi:+.2f}".replace("-", "−")
            assert str(data["games_per_pair"]) in panel.locator("p.rank-note").inner_text()
    finally:
        page.close()
