"""자동치기 in Debian's headless Chromium (issue 26 item 5): the switch in the table's head
hands the seat to the computer — the seat plays itself, everybody sees the "자동" badge —
and gives it back, by mouse and by keyboard, and it is still on after a reload.
Screenshots go to ``artifacts/``. Skipped, as ``test_play.py``, only when ``chromium``
is not on the PATH."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import CHROMIUM, DESKTOP, _serve, create_table, phone_shot, shot
from tests.server.conftest import DEAL_SEED

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)


@pytest.fixture(scope="module")
def auto_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots answer after 0.3 s, slow enough to watch a seat play itself."""
    yield from _serve(tmp_path_factory.mktemp("auto"), DEAL_SEED, bot_delay=0.3)


def _hand_size(page: Any) -> int:
    n: int = page.locator(".board .hand .card, .board .my-hand .card").count()
    return n


def _version(page: Any) -> int:
    return int(page.get_attribute(".board", "data-version") or 0)


def test_autoplay_switch_plays_the_seat_and_gives_it_back(auto_server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="ko-KR")
    page = ctx.new_page()
    page.goto(auto_server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#create-table")
    create_table(page, "matgo")
    switch = page.locator("[data-testid=autoplay]")
    switch.wait_for()
    assert switch.get_attribute("aria-pressed") == "false"
    assert switch.inner_text() == "자동치기"
    assert page.locator("[data-testid=auto-badge-0]").count() == 0
    start = _version(page)

    switch.click()  # on: the seat plays itself; nobody clicks a card from here
    page.wait_for_selector("[data-testid=auto-badge-0][data-why=autoplay]")
    assert switch.get_attribute("aria-pressed") == "true"
    assert switch.inner_text() == "자동치기 켜짐"
    page.wait_for_function(
        """(v) => {
          const o = document.querySelector('[data-testid=settlement]');
          const b = document.querySelector('.board');
          return (o && !o.classList.contains('hidden')) || +b.dataset.version >= v + 6;
        }""",
        arg=start,
        timeout=30_000,
    )
    shot(page, "autoplay_on_desktop")
    phone_shot(page, "autoplay_on_phone")
    # the seat's own moves were made for it: its plays are in the log
    mine = page.evaluate(
        """() => [...document.querySelectorAll('.log li[data-type=play]')]
             .filter(li => li.textContent.includes('손님')).length"""
    )
    assert mine >= 1, mine

    page.reload()  # the flag is the seat's: it comes back with the page
    switch = page.locator("[data-testid=autoplay]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=autoplay]')?.getAttribute('aria-pressed')"
        " === 'true'"
    )
    switch.focus()  # keyboard: the switch is a button in the tab order
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=autoplay]').getAttribute('aria-pressed')"
        " === 'false'"
    )
    page.wait_for_function("() => !document.querySelector('[data-testid=auto-badge-0]')")
    shot(page, "autoplay_off_desktop")

    # a spectator sees the badge too, and no switch
    page.locator("[data-testid=autoplay]").click()
    page.wait_for_selector("[data-testid=auto-badge-0]")
    url = page.url
    spectator = browser.new_context(viewport=DESKTOP, locale="ko-KR").new_page()
    spectator.goto(url)
    spectator.wait_for_selector(".board[data-version]")
    over = spectator.locator("[data-testid=settlement]:not(.hidden)").count()
    if not over:
        spectator.wait_for_selector("[data-testid=auto-badge-0]")
    assert spectator.locator("[data-testid=autoplay]:not(.hidden)").count() == 0
    spectator.context.close()
    ctx.close()
