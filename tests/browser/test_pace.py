"""Mahjong's pace as a person feels it, measured in Debian's headless Chromium (issue 26,
"Done when"): a person plays a mahjong hand against three ``normal`` bots by clicking, on
a server with the default pacing (``bot_delay`` 0.6 s, ``claim_seconds`` 0.6 s,
``claim_decision_seconds`` 8 s, ``turn_seconds`` 20 s). The test measures the time
between the person's turns (from one discard question shown on the board to the next),
the person's wait (from their click to their next question) and the decision time each
claim question gives (its prompt's ``remaining_ms``, read from the WebSocket frames the
page received), and writes them to ``artifacts/mahjong_pace.json``. Only generous bounds
are asserted; the figures are for the report. Skipped, as ``test_play.py``, only when
``chromium`` is not on the PATH.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import (
    ARTIFACTS,
    CHROMIUM,
    DESKTOP,
    _serve,
    wait_change,
    wait_turn,
)
from tests.server.conftest import DEAL_SEED

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)

TURNS = 4
"""The person's turns measured (a hand ends sooner when somebody wins); the figures
over more turns are `benchmarks/mahjong_pace.py`'s."""
DECISION = 8.0


@pytest.fixture(scope="module")
def pace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The default pacing of ``madang serve``."""
    yield from _serve(
        tmp_path_factory.mktemp("pace"),
        DEAL_SEED,
        turn_seconds=20,
        bot_delay=0.6,
        claim_seconds=0.6,
        claim_decision_seconds=DECISION,
    )


def _now(page: Any) -> float:
    t: float = page.evaluate("performance.now()") / 1000
    return t


def test_mahjong_pace_against_three_bots(pace_server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="ko-KR")
    page = ctx.new_page()
    claim_prompts: list[int] = []  # remaining_ms of each claim question the page was sent

    def frames(ws: Any) -> None:
        def got(payload: str | bytes) -> None:
            try:
                m = json.loads(payload)
            except ValueError:
                return
            p = m.get("prompt") if isinstance(m, dict) else None
            if p and p.get("question") == "claim" and m.get("type") == "update":
                claim_prompts.append(int(p["remaining_ms"]))

        ws.on("framereceived", got)

    page.on("websocket", frames)
    page.goto(pace_server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#create-table")
    page.click("a[href='/']")
    page.wait_for_selector("#create-table")
    page.select_option("#new-game", "mahjong")
    for seat in (1, 2, 3):
        page.select_option(f"select[data-seat='{seat}']", "bot:normal")
    page.click("#btn-create")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".board[data-version]")

    turns: list[float] = []  # when each of the person's discard questions showed
    waits: list[float] = []  # from the person's discard click to their next question
    claims_seen = 0
    clicked: float | None = None
    for _ in range(400):
        st = wait_turn(page, 60_000)
        shown = _now(page)
        if st["over"] or len(turns) >= TURNS:
            break
        version, q = st["version"], st["question"]
        if q == "claim":
            claims_seen += 1
            page.keyboard.press(
                str(
                    [
                        page.locator(".prompt button.choice").nth(i).get_attribute("data-move")
                        for i in range(page.locator(".prompt button.choice").count())
                    ].index("pass")
                    + 1
                )
            )
        else:
            turns.append(shown)
            if clicked is not None:
                waits.append(shown - clicked)
            win = page.locator(".prompt button[data-move='tsumo']")
            if win.count():
                win.click()
            else:
                page.locator(".mj-hand .tile.playable").last.click()
            clicked = _now(page)
        wait_change(page, version)
    between = [b - a for a, b in itertools.pairwise(turns)]
    figures = {
        "what": "mahjong, one person against three normal bots, by clicking in Chromium",
        "settings": {
            "bot_delay": 0.6,
            "claim_seconds": 0.6,
            "claim_decision_seconds": DECISION,
            "turn_seconds": 20,
        },
        "person_turns": len(turns),
        "between_turns_s": [round(x, 3) for x in between],
        "between_turns_median_s": round(statistics.median(between), 3) if between else None,
        "wait_after_discard_median_s": round(statistics.median(waits), 3) if waits else None,
        "claim_questions": claims_seen,
        "claim_decision_ms": claim_prompts,
        "claim_decision_median_ms": statistics.median(claim_prompts) if claim_prompts else None,
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "mahjong_pace.json").write_text(json.dumps(figures, indent=2) + "\n")
    ctx.close()
    assert len(between) >= 3, figures
    # sane bounds, not a benchmark: a bot round is 3 × (0.6 s + the 0.6 s pause) plus
    # the claims; 15 s would be the old pace's worst and more
    assert 0.5 < figures["between_turns_median_s"] < 15, figures
    for ms in claim_prompts:  # every claim question gives the decision time, not the pause
        assert DECISION * 1000 - 1500 <= ms <= DECISION * 1000, figures
