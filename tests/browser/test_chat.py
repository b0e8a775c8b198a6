"""Chat at the table in Debian's headless Chromium (issue 27 item 3): a person at a Matgo
table against a bot sends an emoticon, a quick phrase and free text (markup in it stays
text); each shows as a bubble by the person's seat, goes into the log and the screen
readers' live region, and cues the chat sound. A spectator sees the bubbles, has no way
to send, mutes the person and sees no more of them. Screenshots at desktop and phone
size: ``artifacts/chat_*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    Axe,
    _serve,
    create_table,
    scan_korean,
    shot,
)
from tests.server.conftest import DEAL_SEED

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on the PATH")


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # limits wide enough for the test's five messages at once (the limits themselves are
    # tests/server/test_chat.py's)
    limits = {"chat_limit": "20/3 seconds; 60/minute", "chat_per_s": 10, "chat_burst": 10}
    yield from _serve(tmp_path_factory.mktemp("chat"), DEAL_SEED, settings=limits)


def _by_the_seat(page: Any, seat: int) -> str:
    """The bubble of ``seat`` is by its seat's name box (just above or below it, or
    beside it on its line) and covers no open question; where it is."""
    bubble = page.locator(f"[data-testid=bubble-{seat}]")
    bubble.wait_for()
    b = bubble.bounding_box()
    p = page.locator(f".board [data-seat='{seat}'] .pinfo").first.bounding_box()
    assert b is not None and p is not None
    assert b["x"] < p["x"] + p["width"] and p["x"] < b["x"] + b["width"], (b, p)
    where = str(
        bubble.evaluate("e => ['above', 'below', 'beside'].find(c => e.classList.contains(c))")
    )
    if where == "beside":
        assert b["y"] < p["y"] + p["height"] and p["y"] < b["y"] + b["height"], (b, p)
    else:
        gap = min(abs(p["y"] - (b["y"] + b["height"])), abs(b["y"] - (p["y"] + p["height"])))
        assert gap <= 24, (where, b, p)
    for q in page.locator(".prompt.active").all():
        r = q.bounding_box()
        assert r is not None
        overlap = (b["x"] < r["x"] + r["width"] and r["x"] < b["x"] + b["width"]
                   and b["y"] < r["y"] + r["height"] and r["y"] < b["y"] + b["height"])  # fmt: skip
        assert not overlap, (b, r)
    return where


def test_emoticons_phrases_and_text_by_the_seat_and_a_spectator_mutes(
    chat_server: str, browser: Any, axe: Axe
) -> None:
    player = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    watcher = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    errors: list[str] = []
    sent: list[dict[str, Any]] = []
    try:
        a = player.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))
        a.set_default_timeout(20_000)
        a.goto(chat_server + "/")
        a.wait_for_selector("#btn-register")
        a.fill("#login-name", "수다쟁이")
        a.fill("#login-pass", "correct horse")
        a.click("#btn-register")
        a.wait_for_selector("#create-table")
        table_id = create_table(a, "matgo")

        # the spectator opens the table first (it hears what is said from then on)
        c = watcher.new_page()
        c.on("pageerror", lambda e: errors.append(str(e)))
        c.set_default_timeout(20_000)
        c.goto(f"{chat_server}/table/{table_id}?watch=1")
        c.wait_for_selector(".board.matgo[data-version]")
        c.click("[data-testid=chat-open]")
        assert "관전 중에는 말할 수 없습니다" in c.inner_text("[data-testid=chat-panel]")
        assert c.locator(".chat-emote, .chat-phrase, .chat-text").count() == 0
        c.keyboard.press("Escape")

        # an emoticon: a face and its name by seat 0, in the log, for screen readers
        a.click("[data-testid=chat-open]")
        panel = a.locator("[data-testid=chat-panel]")
        assert panel.locator(".chat-emote").count() == 8, panel.inner_text()
        assert "빨리 좀 치세요~" in panel.inner_text()
        scan_korean(a, "chat panel")
        axe.check(a, "chat panel")
        shot(a, "chat_panel_desktop")
        panel.locator(".chat-emote[data-emote='joy']").click()
        assert a.locator("[data-testid=chat-panel]").count() == 0  # closed once sent
        assert _by_the_seat(a, 0) == "beside"  # above the name is the open question
        assert a.locator("[data-testid=bubble-0] svg.chat-face").count() == 1
        assert "기쁨" in a.inner_text("[data-testid=bubble-0]")
        a.wait_for_function("() => (window.__madangSounds.triggered.chat || 0) >= 1")
        assert "수다쟁이: [기쁨]" in a.inner_text("[data-testid=chat-live]")
        assert "수다쟁이: [기쁨]" in a.inner_text(".log li[data-type=chat]")
        axe.check(a, "emoticon bubble")
        a.wait_for_timeout(300)  # the bubble's pop is over
        shot(a, "chat_emote_desktop")
        _by_the_seat(c, 0)
        assert "기쁨" in c.inner_text("[data-testid=bubble-0]")

        # a quick phrase replaces the bubble
        a.click("[data-testid=chat-open]")
        a.click(".chat-phrase[data-phrase='hurry']")
        a.wait_for_function(
            "() => document.querySelector('[data-testid=bubble-0]')"
            "?.textContent.includes('빨리 좀 치세요~')"
        )
        assert a.locator(".chat-bubble").count() == 1
        _by_the_seat(a, 0)
        a.set_viewport_size(PHONE)
        a.wait_for_timeout(150)
        a.click("[data-testid=chat-open]")  # a new bubble is placed by the phone's board
        a.click(".chat-phrase[data-phrase='again']")
        a.wait_for_function(
            "() => document.querySelector('[data-testid=bubble-0]')"
            "?.textContent.includes('한 판 더!')"
        )
        _by_the_seat(a, 0)
        assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        a.wait_for_timeout(300)
        shot(a, "chat_phrase_phone")
        a.set_viewport_size(DESKTOP)

        # free text is text: markup in it is shown, never made into elements
        a.click("[data-testid=chat-open]")
        a.fill(".chat-text", "<img src=x onerror=alert(1)> ㅋㅋ")
        a.press(".chat-text", "Enter")
        a.wait_for_function(
            "() => document.querySelector('[data-testid=bubble-0]')?.textContent.includes('ㅋㅋ')"
        )
        assert a.inner_text("[data-testid=bubble-0]").startswith("<img src=x")
        assert a.locator(".chat-bubble img, .log img").count() == 0
        c.wait_for_function(
            "() => document.querySelector('[data-testid=bubble-0]')?.textContent.includes('ㅋㅋ')"
        )
        c.wait_for_timeout(300)
        shot(c, "chat_spectator_desktop")

        # the spectator mutes the person: no bubble, no log line, no sound from them
        c.click("[data-testid=chat-open]")
        axe.check(c, "spectator chat panel")
        mute = c.locator(".chat-mute[data-seat='0']")
        assert mute.get_attribute("aria-pressed") == "false"
        mute.click()
        assert c.locator(".chat-mute[data-seat='0']").get_attribute("aria-pressed") == "true"
        assert c.locator("[data-testid=bubble-0]").count() == 0
        c.keyboard.press("Escape")
        assert c.locator("[data-testid=chat-panel]").count() == 0
        heard_before = c.evaluate("window.__madangChat.heard.length")
        log_before = c.locator(".log li[data-type=chat]").count()
        a.click("[data-testid=chat-open]")
        a.click(".chat-emote[data-emote='surprise']")
        a.wait_for_function(
            "() => document.querySelector('[data-testid=bubble-0]')?.textContent.includes('놀람')"
        )
        c.wait_for_function(f"() => window.__madangChat.heard.length > {heard_before}")
        last = c.evaluate("window.__madangChat.heard.at(-1)")
        assert last == {"seat": 0, "kind": "emote", "value": "surprise", "muted": True}
        assert c.locator("[data-testid=bubble-0]").count() == 0
        assert c.locator(".log li[data-type=chat]").count() == log_before
        shot(c, "chat_muted_desktop")
        # remembered for this tab: a reload keeps the mute
        c.reload()
        c.wait_for_selector(".board.matgo[data-version]")
        c.click("[data-testid=chat-open]")
        assert c.locator(".chat-mute[data-seat='0']").get_attribute("aria-pressed") == "true"

        said = [m for m in sent if m.get("type") == "chat"]
        assert said == [
            {"type": "chat", "emote": "joy"},
            {"type": "chat", "phrase": "hurry"},
            {"type": "chat", "phrase": "again"},
            {"type": "chat", "text": "<img src=x onerror=alert(1)> ㅋㅋ"},
            {"type": "chat", "emote": "surprise"},
        ]
        assert not errors, errors
    finally:
        player.close()
        watcher.close()
    axe.finish()


def test_a_bubble_by_the_seat_at_a_mahjong_table(chat_server: str, browser: Any) -> None:
    """The same chat at a mahjong table of four (one person, three bots), at phone size."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True)
    errors: list[str] = []
    try:
        a = context.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.set_default_timeout(20_000)
        a.goto(chat_server + "/")
        a.click("#btn-guest")
        a.wait_for_selector("#create-table")
        create_table(a, "mahjong")
        a.click("[data-testid=chat-open]")
        assert "손님은 글을 쓸 수 없습니다" in a.inner_text("[data-testid=chat-panel]")
        assert a.locator(".chat-text").count() == 0  # a guest: no free text
        a.click(".chat-emote[data-emote='cheer']")
        _by_the_seat(a, 0)
        assert "응원" in a.inner_text("[data-testid=bubble-0]")
        assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        a.wait_for_timeout(300)
        shot(a, "chat_mahjong_phone")
        assert not errors, errors
    finally:
        context.close()
