"""A short training smoke run of the example (only where the train extra is installed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from tests.rl.learned_game import plays_a_matgo_game

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]


def test_training_smoke(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "train_example", ROOT / "examples" / "train_matgo_maskable_ppo.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "model.zip"
    model, returns = mod.train(600, "random", seed=0, out=out)
    assert out.is_file() and returns
    mod.plot(returns, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").stat().st_size > 0
    _mean, ci = mod.evaluate(model, "random", 3)
    assert ci >= 0

    plays_a_matgo_game(out, 4)
