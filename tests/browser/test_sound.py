"""Sound and voice at the table, in Debian's headless Chromium (``docs/voice-packs.md``).

A person plays a whole Matgo game against a bot by clicking, with sound on (the first
click on the page unlocks it); the mahjong hand with sound is ``test_motion.py``'s at 2×
(its cues checked by this module's table, and that it ends on a callout). Every update's
events, as the WebSocket brought them (Playwright reads the frames), say which sounds
and callouts the table must ask for (the table of ``docs/voice-packs.md``, written out
again here); the test hook ``window.__madangSounds`` must have counted exactly those,
and every one of them either played or was dropped as too late. A spectator who has not
touched the page hears nothing (no AudioContext exists) until its first click; the mute
switch stops what is audible and is remembered across a reload; a voice pack that lacks
a callout falls back to the default pack. Skipped, as ``test_play.py``, only when
``chromium`` is not on the PATH.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.test_play import (
    CHROMIUM,
    DESKTOP,
    Axe,
    _serve,
    create_table,
    phone_shot,
    scan_korean,
    shot,
    wait_change,
    wait_turn,
)
from tests.server.conftest import DEAL_SEED

PACK = Path(__file__).resolve().parents[2] / "src" / "madang" / "web" / "sounds" / "default"
MAX_GO = 10

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)


@pytest.fixture(scope="module")
def sound_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Tables deal from ``DEAL_SEED + N``: table 1's first card (the leftmost playable)
    makes a 뻑. Bots answer at once; the pause after a discard is 0.2 s, a person's
    claim window half a second."""
    yield from _serve(
        tmp_path_factory.mktemp("sound"), DEAL_SEED, claim_seconds=0.2, claim_decision_seconds=0.5
    )


# --- what the events must sound like (docs/voice-packs.md) -------------------------------

MATGO = {
    "deal": ["shuffle", "deal"], "redeal": ["shuffle"], "play": ["play"],
    "bonus_play": ["play"], "bomb": ["bomb", "play"], "shake": ["heundeulgi"],
    "flip": ["flip"], "draw": ["draw"], "capture": ["capture"], "floor_bonus": ["capture"],
    "steal": ["capture"], "ppeok": ["ppeok"], "jjok": ["jjok"], "ttadak": ["ttadak"],
    "sseul": ["sseul"], "chongtong": ["chongtong"], "stop": ["stop"],
}  # fmt: skip
BAK = ("pibak", "gwangbak", "meongtta", "meongbak", "gobak")
MAHJONG = {
    "draw": ["draw"], "flower": ["flip"], "pon": ["claim", "pon"], "kan": ["claim", "kan"],
    "ankan": ["claim", "kan"], "kakan": ["claim", "kan"], "nagari": ["nagari"],
}  # fmt: skip


def cues(game: str, events: list[dict[str, Any]], view: dict[str, Any] | None) -> list[str]:
    out: list[str] = []
    for e in events:
        k = e["type"]
        if game == "matgo":
            if k == "go":
                out.append(f"go_{e['count']}" if 1 <= e["count"] <= MAX_GO else "go")
            elif k == "end":
                if e.get("reason") == "nagari":
                    out.append("nagari")
                else:
                    mults = ((view or {}).get("sheet") or {}).get("multipliers", [])
                    out += [m["name"] for m in mults if m["name"] in BAK]
            else:
                out += MATGO.get(k, [])
        elif k == "deal":
            out += [] if "deal" in out else ["shuffle", "deal"]
        elif k == "discard":
            out += ["discard", e["declare"]] if e.get("declare") else ["discard"]
        elif k == "win":
            out.append("tsumo" if e["by"] == "tsumo" else "ron")
        else:
            out += MAHJONG.get(k, [])
    return out


class Stream:
    """The table messages a page received (its WebSocket frames), applied as the client
    applies them (an update that does not follow the last version is not applied)."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") in ("welcome", "snapshot", "update"):
            self.frames.append(msg)

    def applied(
        self, first_load: bool = True
    ) -> Iterator[tuple[list[dict[str, Any]], dict[str, Any] | None]]:
        """The events the table plays out, with their views, as the client applies them.

        A new tab (``first_load``) first catches up on the past: the updates up to the
        version its first welcome names go into the log only. The snapshot that ends the
        catch-up deals (a deal event) when there was no past, or when the last update
        caught up on was the deal itself. An update after that version is news: played,
        and the catch-up is over (its snapshot deals nothing). Then each update that
        follows the last version."""
        version = None
        past_to: int | None = None
        catching = first_load
        last_past: dict[str, Any] | None = None
        for msg in self.frames:
            if msg["type"] == "welcome":
                if past_to is None:
                    past_to = msg.get("version") or 0
                continue
            if msg["type"] == "snapshot":
                if catching and msg.get("view"):
                    dealt = last_past is None or (
                        last_past["version"] == msg["version"]
                        and any(e["type"] == "deal" for e in last_past.get("events") or [])
                    )
                    if dealt:
                        yield [{"type": "deal"}], msg["view"]
                catching = False
                version = msg["version"]
                continue
            if catching and past_to is not None and msg["version"] <= past_to:
                last_past = msg  # the past: into the log only
                continue
            catching = False
            if version is None or msg["version"] == version + 1:
                version = msg["version"]
                yield msg.get("events") or [], msg.get("view")

    def expected(self, game: str, first_load: bool = True) -> Counter[str]:
        """The sounds the table must have asked for: those of what it plays out
        (:meth:`applied`)."""
        want: Counter[str] = Counter()
        for events, view in self.applied(first_load):
            want.update(cues(game, events, view))
        return want

    def events(self) -> list[dict[str, Any]]:
        return [e for m in self.frames if m["type"] == "update" for e in m.get("events") or []]


def hook(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("JSON.parse(JSON.stringify(window.__madangSounds))")
    return out


def total(counts: dict[str, int]) -> int:
    return sum(counts.values())


def settled(page: Any, want: Counter[str]) -> dict[str, Any]:
    """The hook once every cue the stream asked for was counted (or after 10 s: the
    caller's comparison says what is missing) and none is pending."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            """(n) => { const s = window.__madangSounds;
                        const sum = (m) => Object.values(m).reduce((a, b) => a + b, 0);
                        return sum(s.triggered) >= n; }""",
            arg=sum(want.values()),
            timeout=10_000,
        )
    page.wait_for_timeout(300)  # a cue waiting for its decode settles
    return hook(page)


def click(target: Any, misses: list[str]) -> bool:
    """Click ``target``; a click that cannot land within 5 s (the board redrawn under it)
    is noted in ``misses`` and the caller looks at the board again."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        target.click(timeout=5_000)
        return True
    except PlaywrightError as e:
        misses.append(str(e).splitlines()[0])
        return False


def play_matgo_by_clicking(page: Any, watcher: Any | None = None) -> int:
    """Play one whole game by clicking: the leftmost playable card, 흔들기 or 폭탄 when
    offered, 고 at the first 고/스톱 question and 스톱 at the next, the first choice of any
    other question. After the first card, the watcher (a spectator who has not touched
    its page) clicks its page. Returns the number of cards played."""
    played = 0
    went = False
    misses: list[str] = []
    for _ in range(200):
        st = wait_turn(page)
        if st["over"]:
            assert len(misses) <= 2, misses
            return played
        version, q = st["version"], st["question"]
        choices = page.locator(".prompt button.choice[data-move]")
        if st["sub"]:
            if not click(choices.first, misses):  # 흔들기 / 폭탄 first
                continue
        elif q == "go_stop":
            move = "stop" if went else "go"
            if not click(page.locator(f".prompt button.choice[data-move='{move}']"), misses):
                continue
            went = True
        elif q == "play":
            cards = page.locator(".hand .card.playable")
            has_card = cards.count() > 0
            target = cards.first if has_card else page.locator(".prompt [data-move=flip]")
            if not click(target, misses):
                continue
            played += has_card
            if played == 1 and watcher is not None:
                silent_until_touched(watcher)
                watcher = None
        elif not click(choices.first, misses):
            continue
        wait_change(page, version)
    raise AssertionError("the Matgo game did not end within 200 decisions")


def silent_until_touched(watcher: Any) -> None:
    """A spectator's page that nobody touched: cues asked for, nothing audible, no
    AudioContext; its first click unlocks it."""
    watcher.wait_for_function(
        "() => (window.__madangSounds.triggered.play || 0) >= 1", timeout=10_000
    )
    before = hook(watcher)
    assert before["state"] == "locked", before
    assert total(before["triggered"]) >= 3 and not before["audible"], before
    fetched = watcher.evaluate(AUDIO_FETCHED)
    assert fetched == [], fetched  # no manifest, no sound file
    watcher.click(".side")  # the first gesture
    watcher.wait_for_function("() => window.__madangSounds.state === 'running'")
    watcher.wait_for_function("() => window.__madangSounds.loadedMs !== null")
    assert any(u.endswith("/default/manifest.json") for u in watcher.evaluate(AUDIO_FETCHED))


#: The voice pack's files this page fetched (its manifests and sounds).
AUDIO_FETCHED = r"""() => performance.getEntriesByType('resource').map(r => r.name)
    .filter(u => /\/static\/sounds\/[^/]+\/[^/]+$/.test(u))"""


def test_matgo_by_clicking_with_sound(sound_server: str, browser: Any, axe: Axe) -> None:
    """A Matgo game by clicking, with a spectator, a second voice pack that has only the
    뻑 callout, then the mute switch across a reload."""
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    watch_ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(30_000)
    # A second pack, "시험", with a 뻑 of its own (the default pack's 쪽 file, so it is
    # told apart) and nothing else: every other name falls back to the default pack.
    page.route(
        "**/static/sounds/packs.json",
        lambda r: r.fulfill(
            json={"packs": [{"id": "default", "title": "기본"}, {"id": "test", "title": "시험"}]}
        ),
    )
    page.route(
        "**/static/sounds/test/manifest.json",
        lambda r: r.fulfill(json={"format": 1, "name": "test", "title": "시험",
                                  "sounds": {"ppeok": {"files": ["jjok.mp3"], "gain": 0.8}}}),
    )  # fmt: skip
    page.route(
        "**/static/sounds/test/jjok.mp3",
        lambda r: r.fulfill(body=(PACK / "jjok.mp3").read_bytes(), content_type="audio/mpeg"),
    )
    stream = Stream(page)
    try:
        page.goto(sound_server + "/")
        assert hook(page)["state"] == "locked"
        page.click("#btn-guest")  # the first gesture: the context exists, nothing loaded yet
        page.wait_for_selector("#create-table")
        assert hook(page)["state"] == "running" and not hook(page)["triggered"]
        page.evaluate("localStorage.setItem('madang:sound', JSON.stringify({pack: 'test'}))")
        page.reload()  # the settings are read when the page loads
        page.wait_for_selector("#create-table")
        table_id = create_table(page, "matgo")
        controls = page.locator("[data-testid=sound]")
        assert controls.locator("#btn-sound").get_attribute("aria-pressed") == "false"
        assert controls.locator("#sound-pack").input_value() == "test"  # remembered

        watcher = watch_ctx.new_page()
        watcher.on("pageerror", lambda e: errors.append(str(e)))
        watched = Stream(watcher)
        watcher.goto(f"{sound_server}/table/{table_id}?watch=1")
        watcher.wait_for_selector(".board.matgo[data-version]")

        shot(page, "sound_controls_desktop")
        played = play_matgo_by_clicking(page, watcher)
        assert played >= 1

        want = stream.expected("matgo")
        got = settled(page, want)
        assert Counter(got["triggered"]) == want, (got["triggered"], dict(want))
        for name, n in got["triggered"].items():  # each played, or dropped as too late
            assert got["audible"].get(name, 0) + got["dropped"].get(name, 0) == n, name
        mine = [e for e in stream.events() if e.get("seat") == 0 and e["type"] == "play"]
        assert got["triggered"]["play"] >= len(mine) >= played - 1
        assert got["audible"].get("play", 0) >= 1
        # table 1's deal: the first card makes a 뻑; the test pack says it, the rest is
        # the default pack's
        assert want["ppeok"] >= 1 and got["from"]["ppeok"] == "test", got["from"]
        assert {p for n, p in got["from"].items() if n != "ppeok"} == {"default"}
        voiced = {n for n in want if n in ("stop", "nagari") or n.startswith("go")}
        assert voiced, dict(want)  # the game ended on a callout

        seen = watched.expected("matgo")
        heard = settled(watcher, seen)
        assert Counter(heard["triggered"]) == seen
        assert total(heard["audible"]) >= 1  # after its click

        # --- mute: nothing more is audible, and it is remembered across a reload ---
        page.click("#btn-close")
        page.click("#btn-sound")
        assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
        shot(page, "sound_muted_desktop")
        heard_before = total(hook(page)["audible"])
        asked_before = total(hook(page)["triggered"])
        page.click("[data-testid=next-bar] .btn-next")  # the next game deals
        page.wait_for_function(
            "(n) => Object.values(window.__madangSounds.triggered).reduce((a, b) => a + b, 0) > n",
            arg=asked_before,
        )
        assert total(hook(page)["audible"]) == heard_before
        page.reload()
        page.wait_for_selector(".board[data-version]")
        assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
        saved = json.loads(page.evaluate("localStorage.getItem('madang:sound')"))
        assert saved["muted"] is True and saved["pack"] == "test"
        page.click(".side")  # a gesture on the reloaded page
        st = wait_turn(page)
        if st["question"] == "play" and page.locator(".hand .card.playable").count():
            version = st["version"]
            page.locator(".hand .card.playable").first.click()
            wait_change(page, version)
            page.wait_for_timeout(300)
            after = hook(page)
            assert after["triggered"].get("play", 0) >= 1 and not after["audible"], after
            page.click("#btn-sound")  # sound on again: the next card is heard
            assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
            st = wait_turn(page)
            if st["question"] == "play" and page.locator(".hand .card.playable").count():
                page.locator(".hand .card.playable").first.click()
                page.wait_for_function("() => (window.__madangSounds.audible.play || 0) >= 1")
        scan_korean(page, "matgo table with sound controls")
        axe.check(page, "matgo table with sound controls")
        phone_shot(page, "sound_controls_phone")
        assert not errors, errors
        axe.finish()
    finally:
        ctx.close()
        watch_ctx.close()
    axe.finish()


def play_mahjong_by_clicking(page: Any) -> None:
    """Play one hand by clicking: 올라 when offered, else the drawn tile; in a claim window
    쏘아, else 뽕 or 깡, else 패스 (a window may close before the click lands)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(400):
        st = wait_turn(page, 60_000)
        if st["over"]:
            return
        version, q = st["version"], st["question"]
        try:
            if q == "claim":
                moves = page.eval_on_selector_all(
                    ".prompt button.choice[data-move]", "bs => bs.map(b => b.dataset.move)"
                )
                pick = next((m for m in ("ron", "pon", "kan", "pass") if m in moves), None)
                if pick:
                    page.click(f".prompt button.choice[data-move='{pick}']", timeout=2_000)
            elif page.locator(".prompt button[data-move='tsumo']").count():
                page.click(".prompt button[data-move='tsumo']", timeout=2_000)
            else:
                page.locator(".mj-hand .tile.playable").last.click(timeout=2_000)
        except PlaywrightError:
            pass  # the window closed first: the server answered for us
        wait_change(page, version)
    raise AssertionError("the mahjong hand did not end within 400 decisions")
