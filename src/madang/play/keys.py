"""Single-key input for terminal play: digits, space, Enter, arrows, ``q``.

On a terminal the keys are read in cbreak mode (no Enter needed); when standard input
is not a terminal (a pipe, a test), characters are read one by one all the same.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any

LEFT, RIGHT, UP, DOWN, ENTER, SPACE, QUIT = "left", "right", "up", "down", "enter", " ", "q"

_ARROWS = {"A": UP, "B": DOWN, "C": RIGHT, "D": LEFT}


class KeyReader:
    """A context manager that puts the terminal in cbreak mode and reads one key."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._saved: Any = None

    def __enter__(self) -> KeyReader:
        if os.isatty(self.fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def _getch(self) -> str:
        b = os.read(self.fd, 1)
        if not b:
            raise EOFError("input closed")
        return b.decode("latin-1")

    def key(self) -> str:
        """The next key: a character, or one of the names above."""
        ch = self._getch()
        if ch == "\x1b":
            if self._getch() == "[":
                return _ARROWS.get(self._getch(), "")
            return ""
        if ch in "\r\n":
            return ENTER
        if ch == "\x03":
            raise KeyboardInterrupt
        return ch
