"""A whole Matgo game played in a pseudo-terminal, as a person would: keys in, screen out."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.play.terminal import quits_cleanly, spawn  # noqa: E402  (needs pexpect)


@pytest.mark.parametrize("seed", [4, 9])
def test_whole_game_by_keys(seed: int) -> None:
    child = spawn(["play", "matgo", "--seed", str(seed), "--level", "easy", "--games", "1"])
    keys = ["1", "\x1b[C", "\r", "2", " ", "0"]  # digits, an arrow then Enter, space
    prompts = 0
    while True:
        i = child.expect(["▶", "끝! 고맙습니다", pexpect.EOF])
        if i:
            break
        prompts += 1
        assert prompts < 400, "the game did not end"
        child.send(keys[prompts % len(keys)])
    transcript = child.before or ""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert prompts > 5
    assert "정산" in transcript or "정산" in (child.before or "")


def test_quit_key_ends_the_session() -> None:
    quits_cleanly("matgo")
