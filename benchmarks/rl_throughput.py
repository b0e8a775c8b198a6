"""Reinforcement-learning throughput: env steps/s with random masked actions, one core.

Run (``pip install -e '.[rl,bench]'``: the ``bench`` extra brings RLCard and ``pygame``,
which PettingZoo's tic-tac-toe imports)::

    taskset -c 0 python3 benchmarks/rl_throughput.py [--seconds S] [--batch N]
        [--json PATH] [--markdown PATH]

Measures, in the same run, pinned to one core, per CPU second of this process (a busy
machine skews that less; the wall-clock figure is printed too), every row with random
masked actions (Python's ``random.choice`` over the legal ids):

* ``aec``: the PettingZoo AEC environments (``madang.rl.matgo_v0.env()`` /
  ``mahjong_v0.env()``) through the plain loop: ``for agent in env.agent_iter()``,
  ``env.last()`` (the observation and mask computed then), ``env.step(action)``;
* ``parallel``: the PettingZoo Parallel environments (``parallel_env()``): each step,
  the acting agents (a mask that is not all zero) act;
* ``vector``: the Gymnasium vector environment (``gymnasium.make_vec(id, num_envs=N)``,
  :class:`madang.rl.vector.MadangVectorEnv`): a step is one learner decision in each of
  ``--batch`` games (the random opponents' moves in between are played but not counted);
* ``batched``: :class:`madang.rl.vector.VectorGames` (every seat's decisions, ``--batch``
  games stepped at once, observation tensors and masks of every game at every step);
* ``engine``: the bare engine stepped by random legal actions (no observation, no mask),
  the ceiling of all of the above;
* ``rlcard``: RLCard's mahjong (``rlcard.make("mahjong")``, 136 tiles, simplified rules)
  and gin rummy (the nearest two-player card game to 맞고), ``env.step`` with a random
  legal action (RLCard computes the next player's state at every step);
* ``pettingzoo tic-tac-toe``: PettingZoo's own classic AEC game through the same loop as
  ``aec`` (its wrappers included), a reference for the loop's own cost.

An env step is one decision of one seat (a mahjong claim answer counts as one). It
measures the build it imports: run it with the compiled build (``setup.py``, ``python3``
of ``.venv-compiled``, or ``PYTHONPATH`` at an in-place build) for that build's figures
(``docs/rl/README.md``, "Compiled build").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import pin_one_core

Runner = Callable[[], int]


def measure(run: Runner, seconds: float) -> dict[str, float]:
    """Call ``run`` (it returns the steps it made) until ``seconds`` of CPU time pass."""
    steps = 0
    c0, w0 = time.process_time(), time.perf_counter()
    while time.process_time() - c0 < seconds:
        steps += run()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"steps": steps, "steps_per_cpu_s": steps / cpu, "steps_per_wall_s": steps / wall}


def aec_loop(env: Any) -> Runner:
    """Episodes of a PettingZoo AEC env through ``agent_iter`` / ``last`` / ``step``."""
    rng = random.Random(0)
    seed = iter(range(10**9))

    def run() -> int:
        env.reset(seed=next(seed))
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
        return n

    return run


def aec_runner(game: str) -> Runner:
    import importlib

    return aec_loop(importlib.import_module(f"madang.rl.{game}_v0").env())


def tictactoe_runner() -> Runner | None:
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError:  # (its module imports pygame)
        return None
    return aec_loop(tictactoe_v3.env())


def parallel_runner(game: str) -> Runner:
    import importlib

    env = importlib.import_module(f"madang.rl.{game}_v0").parallel_env()
    rng = random.Random(0)
    seed = iter(range(10**9))

    def run() -> int:
        obs, _ = env.reset(seed=next(seed))
        n = 0
        while env.agents:
            actions = {}
            for agent, o in obs.items():
                legal = np.flatnonzero(o["action_mask"]).tolist()
                if legal:
                    actions[agent] = rng.choice(legal)
            obs, *_ = env.step(actions)
            n += len(actions)
        return n

    return run


def vector_env_runner(game: str, batch: int) -> Runner:
    import gymnasium

    import madang.rl

    env = gymnasium.make_vec(madang.rl.GYM_IDS[game], num_envs=batch)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    state = {"mask": obs["action_mask"]}

    def run() -> int:
        m = state["mask"]
        obs, *_ = env.step(np.argmax(m * rng.random(m.shape), axis=1))
        state["mask"] = obs["action_mask"]
        return batch

    return run


def batched_runner(game: str, batch: int) -> Runner:
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


def engine_runner(game: str) -> Runner:
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
            step(st, rng.choice(legal_actions(st, st.pending[0])), False)
            n += 1
        return n

    return run_mj


def rlcard_runner(name: str) -> Runner | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)

    def run() -> int:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return run


ROWS: list[tuple[str, str, str]] = [
    # (row, game, what)
    ("matgo aec", "matgo", "PettingZoo AEC `env()`"),
    ("matgo parallel", "matgo", "PettingZoo Parallel `parallel_env()`"),
    ("matgo vector", "matgo", "Gymnasium `make_vec` (learner decisions)"),
    ("matgo batched", "matgo", "`VectorGames` (every seat)"),
    ("matgo engine", "matgo", "bare engine"),
    ("mahjong aec", "mahjong", "PettingZoo AEC `env()`"),
    ("mahjong parallel", "mahjong", "PettingZoo Parallel `parallel_env()`"),
    ("mahjong vector", "mahjong", "Gymnasium `make_vec` (learner decisions)"),
    ("mahjong batched", "mahjong", "`VectorGames` (every seat)"),
    ("mahjong engine", "mahjong", "bare engine"),
    ("rlcard mahjong", "", "RLCard `make('mahjong')`"),
    ("rlcard gin-rummy", "", "RLCard `make('gin-rummy')`"),
    ("pettingzoo tictactoe", "", "PettingZoo `tictactoe_v3.env()`, same loop as aec"),
]


def runner(row: str, game: str, batch: int) -> Runner | None:
    kind = row.split()[-1]
    if row.startswith("rlcard"):
        return rlcard_runner(kind)
    if row.startswith("pettingzoo"):
        return tictactoe_runner()
    make: dict[str, Callable[[], Runner]] = {
        "aec": lambda: aec_runner(game),
        "parallel": lambda: parallel_runner(game),
        "vector": lambda: vector_env_runner(game, batch),
        "batched": lambda: batched_runner(game, batch),
        "engine": lambda: engine_runner(game),
    }
    return make[kind]()


def markdown(out: dict[str, dict[str, float]], header: str) -> str:
    lines = [header, "", "| row | what | steps/CPU s | steps/wall s |", "|---|---|---:|---:|"]
    what = {r: w for r, _, w in ROWS}
    for name, r in out.items():
        if name.startswith("_"):
            continue
        cpu, wall = r["steps_per_cpu_s"], r["steps_per_wall_s"]
        lines.append(f"| {name} | {what[name]} | {cpu:,.0f} | {wall:,.0f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    ap.add_argument("--batch", type=int, default=128, help="games stepped at once (vector)")
    ap.add_argument("--only", nargs="*", help="measure only these rows (by prefix)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--markdown", type=Path, help="also write the table here (Markdown)")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    header = (
        f"rl_throughput: {pin_one_core()}, nice {os.nice(0)}, {args.seconds:g} CPU s each,"
        f" batch {args.batch}, load average {load0[0]:.2f} at the start"
    )
    print(header)
    out: dict[str, dict[str, float]] = {}
    for name, game, _ in ROWS:
        if args.only and not any(name.startswith(p) for p in args.only):
            continue
        run = runner(name, game, args.batch)
        if run is None:
            print(f"{name:22} (not installed: pip install -e '.[bench]' pygame)")
            continue
        out[name] = r = measure(run, args.seconds)
        print(
            f"{name:22} {r['steps_per_cpu_s']:>10,.0f} steps/CPU s"
            f"  ({r['steps_per_wall_s']:,.0f} per wall s)"
        )
    footer = [f"load average {os.getloadavg()[0]:.2f} at the end"]
    if "rlcard mahjong" in out:
        base = out["rlcard mahjong"]["steps_per_cpu_s"]
        for name in ("mahjong aec", "mahjong parallel", "mahjong vector", "mahjong engine"):
            if name in out:
                footer.append(
                    f"{name} / rlcard mahjong: {out[name]['steps_per_cpu_s'] / base:.1f}x"
                )
    print("\n".join(footer))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(out, header) + "\n" + "\n".join(footer) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(argv=None))
