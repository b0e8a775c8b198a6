"""복기 (bokgi): the review of a finished game, one seat's decisions scored by the bots.

:func:`review` replays a finished record (``notation.md``) and, at each decision of the
reviewed seat that offered a choice, scores the legal moves from that seat's view at
that moment — never from the record's hidden cards (the other hands, the unseen stock):
a review is computed only from what the record holds, and each decision only from what
the seat could see then. The game's scorer (:mod:`madang.review.matgo` for the
Go-Stop family, 맞고 and 고스톱; :mod:`madang.review.mahjong`) gives every decision a
:data:`MARKS` mark by what the move played lost against the best one, and the best
move; the thresholds are in each scorer's module and in ``docs/review.md``.

The review is deterministic: each decision draws its sampled worlds from a generator
seeded by ``seed`` and the move's index. ``samples`` caps the worlds per decision;
``budget_ms`` (optional) also stops a decision's sampling at that wall time, which
makes the result depend on the machine's speed (off by default).

>>> from madang.matgo.engine import new_game
>>> from madang.matgo.record import export_record
>>> g = new_game(seed=3)
>>> while not g.over:
...     _ = g.step(g.legal_actions()[0])
>>> r = review(export_record(g), seat=0, samples=4)
>>> r["game"], r["seat"], all(d["mark"] in MARKS for d in r["decisions"])
('matgo', 0, True)
"""

from __future__ import annotations

from typing import Any, Final

from madang.core.errors import MadangError, RecordError

__all__ = ["MARKS", "MARK_KO", "ReviewError", "review", "summary_counts"]

MARKS: Final = ("good", "inaccuracy", "mistake", "blunder")
"""The marks, best first."""

MARK_KO: Final = {
    "good": "좋은 수",
    "inaccuracy": "아쉬운 수",
    "mistake": "실수",
    "blunder": "큰 실수",
}
"""The Korean name of each mark."""

MARK_EN: Final = {
    "good": "good move",
    "inaccuracy": "inaccuracy",
    "mistake": "mistake",
    "blunder": "blunder",
}
"""The English name of each mark."""

DEFAULT_SAMPLES: Final = 400
"""Sampled worlds per decision of a Go-Stop game (맞고, 고스톱) by default (a game's
review in a few seconds of one core; ``docs/review.md`` has the measurement)."""


class ReviewError(MadangError):
    """A review that cannot be made: a seat that is not the game's, bad settings."""

    code = "review_error"


def review(
    record: Any,
    seat: int = 0,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    budget_ms: float | None = None,
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in a finished game's ``record``.

    Returns ``game``, ``seat``, ``seed``, ``samples``, ``budget_ms``, ``decisions``
    (per decision: ``index`` of the move in the record, ``move`` played, ``best``,
    ``mark``, ``mark_ko``, ``loss`` and the game's details) and ``counts`` (decisions
    per mark). A malformed record, an unfinished game: RecordError; a bad seat or
    setting: ReviewError.
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if type(seed) is not int:
        raise ReviewError(f"seed must be an integer, not {seed!r}")
    if type(samples) is not int or not 1 <= samples <= 100_000:
        raise ReviewError(f"samples must be an integer 1-100000, not {samples!r}")
    if budget_ms is not None and (
        isinstance(budget_ms, bool)
        or not isinstance(budget_ms, int | float)
        or not 0 < budget_ms <= 60_000
    ):
        raise ReviewError(f"budget_ms must be a number of milliseconds 0-60000, not {budget_ms!r}")
    game = record.get("game")
    if game == "matgo":
        from madang.review.matgo import review_matgo

        decisions = review_matgo(record, seat, seed, samples, budget_ms)
    elif game == "gostop":
        from madang.review.matgo import review_gostop

        decisions = review_gostop(record, seat, seed, samples, budget_ms)
    elif game == "mahjong":
        from madang.review.mahjong import review_mahjong

        decisions = review_mahjong(record, seat)
    else:
        raise RecordError(f"cannot review a record of game {game!r}: matgo, gostop or mahjong")
    return {
        "game": game,
        "seat": seat,
        "seed": seed,
        "samples": samples,
        "budget_ms": budget_ms,
        "decisions": decisions,
        "counts": summary_counts(decisions),
    }


def summary_counts(decisions: list[dict[str, Any]]) -> dict[str, int]:
    """How many decisions got each mark."""
    counts = dict.fromkeys(MARKS, 0)
    for d in decisions:
        counts[d["mark"]] += 1
    return counts


def check_seat(seat: Any, seats: int) -> int:
    """``seat`` if it is one of ``seats`` seats, else ReviewError."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise ReviewError(f"seat must be 0-{seats - 1}, not {seat!r}")
    return seat


def mark_of(loss: float, thresholds: tuple[float, float, float]) -> str:
    """The mark of a loss against the best move: below ``thresholds[0]`` good, below
    ``[1]`` an inaccuracy, below ``[2]`` a mistake, else a blunder."""
    for mark, limit in zip(MARKS, thresholds, strict=False):
        if loss < limit:
            return mark
    return MARKS[-1]
