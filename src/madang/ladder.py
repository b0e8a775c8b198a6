"""The strength ladder: every level of a game round robin on duplicate deals, with a
rating per bot.

Each pair of bots plays the same duplicate deals (one match seed for the whole ladder)
through :func:`madang.arena.run_arena`. In a two-seat game (Matgo) every unordered pair
meets once, each deal played twice with the seats swapped, so the pair's result from B's
side is exactly the negative of A's. In a game of more seats (mahjong, 고스톱) a *candidate*
plays one seat against the same opponent bot in all the others, its seat rotating over
the deal (as Mortal measures), and every ordered pair is played: A against three B and
B against three A are two measurements.

The ratings are a Bradley–Terry model of the games' results, fitted by maximum
likelihood with ``scipy.optimize`` (the ``stats`` extra): a game the candidate (bot A of
a pair) won counts as A beating B, a game another seat won as B beating A, a draw (and,
in a game of more seats, a hand nobody won) as half of each. With more than two seats a
candidate term ``h`` is fitted as well, since one seat against three wins fewer hands
than it loses even between equal bots. A weak Gaussian prior (standard deviation
:data:`PRIOR_SD` in log-odds) keeps a rating finite when a bot wins every game and fixes
the mean rating at 0. Ratings are shown on the Elo scale (400 / ln 10 per unit of
log-odds: +400 is ten to one), with a 95% interval from the fit's curvature. Since a
bot may win fewer games but more points (mahjong's ``hard`` deals in less and wins
bigger hands), a second rating is in points a game (:func:`points_ratings`, a weighted
least-squares fit of the pairs' mean points).

>>> r = run_ladder("matgo", ["first", "random"], games=4, seed=1, budget=Budget(None, 2))
>>> [(p["a"], p["b"], p["games"]) for p in r["pairs"]]
[('first', 'random', 4), ('random', 'first', 4)]
>>> r["pairs"][0]["points"] == -r["pairs"][1]["points"]
True
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from madang.arena import ProgressHook, run_arena
from madang.bots.base import LEVELS, BotLimits, Budget, _bots_of, make_agent
from madang.core.errors import RuleConfigError
from madang.core.registry import spec

#: Games per pair at the default size, by the game's seats: measured so that the default
#: ladder of each game (its three levels, 100 ms a decision, two worker processes) ends
#: in under 30 minutes on a shared two-core machine (docs/bots.md, "The strength ladder":
#: a two-seat game with the search costs about 1.1 s of a worker's wall time, a four-seat
#: hand about 0.13 s; measured at this size: 663 s and 796 s).
DEFAULT_GAMES = {2: 600, 4: 2000}
#: Games per pair of a game of another number of seats.
FALLBACK_GAMES = 200
#: The standard deviation of the ratings' prior, in log-odds (about 4,000 Elo).
PRIOR_SD = 10.0
ELO = 400 / math.log(10)
#: Where ``--publish`` writes the ladder the server shows (``GET /api/ladder``).
DATA_DIR = Path(__file__).parent / "data"


def default_bots(game: str) -> list[str]:
    """The levels ``game`` registers, weakest first (``easy``, ``normal``, ``hard``)."""
    _, levels = _bots_of(game)
    return [lv for lv in LEVELS if lv in levels]


def default_games(game: str) -> int:
    """Games per pair at the default size of ``game``'s ladder."""
    return DEFAULT_GAMES.get(spec(game).seats, FALLBACK_GAMES)


def pairings(seats: int, n: int) -> list[tuple[int, int]]:
    """The matches of ``n`` bots: every unordered pair in a two-seat game, every ordered
    pair (candidate, opponents) in a game of more seats.

    >>> pairings(2, 3), pairings(4, 2)
    ([(0, 1), (0, 2), (1, 2)], [(0, 1), (1, 0)])
    """
    if seats == 2:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    return [(i, j) for i in range(n) for j in range(n) if i != j]


def wilson(k: int, n: int) -> list[float] | None:
    """The 95% Wilson interval of a rate of ``k`` in ``n`` (None without games).

    >>> wilson(50, 100)
    [0.4038, 0.5962]
    """
    if n == 0:
        return None
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4) + 0.0, round(min(1.0, centre + half), 4)]


def _pair(bots: Sequence[str], a: int, b: int, r: dict[str, Any]) -> dict[str, Any]:
    """One ordered pair's cell from the arena's result (seen from A)."""
    wins_a, wins_b, draws = r["wins"]["a"], r["wins"]["b"], r["draws"]
    decided = wins_a + wins_b
    return {
        "a": bots[a],
        "b": bots[b],
        "games": r["games"],
        "deals": r["deals"],
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "win_rate": r["win_rate_a"],
        "win_rate_ci95": wilson(wins_a, decided),
        "points": r["mean_points_a"],
        "points_ci95": r["ci95_points_a"],
        "decision_ms_p95": {
            "a": r["decision_ms"]["a"]["p95"],
            "b": r["decision_ms"]["b" if "b" in r["decision_ms"] else "o1"]["p95"],
        },
        "deal_in_rate": r.get("deal_in_rate_a"),
    }


def _mirror(p: dict[str, Any]) -> dict[str, Any]:
    """B's side of a two-seat pair: the same games, points negated."""
    ci = p["points_ci95"]
    decided = p["wins_a"] + p["wins_b"]
    return {
        **p,
        "a": p["b"],
        "b": p["a"],
        "wins_a": p["wins_b"],
        "wins_b": p["wins_a"],
        "win_rate": None if p["win_rate"] is None else round(1 - p["win_rate"], 4),
        "win_rate_ci95": wilson(p["wins_b"], decided),
        "points": -p["points"] + 0.0,
        "points_ci95": None if ci is None else [-ci[1] + 0.0, -ci[0] + 0.0],
        "decision_ms_p95": {"a": p["decision_ms_p95"]["b"], "b": p["decision_ms_p95"]["a"]},
    }


def fit_ratings(
    bots: Sequence[str], pairs: Sequence[dict[str, Any]], candidate_term: bool
) -> dict[str, Any]:
    """The Bradley–Terry ratings of ``bots`` from the measured ``pairs`` (each an
    ordered cell: A's wins over B, B's over A, draws), on the Elo scale with 95%
    intervals; with ``candidate_term`` the advantage of the candidate's seat as well.

    >>> r = fit_ratings(["x", "y"], [{"a": "x", "b": "y", "wins_a": 30, "wins_b": 10,
    ...                               "draws": 0}], False)
    >>> r["ratings"]["x"]["elo"] > 0 > r["ratings"]["y"]["elo"]
    True
    """
    try:
        import numpy as np
        from scipy.optimize import minimize
    except ImportError:
        raise RuleConfigError(
            "the ladder's ratings need scipy: pip install 'madang[stats]'"
        ) from None
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    k = n + (1 if candidate_term else 0)
    rows = [
        (index[p["a"]], index[p["b"]], p["wins_a"] + p["draws"] / 2, p["wins_b"] + p["draws"] / 2)
        for p in pairs
    ]
    lam = 1 / PRIOR_SD**2

    def design(a: int, b: int) -> Any:
        x = np.zeros(k)
        x[a] += 1.0
        x[b] -= 1.0
        if candidate_term:
            x[n] = 1.0
        return x

    xs = [design(a, b) for a, b, _, _ in rows]

    def nll(theta: Any) -> tuple[float, Any]:
        value = lam / 2 * float(theta[:n] @ theta[:n])
        grad = np.zeros(k)
        grad[:n] = lam * theta[:n]
        for x, (_, _, w, l_) in zip(xs, rows, strict=True):
            d = float(x @ theta)
            p = 1 / (1 + math.exp(-d))
            value -= w * math.log(max(p, 1e-300)) + l_ * math.log(max(1 - p, 1e-300))
            grad -= (w * (1 - p) - l_ * p) * x
        return value, grad

    fit = minimize(nll, np.zeros(k), jac=True, method="L-BFGS-B")
    theta = fit.x
    hess = np.zeros((k, k))
    hess[:n, :n] = lam * np.eye(n)
    for x, (_, _, w, l_) in zip(xs, rows, strict=True):
        p = 1 / (1 + math.exp(-float(x @ theta)))
        hess += (w + l_) * p * (1 - p) * np.outer(x, x)
    cov = np.linalg.inv(hess)
    # The ratings are relative: the interval is that of a rating minus the mean rating
    # (the mean itself is pinned only by the prior).
    centre = np.eye(k)
    centre[:n, :n] -= 1 / n
    se = np.sqrt(np.maximum(np.diag(centre @ cov @ centre.T), 0.0))
    ratings = {
        b: {
            "elo": round(ELO * float(theta[i]), 1),
            "ci95": [
                round(ELO * float(theta[i] - 1.96 * se[i]), 1),
                round(ELO * float(theta[i] + 1.96 * se[i]), 1),
            ],
        }
        for i, b in enumerate(bots)
    }
    out: dict[str, Any] = {"ratings": ratings, "converged": bool(fit.success)}
    if candidate_term:
        out["candidate_elo"] = round(ELO * float(theta[n]), 1)
    return out


def points_ratings(bots: Sequence[str], pairs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A rating in points a game per bot: the weighted least-squares fit of every
    measured pair's mean points, ``points(A, B) = r[A] - r[B]``, each pair weighted by
    the inverse variance of its mean (from its 95% CI), the ratings summing to 0 (the
    minimum-norm solution, ``numpy.linalg.pinv``); with a 95% interval from the fit's
    covariance. In a game of more seats a pair is one bot against the others, so the
    rating is in the candidate's points a game against a field of that bot.

    >>> r = points_ratings(["x", "y"], [{"a": "x", "b": "y", "points": 4.0,
    ...                                  "points_ci95": [2.04, 5.96]}])
    >>> r["x"], r["y"]
    ({'points': 2.0, 'ci95': [1.02, 2.98]}, {'points': -2.0, 'ci95': [-2.98, -1.02]})
    """
    import numpy as np

    index = {b: i for i, b in enumerate(bots)}
    x = np.zeros((len(pairs), len(bots)))
    y = np.zeros(len(pairs))
    w = np.ones(len(pairs))
    for row, p in enumerate(pairs):
        x[row, index[p["a"]]] += 1.0
        x[row, index[p["b"]]] -= 1.0
        y[row] = p["points"]
        ci = p["points_ci95"]
        if ci is not None and ci[1] > ci[0]:
            w[row] = (2 * 1.96 / (ci[1] - ci[0])) ** 2
    cov = np.linalg.pinv(x.T @ (w[:, None] * x))
    theta = cov @ x.T @ (w * y)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return {
        b: {
            "points": round(float(theta[i]), 2) + 0.0,
            "ci95": [
                round(float(theta[i] - 1.96 * se[i]), 2) + 0.0,
                round(float(theta[i] + 1.96 * se[i]), 2) + 0.0,
            ],
        }
        for i, b in enumerate(bots)
    }


def rate(r: dict[str, Any]) -> dict[str, Any]:
    """The ratings of a ladder from its pairs (the measured ones: in a two-seat game
    each pair once), both the Bradley–Terry Elo and the points rating."""
    bots = r["bots"]
    order = {b: i for i, b in enumerate(bots)}
    two = r["seats"] == 2
    played = [p for p in r["pairs"] if not two or order[p["a"]] < order[p["b"]]]
    return {
        **fit_ratings(bots, played, not two),
        "points_ratings": points_ratings(bots, played),
    }


def run_ladder(
    game: str,
    bots: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    workers: int = 1,
    budget: Budget | None = None,
    rules: dict[str, Any] | None = None,
    preset: str = "default",
    limits: BotLimits | None = None,
    progress: ProgressHook | None = None,
    on_pair: Callable[[str, str], None] | None = None,
) -> dict[str, Any]:
    """Play the round robin of ``bots`` in ``game``, ``games`` games per match (rounded
    up to whole deals), every match on the same deals; return the pairs' cells (both
    orders) and the ratings. ``on_pair`` is told each match as it starts."""
    g = spec(game)
    if len(bots) < 2:
        raise RuleConfigError(f"a ladder needs at least two bots, not {len(bots)}")
    if len(set(bots)) != len(bots):
        raise RuleConfigError(f"a bot is named twice in {', '.join(bots)}")
    if games < 1:
        raise RuleConfigError(f"the number of games must be positive, not {games}")
    limits = limits or BotLimits()
    for name in bots:
        make_agent(game, name, limits)  # an unknown bot fails before any game
    budget = budget or Budget()
    deals = (games + g.seats - 1) // g.seats
    t0 = time.perf_counter()
    cells: list[dict[str, Any]] = []
    for a, b in pairings(g.seats, len(bots)):
        if on_pair:
            on_pair(bots[a], bots[b])
        lineup = [bots[a], *[bots[b]] * (g.seats - 1)]
        r = run_arena(
            game,
            lineup,
            deals=deals,
            seed=seed,
            workers=workers,
            budget=budget,
            rules=rules,
            preset=preset,
            limits=limits,
            progress=progress,
        )
        cell = _pair(bots, a, b, r)
        cells.append(cell)
        if g.seats == 2:
            cells.append(_mirror(cell))
    order = {b: i for i, b in enumerate(bots)}
    cells.sort(key=lambda c: (order[c["a"]], order[c["b"]]))
    _, levels = _bots_of(game)
    out = {
        "game": game,
        "seats": g.seats,
        "format": "two seats, seats swapped" if g.seats == 2 else f"1 against {g.seats - 1}",
        "bots": list(bots),
        "names": {b: levels.get(b, b) for b in bots},
        "games_per_pair": deals * g.seats,
        "deals_per_pair": deals,
        "seed": seed,
        "preset": preset,
        "rules": rules or {},
        "budget": {
            "ms": None if budget.time_s is None else round(budget.time_s * 1000, 3),
            "iterations": budget.iterations,
            "cpu_clock": budget.cpu,
        },
        "workers": workers,
        "pairs": cells,
        "elapsed_s": round(time.perf_counter() - t0, 1),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out.update(rate(out))
    return out


def _pts(x: float) -> str:
    return f"{x:+.2f}".replace("-", "−")


def _elo(x: float) -> str:
    return f"{x:+.0f}".replace("-", "−")


def _ci(ci: list[float] | None, fmt: Callable[[float], str]) -> str:
    return "n/a" if ci is None else f"{fmt(ci[0])} .. {fmt(ci[1])}"


def markdown(r: dict[str, Any]) -> str:
    """The ladder as Markdown: the ratings, then every pair (from A's side)."""
    budget = r["budget"]
    think = f"{budget['ms']:g} ms" if budget["ms"] is not None else "no time limit"
    if budget["iterations"] is not None:
        think += f", {budget['iterations']} iterations"
    lines = [
        f"**{r['game']}** ladder: {r['format']}, {r['games_per_pair']} games per pair on "
        f"{r['deals_per_pair']} duplicate deals (seed {r['seed']}, preset {r['preset']}), "
        f"{think} a decision, {r['workers']} worker(s), {r['elapsed_s']:g} s.",
        "",
        "| bot | plays as | rating (Elo) | 95% CI | points a game | 95% CI |",
        "|---|---|---:|---|---:|---|",
    ]
    ranked = sorted(r["bots"], key=lambda b: -r["points_ratings"][b]["points"])
    for b in ranked:
        rt = r["ratings"][b]
        lo, hi = rt["ci95"]
        pt = r["points_ratings"][b]
        lines.append(
            f"| {b} | {r['names'][b]} | {_elo(rt['elo'])} | {_elo(lo)} .. {_elo(hi)} "
            f"| {_pts(pt['points'])} | {_ci(pt['ci95'], _pts)} |"
        )
    if "candidate_elo" in r:
        lines += [
            "",
            f"Candidate seat term (one against the others): {_elo(r['candidate_elo'])} Elo.",
        ]
    lines += [
        "",
        "| A | B | games | A's points a game | 95% CI | A wins | B wins | draws "
        "| A's win rate | 95% CI |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for p in r["pairs"]:
        rate = "n/a" if p["win_rate"] is None else f"{100 * p['win_rate']:.1f}%"
        lines.append(
            f"| {p['a']} | {p['b']} | {p['games']} | {_pts(p['points'])} | "
            f"{_ci(p['points_ci95'], _pts)} | {p['wins_a']} | {p['wins_b']} | {p['draws']} | "
            f"{rate} | {_ci(p['win_rate_ci95'], lambda x: f'{100 * x:.1f}%')} |"
        )
    return "\n".join(lines) + "\n"


def plot(r: dict[str, Any], path: Path) -> bool:
    """The ratings with their intervals and the pairs' points as a PNG; False (nothing
    written) without matplotlib (an optional dependency)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    bots = r["bots"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    elo = [r["ratings"][b]["elo"] for b in bots]
    err = [
        [e - r["ratings"][b]["ci95"][0] for b, e in zip(bots, elo, strict=True)],
        [r["ratings"][b]["ci95"][1] - e for b, e in zip(bots, elo, strict=True)],
    ]
    left.barh(bots, elo, xerr=err, capsize=4)
    left.set_xlabel("rating (Elo), 95% CI")
    left.set_title(f"{r['game']}: ratings")
    grid = [[float("nan")] * len(bots) for _ in bots]
    index = {b: i for i, b in enumerate(bots)}
    for p in r["pairs"]:
        grid[index[p["a"]]][index[p["b"]]] = p["points"]
    image = right.imshow(grid, cmap="RdBu")
    right.set_xticks(range(len(bots)), bots)
    right.set_yticks(range(len(bots)), bots)
    right.set_xlabel("B")
    right.set_ylabel("A")
    right.set_title("A's points a game against B")
    fig.colorbar(image, ax=right)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def write(r: dict[str, Any], out: Path, publish: bool = False) -> list[str]:
    """Write ``ladder-GAME.json``, ``.md`` and ``.png`` into ``out`` (and, with
    ``publish``, the JSON the server shows); what was written, or skipped, in words."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"ladder-{r['game']}"
    text = json.dumps(r, ensure_ascii=False, indent=1) + "\n"
    stem.with_suffix(".json").write_text(text, encoding="utf-8")
    stem.with_suffix(".md").write_text(markdown(r), encoding="utf-8")
    notes = [f"wrote {stem}.json and {stem}.md"]
    if plot(r, stem.with_suffix(".png")):
        notes.append(f"wrote {stem}.png")
    else:
        notes.append("no plot: matplotlib is not installed (pip install matplotlib)")
    if publish:
        DATA_DIR.mkdir(exist_ok=True)
        target = DATA_DIR / f"ladder_{r['game']}.json"
        target.write_text(text, encoding="utf-8")
        notes.append(f"published {target}")
    return notes


def published(game: str) -> dict[str, Any] | None:
    """The ladder of ``game`` shipped in the package (``--publish``), or None."""
    path = DATA_DIR / f"ladder_{game}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    data: dict[str, Any] = json.loads(text)
    return data
