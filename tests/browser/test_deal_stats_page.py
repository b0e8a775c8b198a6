"""The deal statistics page (``/stats``) in Debian's headless Chromium, in Korean and
English: reached from the menu, one table per statistic with the observed counts of the
database's finished games, no missing message and, in Korean, no English title.

The server is the app in this process (uvicorn in a thread, SQLite in a temporary
folder) so that its statistics page can simulate few games for its expectations.
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
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)

GAMES = {"matgo": 8, "mahjong": 3}  # finished games stored of each


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:

    from madang import stats
    from madang.server import db, store
    from madang.server.app import create_app
    from madang.server.config import ServerConfig
    from madang.server.db import make_engine, migrate
    from madang.server.deal_stats import DealStatsCache, StatsSettings

    url = f"sqlite:///{tmp_path_factory.mktemp('stats') / 'madang.sqlite3'}"
    eng = make_engine(url)
    migrate(eng)
    users = [store.create_user(eng, f"player{i}", None)["id"] for i in range(4)]
    for game, n in GAMES.items():
        for s in stats.simulated_sessions(game, n, 5):
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
    app = create_app(ServerConfig(database_url=url))
    app.state.deal_stats = DealStatsCache(StatsSettings(simulate_games=50))
    with serve(app) as base:
        yield base


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_deal_statistics_page(server: str, browser: Any, lang: str) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(server + "/leaderboard")
        page.evaluate(f"localStorage.setItem('madang:lang', '{lang}')")
        page.reload()
        page.click("#nav a[href='/stats']")
        page.wait_for_selector(".deal-stats[data-game='mahjong']", timeout=60_000)
        assert page.url.endswith("/stats")
        assert page.locator(".deal-stats").count() == 2
        assert page.locator("section.stat").count() == 13  # 8 Matgo, 5 mahjong statistics
        seon = page.locator("section.stat[data-stat='bonus_to_seon'] tbody tr")
        assert seon.count() == 4
        observed = [int(seon.nth(i).locator("td").nth(1).inner_text()) for i in range(4)]
        assert sum(observed) == GAMES["matgo"]
        text = page.locator("#app").inner_text()
        assert "⟦" not in text  # no missing message
        if lang == "ko":
            assert "선에게 들어온 보너스 패" in text and "패 통계" in text
            titles = page.locator("section.stat h3").all_inner_texts()
            assert not [t for t in titles if any(c.isascii() and c.isalpha() for c in t)]
        else:
            assert "bonus cards dealt to 선 (first player)" in text
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"deal-stats-{lang}.png"), full_page=True)
    finally:
        page.close()
