"""What the benchmark scripts share (run them as ``python3 benchmarks/NAME.py``)."""

from __future__ import annotations

import os


def pin_one_core() -> str:
    """Pin this process to one core (the lowest it may use); say which."""
    try:
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"
