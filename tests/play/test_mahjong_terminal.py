"""A whole mahjong hand played in a pseudo-terminal, as a person would: keys in, screen
out; plus the waits / 진팅 helpers of the screen."""

from __future__ import annotations

import pytest

from madang.mahjong.engine import build_wall, legal_actions, new_hand, step
from madang.mahjong.view import view
from madang.play.mahjong_tui import hand_waits, own_discards

pexpect = pytest.importorskip("pexpect")

from tests.play.terminal import quits_cleanly, spawn  # noqa: E402  (needs pexpect)


@pytest.mark.parametrize("seed,level", [(3, "easy"), (7, "hard")])
def test_whole_hand_by_keys(seed: int, level: str) -> None:
    child = spawn(["play", "mahjong", "--seed", str(seed), "--level", level, "--games", "1"])
    keys = ["1", "\x1b[C", "\r", "2", "\x1b[D", "3", "\r", "0"]  # digits, arrows, Enter
    prompts = 0
    seen = ""
    while True:
        i = child.expect(["▶", "끝! 고맙습니다", pexpect.EOF])
        seen += child.before or ""
        if i:
            break
        prompts += 1
        assert prompts < 600, "the hand did not end"
        child.send(keys[prompts % len(keys)])
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert prompts > 3
    assert "정산" in seen
    assert "패산" in seen and "버림" in seen and "손패" in seen


def test_quit_key_ends_the_session() -> None:
    quits_cleanly("mahjong")


def test_waits_and_jinting_on_screen() -> None:
    # the dealer holds 123456789m 1135p + 7z; discarding 7z leaves a wait on 4p
    state = new_hand(wall=build_wall(["123456789m1135p", "", "", ""], draws="7z"))
    v = view(state, 0)
    assert hand_waits(v, discard=24) == [12]
    assert hand_waits(v, discard=0) is None
    step(state, next(a for a in legal_actions(state, 0) if a.verb == "discard" and a.tile == 24))
    v = view(state, 0)
    assert hand_waits(v) == [12]
    assert own_discards(v) == {24}
