"""Reinforcement-learning throughput: env steps/s with random masked actions, one core.

Run (``pip install -e '.[rl,bench]'``)::

    python3 benchmarks/rl_throughput.py [--seconds S] [--batch N] [--json PATH]

Measures, in the same run, pinned to one core, per CPU second of this process (a busy
machine skews that less; the wall-clock figure is printed too):

* ``vector``: :class:`madang.rl.vector.VectorGames` (``--batch`` games stepped at once,
  observation tensors and masks of every game at every step);
* ``aec``: the PettingZoo environments (``madang.rl.matgo_v0`` / ``mahjong_v0``: move
  strings, views, one game at a time), ``env.last()`` and a masked random action a step;
* ``engine``: the bare engine stepped by random legal actions (no observation), the
  ceiling of the two above;
* ``rlcard``: RLCard's mahjong (``rlcard.make("mahjong")``, 136 tiles, simplified
  rules), random legal actions, when RLCard is installed.

An env step is one decision of one seat (a mahjong claim answer counts as one). It
measures the build it imports: run it with the compiled build (``setup.py``, ``python3``
of ``.venv-compiled``, or ``PYTHONPATH`` at an in-place build) for that build's figures
(``docs/rl/README.md``, "Compiled build").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import pin_one_core


def measure(run: Callable[[], int], seconds: float) -> dict[str, float]:
    """Call ``run`` (it returns the steps it made) until ``seconds`` of CPU time pass."""
    steps = 0
    c0, w0 = time.process_time(), time.perf_counter()
    while time.process_time() - c0 < seconds:
        steps += run()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"steps": steps, "steps_per_cpu_s": steps / cpu, "steps_per_wall_s": steps / wall}


def vector_runner(game: str, batch: int) -> Callable[[], int]:
    from madang.rl.vector import VectorGames

    vg = VectorGames(game, batch, seed=0)
    _, mask = vg.reset()
    rng = np.random.default_rng(0)
    state = {"mask": mask}

    def run() -> int:
        m = state["mask"]
        _, state["mask"], _, _ = vg.step(np.argmax(m * rng.random(m.shape), axis=1))
        return batch

    return run


def aec_runner(game: str) -> Callable[[], int]:
    import importlib

    env = importlib.import_module(f"madang.rl.{game}_v0").env()
    rng = np.random.default_rng(0)
    seed = iter(range(10**9))

    def run() -> int:
        env.reset(seed=next(seed))
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n

    return run


def engine_runner(game: str) -> Callable[[], int]:
    rng = random.Random(0)
    seed = iter(range(10**9))
    if game == "matgo":
        from madang.matgo.engine import new_game

        def run() -> int:
            s = new_game(seed=next(seed), events=False)
            n = 0
            while not s.over:
                s.step(rng.choice(s.legal_actions()))
                n += 1
            return n

        return run
    from madang.mahjong.engine import legal_actions, new_hand, step

    def run_mj() -> int:
        st = new_hand(seed=next(seed))
        n = 0
        while not st.over:
            step(st, rng.choice(legal_actions(st, st.pending[0])))
            n += 1
        return n

    return run_mj


def rlcard_runner() -> Callable[[], int] | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    rng = np.random.default_rng(0)

    def run() -> int:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    ap.add_argument("--batch", type=int, default=128, help="games stepped at once (vector)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    print(f"rl_throughput: {pin_one_core()}, {args.seconds:g} CPU s each, batch {args.batch}")
    runs: dict[str, Callable[[], int] | None] = {
        "matgo vector": vector_runner("matgo", args.batch),
        "matgo aec": aec_runner("matgo"),
        "matgo engine": engine_runner("matgo"),
        "mahjong vector": vector_runner("mahjong", args.batch),
        "mahjong aec": aec_runner("mahjong"),
        "mahjong engine": engine_runner("mahjong"),
        "rlcard mahjong": rlcard_runner(),
    }
    out: dict[str, dict[str, float]] = {}
    for name, run in runs.items():
        if run is None:
            print(f"{name:16} (not installed: pip install -e '.[bench]')")
            continue
        out[name] = r = measure(run, args.seconds)
        print(
            f"{name:16} {r['steps_per_cpu_s']:>10,.0f} steps/CPU s"
            f"  ({r['steps_per_wall_s']:,.0f} per wall s)"
        )
    if "rlcard mahjong" in out:
        base = out["rlcard mahjong"]["steps_per_cpu_s"]
        for name in ("mahjong vector", "mahjong aec", "mahjong engine"):
            print(f"{name} / rlcard mahjong: {out[name]['steps_per_cpu_s'] / base:.1f}x")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
