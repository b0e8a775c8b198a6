"""Running ``madang play`` under a pseudo-terminal (pexpect) for the terminal tests."""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import pexpect


def spawn(args: list[str]) -> Any:
    """``madang ARGS`` in a 50x120 xterm."""
    exe = shutil.which("madang")
    cmd, argv = (exe, args) if exe else (sys.executable, ["-m", "madang", *args])
    env = {"TERM": "xterm"}
    if "PYTHONPATH" in os.environ:  # (a checkout run with PYTHONPATH plays its own code)
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return pexpect.spawn(cmd, argv, encoding="utf-8", timeout=30, dimensions=(50, 120), env=env)


def quits_cleanly(game: str) -> None:
    """``q`` at the first prompt ends the session with the farewell and exit status 0."""
    child = spawn(["play", game, "--seed", "1", "--level", "easy"])
    child.expect("▶")
    child.send("q")
    child.expect("끝! 고맙습니다")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
