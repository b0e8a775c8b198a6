"""The documentation's examples are the tested ones."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_matgo_examples_are_the_golden_records() -> None:
    docs = sorted((ROOT / "docs" / "examples" / "matgo").glob("*.json"))
    assert docs
    for path in docs:
        golden = ROOT / "tests" / "golden" / "matgo" / path.name
        assert golden.is_file(), f"{path.name} is not a golden record"
        assert path.read_bytes() == golden.read_bytes(), path.name
