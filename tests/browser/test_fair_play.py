"""The settlement's ✓ (issue 27 item 5, ``docs/fairness.md``): against a real ``madang
serve`` with verifiable deals (no ``--deal-seed``), the browser keeps the commitment
shown before the deal, sends its own entropy string, plays a Matgo game to its end and
checks the revealed seed with ``fair.js``: ✓. A second game whose record is tampered on
its way to the page (a route that edits the seed the server serves) shows ✗ with the
reason, in Korean. Screenshots: ``artifacts/fair_ok_desktop.png``,
``artifacts/fair_tampered_desktop.png``.
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
    scan_korean,
    shot,
    wait_change,
    wait_turn,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on the PATH")


@pytest.fixture(scope="module")
def fair_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(tmp_path_factory.mktemp("fair"), None)


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
