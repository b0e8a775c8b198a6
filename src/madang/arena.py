"""The arena: bots against bots on duplicate deals, in worker processes, with statistics.

A *deal* is one deck (and dealer) drawn from the match seed. Each deal is played once
per *rotation* of the agents over the seats (:func:`rotations`) — for Matgo twice, bot
A as player 0 and then as player 1; for 고스톱's three seats once per distinct seating of
the bots (six games when the three differ, each agent twice at each seat; three when A
meets two of one bot); for mahjong four times, A at each seat — so every agent gets the
same cards and luck largely cancels. Results are paired by deal for the confidence
intervals, A's and each agent's (``agents``).

Any registered game plays here through the game contract (:mod:`madang.core.game`):
its ``deal(rules, seed)`` gives the game of a deal, and the session's payments,
outcome, ``win_tags``, ``deal_ins`` and record give the results. Nothing here names a
game.

>>> r = run_arena("matgo", ["random", "first"], deals=2, seed=3, budget=Budget(None, 2))
>>> r["games"], r["deals"], r["wins"]["a"] + r["wins"]["b"] + r["draws"]
(4, 2, 4)
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from madang.bots.base import (
    Bot,
    BotLimits,
    Budget,
    DecisionLog,
    GameFaults,
    MoveBot,
    is_move_bot,
    make_agent,
    play,
)
from madang.core.errors import RuleConfigError
from madang.core.game import GameSpec, Session
from madang.core.registry import spec

#: The most games a deal is played in to seat the bots every way (three seats: 3! = 6).
MAX_SEATINGS = 6


def rotations(seats: int, agents: int, bots: Sequence[str] | None = None) -> list[list[int]]:
    """For each game of a deal, the agent at every seat: agent A (0) at seat r in game r,
    the other agents in the remaining seats in order (two seats: ``[[0, 1], [1, 0]]``).

    Given the agents' ``bots`` (names) at a table of at most :data:`MAX_SEATINGS`
    seatings (two or three seats), a deal is played once per way of seating the *bots*:
    the rotations above, then the other permutations, each game kept only if it seats
    the bots differently from every game before. With three different bots that is
    every permutation, so each bot sits at each seat twice and after each other bot as
    often; with A against two of one bot, A at each seat. A mirror match (one bot in
    every seat) keeps the rotations.

    >>> rotations(4, 4)[1]
    [1, 0, 2, 3]
    >>> rotations(3, 3, ["hard", "normal", "easy"])
    [[0, 1, 2], [1, 0, 2], [1, 2, 0], [0, 2, 1], [2, 0, 1], [2, 1, 0]]
    >>> rotations(3, 3, ["easy", "normal", "easy"])
    [[0, 1, 2], [1, 0, 2], [0, 2, 1]]
    """
    if agents != seats:
        raise RuleConfigError(f"this game is played by {seats} agents, not {agents}")
    out = []
    for r in range(seats):
        others = iter(range(1, seats))
        out.append([0 if s == r else next(others) for s in range(seats)])
    if bots is None or math.factorial(seats) > MAX_SEATINGS:
        return out
    if len(bots) != agents:
        raise RuleConfigError(f"{agents} agents need {agents} bot names, not {len(bots)}")
    if len(set(bots)) == 1:
        return out
    seen: set[tuple[str, ...]] = set()
    seatings = []
    for seating in itertools.chain(out, map(list, itertools.permutations(range(seats)))):
        key = tuple(bots[a] for a in seating)
        if key not in seen:
            seen.add(key)
            seatings.append(seating)
    return seatings


def _game(game: str) -> GameSpec:
    g = spec(game)
    if g.deal is None:
        raise RuleConfigError(f"{game} has no arena (its contract deals no single games)")
    return g


def table_seats(game: str, preset: str = "default", rules: dict[str, Any] | None = None) -> int:
    """The seats at the table of ``game`` under ``preset`` with ``rules`` changed: the
    session's, which may differ from the game's usual count (고스톱's ``gwangpalgi``
    presets seat four, one sitting each game out).

    >>> table_seats("matgo")
    2
    """
    return new_deal(game, 0, preset, rules).seats


def new_deal(
    game: str, deal_seed: int, preset: str = "default", rules: dict[str, Any] | None = None
) -> Session:
    """The game of the deal fixed by ``deal_seed`` (same seed: same cards and dealer)
    under ``preset`` with the options in ``rules`` changed."""
    g = _game(game)
    assert g.deal is not None
    return g.deal(g.rules(preset, rules), deal_seed)


def net_points(session: Session) -> list[int]:
    """Per seat, points received minus points paid over the finished game."""
    net = [0] * session.seats
    for frm, to, pts, _ in session.payments():
        net[to] += pts
        net[frm] -= pts
    return net


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a match seeded ``seed`` (stable across runs)."""
    return random.Random(f"madang-arena:{seed}:{deal}").getrandbits(63)


@dataclass
class GameResult:
    """One game of a match: which deal, which rotation, and how each agent fared."""

    deal: int
    rotation: int
    seats: list[int]  #: agent index at each seat
    net: list[int]  #: per agent: points received minus paid
    winner: int | None  #: the winning agent, or None
    record_file: str | None = None
    deal_in: list[bool] = field(default_factory=list)  #: per agent (games that have it)
    tags: list[str] = field(default_factory=list)  #: the winner's ``win_tags``
    faults: list[list[tuple[str, str]]] = field(default_factory=list)
    """Per agent, the ``(kind, message)`` of each fault (bots outside Madang)."""
    broken: list[bool] = field(default_factory=list)
    """Per agent, whether it was declared broken (default moves to the game's end)."""


@dataclass
class ChunkResult:
    """What a worker returns for a chunk of deals."""

    games: list[GameResult] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=list)  #: per agent, seconds per decision


def play_deals(
    game: str,
    bots: Sequence[str],
    deals: Sequence[int],
    seed: int,
    budget: Budget,
    rules: dict[str, Any] | None = None,
    records: str | None = None,
    preset: str = "default",
    limits: BotLimits | None = None,
) -> ChunkResult:
    """Play every rotation of each deal in ``deals`` (a worker's chunk). Bots run as
    processes (``cmd:``) live for the chunk and are closed at its end, whatever happens
    (with one worker, :func:`run_arena` keeps them for the whole match)."""
    limits = limits or BotLimits()
    agents = _agents(game, bots, limits)
    try:
        return _play_chunk(game, agents, bots, deals, seed, budget, rules, records, preset, limits)
    finally:
        _close(agents)


def _agents(game: str, bots: Sequence[str], limits: BotLimits) -> list[Bot | MoveBot]:
    """The agents of a match by name (a bad name closes those already made)."""
    agents: list[Bot | MoveBot] = []
    try:
        for b in bots:
            agents.append(make_agent(game, b, limits))
    except BaseException:
        _close(agents)
        raise
    return agents


def _close(agents: Sequence[Bot | MoveBot]) -> None:
    """Close the agents that hold a process (each is reaped)."""
    for agent in agents:
        if is_move_bot(agent):
            agent.close()


def _play_chunk(
    game: str,
    agents: Sequence[Bot | MoveBot],
    names: Sequence[str],
    deals: Sequence[int],
    seed: int,
    budget: Budget,
    rules: dict[str, Any] | None,
    records: str | None,
    preset: str,
    limits: BotLimits,
) -> ChunkResult:
    seats_n = table_seats(game, preset, rules)
    out = ChunkResult(times=[[] for _ in agents])
    for d in deals:
        ds = deal_seed(seed, d)
        for r, seats in enumerate(rotations(seats_n, len(agents), names)):
            session = new_deal(game, ds, preset, rules)
            seat_bots = [agents[a] for a in seats]
            rngs = [random.Random(f"{ds}:{r}:{s}") for s in range(seats_n)]
            log = DecisionLog([[] for _ in range(seats_n)])
            faults = GameFaults(limits.max_faults)
            play(session, seat_bots, rngs, budget, log, faults)
            net_by_seat = net_points(session)
            net = [0] * len(agents)
            for s, a in enumerate(seats):
                net[a] += net_by_seat[s]
                out.times[a].extend(log.times[s])
            w = session.outcome()["winner"]
            res = GameResult(d, r, list(seats), net, None if w is None else seats[w])
            res.faults = [[] for _ in agents]
            for fault in faults.faults:
                res.faults[seats[fault.seat]].append((fault.kind, fault.message))
            res.broken = [faults.broken(seats.index(a)) for a in range(len(agents))]
            if w is not None:
                res.tags = list(session.win_tags())
            deal_ins = session.deal_ins()
            if deal_ins is not None:
                res.deal_in = [False] * len(agents)
                for s, dealt in enumerate(deal_ins):
                    res.deal_in[seats[s]] = res.deal_in[seats[s]] or dealt
            if records is not None:
                name = f"{game}-{d:06d}-r{r}.json"
                with open(os.path.join(records, name), "w", encoding="utf-8") as f:
                    json.dump(session.record(), f, ensure_ascii=False)
                res.record_file = name
            out.games.append(res)
    return out


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[i]


def _tag_order(tag: str) -> tuple[int, int, str]:
    """``go_1``, ``go_2`` … first, in number order; then the other tags by name."""
    head, _, n = tag.rpartition("_")
    if head == "go" and n.isdigit():
        return (0, int(n), "")
    return (1, 0, tag)


def points_shape(games: Sequence[GameResult], agents: Sequence[int]) -> dict[str, Any]:
    """How the points of ``agents`` (pooled: one agent, or several seats of one bot) fall.

    A *win* is a game the agent won; a *loss* a game another agent won in which it paid
    (net below zero). Gives the counts, the mean and the largest net points of each (a
    loss is negative), and ``win_tags``: for each tag of the winner's settlement (see the
    session's ``win_tags``), the share of the agent's wins that carry it.

    >>> g = [GameResult(0, 0, [0, 1], [12, -12], 0, tags=["go_1", "pibak"]),
    ...      GameResult(0, 1, [1, 0], [-3, 3], 1, tags=[])]
    >>> s = points_shape(g, [0])
    >>> s["wins"], s["mean_win"], s["mean_loss"], s["win_tags"]
    (1, 12.0, -3.0, {'go_1': 1.0, 'pibak': 1.0})
    """
    wins: list[int] = []
    losses: list[int] = []
    counts: dict[str, int] = {}
    for g in games:
        for a in agents:
            net = g.net[a]
            if g.winner == a:
                wins.append(net)
                for t in set(g.tags):
                    counts[t] = counts.get(t, 0) + 1
            elif g.winner is not None and net < 0:
                losses.append(net)
    return {
        "wins": len(wins),
        "losses": len(losses),
        "mean_win": round(statistics.fmean(wins), 3) if wins else None,
        "mean_loss": round(statistics.fmean(losses), 3) if losses else None,
        "largest_win": max(wins, default=None),
        "largest_loss": min(losses, default=None),
        "win_tags": {t: round(counts[t] / len(wins), 4) for t in sorted(counts, key=_tag_order)},
    }


def summarize(
    game: str,
    bots: Sequence[str],
    games: list[GameResult],
    times: list[list[float]],
) -> dict[str, Any]:
    """The statistics of a match, seen from agent A (index 0) against the others."""
    games = sorted(games, key=lambda g: (g.deal, g.rotation))
    wins_a = sum(1 for g in games if g.winner == 0)
    wins_other = sum(1 for g in games if g.winner is not None and g.winner != 0)
    draws = sum(1 for g in games if g.winner is None)
    decided = wins_a + wins_other
    n, mean, ci = points_ci(games, 0)
    labels = ["a", "b"] if len(bots) == 2 else ["a"] + [f"o{i}" for i in range(1, len(bots))]
    decision_ms = {
        labels[i]: {
            "bot": bots[i],
            "decisions": len(times[i]),
            "p50": round(1000 * _percentile(times[i], 0.50), 3),
            "p95": round(1000 * _percentile(times[i], 0.95), 3),
            "max": round(1000 * max(times[i], default=0.0), 3),
        }
        for i in range(len(bots))
    }
    extra: dict[str, Any] = {}
    if len(bots) > 2 and games:
        # 1 against the others: A's share of all games won, and how often A dealt in.
        extra["hand_win_rate_a"] = round(wins_a / len(games), 4)
        extra["others_win_rate_each"] = round(wins_other / len(games) / (len(bots) - 1), 4)
        if games[0].deal_in:
            extra["deal_in_rate_a"] = round(sum(g.deal_in[0] for g in games) / len(games), 4)
            extra["deal_in_rate_others_each"] = round(
                sum(sum(g.deal_in[1:]) for g in games) / len(games) / (len(bots) - 1), 4
            )
    return {
        **extra,
        "faults": {labels[i]: fault_summary(games, i, bots[i]) for i in range(len(bots))},
        "game": game,
        "a": bots[0],
        "b": bots[1] if len(bots) == 2 else list(bots[1:]),
        "games": len(games),
        "deals": n,
        "wins": {"a": wins_a, "b": wins_other},
        "draws": draws,
        "win_rate_a": round(wins_a / decided, 4) if decided else None,
        "mean_points_a": round(mean, 4),
        "ci95_points_a": ci,
        "agents": [agent_summary(games, i, bots[i]) for i in range(len(bots))],
        "decision_ms": decision_ms,
        "points_shape": {
            labels[0]: points_shape(games, [0]),
            ("b" if len(bots) == 2 else "others"): points_shape(games, range(1, len(bots))),
        },
    }


def points_ci(games: Sequence[GameResult], agent: int) -> tuple[int, float, list[float] | None]:
    """The deals, mean points per game and 95% confidence interval of ``agent``: the
    games are paired by deal (the agent's mean over each deal's games is one sample),
    the interval normal (None with fewer than two deals).

    >>> g = [GameResult(d, r, [0, 1], [x, -x], None) for d, r, x in
    ...      [(0, 0, 4), (0, 1, -2), (1, 0, 3), (1, 1, 1)]]
    >>> points_ci(g, 0)
    (2, 1.5, [0.52, 2.48])
    """
    by_deal: dict[int, list[int]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g.net[agent])
    per_deal = [sum(v) / len(v) for v in by_deal.values()]
    n = len(per_deal)
    mean = statistics.fmean(per_deal) if per_deal else 0.0
    if n < 2:
        return n, mean, None
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(n)
    return n, mean, [round(mean - half, 4), round(mean + half, 4)]


def agent_summary(games: Sequence[GameResult], agent: int, bot: str) -> dict[str, Any]:
    """One agent's line of a match: its bot, mean points per game with the 95% interval
    (paired by deal, :func:`points_ci`), games won and the share of all games.

    >>> g = [GameResult(0, r, [0, 1, 2], net, w) for r, net, w in
    ...      [(0, [6, -3, -3], 0), (1, [-2, 4, -2], 1)]]
    >>> agent_summary(g, 0, "hard")
    {'bot': 'hard', 'mean_points': 2.0, 'ci95_points': None, 'wins': 1, 'win_rate': 0.5}
    """
    _, mean, ci = points_ci(games, agent)
    wins = sum(1 for g in games if g.winner == agent)
    return {
        "bot": bot,
        "mean_points": round(mean, 4),
        "ci95_points": ci,
        "wins": wins,
        "win_rate": round(wins / len(games), 4) if games else None,
    }


def fault_summary(games: Sequence[GameResult], agent: int, bot: str) -> dict[str, Any]:
    """The faults of one agent over a match (bots outside Madang; built-in bots make
    none): their number, by kind, the games in which it was declared broken, and the
    first few messages.

    >>> g = GameResult(0, 0, [0, 1], [0, 0], None, faults=[[("timeout", "late")], []],
    ...                broken=[False, False])
    >>> s = fault_summary([g], 0, "cmd:x")
    >>> s["total"], s["kinds"], s["broken_games"], s["first"]
    (1, {'timeout': 1}, 0, ['deal 0 game 0: timeout: late'])
    """
    kinds: dict[str, int] = {}
    first: list[str] = []
    for g in sorted(games, key=lambda g: (g.deal, g.rotation)):
        for kind, message in g.faults[agent] if g.faults else ():
            kinds[kind] = kinds.get(kind, 0) + 1
            if len(first) < 5:
                first.append(f"deal {g.deal} game {g.rotation}: {kind}: {message}")
    return {
        "bot": bot,
        "total": sum(kinds.values()),
        "kinds": dict(sorted(kinds.items())),
        "broken_games": sum(1 for g in games if g.broken and g.broken[agent]),
        "first": first,
    }


ProgressHook = Callable[[int], None]


def run_arena(
    game: str,
    bots: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    budget: Budget | None = None,
    rules: dict[str, Any] | None = None,
    records: str | None = None,
    progress: ProgressHook | None = None,
    chunk: int | None = None,
    preset: str = "default",
    limits: BotLimits | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of ``game`` between ``bots``; return the statistics.

    A bot may be ``cmd:COMMAND``, a process speaking the bot protocol
    (``docs/bot-protocol.md``) under ``limits``; its faults are in the result's
    ``faults`` (every agent has an entry; built-in bots make none).

    ``progress`` is called with the number of games finished by each chunk. With
    ``workers`` > 1 the deals are split into chunks run in worker processes; the result
    does not depend on the number of workers (bots with an iteration budget are
    deterministic; time-limited search depends on the machine's speed).
    """
    if deals < 1:
        raise RuleConfigError(f"the number of deals must be positive, not {deals}")
    if workers < 1:
        raise RuleConfigError(f"the number of workers must be positive, not {workers}")
    budget = budget or Budget()
    g = _game(game)
    g.rules(preset, rules)  # bad presets and options fail here, before any worker starts
    per_deal = len(rotations(table_seats(game, preset, rules), len(bots), bots))
    limits = limits or BotLimits()
    for b in bots:
        make_agent(game, b, limits)  # unknown names fail here, before any worker starts
    if records is not None:
        os.makedirs(records, exist_ok=True)
    t0 = time.perf_counter()
    games: list[GameResult] = []
    times: list[list[float]] = [[] for _ in bots]
    order = list(range(deals))
    if workers == 1:
        size = chunk or 1
        agents = _agents(game, bots, limits)  # one set for the match: bot processes live on
        try:
            for i in range(0, deals, size):
                res = _play_chunk(
                    game,
                    agents,
                    bots,
                    order[i : i + size],
                    seed,
                    budget,
                    rules,
                    records,
                    preset,
                    limits,
                )
                games += res.games
                for a, t in enumerate(res.times):
                    times[a] += t
                if progress:
                    progress(len(res.games))
        finally:
            _close(agents)
    else:
        size = chunk or max(1, min(20, deals // (workers * 8) or 1))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(
                    play_deals,
                    game,
                    list(bots),
                    order[i : i + size],
                    seed,
                    budget,
                    rules,
                    records,
                    preset,
                    limits,
                )
                for i in range(0, deals, size)
            ]
            for fut in as_completed(futures):
                res = fut.result()
                games += res.games
                for a, t in enumerate(res.times):
                    times[a] += t
                if progress:
                    progress(len(res.games))
    out = summarize(game, bots, games, times)
    out.update(
        {
            "preset": preset,
            "rules": rules or {},
            "seed": seed,
            "workers": workers,
            "budget": {
                "ms": None if budget.time_s is None else round(budget.time_s * 1000, 3),
                "iterations": budget.iterations,
                "cpu_clock": budget.cpu,
            },
            "limits": {
                "limit_ms": round(limits.limit(budget) * 1000, 3),
                "start_ms": round(limits.start_s * 1000, 3),
                "max_faults": limits.max_faults,
            },
            "games_per_deal": per_deal,
            "elapsed_s": round(time.perf_counter() - t0, 2),
        }
    )
    if records is not None:
        index = [
            {
                "file": g.record_file,
                "deal": g.deal,
                "seats": [bots[a] for a in g.seats],
                "winner": None if g.winner is None else bots[g.winner],
                "net": g.net,
                "tags": g.tags,
                "faults": [[list(f) for f in agent] for agent in g.faults],
            }
            for g in sorted(games, key=lambda g: (g.deal, g.rotation))
        ]
        with open(os.path.join(records, "index.json"), "w", encoding="utf-8") as f:
            json.dump({"summary": out, "games": index}, f, ensure_ascii=False, indent=1)
    return out
