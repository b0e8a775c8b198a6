"""The browser client against the real server, in Debian's headless Chromium.

Starts ``madang serve`` on a free port with a temporary data folder (SQLite), then in
the browser: registers, plays a whole Matgo game against a bot by clicking and pressing
keys (digits + Enter, arrows, 1/2, Space), opens its replay, plays a mahjong hand against
three bots, and checks the ledger page against the API. Screenshots go to ``artifacts/``
(desktop and a 390×844 phone screen).

Skipped only when ``/usr/bin/chromium`` is missing (CI installs Debian's ``chromium``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import DEAL_SEED

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``madang serve`` (SQLite in a temp folder) on a free port; yields its URL.
    Its tables deal from fixed seeds (those of the app tests: every one starts live)."""
    data = tmp_path_factory.mktemp("data")
    port = _free_port()
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "madang", "serve", "--port", str(port), "--data", str(data),
         "--bot-delay", "0", "--turn-seconds", "120", "--deal-seed", str(DEAL_SEED),
         "--claim-seconds", "0.3"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api/config", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            pytest.fail("madang serve did not start:\n" + (data / "server.log").read_text())
        time.sleep(0.2)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def phone_shot(page: Any, name: str) -> None:
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    shot(page, name)
    page.set_viewport_size(DESKTOP)


def board_state(page: Any) -> dict[str, Any]:
    """What the loop needs to know: the stream version, the question, an open sub-choice,
    whether the settlement screen is up."""
    result: dict[str, Any] = page.evaluate(
        """() => {
          const b = document.querySelector('.board');
          const o = document.querySelector('[data-testid=settlement]');
          return {version: b ? b.dataset.version : null, question: b ? b.dataset.question : '',
                  sub: b ? b.dataset.sub === '1' : false,
                  over: !!o && !o.classList.contains('hidden')};
        }"""
    )
    return result


def wait_turn(page: Any, timeout_ms: int = 30_000) -> dict[str, Any]:
    """Wait until it is our question or the game is over."""
    page.wait_for_function(
        """() => {
          const o = document.querySelector('[data-testid=settlement]');
          if (o && !o.classList.contains('hidden')) return true;
          const b = document.querySelector('.board');
          return !!b && !!b.dataset.question;
        }""",
        timeout=timeout_ms,
    )
    return board_state(page)


def wait_change(page: Any, version: str | None) -> None:
    """Wait until the stream moved past ``version``, a sub-choice opened, or it is over."""
    page.wait_for_function(
        """(v) => {
          const o = document.querySelector('[data-testid=settlement]');
          if (o && !o.classList.contains('hidden')) return true;
          const b = document.querySelector('.board');
          return !!b && (b.dataset.version !== v || b.dataset.sub === '1');
        }""",
        arg=version,
        timeout=30_000,
    )


def create_table(page: Any, game: str) -> int:
    page.click("a[href='/']")
    page.wait_for_selector("#create-table")
    page.select_option("#new-game", game)
    page.click("#btn-create")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".board[data-version]")
    return int(page.url.rstrip("/").split("/table/")[1].split("?")[0])


def play_matgo(page: Any) -> dict[str, int]:
    """Play one whole game; returns how many times each input method was used."""
    used = {"click": 0, "digit_enter": 0, "arrows_enter": 0, "key12": 0, "space": 0}
    turn = 0
    for _ in range(200):
        st = wait_turn(page)
        if st["over"]:
            return used
        version, q = st["version"], st["question"]
        if st["sub"] or q not in ("play", ""):
            # A two-option (or pick) question: keys 1/2. Stop at a go/stop question so
            # the game ends, shake/bomb with 1, pick the first card.
            key = "2" if q == "go_stop" else "1"
            page.keyboard.press(key)
            used["key12"] += 1
        elif q == "play":
            turn += 1
            flip = page.locator(".prompt button[data-move='flip']")
            playable = page.locator(".hand .card.playable")
            if flip.count() and (used["space"] == 0 or not playable.count()):
                page.keyboard.press(" ")
                used["space"] += 1
            elif turn % 3 == 1 and playable.count():
                playable.last.click()
                used["click"] += 1
            elif turn % 3 == 2 and playable.count():
                idx = playable.first.get_attribute("data-index")
                assert idx is not None
                page.keyboard.press("0" if idx == "10" else idx)
                page.wait_for_selector(".hand .card.sel")
                page.keyboard.press("Enter")
                used["digit_enter"] += 1
            elif playable.count():
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowRight")
                page.wait_for_selector(".hand .card.sel")
                page.keyboard.press("Enter")
                used["arrows_enter"] += 1
            if turn == 4:
                shot(page, "matgo_table_desktop")
                phone_shot(page, "matgo_table_phone")
        wait_change(page, version)
    raise AssertionError("the Matgo game did not end within 200 decisions")


def play_mahjong(page: Any) -> None:
    turn = 0
    for _ in range(400):
        st = wait_turn(page, 60_000)
        if st["over"]:
            return
        version, q = st["version"], st["question"]
        buttons = page.locator(".prompt button.choice")
        if q == "claim":
            # 쏘아 when offered, else pass (keys: the button's number).
            moves = [buttons.nth(i).get_attribute("data-move") for i in range(buttons.count())]
            pick = moves.index("ron") if "ron" in moves else moves.index("pass")
            page.keyboard.press(str(pick + 1))
        else:
            turn += 1
            win = page.locator(".prompt button[data-move='tsumo']")
            if win.count():
                win.click()
            else:
                # Discard by click (the drawn tile, rightmost) or by arrows + Enter.
                tiles = page.locator(".mj-hand .tile.playable")
                if turn % 2:
                    tiles.last.click()
                else:
                    page.keyboard.press("ArrowLeft")
                    page.keyboard.press("ArrowRight")
                    page.keyboard.press("Enter")
            if turn == 3:
                shot(page, "mahjong_table_desktop")
                phone_shot(page, "mahjong_table_phone")
        wait_change(page, version)
    raise AssertionError("the mahjong hand did not end within 400 decisions")


def settlement_game_id(page: Any) -> int | None:
    href = page.locator("[data-testid=settlement] a[href^='/replay/']")
    if not href.count():
        return None
    return int((href.first.get_attribute("href") or "").rsplit("/", 1)[1])


def check_ledger(page: Any, base: str, game_ids: list[int]) -> None:
    api = page.request.get(base + "/api/ledger?limit=50").json()
    page.goto(base + "/me")
    page.wait_for_selector("#my-balance")
    bal = api["balance"]
    shown = page.inner_text("#my-balance").replace(",", "").replace("−", "-").replace("+", "")
    assert int(shown) == bal
    assert sum(e["amount"] for e in api["entries"]) == bal
    for gid in game_ids:
        rows = [e for e in api["entries"] if e["game_id"] == gid]
        if rows:  # 나가리 / no payment leaves no row
            assert page.locator(f"#ledger tr[data-game='{gid}']").count() == len(rows)
    shot(page, "ledger_desktop")
    phone_shot(page, "ledger_phone")


def test_register_play_matgo_and_mahjong(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#btn-register")
        shot(page, "login_desktop")
        page.fill("#login-name", "브라우저")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")
        assert page.inner_text("[data-testid=username]").startswith("브라우저")
        shot(page, "lobby_desktop")
        phone_shot(page, "lobby_phone")

        # --- Matgo against a bot, to the end ---
        create_table(page, "matgo")
        used = play_matgo(page)
        assert used["click"] >= 1 and used["digit_enter"] + used["arrows_enter"] >= 1, used
        over = page.locator("[data-testid=settlement]")
        assert over.is_visible()
        text = over.inner_text()
        assert "최종" in text or "나가리" in text or "정산" in text
        shot(page, "matgo_settlement_desktop")
        phone_shot(page, "matgo_settlement_phone")
        matgo_id = settlement_game_id(page)
        assert matgo_id is not None

        # --- its replay ---
        page.goto(f"{server}/replay/{matgo_id}")
        page.wait_for_selector("[data-testid=replay-pos]")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert page.inner_text("[data-testid=replay-pos]").startswith("6 /")
        shot(page, "replay_desktop")
        page.click("#replay-last")
        assert page.locator(".board.matgo").count() == 1

        # --- a mahjong hand against three bots ---
        create_table(page, "mahjong")
        play_mahjong(page)
        assert page.locator("[data-testid=settlement]").is_visible()
        shot(page, "mahjong_settlement_desktop")
        mahjong_id = settlement_game_id(page)

        # --- the ledger ---
        check_ledger(page, server, [i for i in (matgo_id, mahjong_id) if i is not None])
        assert not errors, errors
    finally:
        context.close()


def test_invite_link_join_and_spectate(server: str, browser: Any) -> None:
    """A private table: the creator's invite link lets a guest take the second seat, and a
    third browser watches as a spectator (no hand shown to it)."""
    host = browser.new_context(viewport=DESKTOP)
    guest = browser.new_context(viewport=PHONE)
    watcher = browser.new_context(viewport=DESKTOP)
    errors: list[str] = []
    try:
        a = host.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.goto(server + "/")
        a.click("#btn-guest")
        a.wait_for_selector("#create-table")
        a.check("#new-private")
        a.select_option("#create-table select[data-seat='1']", "human")
        a.click("#btn-create")
        a.wait_for_url("**/table/*?invite=*")
        invite_url = a.url
        table_id = int(invite_url.split("/table/")[1].split("?")[0])

        b = guest.new_page()
        b.on("pageerror", lambda e: errors.append(str(e)))
        b.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
        b.goto(invite_url)
        b.click("text=손님으로 참가")
        # The link alone seats nobody: the stake is shown and asked for first.
        ask = b.wait_for_selector("[data-testid=join-ask]")
        assert "판돈 1" in ask.inner_text()
        seats = json.loads(
            b.evaluate(
                f"fetch('/api/tables/{table_id}?invite=' + "
                f"new URLSearchParams(location.search).get('invite'))"
                ".then(r => r.text())"
            )
        )["table"]["seats"]
        assert seats[1]["username"] is None
        b.click("#btn-sit")
        b.wait_for_selector(".board.matgo .hand .card >> nth=9")  # ten cards dealt

        a.wait_for_selector(".board.matgo .hand .card >> nth=9")
        c = watcher.new_page()
        c.on("pageerror", lambda e: errors.append(str(e)))
        c.goto(f"{server}/table/{table_id}?invite={invite_url.split('invite=')[1]}&watch=1")
        c.wait_for_selector(".board.matgo[data-version]")
        assert c.locator(".board .hand .card.playable").count() == 0
        assert c.locator(".board .hand .card[data-code='back']").count() >= 1
        assert c.locator("[data-testid=prompt].active").count() == 0
        shot(b, "invite_guest_phone")
        shot(c, "spectator_desktop")
        assert not errors, errors
    finally:
        for ctx in (host, guest, watcher):
            ctx.close()
