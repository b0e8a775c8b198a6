"""The browser client against the real server, in Debian's headless Chromium.

Starts ``madang serve`` on a free port with a temporary data folder (SQLite), then in
the browser: registers, plays a whole Matgo game (the 미션 preset) against a bot by
clicking and pressing keys (digits + Enter, arrows, 1/2, Space), checks what the board
tells (live score, 족보 progress, last-played marks, timers in seconds, 스톱 value,
captions, the mission), that the settlement's rows add up to its total and to the
payments, the 다음 판 bar, the log after a refresh, its replay; plays a mahjong hand
against three bots (distinct names, scores and the hand counter on the board); checks
the ledger page against the API. Other tests: a first-turn 불러 with the discard help
(D2: an ineligible tile is never discarded plain), the waiting state and an invite
link, every event kind / prompt / error / preset / sheet rendered by the client in
Korean (and English) with no raw code and no missing key, and an axe-core scan. Every
Korean page is scanned for raw codes and English words. Screenshots go to
``artifacts/`` (desktop and a 390×844 phone screen), named after the issue's points.

Skipped when ``chromium`` is not on the PATH (CI installs Debian's ``chromium``).
axe-core comes from npm (``npm ci --prefix tests/browser``, run by ``.ci/run``): without
it, a test that scans with it still plays to its end (every other check is made) and is
then skipped, naming the scans it could not make.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.samples import mahjong_samples, matgo_samples, matgo_sheets
from tests.server.conftest import DEAL_SEED

CHROMIUM = shutil.which("chromium")
"""Debian's Chromium (``apt-get install chromium``; ``.ci/run`` installs it), found on
the PATH: Playwright drives it, and downloads no browser of its own."""
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
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: Tables of the D2 test's server deal from seed 7 + T: table 1's dealer (the creator)
#: may 불러 on its first discard (found with ``make_session("mahjong", …)``).
DECLARE_SEED = 7
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(
    data: Path,
    deal_seed: int | None,
    turn_seconds: int = 120,
    bot_delay: float = 0.0,
    claim_seconds: float = 1.0,
    claim_decision_seconds: float | None = None,
    settings: dict[str, object] | None = None,
) -> Iterator[str]:
    port = _free_port()
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "madang", "serve", "--port", str(port), "--data", str(data),
         "--bot-delay", str(bot_delay), "--turn-seconds", str(turn_seconds),
         "--claim-seconds", str(claim_seconds),
         "--claim-decision-seconds", str(claim_decision_seconds or claim_seconds),
         *(["--deal-seed", str(deal_seed)] if deal_seed is not None else []),
         *[a for k, v in (settings or {}).items() for a in ("--set", f"{k}={v}")]],
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
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``madang serve`` (SQLite in a temp folder) on a free port; yields its URL.
    Its tables deal from fixed seeds (those of the app tests: every one starts live)."""
    yield from _serve(
        tmp_path_factory.mktemp("data"),
        DEAL_SEED,
        claim_seconds=CLAIM_PAUSE,
        claim_decision_seconds=CLAIM_DECISION,
    )


CLAIM_PAUSE = 0.3
"""The main server's pause after a discard nobody here is asked about (``claim_seconds``):
short, as a mahjong hand has some seventy of them."""


CLAIM_DECISION = 8.0
"""The main server's time for a person to decide a claim (``claim_decision_seconds``)."""


@pytest.fixture(scope="module")
def declare_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second server whose table 1 deals its creator a first-turn 불러."""
    yield from _serve(tmp_path_factory.mktemp("data2"), DECLARE_SEED)


def watched_page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    """A new context (the page's CSP bypassed for axe) and page at ``viewport``, with a
    30 s default timeout; the page's uncaught errors and console errors are collected
    in the list returned with them (a test asserts it empty at its end)."""
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(30_000)
    return context, page, errors


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


#: Key caps printed on the prompts' <kbd> badges: the only Latin words a Korean page shows.
KEY_CAPS = {"Esc", "Space", "Enter", "Home", "End"}
RAW = r"\b(\d\d[garpd]\d?|b[23][xy]?|[1-9][mpzf])\b"


def scan_korean(page: Any, where: str) -> None:
    """No raw card/tile code, no English word and no missing catalogue key in what the
    page shows: its visible text and the names it gives screen readers."""
    found: dict[str, Any] = page.evaluate(
        """(raw) => {
          const texts = [document.body.innerText];
          for (const el of document.querySelectorAll('[aria-label],[title]')) {
            if (el.closest('.hidden')) continue;
            texts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
          }
          const all = texts.join(' | ');
          const words = (all.match(/\b[A-Za-z]{2,}\b/g) || []);
          return {codes: all.match(new RegExp(raw, 'g')) || [], words,
                  missing: [...(window.__madangMissing || [])], marks: all.includes('⟦')};
        }""",
        RAW,
    )
    words = sorted(set(found["words"]) - KEY_CAPS)
    assert not found["codes"], (where, found["codes"][:10])
    assert not words, (where, words[:20])
    assert not found["missing"] and not found["marks"], (where, found["missing"])


class Axe:
    """axe-core's accessibility scan (from npm): no serious or critical violation.

    Without ``tests/browser/node_modules`` (only ``.ci/run`` installs it) the scans are
    noted, not made, and :meth:`finish`, the test's last line, skips the test, saying
    which scans it lacks, once every other check in it has passed."""

    def __init__(self) -> None:
        self.missed: list[str] = []

    def check(self, page: Any, where: str) -> None:
        if not AXE.exists():
            self.missed.append(where)
            return
        page.add_script_tag(path=str(AXE))
        bad = page.evaluate(
            """async () => {
              const r = await axe.run(document, {resultTypes: ['violations']});
              return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => ({id: v.id, impact: v.impact,
                            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
            }"""
        )
        assert not bad, (where, bad)

    def finish(self) -> None:
        if self.missed:
            pytest.skip(
                f"{AXE} is missing (npm ci --prefix tests/browser): the rest passed, but "
                f"the accessibility scans of {', '.join(self.missed)} were not made"
            )


def focus_is_visible(page: Any) -> None:
    """Tab moves the focus to a control and the control shows it."""
    page.keyboard.press("Tab")
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.tagName, s.outlineStyle, s.outlineWidth]; }"
    )
    assert style[0] in ("A", "BUTTON", "INPUT", "SELECT"), style
    assert style[1] != "none" and style[2] != "0px", style


def create_table(page: Any, game: str, preset: str | None = None) -> int:
    page.click("a[href='/']")
    page.wait_for_selector("#create-table")
    page.select_option("#new-game", game)
    if preset:
        page.select_option("#new-preset", preset)
    assert page.inner_text("[data-testid=preset-desc]").strip()  # the preset explained
    page.click("#btn-create")
    page.wait_for_url("**/table/*")
    assert "invite=" not in page.url  # a public table needs no invite code (D13)
    page.wait_for_selector(".board[data-version]")
    return int(page.url.rstrip("/").split("/table/")[1].split("?")[0])


def rows_of(page: Any, scope: str) -> list[tuple[str, int]]:
    rows: list[list[Any]] = page.evaluate(
        """(scope) => [...document.querySelectorAll(scope + ' [data-testid=sheet] tr')]
             .map(r => [r.dataset.kind, +r.dataset.value])""",
        scope,
    )
    return [(k, v) for k, v in rows]


def payments_of(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=payments] li')].map(li =>
             ({from: +li.dataset.from, to: +li.dataset.to, points: +li.dataset.points,
               reason: li.dataset.reason}))"""
    )
    return out


def check_matgo_settlement(page: Any) -> int | None:
    """The rows add up: 족보 items to the 족보 total, plus 고 to the base, times every
    multiplier to the total, which the winner's payment and the title repeat."""
    rows = rows_of(page, "[data-testid=settlement]")
    pays = payments_of(page)
    if not rows:  # 나가리 or a redeal: nothing to pay
        assert not [p for p in pays if p["reason"] == "win"]
        return None
    value = {k: v for k, v in rows if k != "item" and k != "mult"}
    assert sum(v for k, v in rows if k == "item") == value["jokbo"]
    assert value["jokbo"] + value.get("go", 0) == value["base"]
    total = value["base"]
    for k, v in rows:
        if k == "mult":
            total *= v
    assert total == value["total"]
    win = [p for p in pays if p["reason"] == "win"]
    assert [p["points"] for p in win] == [value["total"]]
    title = page.inner_text("[data-testid=settlement] h2")
    assert f"{value['total']}점" in title
    return value["total"]


def check_mahjong_settlement(page: Any) -> None:
    """Each winner's rows add up to the points; the 'pays' row is what the payments say."""
    scope = "[data-testid=settlement] .mj-win"
    wins = page.locator(scope)
    pays = payments_of(page)
    if not wins.count():
        assert not pays
        assert page.locator("[data-testid=all-hands] li").count() == 4  # hands revealed
        return
    for i in range(wins.count()):
        seat = int(wins.nth(i).get_attribute("data-seat") or "-1")
        rows: list[list[Any]] = wins.nth(i).evaluate(
            "w => [...w.querySelectorAll('tr')].map(r => [r.dataset.kind, +r.dataset.value])"
        )
        pan = next(v for k, v in rows if k == "pan")
        assert sum(v for k, v in rows if k == "item") == pan
        factor = next((v for k, v in rows if k == "pan_value"), 1)
        adds = [v for k, v in rows if k == "add"]
        assert adds[0] == pan * factor
        total = next(v for k, v in rows if k == "total")
        assert sum(adds) == total
        paid = sum(p["points"] for p in pays if p["to"] == seat)
        assert next(v for k, v in rows if k == "pays") == paid
        assert wins.nth(i).locator("[data-testid=win-hand] .tile").count() >= 2


def play_matgo(page: Any) -> dict[str, Any]:
    """Play one whole game; returns how many times each input method was used and what
    the board showed on the way."""
    used: dict[str, Any] = {"click": 0, "digit_enter": 0, "arrows_enter": 0, "key12": 0,
                            "space": 0, "stop_now": None, "caption": False}  # fmt: skip
    turn = 0
    for _ in range(200):
        st = wait_turn(page)
        if st["over"]:
            return used
        version, q = st["version"], st["question"]
        if st["sub"] or q not in ("play", ""):
            # A two-option (or pick) question: keys 1/2. Stop at a go/stop question so
            # the game ends, shake/bomb with 1, pick the first card.
            if q == "go_stop":
                stop = page.locator("[data-testid=stop-now]")
                assert stop.is_visible()
                used["stop_now"] = int(stop.get_attribute("data-points") or "-1")
                shot(page, "p4_gostop_stop_now_desktop")
            page.keyboard.press("2" if q == "go_stop" else "1")
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
            if turn == 2:
                # timers say seconds; the cards each side played last are marked
                secs = page.inner_text(".player.bottom .timer.on .timer-s")
                assert re.fullmatch(r"\d+초", secs), secs
                assert page.locator(".card.last-played").count() >= 1
                shot(page, "p3_last_played_desktop")
            if turn == 4:
                scan_korean(page, "matgo table")
                shot(page, "matgo_table_desktop")
                shot(page, "p4_live_score_desktop")
                phone_shot(page, "matgo_table_phone")
        wait_change(page, version)
        if not used["caption"] and page.locator(".captions.show").count():
            used["caption"] = True
            shot(page, "p3_caption_desktop")
    raise AssertionError("the Matgo game did not end within 200 decisions")


def play_mahjong(page: Any, decision: float | None = None) -> list[int]:
    """Play a mahjong hand by clicking; ``decision``: the server's claim decision time,
    which every claim prompt must count down (the seconds each showed are returned)."""
    turn = 0
    shown: list[int] = []
    for _ in range(400):
        st = wait_turn(page, 60_000)
        if st["over"]:
            return shown
        version, q = st["version"], st["question"]
        buttons = page.locator(".prompt button.choice")
        if q == "claim" and decision is not None:
            # the prompt counts down the decision time (8 s), not the 1 s pause (U3)
            page.wait_for_function(
                "() => /\\d/.test(document.querySelector('.timer.on .timer-s')?.textContent)"
            )
            secs = int(re.sub(r"\D", "", page.inner_text(".timer.on .timer-s")))
            assert decision - 2 <= secs <= decision, secs
            shown.append(secs)
        if q == "claim":
            # 쏘아 when offered, else pass (keys: the button's number).
            moves = [buttons.nth(i).get_attribute("data-move") for i in range(buttons.count())]
            pick = moves.index("ron") if "ron" in moves else moves.index("pass")
            if turn < 12:
                shot(page, "p5_mahjong_claim_desktop")
            page.keyboard.press(str(pick + 1))
        else:
            turn += 1
            win = page.locator(".prompt button[data-move='tsumo']")
            declared = page.locator(".mj-seat.bottom .badge.bulleo, .mj-seat.bottom .badge.eopeo")
            if win.count():
                win.click()
            elif declared.count():
                pass  # a declared hand discards a tile it cannot win on by itself (U26)
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
                scan_korean(page, "mahjong table")
                shot(page, "mahjong_table_desktop")
                shot(page, "p5_mahjong_board_desktop")
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
    scan_korean(page, "ledger")
    shot(page, "ledger_desktop")
    phone_shot(page, "ledger_phone")


def test_register_play_matgo_and_mahjong(server: str, browser: Any, axe: Axe) -> None:
    context, page, errors = watched_page(browser, DESKTOP)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#btn-register")
        scan_korean(page, "login")
        shot(page, "login_desktop")
        page.fill("#login-name", "브라우저")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")
        assert page.inner_text("[data-testid=username]").startswith("브라우저")
        scan_korean(page, "lobby")
        focus_is_visible(page)
        axe.check(page, "lobby")
        shot(page, "lobby_desktop")
        shot(page, "p2_lobby_presets_desktop")
        phone_shot(page, "lobby_phone")

        # --- Matgo (미션) against a bot, to the end ---
        create_table(page, "matgo", "missions")
        mission = page.locator("[data-testid=mission]")
        assert mission.locator(".card").count() >= 2 and "×" in mission.inner_text()
        log = page.inner_text(".log")
        assert "선 정하기" in log and "높은 월이 선" in log  # the first 선, visibly
        shot(page, "p6_mission_first_dealer_desktop")
        axe.check(page, "matgo table")
        used = play_matgo(page)
        assert used["click"] >= 1 and used["digit_enter"] + used["arrows_enter"] >= 1, used
        over = page.locator("[data-testid=settlement]")
        assert over.is_visible()
        scan_korean(page, "matgo settlement")
        total = check_matgo_settlement(page)
        if used["stop_now"] is not None:  # what 스톱 was said to pay is what it paid
            assert total == used["stop_now"]
        assert used["caption"] or "stop" in page.evaluate("window.__madangCaptions")
        axe.check(page, "matgo settlement")
        shot(page, "matgo_settlement_desktop")
        shot(page, "p1_matgo_settlement_desktop")
        phone_shot(page, "matgo_settlement_phone")
        matgo_id = settlement_game_id(page)
        assert matgo_id is not None

        # --- closing the settlement leaves a 다음 판 bar; the log survives a refresh ---
        page.click("#btn-close")
        bar = page.locator("[data-testid=next-bar]")
        assert bar.is_visible() and bar.locator(".btn-next").count() == 1
        assert re.search(r"\d+초", bar.inner_text())
        shot(page, "p7_next_bar_desktop")
        lines = page.locator(".log li").count()
        page.reload()
        page.wait_for_selector(".board[data-version]")
        assert page.locator(".log li").count() >= lines
        page.wait_for_selector("[data-testid=settlement]:not(.hidden)")
        shot(page, "p7_log_after_refresh_desktop")

        # --- its replay, in words ---
        page.goto(f"{server}/replay/{matgo_id}")
        page.wait_for_selector("[data-testid=replay-pos]")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert page.inner_text("[data-testid=replay-pos]").startswith("6 /")
        scan_korean(page, "replay")
        shot(page, "replay_desktop")
        shot(page, "p2_replay_korean_desktop")
        page.click("#replay-last")
        assert page.locator(".board.matgo").count() == 1

        # --- a mahjong hand against three bots ---
        create_table(page, "mahjong")
        names = [page.inner_text(f".mj-seat[data-seat='{s}'] .pname") for s in range(4)]
        assert len(set(names)) == 4, names  # three 컴퓨터 초급 told apart (D5)
        assert page.locator("[data-testid^=mj-score-]").count() == 4
        assert "1국" in page.inner_text("[data-testid=mj-round]")
        axe.check(page, "mahjong table")
        shown = play_mahjong(page, CLAIM_DECISION)
        print("claim prompts counted down from", shown)
        assert page.locator("[data-testid=settlement]").is_visible()
        scan_korean(page, "mahjong settlement")
        check_mahjong_settlement(page)
        shot(page, "mahjong_settlement_desktop")
        shot(page, "p1_mahjong_settlement_desktop")
        phone_shot(page, "p1_mahjong_settlement_phone")
        mahjong_id = settlement_game_id(page)

        # --- the ledger ---
        check_ledger(page, server, [i for i in (matgo_id, mahjong_id) if i is not None])
        assert not errors, errors
    finally:
        context.close()
    axe.finish()


def test_mahjong_declare_help_never_falls_back(declare_server: str, browser: Any) -> None:
    """D2 and the help at the moment of decision: the discards that keep the hand ready
    are listed with their waits, the 엎어/불러 toggles say their 판, the eligible tiles
    glow, an ineligible one is refused with a warning (never discarded plain), and an
    eligible one declares 불러. The hand then plays to a settlement that adds up."""
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)
    try:
        page.goto(declare_server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        create_table(page, "mahjong")
        page.wait_for_selector(".prompt button.toggle[data-declare='bulleo']")
        help_ = page.locator("[data-testid=discard-help]")
        assert help_.is_visible() and "+6판" in help_.inner_text()  # 부지부불러
        assert "(+6판)" in page.inner_text(".prompt button.toggle[data-declare='bulleo']")
        assert "(+5판)" in page.inner_text(".prompt button.toggle[data-declare='eopeo']")
        shot(page, "p5_mahjong_help_desktop")
        version = page.get_attribute(".board", "data-version")
        page.click(".prompt button.toggle[data-declare='bulleo']")
        page.wait_for_selector("[data-testid=declare-hint]")
        eligible = page.locator(".mj-hand .tile.playable")
        dim = page.locator(".mj-hand .tile.dim")
        assert eligible.count() >= 1 and dim.count() >= 1
        shot(page, "p5_bulleo_toggle_desktop")
        dim.first.click()
        page.wait_for_selector("#toast.show.error")
        assert "불러" in page.inner_text("#toast")
        page.wait_for_timeout(300)
        assert page.get_attribute(".board", "data-version") == version  # nothing sent
        assert page.locator(".mj-hand .tile").count() == 14
        scan_korean(page, "declare")
        eligible.first.click()
        page.wait_for_selector(".mj-seat.bottom .badge.bulleo")
        assert "불러" in page.inner_text(".log")
        shot(page, "p3_bulleo_caption_desktop")
        play_mahjong(page)
        check_mahjong_settlement(page)
        scan_korean(page, "declare settlement")
        shot(page, "p1_mahjong_declare_settlement_desktop")
        assert not errors, errors
    finally:
        context.close()


def test_catalogue_renders_every_sample(server: str, browser: Any) -> None:
    """Every event kind, move, question, error code, preset and score sheet (every
    multiplier) the engines make, rendered by the client's own modules: no missing key
    in Korean or English, and the Korean page shows no raw code and no English word.
    Each Matgo sheet's rows are the engine's and add up."""
    samples = {
        "matgo": matgo_samples(),
        "sheets": matgo_sheets(),
        "mahjong": mahjong_samples(),
        "errors": sorted({"bad_request", "invalid_action", "illegal_action", "rule_config",
                          "bad_record", "rules_error", "stale_version", "not_seated",
                          "game_over", "unauthorized", "forbidden", "not_found",
                          "username_taken", "bad_credentials", "throttled", "seat_taken",
                          "table_full", "too_large", "rate_limited", "internal", "network"}),
        "config": json.loads(urllib.request.urlopen(server + "/api/config").read()),
    }  # fmt: skip
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    try:
        for lang in ("en", "ko"):
            page.goto(server + "/login")
            page.wait_for_selector("#btn-register")
            page.evaluate("(l) => localStorage.setItem('madang:lang', l)", lang)
            page.reload()
            page.wait_for_selector("#btn-register")
            checked = page.evaluate(RENDER_ALL, json.dumps(samples))
            assert checked["sheets"] == len(samples["sheets"])
            missing = page.evaluate("[...window.__madangMissing]")
            assert not missing, (lang, missing)
        scan_korean(page, "every sample")
        shot(page, "p2_every_name_korean_desktop")
        # a sampled 고/스톱 position: the prompt says what 스톱 pays now
        stop = page.locator(".board:has([data-testid=stop-now])").first
        assert "지금 스톱하면" in stop.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        stop.screenshot(path=str(ARTIFACTS / "p4_gostop_stop_now_sample_desktop.png"))
    finally:
        context.close()


#: Renders the samples with the client's modules into the page; checks each Matgo sheet.
RENDER_ALL = """async (text) => {
  const S = JSON.parse(text);
  const { h } = await import('/static/js/util.js');
  const i18n = await import('/static/js/i18n.js');
  const { GAMES } = await import('/static/js/games.js');
  const name = (s) => ['나', '상대', '셋째', '넷째'][s] || '자리';
  const app = document.getElementById('app');
  app.replaceChildren();
  const ul = h('ul#samples');
  app.append(ul);
  const line = (x) => ul.append(h('li', {}, x));
  for (const [game, data] of [['matgo', S.matgo], ['mahjong', S.mahjong]]) {
    const mod = GAMES[game];
    for (const e of data.events) {
      line(mod.describeEvent(e, name));
      for (const c of mod.captions(e, name)) line(c.text);
    }
    for (const m of data.moves) line(mod.describeMove(m));
    for (const p of S.config.games[game].presets) {
      line(i18n.presetName(game, p));
      line(i18n.presetDesc(game, p));
    }
  }
  for (const q of S.matgo.questions) line(i18n.t('matgo.q.' + q));
  for (const c of S.errors) line(i18n.errorText({code: c, extra: {retry_after: 3}}));
  for (const v of S.matgo.views) {
    const wrap = h('div.board-wrap');
    app.append(wrap);
    const b = GAMES.matgo.createBoard(wrap, {act: () => {}, name, timer: () => null});
    const prompt = v.stop_now ? {seat: v.seat, question: 'go_stop', legal: ['go', 'stop']} : null;
    b.render({view: v, prompt, seat: v.seat, seats: [], version: 1, events: []});
  }
  let sheets = 0;
  for (const s of S.sheets) {
    const box = GAMES.matgo.settlement({sheet: s}, null, name);
    app.append(box);
    const rows = [...box.querySelectorAll('tr')].map(r => [r.dataset.kind, +r.dataset.value]);
    const items = rows.filter(r => r[0] === 'item').reduce((a, r) => a + r[1], 0);
    const get = (k) => rows.find(r => r[0] === k)[1];
    if (items !== s.jokbo || get('jokbo') !== s.jokbo) throw new Error('sheet items');
    if (get('base') !== s.base) throw new Error('sheet base');
    const total = rows.filter(r => r[0] === 'mult').reduce((a, r) => a * r[1], get('base'));
    if (total !== get('total') || total !== s.points) throw new Error('sheet total');
    const mults = rows.filter(r => r[0] === 'mult').length;
    if (mults !== s.multipliers.length) throw new Error('multipliers');
    sheets += 1;
  }
  for (const v of S.mahjong.results) app.append(GAMES.mahjong.settlement(v, null, name));
  return {sheets};
}"""


def test_invite_link_join_and_spectate(server: str, browser: Any, axe: Axe) -> None:
    """A private table: the creator waits with the invite link on screen; the link lets
    a guest (on a touch phone: no key hints) take the second seat, and a third browser
    watches as a spectator (no hand shown to it)."""
    host = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    guest = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True)
    watcher = browser.new_context(viewport=DESKTOP)
    errors: list[str] = []
    try:
        a = host.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.goto(server + "/")
        a.click("#btn-guest")
        a.wait_for_selector("#create-table")
        assert a.locator("#nav-register").is_visible()  # a guest may register (D17)
        a.check("#new-private")
        a.select_option("#create-table select[data-seat='1']", "human")
        a.click("#btn-create")
        a.wait_for_url("**/table/*?invite=*")
        invite_url = a.url
        table_id = int(invite_url.split("/table/")[1].split("?")[0])
        waiting = a.locator("[data-testid=waiting]")
        waiting.wait_for()
        assert "기다리는 중" in waiting.inner_text()
        assert invite_url.split("invite=")[1] in waiting.locator("input").input_value()
        scan_korean(a, "waiting")
        axe.check(a, "waiting")
        shot(a, "p7_waiting_desktop")

        b = guest.new_page()
        b.on("pageerror", lambda e: errors.append(str(e)))
        b.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
        b.goto(invite_url)
        b.click("text=손님으로 참가")
        # The link alone seats nobody: the stake is shown and asked for first.
        ask = b.wait_for_selector("[data-testid=join-ask]")
        assert "점당 1" in ask.inner_text()
        scan_korean(b, "join_ask")
        axe.check(b, "join_ask")
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
        # the watcher keeps the server's CSP (the others bypass it for wait_for_function)
        c.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
        c.goto(f"{server}/table/{table_id}?invite={invite_url.split('invite=')[1]}&watch=1")
        c.wait_for_selector(".board.matgo[data-version]")
        assert c.locator(".board .hand .card.playable").count() == 0
        assert c.locator(".board .hand .card[data-code='back']").count() >= 1
        assert c.locator("[data-testid=prompt].active").count() == 0
        # the phone: whoever moves first, the guest's own turn comes within two moves
        for _ in range(4):
            if b.locator(".board[data-question='play']").count():
                break
            if a.locator(".board[data-question='play']").count():
                v = a.get_attribute(".board", "data-version")
                a.locator(".hand .card.playable").first.click()
                wait_change(a, v)
            b.wait_for_timeout(300)
        b.wait_for_selector(".board[data-question='play']")
        cards = b.locator(".board.matgo .hand .card")
        tops = {round(cards.nth(i).bounding_box()["y"]) for i in range(cards.count())}
        assert len(tops) == 1, tops  # ten cards in one row (D16)
        assert cards.first.bounding_box()["width"] >= 34
        assert b.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not b.locator(".hint.keys").is_visible()  # no key hints on a touch screen
        assert (
            not b.locator(".prompt kbd").first.is_visible()
            if b.locator(".prompt kbd").count()
            else True
        )
        shot(b, "invite_guest_phone")
        shot(b, "p7_phone_hand_phone")
        shot(c, "spectator_desktop")
        assert not errors, errors
    finally:
        for ctx in (host, guest, watcher):
            ctx.close()
    axe.finish()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose questions time out after 3 seconds."""
    data = tmp_path_factory.mktemp("data3")
    gen = _serve(data, DEAL_SEED, turn_seconds=3)
    yield from gen


def test_errors_timeouts_and_leaving_in_korean(quick_server: str, browser: Any) -> None:
    """D4, D10, D11: account and table errors in Korean by code; a timed-out question is
    announced with the move the server made; a table one left offers no 돌아가기, and a
    closed table says so in Korean."""
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda d: d.accept())
    try:
        page.goto(quick_server + "/login")
        page.wait_for_selector("#btn-login")
        page.fill("#login-name", "없는사람")
        page.fill("#login-pass", "wrong password")
        page.click("#btn-login")
        page.wait_for_function("document.querySelector('.form-error').textContent.length > 0")
        assert page.inner_text(".form-error") == "아이디 또는 비밀번호가 틀렸습니다"
        page.fill("#login-name", "bot-hard")
        page.click("#btn-register")
        page.wait_for_function("document.querySelector('.form-error').textContent.includes('bot-')")
        page.fill("#login-name", "시간초과")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_selector("#create-table")
        page.click("#who button.link")  # log out, then register the same name again
        page.wait_for_selector("#btn-register")
        page.fill("#login-name", "시간초과")
        page.fill("#login-pass", "correct horse")
        page.click("#btn-register")
        page.wait_for_function("document.querySelector('.form-error').textContent.length > 0")
        assert page.inner_text(".form-error") == "이미 쓰이는 아이디입니다"
        shot(page, "p2_error_korean_desktop")
        page.click("#btn-login")
        page.wait_for_selector("#create-table")

        table_id = create_table(page, "matgo")
        page.wait_for_selector(".board[data-question='play']")
        page.wait_for_selector("#toast.show.warn", timeout=15_000)  # nobody answered
        assert page.inner_text("#toast").startswith("시간이 지나 자동으로 두었습니다")
        assert "시간이 지나 자동으로" in page.inner_text(".log")
        shot(page, "p6_timeout_announced_desktop")

        page.click("text=나가기")
        page.wait_for_selector("#table-list")
        row = page.locator(f"#table-list li[data-table='{table_id}']")
        if row.count():  # still listed while the bot finishes the game
            assert row.locator("text=돌아가기").count() == 0
        page.goto(f"{quick_server}/table/999")
        page.wait_for_selector(".error-page")
        assert "닫혔거나 없는 판입니다" in page.inner_text(".error-page")
        scan_korean(page, "closed table")
        shot(page, "p7_closed_table_desktop")
    finally:
        context.close()


def test_rules_options_in_the_lobby_and_at_the_table(server: str, browser: Any, axe: Axe) -> None:
    """Rules as data: the lobby's form offers every option of the chosen game (from
    ``GET /api/rules``), set to the preset's values; a table made with two options
    changed plays them (the summary's ``rules_in_force``), and the table and the lobby
    list the rules in force with exactly those two marked, in Korean."""
    context, page, errors = watched_page(browser, DESKTOP)
    catalogue = json.loads(urllib.request.urlopen(server + "/api/rules").read())["games"]
    try:
        page.goto(server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        form = "#create-table [data-testid=rules-form]"

        # mahjong: every option offered; choosing the preset's value again is no change
        page.select_option("#new-game", "mahjong")
        page.click(f"{form} summary")
        shown = page.eval_on_selector_all(
            f"{form} [data-option]:not(label)", "els => els.map(e => e.dataset.option)"
        )
        assert shown == [o["name"] for o in catalogue["mahjong"]["options"]]
        page.select_option(f"{form} select[data-option=min_pan]", "2")
        assert page.get_attribute(f"{form} label[data-option=min_pan]", "data-changed") == "1"
        page.select_option("#new-preset", "yangpan")  # its min_pan is 2: nothing changed
        assert (
            page.eval_on_selector_all(f"{form} label[data-changed='1']", "els => els.length") == 0
        )

        # matgo: two options changed from the default preset
        page.select_option("#new-game", "matgo")
        page.click(f"{form} summary")
        shown = page.eval_on_selector_all(
            f"{form} [data-option]:not(label)", "els => els.map(e => e.dataset.option)"
        )
        assert shown == [o["name"] for o in catalogue["matgo"]["options"]]
        page.select_option(f"{form} select[data-option=bonus_steals_pi]", "true")
        page.select_option(f"{form} select[data-option=first_dealer]", '"night_low"')
        changed = page.eval_on_selector_all(
            f"{form} label[data-changed='1']", "els => els.map(e => e.dataset.option)"
        )
        assert changed == ["bonus_steals_pi", "first_dealer"]
        assert "2개" in page.inner_text(f"{form} summary")
        scan_korean(page, "lobby rules form")
        axe.check(page, "lobby rules form")
        shot(page, "i11_lobby_rules_form_desktop")
        phone_shot(page, "i11_lobby_rules_form_phone")
        page.click("#btn-create")
        page.wait_for_url("**/table/*")
        page.wait_for_selector(".board[data-version]")
        table_id = int(page.url.rstrip("/").split("/table/")[1].split("?")[0])

        table = page.request.get(f"{server}/api/tables/{table_id}").json()["table"]
        assert table["rules"] == {"bonus_steals_pi": True, "first_dealer": "night_low"}
        want = {**catalogue["matgo"]["presets"]["default"], **table["rules"]}
        assert table["rules_in_force"] == want

        box = "[data-testid=rules-in-force]"
        assert "2개 바뀜" in page.inner_text(f"{box} summary")
        page.click(f"{box} summary")
        rows = page.eval_on_selector_all(
            f"{box} .rule", "els => els.map(e => [e.dataset.option, e.dataset.changed])"
        )
        assert [o for o, _ in rows] == list(want)
        assert [o for o, c in rows if c == "1"] == ["bonus_steals_pi", "first_dealer"]
        assert "밤일낮장" in page.inner_text(f"{box} .rule[data-option=first_dealer]")
        scan_korean(page, "table rules in force")
        shot(page, "i11_table_rules_in_force_desktop")

        page.click("a[href='/']")
        page.wait_for_selector(f"#table-list li[data-table='{table_id}']")
        row = f"#table-list li[data-table='{table_id}'] [data-testid=table-rules]"
        assert "2개 바뀜" in page.inner_text(f"{row} summary")
        marked = page.eval_on_selector_all(
            f"{row} .rule.changed", "els => els.map(e => e.dataset.option)"
        )
        assert marked == ["bonus_steals_pi", "first_dealer"]
        assert not errors, errors
    finally:
        context.close()
    axe.finish()


def test_join_dialog_says_what_a_point_and_a_pan_are_worth(
    server: str, browser: Any, axe: Axe
) -> None:
    """Issue 25, item 5: a mahjong table whose 판 is worth 2 points asks a second person
    to sit with what a point and a 판 are worth there (the server's ``worth``), not only
    the stake; the lobby's form bounds 판 값 (1–100)."""
    host = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    guest = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    errors: list[str] = []
    try:
        a = host.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.goto(server + "/")
        a.click("#btn-guest")
        a.wait_for_selector("#create-table")
        a.select_option("#new-game", "mahjong")
        pan = a.locator("#create-table [data-testid=rules-form] input[data-option=pan_value]")
        assert (pan.get_attribute("min"), pan.get_attribute("max")) == ("1", "100")
        body = {
            "game": "mahjong", "stake": 10, "rules": {"pan_value": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        }  # fmt: skip
        too_much = a.request.post(
            server + "/api/tables", data={**body, "rules": {"pan_value": 101}}
        )
        assert too_much.json()["error"]["code"] == "rule_config"
        made = a.request.post(server + "/api/tables", data=body)
        assert made.status == 201, made.text()
        table = made.json()["table"]
        assert table["worth"]["units"] == {"pan": {"points": 2, "amount": 20}}
        a.goto(f"{server}/table/{table['id']}")  # the host at the table: it deals when
        a.wait_for_selector(".conn.open")  # every person seated is here

        b = guest.new_page()
        b.on("pageerror", lambda e: errors.append(str(e)))
        b.goto(server + "/")
        b.click("#btn-guest")
        b.wait_for_selector("#create-table")
        b.goto(f"{server}/table/{table['id']}")
        ask = b.wait_for_selector("[data-testid=join-ask]")
        text = ask.inner_text()
        assert "점당 10: 1점에 10씩 주고받습니다." in text
        assert "1판 = 2점 (판당 20)" in text
        assert b.inner_text(".join-unit[data-unit=pan]") == "1판 = 2점 (판당 20)"
        scan_korean(b, "join_ask_pan")
        axe.check(b, "join_ask_pan")
        shot(b, "i25_join_pan_value_desktop")
        b.click("#btn-sit")
        b.wait_for_selector(".board.mahjong[data-version]")
        assert not errors, errors
    finally:
        for ctx in (host, guest):
            ctx.close()
    axe.finish()


def test_the_table_socket_retries_on_1013_and_stops_on_4404(
    quick_server: str, browser: Any
) -> None:
    """Issue 25, point 10: a socket closed with 1013 (the table is between servers)
    reconnects; one closed with 4404 (no such open table) does not ask again."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    tries = {"moving": 0, "gone": 0}

    def moving(ws: Any) -> None:
        tries["moving"] += 1
        ws.close(code=1013, reason="try again")

    def gone(ws: Any) -> None:
        tries["gone"] += 1
        ws.close(code=4404, reason="no open table")

    try:
        page.route_web_socket(re.compile(r".*/ws/tables/424242$"), moving)
        page.route_web_socket(re.compile(r".*/ws/tables/434343$"), gone)
        page.goto(quick_server + "/")
        page.evaluate(
            """async () => {
              const { TableSocket } = await import("/static/js/api.js");
              window.seen = { moving: [], gone: [] };
              window.socks = [
                new TableSocket(424242, { onMessage() {}, onStatus: (s) => seen.moving.push(s) }),
                new TableSocket(434343, { onMessage() {}, onStatus: (s) => seen.gone.push(s) }),
              ];
            }"""
        )
        page.wait_for_timeout(2500)  # retries after 0.5 s, then 1 s
        seen = page.evaluate("() => { for (const s of socks) s.close(); return seen; }")
        assert tries["moving"] >= 2 and "closed" in seen["moving"], (tries, seen)
        assert tries["gone"] == 1 and seen["gone"] == ["connecting", "gone"], (tries, seen)
    finally:
        context.close()


def test_logout_everywhere_from_the_me_page(server: str, browser: Any) -> None:
    """§3.8: the 내 기록 page's 모든 기기에서 로그아웃 ends the account's sessions on every
    device: this browser lands on the login page, another browser's session is gone."""
    here = browser.new_context(viewport=DESKTOP)
    there = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        page = here.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        body = {"username": "어디서나", "password": "correct horse"}
        assert page.request.post(f"{server}/api/register", data=body).status == 201
        assert there.request.post(f"{server}/api/login", data=body).status == 200
        assert there.request.get(f"{server}/api/me").status == 200
        page.goto(server + "/me")
        page.wait_for_selector("#btn-logout-everywhere")
        scan_korean(page, "me account")
        shot(page, "i25_logout_everywhere_desktop")
        page.once("dialog", lambda d: d.accept())
        page.click("#btn-logout-everywhere")
        page.wait_for_url("**/login")
        assert "2곳에서 로그아웃했습니다" in page.inner_text("#toast")
        assert there.request.get(f"{server}/api/me").status == 401
        assert page.request.get(f"{server}/api/me").status == 401
        assert not errors, errors
    finally:
        here.close()
        there.close()
