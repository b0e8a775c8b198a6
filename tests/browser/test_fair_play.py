"""The settlement's ✓ (issue 27 item 5, ``docs/fairness.md``): against a real ``madang
serve`` with verifiable deals (no ``--deal-seed``), the browser keeps the commitment
shown before the deal, sends its own entropy string, plays a Matgo game to its end and
checks the revealed seed with ``fair.js``: ✓. A second game whose record is tampered on
its way to the page (a route that edits the seed the server serves) shows ✗ with the
reason, in Korean. Screenshots: ``artifacts/fair_ok_desktop.png``,
``artifacts/fair_tampered_desktop.png``.

선 뽑기 (issue 26 item 5): a person picks one of the face-down cards by clicking, sees
both cards turn over (with the flip sound and movement) and who is 선, then the deal;
자동치기 plays the game out and the settlement's ✓ checks the picks too
(``artifacts/first_pick_*.png``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import (
    CHROMIUM,
    DESKTOP,
    _serve,
    create_table,
    phone_shot,
    scan_korean,
    shot,
    wait_change,
    wait_turn,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on the PATH")


@pytest.fixture(scope="module")
def fair_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Verifiable deals; 선 뽑기 gives 3 s to pick and shows the cards for 1 s."""
    yield from _serve(
        tmp_path_factory.mktemp("fair"),
        None,
        settings={"first_pick_seconds": 3, "first_pick_reveal_seconds": 1},
    )


def _play_to_settlement(page: Any) -> None:
    for _ in range(300):
        st = wait_turn(page)
        if st["over"]:
            return
        q = st["question"]
        if st["sub"] or q not in ("play", ""):
            page.keyboard.press("2" if q == "go_stop" else "1")  # 스톱: the game ends
        elif q == "play":
            flip = page.locator(".prompt button[data-move='flip']")
            playable = page.locator(".hand .card.playable")
            if playable.count():
                playable.first.click()
            elif flip.count():
                page.keyboard.press(" ")
        wait_change(page, st["version"])
    raise AssertionError("the game did not end")


def _fair_line(page: Any) -> dict[str, str]:
    page.wait_for_selector("[data-testid=fair]:not([data-state=checking])", timeout=20_000)
    out: dict[str, str] = page.evaluate(
        """() => { const f = document.querySelector('[data-testid=fair]');
                   const s = f.querySelector('.fair-status');
                   return {state: f.dataset.state, text: s.textContent, title: s.title}; }"""
    )
    return out


def test_settlement_verifies_the_deal_and_a_tampered_reveal_fails(
    fair_server: str, browser: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framesent", lambda p: sent.append(json.loads(p)))
        ws.on("framereceived", lambda p: received.append(json.loads(p)))

    page.on("websocket", on_ws)
    page.set_default_timeout(30_000)
    try:
        page.goto(fair_server + "/")
        page.wait_for_selector("#btn-register")
        page.fill("#login-name", "공정한패")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")

        create_table(page, "matgo")
        _play_to_settlement(page)
        line = _fair_line(page)
        assert line["state"] == "ok", line
        assert line["text"].startswith("✓ 공정한 패")
        # the commitment came before the first card, the page's string is in the deal
        kinds = [m["type"] for m in received]
        first_card = next(i for i, m in enumerate(received) if m.get("view"))
        assert "fair_commit" in kinds[:first_card] or received[first_card].get("fair")
        mine = [m["entropy"] for m in sent if m.get("type") == "fair_entropy"]
        assert mine and len(mine[0]) == 32
        dealt = next(m["fair"] for m in received if m["type"] == "update" and m.get("fair"))
        assert dealt["entropy"][0] == mine[0]
        scan_korean(page, "fair settlement")
        shot(page, "fair_ok_desktop")

        # the next game, its record's seed edited on its way to the page: ✗
        def tamper(route: Any) -> None:
            resp = route.fetch()
            body = resp.json()
            seed = body["record"]["fairness"]["seed"]
            body["record"]["fairness"]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
            route.fulfill(response=resp, json=body)

        page.route("**/api/games/*", tamper)
        page.click("#btn-next")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=settlement]').classList.contains('hidden')"
        )
        _play_to_settlement(page)
        line = _fair_line(page)
        assert line["state"] == "bad", line
        assert line["text"] == "✗ 검증 실패: 공개된 시드가 약속값과 맞지 않습니다"
        assert "does not open the commitment" in line["title"]
        shot(page, "fair_tampered_desktop")
        assert errors == []
    finally:
        context.close()


def test_a_person_picks_a_card_for_sun_and_the_record_verifies(
    fair_server: str, browser: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ko-KR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    received: list[dict[str, Any]] = []
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda p: received.append(json.loads(p)))
    )
    page.set_default_timeout(30_000)
    try:
        page.goto(fair_server + "/")
        page.click("#btn-guest")  # the first gesture: sound may play from here
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "matgo")
        page.click("#btn-create")
        page.wait_for_url("**/table/*")
        panel = page.locator("[data-testid=first-pick]")
        panel.wait_for()
        assert page.locator("[data-testid=waiting]:not(.hidden)").count() == 0
        # the bot has picked (slot 0, face down); our turn
        page.wait_for_selector(".fp-slot[data-slot='0'][data-seat='1']")
        assert page.locator(".fp-slot .card[data-code=back]").count() == 8  # nothing shown
        assert "패를 한 장 고르세요" in page.inner_text("[data-testid=first-pick-status]")
        shot(page, "first_pick_choose_desktop")
        phone_shot(page, "first_pick_choose_phone")
        scan_korean(page, "first pick")
        page.locator(".fp-slot[data-slot='4']").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.fp-slot .card.picked:not([data-code=back])')"
            ".length === 2"
        )
        status = page.inner_text("[data-testid=first-pick-status]")
        assert status.endswith("선!") or "다시 뽑습니다" in status, status
        shot(page, "first_pick_reveal_desktop")
        laid = [m for m in received if m["type"] == "first_pick"]
        before = [m for m in laid if m["cards"] is None]
        assert before and all(m["cards"] is None for m in before)  # no card before both picked
        assert page.evaluate("window.__madangSounds.triggered.flip || 0") >= 1
        assert page.evaluate("window.__madangMotion.started.first_pick || 0") >= 2
        # (a tie picks again: the person's time runs out, the first free card is theirs)
        page.wait_for_selector(".board[data-version]", timeout=30_000)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=first-pick]').classList.contains('hidden')"
        )
        # read again now: after a tie, the pick that decided came after ``laid`` was read
        decided = [m for m in received if m["type"] == "first_pick" and m.get("dealer") is not None]
        assert decided, laid
        shown = decided[-1]
        dealt = next(m for m in received if m["type"] in ("update", "snapshot") and m.get("view"))
        assert dealt["view"]["dealer"] == shown["dealer"]
        page.locator("[data-testid=autoplay]").click()  # the computer plays it out
        line = _fair_line(page)
        assert line["state"] == "ok", line
        assert line["text"].startswith("✓ 공정한 패")
        shot(page, "first_pick_settled_desktop")
        assert errors == []
    finally:
        context.close()
