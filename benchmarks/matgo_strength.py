"""Matgo strength curve: what each time budget buys the search bot against ``greedy``.

Each point is an arena match on duplicate deals (``madang arena matgo --json``), kept as
a JSON file named ``A-vs-B-<ms>ms….json`` in one of the ``--results`` folders; a match
played in parts (several files at one budget, different seeds) is pooled as by
``arena_pool.py``. ``--budgets`` plays the matches one after the other in this process;
``--plot`` draws the mean points per game (95% CI, paired by deal) and the share of
decided games won against the budget per decision (matplotlib, in the ``bench`` extra)::

    taskset -c 1 python3 benchmarks/matgo_strength.py --budgets 25 50 --games 400 --cpu-clock
    python3 benchmarks/matgo_strength.py --plot --out docs/matgo_strength.png

Time-limited search depends on the machine: run it pinned to one core, on a quiet
machine or with ``--cpu-clock`` (the budget counted in the thread's CPU time).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from arena_pool import pool
from madang.arena import run_arena
from madang.bots import Budget

RESULTS = Path(__file__).with_name("results")
FOLDERS = [RESULTS / "matgo_strength", RESULTS / "matgo"]


def result_path(results: Path, a: str, b: str, ms: float) -> Path:
    """Where the match of ``a`` against ``b`` at ``ms`` per decision is kept."""
    return results / f"{a}-vs-{b}-{ms:g}ms.json"


def run(
    a: str, b: str, ms: float, games: int, seed: int, results: Path, cpu: bool = False
) -> dict[str, Any]:
    """Play one match and keep its JSON."""
    budget = Budget(ms / 1000, cpu=cpu)
    r = run_arena("matgo", [a, b], deals=(games + 1) // 2, seed=seed, budget=budget)
    results.mkdir(parents=True, exist_ok=True)
    result_path(results, a, b, ms).write_text(json.dumps(r, ensure_ascii=False, indent=1))
    return r


def load(folders: list[Path], a: str, b: str) -> list[dict[str, Any]]:
    """Every kept match of ``a`` against ``b``, pooled by budget, in budget order."""
    by_ms: dict[float, list[dict[str, Any]]] = {}
    for folder in folders:
        for p in folder.glob(f"{a}-vs-{b}-*ms*.json"):
            text = p.read_text()
            if not text.strip():
                continue  # a match still being played
            r = json.loads(text)
            by_ms.setdefault(r["budget"]["ms"], []).append(r)
    return [pool(by_ms[ms]) for ms in sorted(by_ms)]


def plot(matches: list[dict[str, Any]], out: Path) -> None:
    """Mean points per game and the win rate, each with its 95% CI, against the budget."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullLocator

    ms = [r["budget"]["ms"] for r in matches]
    pts = [r["mean_points_a"] for r in matches]
    lo = [r["mean_points_a"] - r["ci95_points_a"][0] for r in matches]
    hi = [r["ci95_points_a"][1] - r["mean_points_a"] for r in matches]
    win = [100 * r["win_rate_a"] for r in matches]
    decided = [r["wins"]["a"] + r["wins"]["b"] for r in matches]
    pairs = zip(win, decided, strict=True)
    win_ci = [196 * math.sqrt(w / 100 * (1 - w / 100) / n) for w, n in pairs]  # binomial
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    ax.errorbar(ms, pts, yerr=[lo, hi], fmt="o-", color="tab:blue", capsize=4)
    for x, y, r in zip(ms, pts, matches, strict=True):
        ax.annotate(f"{r['games']} games", (x, y), textcoords="offset points", xytext=(6, 4),
                    fontsize=7, color="tab:gray")  # fmt: skip
    ax.axhline(0, color="tab:gray", linewidth=0.8)
    ax.set_ylabel("A's mean points per game")
    a, b = matches[0]["a"], matches[0]["b"]
    ax.set_title(f"Matgo: {a} against {b}, duplicate deals, 95% CIs")
    bx.errorbar(ms, win, yerr=win_ci, fmt="s-", color="tab:red", capsize=4)
    bx.axhline(50, color="tab:gray", linewidth=0.8)
    bx.set_ylabel("decided games won by A (%)")
    bx.set_xscale("log")
    bx.xaxis.set_minor_locator(NullLocator())
    bx.set_xticks(ms, [f"{m:g}" for m in ms])
    cpu = all(r["budget"].get("cpu_clock") for r in matches)
    bx.set_xlabel(f"time per decision (ms, one core{', CPU time' if cpu else ''})")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--budgets", type=float, nargs="*", default=[], help="ms per decision")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cpu-clock", action="store_true", help="budget in the thread's CPU time")
    ap.add_argument("--results", type=Path, nargs="*", default=FOLDERS, help="result folders")
    ap.add_argument("--plot", action="store_true", help="draw the curve from the kept results")
    ap.add_argument("--out", type=Path, default=Path("docs/matgo_strength.png"))
    args = ap.parse_args()
    for ms in args.budgets:
        r = run(args.a, args.b, ms, args.games, args.seed, args.results[0], args.cpu_clock)
        ci = r["ci95_points_a"]
        print(
            f"{ms:g} ms: {r['games']} games, win rate {100 * r['win_rate_a']:.1f}%, "
            f"points {r['mean_points_a']:+.2f} ({ci[0]:+.2f} .. {ci[1]:+.2f}), "
            f"p95 {r['decision_ms']['a']['p95']:.1f} ms"
        )
    if args.plot:
        plot(load(args.results, args.a, args.b), args.out)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
