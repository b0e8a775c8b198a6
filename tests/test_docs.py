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


def test_the_bot_protocol_page_shows_the_example_bot_in_full() -> None:
    page = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    bot = (ROOT / "examples" / "bots" / "random_bot.py").read_text(encoding="utf-8")
    assert f"```python\n{bot}```\n" in page
    assert "madang" not in "\n".join(
        line for line in bot.splitlines() if line.startswith(("import", "from"))
    )
