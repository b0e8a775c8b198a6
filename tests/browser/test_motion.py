"""Movement at the table, in Debian's headless Chromium (``docs/client.md``, Movement).

A person plays a whole Matgo game and a mahjong hand against bots by clicking. Every
update's events, as the WebSocket brought them, say which movements the table must start
(the deal; a card played, flipped, captured; a tile drawn, discarded, claimed); the test
hook ``window.__madangMotion`` must have counted exactly those. The Matgo deal is frozen
at several moments (its animations paused and set to a time) for a frame strip in
``artifacts/``, and a hand card is clicked while the deal is still in the air: the move
is sent at once. The mahjong hand runs at 2× (remembered in localStorage): its flights
take half the time. Under ``prefers-reduced-motion: reduce`` nothing moves and the speed
control is off. Skipped, as ``test_play.py``, only when chromium is missing.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.test_play import (
    ARTIFACTS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    _serve,
    create_table,
    phone_shot,
    scan_korean,
    shot,
    wait_change,
    wait_turn,
)
from tests.browser.test_sound import (
    Stream,
    play_mahjong_by_clicking,
    play_matgo_by_clicking,
    settled,
)
from tests.browser.test_sound import hook as sound_hook
from tests.server.conftest import DEAL_SEED

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)

#: A card's flight at 1× (motion.js FLIGHT), ms.
FLIGHT = 320
#: The moments of the deal in the frame strip, ms from its start at 1×.
FRAMES = (0, 150, 300, 600, 900, 1300, 1800)


@pytest.fixture(scope="module")
def motion_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Tables deal from ``DEAL_SEED + N`` (table 1: the creator is 선 and plays first);
    bots answer at once; the pause after a discard is 0.2 s, a person's claim
    window half a second."""
    yield from _serve(
        tmp_path_factory.mktemp("motion"), DEAL_SEED, claim_seconds=0.2, claim_decision_seconds=0.5
    )


def motion_hook(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("JSON.parse(JSON.stringify(window.__madangMotion))")
    return out


#: Which movement each event starts (docs/client.md, Movement); an update with a deal
#: event moves only the deal.
MATGO = {"play": "play", "bonus_play": "play", "flip": "flip", "shake": "shake",
         "bomb": "bomb", "steal": "steal", "ppeok": "ppeok"}  # fmt: skip
MAHJONG = {"draw": "draw", "discard": "discard", "pon": "claim", "kan": "claim",
           "ankan": "claim", "kakan": "claim"}  # fmt: skip


def expected(stream: Stream, game: str) -> Counter[str]:
    """The movements the table must have started for the stream's applied updates (and
    the deal of a first snapshot that shows a board)."""
    want: Counter[str] = Counter()
    table = MATGO if game == "matgo" else MAHJONG
    for events, _view in stream.applied():
        if any(e["type"] == "deal" for e in events):
            want["deal"] += 1
            continue
        for e in events:
            if e["type"] == "capture" and e.get("cards"):
                want["capture"] += 1
            elif e["type"] in table:
                want[table[e["type"]]] += 1
    return want


def _action(payload: str | bytes) -> list[str]:
    msg = json.loads(payload)
    return [msg["action"]] if msg.get("type") == "act" else []


def sent_moves(page: Any) -> list[str]:
    """Record the moves the page sends on its table socket."""
    moves: list[str] = []

    def on_ws(ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framesent", lambda p: moves.extend(_action(p)))

    page.on("websocket", on_ws)
    return moves


def freeze_at(page: Any, ms: float) -> None:
    page.evaluate(
        "(ms) => { for (const a of document.getAnimations()) { a.pause(); a.currentTime = ms; } }",
        ms,
    )


def frame_strip(page: Any) -> list[Path]:
    """The deal frozen at FRAMES, one picture each, and one strip of them all."""
    ARTIFACTS.mkdir(exist_ok=True)
    paths = []
    board = page.locator(".board-col")
    for ms in FRAMES:
        freeze_at(page, ms)
        path = ARTIFACTS / f"motion_deal_{ms:04d}ms.png"
        board.screenshot(path=str(path), animations="allow")
        paths.append(path)
    # one strip of them all, laid out by the browser itself (no image library needed)
    imgs = "".join(
        f'<figure><img src="data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}">'
        f"<figcaption>{ms} ms</figcaption></figure>"
        for p, ms in zip(paths, FRAMES, strict=True)
    )
    strip = page.context.new_page()
    strip.set_content(
        "<style>body{margin:0;display:flex;gap:6px;background:#222;color:#eee;"
        "font:14px sans-serif;width:max-content}figure{margin:0}"
        "img{width:420px;display:block}figcaption{text-align:center}</style>" + imgs
    )
    strip.screenshot(path=str(ARTIFACTS / "motion_deal_strip.png"), full_page=True)
    strip.close()
    return paths


#: Call the motion layer with a 흔들기 and then a 폭탄 of three cards on the board: how
#: many cards each shows, what it added to the hook's count, and the flights in the air.
SHOW_CARDS = """async () => {
  const { motion } = await import('/static/js/motion.js');
  const root = document.querySelector('.board-wrap');
  const codes = [...root.querySelectorAll('.board .card[data-code]')]
    .map((c) => c.dataset.code).filter((c) => c !== 'back').slice(0, 3);
  const out = {};
  for (const type of ['shake', 'bomb']) {
    const before = window.__madangMotion.started[type] || 0;
    motion.capture(root);
    const view = { dealer: 0 };
    motion.update('matgo', root, [{ type, seat: 0, month: 1, cards: codes }], view, 0);
    out[type] = [document.querySelectorAll('.motion-show .card').length,
                 window.__madangMotion.started[type] - before, window.__madangMotion.running];
  }
  return out;
}"""


def test_matgo_deal_and_play_with_motion(motion_server: str, browser: Any) -> None:
    """The deal flies 4-5-5 twice from the pile (a frame strip of it); a click on a hand
    card while the deal is in the air sends the move at once; then the speed control set
    to 2×, the rest of the game by clicking, sound on: one movement for every card
    played, flipped and captured (in half the time), and every sound and callout asked
    for."""
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(30_000)
    stream = Stream(page)
    moves = sent_moves(page)
    try:
        page.goto(motion_server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        create_table(page, "matgo")
        page.wait_for_function("() => (window.__madangMotion.started.deal || 0) >= 1")
        freeze_at(page, 0)
        h = motion_hook(page)
        assert h["speed"] == 1 and not h["reduced"]
        # 10 + 10 + 8 cards (more with bonus cards refilled) in the air
        assert h["running"] >= 28, h
        assert page.locator(".motion-layer .motion-ghost").count() == h["running"]
        assert page.input_value("#motion-speed") == "1"
        frames = frame_strip(page)
        assert len(frames) == len(FRAMES)
        # still frozen mid-deal (1.8 s of ~2 s): a click on a hand card goes through at once
        page.wait_for_selector(".hand .card.playable")
        assert motion_hook(page)["running"] > 0
        version = page.get_attribute(".board", "data-version")
        page.evaluate(
            """() => { window.__atClick = [];
                document.addEventListener('click',
                  () => window.__atClick.push(window.__madangMotion.running), true); }"""
        )
        card = page.locator(".hand .card.playable").first
        code = card.get_attribute("data-code")
        card.click(timeout=2_000)
        if page.get_attribute(".board", "data-sub") == "1":  # 흔들기 / 폭탄 / 한 장
            page.locator(".prompt button.choice[data-move]").first.click(timeout=2_000)
        at_click = page.evaluate("window.__atClick")
        assert at_click and at_click[0] > 0, at_click  # the deal was in the air
        for _ in range(40):
            if moves:
                break
            page.wait_for_timeout(50)
        assert moves and moves[0].split()[1] in (code, code[:2]), (moves, code)
        wait_change(page, version)
        assert moves, moves
        page.wait_for_function("() => (window.__madangMotion.started.play || 0) >= 1")
        page.wait_for_timeout(200)
        shot(page, "motion_matgo_midgame_desktop")
        phone_shot(page, "motion_matgo_midgame_phone")

        assert motion_hook(page)["duration"]["play"] == round(FLIGHT * 1.6)  # 1×: via the floor
        assert page.get_attribute("#btn-sound", "aria-pressed") == "false"  # sound on
        page.select_option("#motion-speed", "2")  # the rest of the game at 2×
        played = play_matgo_by_clicking(page)
        assert played >= 4
        page.wait_for_timeout(300)
        want = expected(stream, "matgo")
        got = motion_hook(page)
        assert got["speed"] == 2 and not got["reduced"]
        assert Counter(got["started"]) == want, (got["started"], dict(want))
        assert want["deal"] == 1 and want["play"] >= 5 and want["flip"] >= 5
        assert want["capture"] >= 1 and want["ppeok"] >= 1  # the first card makes a 뻑
        assert got["duration"]["play"] == round(FLIGHT * 1.6 / 2)  # half of 1×
        heard = sounds_as_asked(page, stream, "matgo")
        assert heard["play"] >= played + 1 and heard["flip"] >= 5
        page.wait_for_function("() => window.__madangMotion.running === 0", timeout=5_000)
        assert page.locator(".motion-layer .motion-ghost").count() == 0
        # a 흔들기 shows its three cards over the centre, a 폭탄 shows them and flies them
        # (the layer called as the table calls it, on the board as it stands)
        page.click("#btn-close")  # the settlement sheet closed: the board under it
        shown = page.evaluate(SHOW_CARDS)
        assert shown["shake"] == [3, 1, 1] and shown["bomb"][0] == 3, shown
        assert shown["bomb"][1] == 1 and shown["bomb"][2] >= 3, shown
        freeze_at(page, 400)
        shot(page, "motion_bomb_shown_desktop")
        scan_korean(page, "motion matgo settlement")
        assert not errors, errors
    finally:
        ctx.close()


def test_mahjong_hand_at_double_speed(motion_server: str, browser: Any) -> None:
    """A mahjong hand at 2× with sound on: the deal, every draw, discard and claim move,
    each flight in half the time, every sound asked for; the wall of tile backs shrinks
    with the count; the 판 바람 is shown; the question panel keeps one height on a
    desktop."""
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)
    stream = Stream(page)
    try:
        page.goto(motion_server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        page.evaluate("localStorage.setItem('madang:motion', JSON.stringify({speed: 2}))")
        page.reload()  # the setting is read when the page loads
        page.wait_for_selector("#create-table")
        create_table(page, "mahjong")
        assert page.input_value("#motion-speed") == "2"
        assert motion_hook(page)["speed"] == 2
        wait_turn(page, 60_000)
        page.wait_for_function("() => window.__madangMotion.running === 0", timeout=5_000)
        wall = page.locator("[data-testid=mj-wall]")
        count = int(wall.get_attribute("data-count") or "0")
        standing = wall.locator(".wall-stack:not(.gone)").count()
        assert standing == (count + 1) // 2 and 0 < count < 104
        assert page.inner_text("[data-testid=round-wind]").strip().endswith("동")
        shot(page, "motion_mahjong_midgame_desktop")
        phone_shot(page, "motion_mahjong_midgame_phone")

        page.evaluate(PANEL_WATCH)
        play_mahjong_by_clicking(page)
        page.wait_for_timeout(300)
        want = expected(stream, "mahjong")
        got = motion_hook(page)
        assert Counter(got["started"]) == want, (got["started"], dict(want))
        assert want["deal"] == 1 and want["discard"] >= 4 and want["draw"] >= 4
        assert got["duration"]["discard"] == FLIGHT / 2  # 2×
        heard = Counter(sounds_as_asked(page, stream, "mahjong"))  # sound on: every cue
        assert heard["shuffle"] == heard["deal"] == 1 and heard["discard"] >= 4
        assert heard["ron"] + heard["tsumo"] + heard["nagari"] >= 1, heard  # the hand's end
        sounds = sound_hook(page)
        assert sounds["audible"].get("discard", 0) >= 1  # heard, not only asked for
        assert set(sounds["from"].values()) == {"default"}  # the default voice pack
        shot(page, "sound_mahjong_settlement_desktop")
        panel_kept_one_height(page)
        # the control changes the speed and the browser remembers it
        page.select_option("#motion-speed", "1.5")
        assert motion_hook(page)["speed"] == 1.5
        stored = page.evaluate("JSON.parse(localStorage.getItem('madang:motion'))")
        assert stored == {"speed": 1.5}
        assert not errors, errors
    finally:
        ctx.close()


def test_reduced_motion_moves_nothing(motion_server: str, browser: Any) -> None:
    """With the system's reduced motion the deal and the plays start no movement, no
    ghost is ever drawn, and the speed control is off; the game plays as before."""
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True, reduced_motion="reduce")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)
    moves = sent_moves(page)
    try:
        page.goto(motion_server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        create_table(page, "matgo")
        assert page.locator("#motion-speed").is_disabled()
        played = 0
        for _ in range(30):
            st = wait_turn(page)
            if st["over"] or played >= 3:
                break
            cards = page.locator(".hand .card.playable")
            if st["question"] == "play" and not st["sub"] and cards.count():
                cards.first.click()
                played += 1
            else:
                page.locator(".prompt button.choice[data-move]").first.click()
            wait_change(page, st["version"])
        assert played >= 1 and moves
        h = motion_hook(page)
        assert h["reduced"] and h["started"] == {} and h["running"] == 0, h
        assert page.locator(".motion-ghost").count() == 0
        assert not errors, errors
    finally:
        ctx.close()


def sounds_as_asked(page: Any, stream: Stream, game: str) -> dict[str, int]:
    """The sound hook counted exactly the cues the stream's updates ask for (test_sound's
    table), each played or dropped as too late; returns the counts."""
    want = stream.expected(game)
    got = settled(page, want)
    assert Counter(got["triggered"]) == want, (got["triggered"], dict(want))
    for name, n in got["triggered"].items():
        assert got["audible"].get(name, 0) + got["dropped"].get(name, 0) == n, name
    triggered: dict[str, int] = got["triggered"]
    return triggered


#: Every time the board is redrawn: the question panel's box and the hand's, and the
#: board's words (the panel's height must not change, the panel never over the hand).
PANEL_WATCH = """() => {
  window.__panel = [];
  const look = () => {
    const p = document.querySelector('.board.mahjong .prompt');
    const hand = document.querySelector('.board.mahjong .mj-hand');
    if (!p || !hand) return;
    const a = p.getBoundingClientRect(), b = hand.getBoundingClientRect();
    window.__panel.push({h: Math.round(a.height * 10) / 10, bottom: a.bottom, hand: b.top,
                         asked: !!document.querySelector('.board').dataset.question});
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
}"""


def panel_kept_one_height(page: Any) -> None:
    """On every redraw PANEL_WATCH saw, asked or waiting, the question panel had one
    height and ended above the hand."""
    panel = page.evaluate("window.__panel")
    asked = [p for p in panel if p["asked"]]
    assert len(asked) >= 4 and any(not p["asked"] for p in panel), len(panel)
    heights = {p["h"] for p in panel}
    assert len(heights) == 1, sorted(heights)  # one height, asked or not
    over = [p for p in panel if p["bottom"] > p["hand"] + 0.5]
    assert not over, over[:3]


def test_mahjong_hand_with_reduced_motion_and_sound_on_a_phone(
    motion_server: str, browser: Any
) -> None:
    """A whole mahjong hand by clicking on a phone under reduced motion, sound on: no
    movement at all, every sound and callout asked for; the question panel keeps one
    height on every redraw (asked or waiting, with the discard help or without) and
    never lies over the hand; no word ``null`` or ``undefined`` anywhere."""
    ctx = browser.new_context(
        viewport=PHONE, bypass_csp=True, reduced_motion="reduce", is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(30_000)
    stream = Stream(page)
    try:
        page.goto(motion_server + "/")
        page.click("#btn-guest")
        page.wait_for_selector("#create-table")
        create_table(page, "mahjong")
        assert page.locator("#motion-speed").is_disabled()
        page.evaluate(PANEL_WATCH)
        play_mahjong_by_clicking(page)
        h = motion_hook(page)
        assert h["reduced"] and h["started"] == {} and h["running"] == 0, h
        assert page.locator(".motion-ghost").count() == 0
        heard = sounds_as_asked(page, stream, "mahjong")
        assert heard["discard"] >= 4 and heard["draw"] >= 4
        panel_kept_one_height(page)
        shot(page, "motion_mahjong_reduced_settlement_phone")
        # every word of the settlement, the board and the log: none is `null` (the word
        # showed on the mahjong board after a 나가리: its caption names nobody). Whatever
        # this deal ended in, the 나가리 caption is shown too, as the table shows it.
        page.evaluate(NAGARI_CAPTION)
        assert page.text_content("[data-testid=caption]") == "나가리"
        leaks = page.evaluate(LEAKS)
        assert not leaks, leaks
        assert not errors, errors
    finally:
        ctx.close()


#: The 나가리 caption as an update's event makes it (mahjong.js), pushed to the captions.
NAGARI_CAPTION = """async () => {
  const { mahjongCaptions } = await import('/static/js/mahjong.js');
  window.__madangCaptionsPush(mahjongCaptions({ type: 'nagari', pot: 5 }, () => '?'));
}"""


#: The elements whose own text says ``null`` or ``undefined``, with their parents' HTML.
LEAKS = r"""() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (/\b(null|undefined|NaN)\b/.test(n.textContent))
      out.push(n.parentElement.parentElement.outerHTML.slice(0, 400));
  }
  return out;
}"""
