"""Pool arena matches played in parts: several ``madang arena … --json`` results of the
same bots and budget under different match seeds (so different deals) into one figure.

A long match is best run in parts of a few hundred deals, each a complete, reproducible
command; this gives the figures of the whole. Games and wins add up; the mean points per
game is the mean over all deals, and its 95% CI is still paired by deal (each part's
standard error is recovered from its CI, and the parts are independent)::

    python3 benchmarks/arena_pool.py benchmarks/results/matgo/hard-vs-greedy-100ms-seed*.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from madang.ladder import wilson


def pool(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The pooled figures of ``parts`` (arena results of the same bots and budget)."""
    if not parts:
        raise ValueError("nothing to pool")
    first = parts[0]
    for r in parts[1:]:
        if (r["a"], r["b"], r["budget"]) != (first["a"], first["b"], first["budget"]):
            raise ValueError("the parts are not of one match: bots or budget differ")
    deals = sum(r["deals"] for r in parts)
    mean = sum(r["mean_points_a"] * r["deals"] for r in parts) / deals
    var = sum(
        (r["deals"] * (r["ci95_points_a"][1] - r["ci95_points_a"][0]) / 3.92) ** 2 for r in parts
    )
    half = 1.96 * math.sqrt(var) / deals
    wins_a = sum(r["wins"]["a"] for r in parts)
    wins_b = sum(r["wins"]["b"] for r in parts)
    out: dict[str, Any] = {
        "game": first["game"],
        "a": first["a"],
        "b": first["b"],
        "budget": first["budget"],
        "seeds": [r["seed"] for r in parts],
        "games": sum(r["games"] for r in parts),
        "deals": deals,
        "wins": {"a": wins_a, "b": wins_b},
        "draws": sum(r["draws"] for r in parts),
        "win_rate_a": round(wins_a / (wins_a + wins_b), 4),
        "ci95_win_rate_a": wilson(wins_a, wins_a + wins_b),
        "mean_points_a": round(mean, 4),
        "ci95_points_a": [round(mean - half, 4), round(mean + half, 4)],
        "decision_ms": {
            k: {
                "bot": v["bot"],
                "decisions": sum(r["decision_ms"][k]["decisions"] for r in parts),
                "p95": max(r["decision_ms"][k]["p95"] for r in parts),  # the worst part's
                "max": max(r["decision_ms"][k]["max"] for r in parts),
            }
            for k, v in first["decision_ms"].items()
        },
    }
    for key in ("hand_win_rate_a", "deal_in_rate_a", "deal_in_rate_others_each"):
        if key in first:
            out[key] = round(sum(r[key] * r["games"] for r in parts) / out["games"], 4)
    return out


def describe(r: dict[str, Any]) -> str:
    """One line: games, win rate, mean points with the CI."""
    lo, hi = r["ci95_points_a"]
    line = (
        f"{r['a']} vs {r['b']}: {r['games']} games on {r['deals']} deals, "
        f"A wins {100 * r['win_rate_a']:.1f}% of decided{_interval(r)}, "
        f"points per game {r['mean_points_a']:+.2f} (95% CI {lo:+.2f} .. {hi:+.2f})"
    )
    if "deal_in_rate_a" in r:
        ratio = r["deal_in_rate_a"] / r["deal_in_rate_others_each"]
        line += f", deal-in {100 * r['deal_in_rate_a']:.1f}% ({ratio:.2f}x the others')"
    return line


def _interval(r: dict[str, Any]) -> str:
    ci = r.get("ci95_win_rate_a")
    return f" (Wilson 95% CI {100 * ci[0]:.1f} .. {100 * ci[1]:.1f})" if ci else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("files", type=Path, nargs="+", help="arena --json results")
    ap.add_argument("--json", action="store_true", help="print the pooled JSON")
    args = ap.parse_args()
    r = pool([json.loads(p.read_text()) for p in args.files])
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else describe(r))


if __name__ == "__main__":
    main()
