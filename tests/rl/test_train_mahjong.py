"""``madang train mahjong``: the command end to end at tiny sizes, its weights as a bot in
the mahjong arena, the teacher's labels from the seat's view, the masks, bad options."""

from __future__ import annotations

from pathlib import Path

import pytest

from madang.cli import main
from madang.core.errors import RuleConfigError

np = pytest.importorskip("numpy")


def _policy(tmp_path: Path, game: str, sizes: tuple[int, int], name: str = "p.npz") -> Path:
    """A policy of random weights saved as ``madang train`` saves one (numpy only)."""
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(sizes[0], 8)).astype(np.float32)
    w1 = rng.normal(size=(8, sizes[1])).astype(np.float32)
    path = tmp_path / name
    meta = np.array(f'{{"game": "{game}", "layers": 2}}')
    np.savez(path, W0=w0, b0=np.zeros(8, np.float32), W1=w1, b1=np.zeros(sizes[1]), meta=meta)
    return path


def test_a_matgo_policy_is_refused_at_a_mahjong_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from madang.rl.learned import LearnedBot

    matgo = _policy(tmp_path, "matgo", (547, 175))
    with pytest.raises(RuleConfigError, match="a matgo policy, not a mahjong one"):
        LearnedBot("mahjong", matgo)
    # a file that says mahjong but maps other sizes (an old encoding's) is refused too
    odd = _policy(tmp_path, "mahjong", (400, 130), "odd.npz")
    with pytest.raises(RuleConfigError, match="400 numbers to 130 actions"):
        LearnedBot("mahjong", odd)
    args = ["arena", "mahjong", "--a", f"learned:{matgo}", "--others", "normal", "--hands", "4"]
    assert main([*args, "--no-progress"]) == 2
    assert "is a matgo policy" in capsys.readouterr().err
    LearnedBot("mahjong", _policy(tmp_path, "mahjong", (482, 130), "ok.npz"))  # the right one
