"""Deal statistics: what was dealt, tested against theory (``docs/deal-stats.md``).

A game's records (finished games, from the server's database or from files) are turned
into *observations*, one per game, by the game's own module
(:mod:`madang.stats.matgo`, :mod:`madang.stats.mahjong`): for each statistic, the
category a game fell in (``bonus_to_seon``: how many bonus cards 선 was dealt) or a
vector of counts pooled over the games (``months_to_seon``: 선's cards by month). Each
statistic is then compared with its expectation:

* ``exact``: the probability of each category is known (the hypergeometric law of a
  uniformly shuffled deck); the test is Pearson's χ² goodness of fit. For pooled counts
  (several cards of one game) the statistic is divided by the finite-population factor
  ``(N - n) / (N - 1)`` of drawing ``n`` of ``N`` cards without replacement.
* ``simulation``: random deals through the engine itself (:attr:`GameSpec.deal
  <madang.core.game.GameSpec.deal>`) from a fixed seed, so the expectation is
  reproducible; the test is χ² homogeneity of the observed and simulated counts (a 2 × k
  table, which accounts for the simulation's own noise).
* ``self_play``: the same, but the statistic depends on the play, not only on the deal
  (the win rate of the seat that moves first, a first-turn 뻑): the simulated games are
  the bots' self-play. It is a reference, not a fairness test.

Categories whose expected count is below 5 are merged with a neighbour before a test;
a category that cannot happen (expected 0) but was observed gives p = 0.

>>> s = chi2_goodness([50, 50], [0.5, 0.5])
>>> s.p_value, s.dof
(1.0, 1)
>>> round(chi2_goodness([80, 20], [0.5, 0.5]).p_value, 10) < 1e-6
True
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from madang.core.errors import MadangError
from madang.core.game import Session

__all__ = [
    "ALPHA",
    "GAMES",
    "DealReport",
    "Observation",
    "RecordCounts",
    "StatDef",
    "Statistic",
    "StatsError",
    "TestResult",
    "chi2_goodness",
    "chi2_homogeneity",
    "features",
    "hypergeom_pmf",
    "observations_of",
    "observe_records",
    "report",
    "simulate",
    "simulated_sessions",
]

Source = Literal["exact", "simulation", "self_play"]

ALPHA: Final = 0.001
"""The level at which a statistic is flagged (``"flagged": true``)."""

GAMES: Final[dict[str, str]] = {"matgo": "madang.stats.matgo", "mahjong": "madang.stats.mahjong"}
"""The games with deal statistics and the module of each one's observations."""

MIN_EXPECTED: Final = 5.0
"""Categories expected fewer times than this are merged before a χ² test."""


class StatsError(MadangError):
    """Deal statistics cannot be computed from this input (unknown game, bad record)."""


@dataclass(frozen=True, slots=True)
class StatDef:
    """One statistic of a game: its name, what it counts, and where its expectation
    comes from."""

    name: str
    """Identifier (``bonus_to_seon``)."""
    title: str
    """What it counts, in English."""
    title_ko: str
    """What it counts, in Korean."""
    categories: tuple[str, ...]
    """The categories (labels of the observed counts)."""
    source: Source
    """``exact``, ``simulation`` (random deals) or ``self_play`` (play-dependent)."""
    pooled: bool = False
    """Each game adds a vector of counts (several cards), not one category."""


@dataclass(slots=True)
class Observation:
    """What one game shows for each statistic: a category index, or (pooled
    statistics) a count per category; and for ``exact`` statistics the probability of
    each category (pooled: of one card), with the pooled draw's ``(n, N)``."""

    values: dict[str, int | tuple[int, ...]] = field(default_factory=dict)
    probs: dict[str, tuple[float, ...]] = field(default_factory=dict)
    draw: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TestResult:
    """A test: the χ² statistic, its degrees of freedom and the p-value (None: too few
    games to test). ``method`` is ``chi2``, or where the counts are too few for χ²
    ``binomial`` (exact, two-sided) or ``fisher`` (Fisher's exact test)."""

    statistic: float | None
    dof: int
    p_value: float | None
    method: str = "chi2"


@dataclass(frozen=True, slots=True)
class Statistic:
    """One statistic of a report: observed counts, expected counts (for as many games
    as observed), the test."""

    name: str
    title: str
    title_ko: str
    source: Source
    categories: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    games: int
    """Games counted (pooled statistics: the total of the counts is larger)."""
    simulated: int
    """Games simulated for the expectation (0 for ``exact``)."""
    test: TestResult

    @property
    def flagged(self) -> bool:
        """A fairness statistic (not ``self_play``) with p below :data:`ALPHA`."""
        p = self.test.p_value
        return self.source != "self_play" and p is not None and p < ALPHA

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "title_ko": self.title_ko,
            "source": self.source,
            "reference": self.source == "self_play",
            "categories": list(self.categories),
            "observed": list(self.observed),
            "expected": [round(e, 3) for e in self.expected],
            "games": self.games,
            "simulated": self.simulated,
            "statistic": None if self.test.statistic is None else round(self.test.statistic, 4),
            "dof": self.test.dof,
            "p_value": self.test.p_value,
            "test": self.test.method,
            "flagged": self.flagged,
        }


@dataclass(frozen=True, slots=True)
class DealReport:
    """The statistics of one game's records."""

    game: str
    preset: str
    games: int
    """Records counted."""
    skipped: int
    """Records left out: played under other rules than the preset's."""
    unreadable: int
    """Records left out: malformed, or they do not replay."""
    simulated: int
    bot: str
    seed: int
    statistics: tuple[Statistic, ...]

    @property
    def flagged(self) -> list[str]:
        return [s.name for s in self.statistics if s.flagged]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "preset": self.preset,
            "games": self.games,
            "skipped": self.skipped,
            "unreadable": self.unreadable,
            "simulation": {"games": self.simulated, "bot": self.bot, "seed": self.seed},
            "alpha": ALPHA,
            "flagged": self.flagged,
            "statistics": [s.to_dict() for s in self.statistics],
        }


class GameFeatures(Protocol):
    """What a game's statistics module provides (:data:`GAMES`)."""

    STATS: tuple[StatDef, ...]

    def observe_record(self, record: Any) -> Observation: ...

    def observe_session(self, session: Any) -> Observation: ...

    def play_random(self, session: Any, rngs: Sequence[random.Random]) -> None: ...


def features(game: str) -> GameFeatures:
    """The statistics module of ``game`` (unknown: :class:`StatsError`)."""
    if game not in GAMES:
        raise StatsError(f"no deal statistics for {game!r} (known: {', '.join(GAMES)})")
    module: GameFeatures = importlib.import_module(GAMES[game])
    return module


# ---------------------------------------------------------------------- theory


def hypergeom_pmf(population: int, successes: int, draws: int, k: int) -> float:
    """P(k successes in ``draws`` without replacement from ``population`` holding
    ``successes``).

    >>> round(hypergeom_pmf(50, 2, 10, 1), 6)
    0.326531
    """
    if k < 0 or k > successes or k > draws or draws - k > population - successes:
        return 0.0
    return (
        math.comb(successes, k)
        * math.comb(population - successes, draws - k)
        / math.comb(population, draws)
    )


def _scipy_stats() -> Any:
    """``scipy.stats`` (the ``stats`` extra: ``pip install madang[stats]``)."""
    try:
        import scipy.stats
    except ImportError:  # pragma: no cover - scipy is in the dev and stats extras
        raise StatsError("deal statistics need scipy: pip install 'madang[stats]'") from None
    return scipy.stats


def _merge_small(columns: list[list[float]], key: list[float]) -> list[list[float]]:
    """Merge categories (columns of ``columns``) whose ``key`` (expected count) is
    below :data:`MIN_EXPECTED` into a neighbour, smallest first, until none is left
    or one category remains."""
    cols = [list(c) for c in columns]
    keys = list(key)
    while len(keys) > 1:
        i = min(range(len(keys)), key=keys.__getitem__)
        if keys[i] >= MIN_EXPECTED:
            break
        j = i - 1 if i == len(keys) - 1 or (i > 0 and keys[i - 1] <= keys[i + 1]) else i + 1
        cols[j] = [a + b for a, b in zip(cols[j], cols[i], strict=True)]
        keys[j] += keys[i]
        del cols[i], keys[i]
    return cols


def chi2_goodness(
    observed: Sequence[int], expected_p: Sequence[float], scale: float = 1.0
) -> TestResult:
    """Pearson's χ² of ``observed`` counts against probabilities ``expected_p`` (scaled
    to the observed total), divided by ``scale`` (the finite-population factor of
    pooled draws without replacement). An observed category of probability 0: p = 0."""
    chi2 = _scipy_stats().chi2
    n = sum(observed)
    total_p = sum(expected_p)
    if n == 0 or total_p <= 0:
        return TestResult(None, 0, None)
    exp = [n * p / total_p for p in expected_p]
    if any(e == 0 and o > 0 for o, e in zip(observed, exp, strict=True)):
        return TestResult(math.inf, len(exp) - 1, 0.0)
    kept = [(o, e) for o, e in zip(observed, exp, strict=True) if e > 0]
    cols = _merge_small([[float(o), e] for o, e in kept], [e for _, e in kept])
    if len(cols) < 2:
        if len(kept) < 2 or scale != 1.0:
            return TestResult(None, 0, None)
        # too few for χ²: the most expected category against the rest, exactly
        o_main, e_main = max(kept, key=lambda oe: oe[1])
        res = _scipy_stats().binomtest(n - o_main, n, 1 - e_main / n)
        return TestResult(None, 0, float(res.pvalue), "binomial")
    stat = sum((o - e) ** 2 / e for o, e in cols) / scale
    dof = len(cols) - 1
    return TestResult(stat, dof, float(chi2.sf(stat, dof)))


def chi2_homogeneity(observed: Sequence[int], simulated: Sequence[int]) -> TestResult:
    """χ² test that ``observed`` and ``simulated`` counts come from one distribution
    (a 2 × k contingency table, no continuity correction).

    >>> chi2_homogeneity([10, 90], [100, 900]).p_value
    1.0
    """
    chi2_contingency = _scipy_stats().chi2_contingency
    if sum(observed) == 0 or sum(simulated) == 0:
        return TestResult(None, 0, None)
    n_o, n_s = sum(observed), sum(simulated)
    share = n_o / (n_o + n_s)
    pairs = [[float(o), float(s)] for o, s in zip(observed, simulated, strict=True) if o + s]
    # merged by the smaller expected count of the two rows
    cols = _merge_small(pairs, [min(share, 1 - share) * (o + s) for o, s in pairs])
    if len(cols) < 2:
        if len(pairs) < 2:
            return TestResult(None, 0, None)
        # too few for χ²: the commonest category against the rest, exactly
        o_main, s_main = max(pairs, key=sum)
        table = [[o_main, n_o - o_main], [s_main, n_s - s_main]]
        res = _scipy_stats().fisher_exact(table)
        return TestResult(None, 0, float(res.pvalue), "fisher")
    res = chi2_contingency([[c[0] for c in cols], [c[1] for c in cols]], correction=False)
    return TestResult(float(res.statistic), int(res.dof), float(res.pvalue))


# ---------------------------------------------------------------------- counting


@dataclass(slots=True)
class _Tally:
    counts: list[int]
    probs: list[float]
    games: int = 0
    fpc_sum: float = 0.0


def _tally(defs: Sequence[StatDef], observations: Iterable[Observation]) -> dict[str, _Tally]:
    out = {d.name: _Tally([0] * len(d.categories), [0.0] * len(d.categories)) for d in defs}
    for obs in observations:
        for d in defs:
            v = obs.values.get(d.name)
            if v is None:
                continue
            t = out[d.name]
            t.games += 1
            if isinstance(v, tuple):
                for i, c in enumerate(v):
                    t.counts[i] += c
            else:
                t.counts[v] += 1
            p = obs.probs.get(d.name)
            if p is not None:
                n = sum(v) if isinstance(v, tuple) else 1
                for i, q in enumerate(p):
                    t.probs[i] += n * q
                draw = obs.draw.get(d.name)
                if draw is not None:
                    k, pop = draw
                    t.fpc_sum += (pop - k) / (pop - 1)
    return out


def simulated_sessions(
    game: str, n: int, seed: int, *, bot: str = "random", preset: str = "default"
) -> Iterator[Session]:
    """``n`` games dealt by the engine (:attr:`GameSpec.deal
    <madang.core.game.GameSpec.deal>`) from deal seeds drawn from ``seed`` (the arena's
    :func:`~madang.arena.deal_seed`), each played to its end by ``bot`` at every seat."""
    from madang.arena import deal_seed, new_deal
    from madang.bots.base import Budget, make_bot, play

    feats = features(game)
    agent = make_bot(game, bot)
    budget = Budget(None, 1)
    for i in range(n):
        ds = deal_seed(seed, i)
        session = new_deal(game, ds, preset)
        seats = session.seats
        rngs = [random.Random(f"{ds}:{s}") for s in range(seats)]
        if bot == "random":
            feats.play_random(session, rngs)
        else:
            play(session, [agent] * seats, rngs, budget)
        yield session


def simulate(
    game: str, n: int, seed: int, *, bot: str = "random", preset: str = "default"
) -> Iterator[Observation]:
    """The observations of :func:`simulated_sessions`."""
    feats = features(game)
    for session in simulated_sessions(game, n, seed, bot=bot, preset=preset):
        yield feats.observe_session(session)


def report(
    game: str,
    observations: Iterable[Observation],
    reference: Iterable[Observation],
    *,
    preset: str = "default",
    simulated: int,
    bot: str,
    seed: int,
    counts: RecordCounts | None = None,
) -> DealReport:
    """Every statistic of ``game`` over ``observations``, with the expectations of the
    ``reference`` observations (simulated games) or of exact theory. Both are read
    once, as they come (a generator of a whole database's games is never held in
    memory); ``counts``, read after them, are the records left out."""
    defs = features(game).STATS
    obs = _tally(defs, observations)
    ref = _tally(defs, reference)
    games = max((t.games for t in obs.values()), default=0)
    stats = []
    for d in defs:
        o, r = obs[d.name], ref[d.name]
        n_obs = sum(o.counts)
        if d.source == "exact":
            total = sum(o.probs)
            expected = [p * n_obs / total if total else 0.0 for p in o.probs]
            scale = o.fpc_sum / o.games if d.pooled and o.games else 1.0
            test = chi2_goodness(o.counts, o.probs, scale) if total else TestResult(None, 0, None)
            sims = 0
        else:
            n_ref = sum(r.counts)
            expected = [c * n_obs / n_ref if n_ref else 0.0 for c in r.counts]
            test = chi2_homogeneity(o.counts, r.counts)
            sims = r.games
        stats.append(
            Statistic(
                name=d.name,
                title=d.title,
                title_ko=d.title_ko,
                source=d.source,
                categories=d.categories,
                observed=tuple(o.counts),
                expected=tuple(expected),
                games=o.games,
                simulated=sims,
                test=test,
            )
        )
    return DealReport(
        game=game,
        preset=preset,
        games=games,
        skipped=0 if counts is None else counts.skipped,
        unreadable=0 if counts is None else counts.unreadable,
        simulated=simulated,
        bot=bot,
        seed=seed,
        statistics=tuple(stats),
    )


@dataclass(slots=True)
class RecordCounts:
    """Records left out by :func:`observations_of`."""

    skipped: int = 0
    """Played under other rules."""
    unreadable: int = 0
    """Malformed, or they do not replay."""


def observations_of(
    game: str,
    records: Iterable[Any],
    rules: dict[str, Any] | None = None,
    *,
    strict: bool = True,
    counts: RecordCounts | None = None,
) -> Iterator[Observation]:
    """The observations of ``records`` of ``game``, one at a time; with ``rules`` (a
    rules object's ``to_dict()``), records played under other rules are skipped. A
    malformed record raises :class:`~madang.core.errors.RecordError`, or with
    ``strict=False`` is counted as unreadable (in ``counts``)."""
    from madang.core.errors import RecordError

    feats = features(game)
    counts = RecordCounts() if counts is None else counts
    for rec in records:
        if rules is not None and isinstance(rec, dict) and rec.get("rules") != rules:
            counts.skipped += 1
            continue
        try:
            obs = feats.observe_record(rec)
        except RecordError:
            if strict:
                raise
            counts.unreadable += 1
            continue
        yield obs


def observe_records(
    game: str, records: Iterable[Any], rules: dict[str, Any] | None = None, *, strict: bool = True
) -> tuple[list[Observation], int, int]:
    """:func:`observations_of` as a list, with the numbers skipped and unreadable."""
    counts = RecordCounts()
    out = list(observations_of(game, records, rules, strict=strict, counts=counts))
    return out, counts.skipped, counts.unreadable
