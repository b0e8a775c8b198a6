"""The RL docs pages name every channel of the encodings, with the right sizes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_every_channel_is_documented(game: str) -> None:
    from madang.rl.encoding import load_encoding

    enc = load_encoding(game)
    page = (ROOT / "docs" / "rl" / f"{game}.md").read_text()
    assert f"({enc.obs_size},)" in page and f"({enc.num_actions},)" in page
    for name in (*enc.planes, *enc.scalars):
        if name.endswith(("_right", "_across")) or (
            name.startswith("flower_") and name not in ("flower_mine_1", "flower_left_4")
        ):
            continue  # the tables name the first and last of a seat-relative group
        assert f"`{name}`" in page, name
