"""Game money and self-care (자기 보호) on the player's page in Debian's headless
Chromium, in Korean: the bankroll in the header and on /me, a limit set, lowered at
once and raised only after the cooling-off delay, a seat refused once the day's loss
limit is reached (the lobby's form and a join), and a self-exclusion.

The server is the app in this process (uvicorn in a thread, SQLite in a temporary
folder), so the test can settle a lost game on its database. Screenshots go to
``artifacts/``. Skipped when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def _serving(tmp: Path, **settings: Any) -> Iterator[tuple[str, Any]]:
    """The app on uvicorn in a thread (SQLite in ``tmp``): its URL and its engine."""

    from madang.server.app import create_app
    from madang.server.config import ServerConfig

    url = f"sqlite:///{tmp / 'madang.sqlite3'}"
    app = create_app(ServerConfig(database_url=url, deal_seed=100, argon2_time_cost=1,
                                  argon2_memory_kib=8192, **settings))  # fmt: skip
    with serve(app) as base:
        yield base, app.state.hub.engine


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with _serving(tmp_path_factory.mktemp("selfcare")) as got:
        yield got


@pytest.fixture(scope="module")
def all_in_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """Entry minimums of one point (so a player may sit down holding one point's worth,
    and any real loss goes all-in); bots answer at once."""
    with _serving(tmp_path_factory.mktemp("allin"), entry_multiple=1, bot_delay=0.0) as got:
        yield got


def _lose(eng: Any, user_id: int, amount: int) -> None:
    """Settle a game in which ``user_id`` pays a bot ``amount``."""
    from madang.server import store

    bank = store.bot_user(eng, "easy")
    tid, _ = store.create_table(
        eng, game="matgo", preset="default", stake=1, private=False, invite="x",
        seats=[], created_by=user_id,
    )  # fmt: skip
    gid = store.start_game(
        eng, table_id=tid, game="matgo", preset="default", stake=1, game_no=1,
        players=[user_id, bank["id"]],
    )  # fmt: skip
    store.finish_game(
        eng, game_id=gid, game="matgo", stake=1, players=[user_id, bank["id"]],
        outcome={"winner": 1, "points": amount, "reason": "stop"},
        payments=[(0, 1, amount, "win")], record={"moves": []}, match_scores=None,
    )  # fmt: skip
    from madang.server import db

    with eng.begin() as c:  # its table is over
        c.execute(db.tables.update().where(db.tables.c.id == tid).values(status="closed"))


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def _toast(page: Any, text: str) -> None:
    """Wait for the toast to say ``text``."""
    page.wait_for_selector(f"#toast:has-text('{text}')", timeout=10_000)


def test_the_self_care_page(server: tuple[str, Any], browser: Any) -> None:
    base, eng = server
    ctx = browser.new_context(viewport={"width": 1000, "height": 1000}, locale="ko-KR")
    other = browser.new_context()
    page = ctx.new_page()
    try:
        # someone else's table, with a free seat
        r = other.request.post(
            base + "/api/register", data={"username": "host1", "password": "secret1"}
        )
        assert r.ok, r.text()
        made = other.request.post(
            base + "/api/tables",
            data={"game": "matgo", "stake": 10, "seats": [{"kind": "human"}] * 2},
        )
        assert made.ok, made.text()
        tid = made.json()["table"]["id"]
        page.goto(base + "/login")
        page.evaluate("localStorage.setItem('madang:lang', 'ko')")
        r = page.request.post(
            base + "/api/register", data={"username": "minsu", "password": "secret1"}
        )
        assert r.ok, r.text()
        me = r.json()["user"]
        page.goto(base + "/me")
        page.wait_for_selector("#selfcare [data-limit='loss']")
        assert "보유 머니 100,000" in page.locator("[data-testid=balance]").inner_text()
        assert page.inner_text("#money-balance") == "100,000"
        assert "무료 충전" in page.inner_text("#money")
        assert page.locator("#btn-refill").is_disabled()  # above the floor
        assert page.inner_text("[data-testid=state-play_minutes]").startswith("제한 없음")

        # a first limit, at once; a raise waits 24 h; a lower one is at once again
        page.fill("#limit-play_minutes", "90")
        page.click("#set-play_minutes")
        page.wait_for_selector("[data-testid=state-play_minutes]:has-text('한도 90분')")
        page.fill("#limit-play_minutes", "120")
        page.click("#set-play_minutes")
        state = page.locator("[data-testid=state-play_minutes]")
        state.filter(has_text="부터 한도 120").wait_for()
        assert "한도 90분" in state.inner_text()
        page.fill("#limit-loss", "500")
        page.click("#set-loss")
        page.wait_for_selector("[data-testid=state-loss]:has-text('남은 한도 500')")
        _shot(page, "selfcare-limits.png")

        # the day's loss reaches the limit: no seat anywhere
        _lose(eng, me["id"], 500)
        page.reload()
        page.wait_for_selector("[data-testid=state-loss]:has-text('남은 한도 0')")
        assert "오늘 잃은 머니 500" in page.inner_text("[data-testid=state-loss]")
        page.goto(base + "/")
        page.wait_for_selector("#btn-create")
        assert "입장 1,000 이상" in page.inner_text(f"li[data-table='{tid}']")
        page.click("#btn-create")
        _toast(page, "오늘의 손실 한도에 이르렀습니다")
        _shot(page, "selfcare-refused-create.png")
        page.goto(f"{base}/table/{tid}")
        page.wait_for_selector("[data-testid=join-ask]")
        assert "입장 조건" in page.inner_text("[data-testid=join-ask]")
        page.click("#btn-sit")
        _toast(page, "오늘의 손실 한도에 이르렀습니다")
        _shot(page, "selfcare-refused-join.png")
        seats = other.request.get(f"{base}/api/tables/{tid}").json()["table"]["seats"]
        assert seats[1]["username"] is None  # no seat taken

        # self-exclusion, after a confirmation, shown on the page
        page.goto(base + "/me")
        page.wait_for_selector("#btn-exclude")
        page.select_option("#exclude-months", "3")
        page.once("dialog", lambda d: d.accept())
        page.click("#btn-exclude")
        page.wait_for_selector("#excluded")
        assert "게임 이용이 제한되어 있습니다" in page.inner_text("#excluded")
        text = page.inner_text("#app")
        assert "⟦" not in text  # no missing message
        _shot(page, "selfcare-excluded.png")
    finally:
        page.close()
        ctx.close()
        other.close()


def _play_one(page: Any) -> None:
    """Play a Matgo game to its settlement: the first playable card, 스톱 when asked."""
    from tests.browser.test_play import wait_change, wait_turn

    for _ in range(200):
        st = wait_turn(page)
        if st["over"]:
            return
        version, q = st["version"], st["question"]
        if st["sub"] or q not in ("play", ""):
            page.keyboard.press("2" if q == "go_stop" else "1")
        elif q == "play":
            flip = page.locator(".prompt button[data-move='flip']")
            playable = page.locator(".hand .card.playable")
            if flip.count() and not playable.count():
                page.keyboard.press(" ")
            else:
                playable.first.click()
        wait_change(page, version)
    raise AssertionError("the game did not end within 200 decisions")


def test_the_settlement_marks_all_in(all_in_server: tuple[str, Any], browser: Any) -> None:
    """A player holding 1,000 at a table of 1,000 a point loses: they pay the 1,000 they
    hold, the payment is marked 올인 and their money after the game (0) is shown."""
    from madang.server import store

    base, eng = all_in_server
    ctx = browser.new_context(viewport={"width": 1000, "height": 900}, locale="ko-KR")
    page = ctx.new_page()
    try:
        page.goto(base + "/login")
        page.evaluate("localStorage.setItem('madang:lang', 'ko')")
        r = page.request.post(
            base + "/api/register", data={"username": "gambler", "password": "secret1"}
        )
        me = r.json()["user"]
        _lose(eng, me["id"], 99_000)  # holds 1,000: one point at stake 1,000
        made = page.request.post(
            base + "/api/tables",
            data={"game": "matgo", "stake": 1000,
                  "seats": [{"kind": "human"}, {"kind": "bot", "level": "normal"}]},
        )  # fmt: skip
        assert made.ok, made.text()
        page.goto(f"{base}/table/{made.json()['table']['id']}")
        for _ in range(6):
            page.wait_for_selector(".board[data-version]")
            _play_one(page)
            page.wait_for_selector("[data-testid=settlement]:not(.hidden)")
            if page.locator("[data-testid=payments] li.minus").count():
                break
            # won or 나가리: back to holding 1,000 before the next deal
            have = store.balance(eng, me["id"])
            if have > 1000:
                _lose(eng, me["id"], have - 1000)
            page.click("#btn-next")
            page.wait_for_selector("[data-testid=settlement]", state="hidden")
        else:
            raise AssertionError("the player lost none of 6 games")
        paid = page.locator("[data-testid=payments] li.minus")
        assert paid.locator(".all-in").count() == 1, paid.inner_text()
        assert "올인" in paid.inner_text() and "−1,000" in paid.inner_text()
        after = page.inner_text("[data-testid=money-after]")
        assert after == "보유 머니 0 · 올인", after
        assert store.balance(eng, me["id"]) == 0
        # broke: no 다음 판 is offered; the sheet says why and where the refill is
        short = page.locator("[data-testid=short]")
        assert "다음 판을 할 수 없습니다" in short.inner_text()
        assert "보유 머니가 이 판의 입장 조건보다 적습니다" in short.inner_text()
        assert short.locator("a[href='/me']").count() == 1
        assert page.locator("#btn-next").count() == 0
        _shot(page, "money-all-in-settlement.png")
        page.click("#btn-close")  # the bar under the board offers no 다음 판 either
        assert page.locator("[data-testid=next-bar] .btn-next").count() == 0
    finally:
        page.close()
        ctx.close()
