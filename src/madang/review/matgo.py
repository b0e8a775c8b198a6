"""The Matgo scorer of the review (:mod:`madang.review`).

At each decision of the reviewed seat with more than one legal move, the seat's view
at that moment (:func:`madang.matgo.view.view`: its hand, the floor, both captured
piles, the count of the stock — nothing hidden) is handed to the search of the ``hard``
bot (:func:`madang.bots.matgo_search.move_values`): the unseen cards are dealt at
random consistently with the view, every legal move is tried in the same sampled
worlds and played on with the cheap rollout policy for three plays, and valued in
points (the payments made plus the difference of the piles' potentials). A move's
*loss* is the best move's mean value less its own.

고/스톱 is scored by expected payment (:func:`madang.bots.matgo_search.go_stop_values`):
스톱 pays the settlement of the piles exactly, 고 the mean payment of playouts to the
end of the game; the decision also carries 고's odds (the share of worlds the seat ends
paid, and paying).

Marks by the points lost (:data:`THRESHOLDS`): below 0.5 좋은 수, below 1.5 아쉬운 수,
below 3 실수, 3 or more 큰 실수.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

from madang.bots.matgo_search import go_stop_values, move_values
from madang.core.errors import RecordError, RulesError
from madang.matgo.actions import action_str, parse_action
from madang.matgo.engine import Phase
from madang.matgo.record import load_record, replay
from madang.matgo.view import view
from madang.review import MARK_KO, check_seat, mark_of

THRESHOLDS: Final = (0.5, 1.5, 3.0)
"""Points lost against the best move: the upper bounds of 좋은 수, 아쉬운 수 and 실수."""


def decision_rng(seed: int, index: int) -> random.Random:
    """The generator of the decision at move ``index`` (deterministic from ``seed``)."""
    return random.Random(f"review:{seed}:{index}")


def review_matgo(
    record: dict[str, Any], seat: int, seed: int, samples: int, budget_ms: float | None
) -> list[dict[str, Any]]:
    """The scored decisions of ``seat`` in a finished Matgo ``record``."""
    check_seat(seat, 2)
    if not replay(record).over:
        raise RecordError("the game is not finished: only a finished game is reviewed")
    state, moves = load_record(record)
    out: list[dict[str, Any]] = []
    for i, move in enumerate(moves):
        try:
            action = parse_action(move)
        except RulesError as e:  # pragma: no cover - replay() above checked every move
            raise RecordError(f"move {i} ({move!r}): {e}", index=i) from None
        legal = state.legal_actions()
        if state.current == seat and len(legal) > 1:
            out.append(
                _score(
                    state.phase, dict(view(state, seat)), legal, action, i, seed, samples, budget_ms
                )
            )
        state.step(action)
    return out


def _score(
    phase: Phase,
    v: dict[str, Any],
    legal: list[int],
    played: int,
    index: int,
    seed: int,
    samples: int,
    budget_ms: float | None,
) -> dict[str, Any]:
    rng = decision_rng(seed, index)
    clock = time.perf_counter
    deadline = float("inf") if budget_ms is None else clock() + budget_ms / 1000.0
    decision: dict[str, Any] = {"index": index, "move": action_str(played)}
    if phase is Phase.GO_STOP:
        gs = go_stop_values(v, rng, samples, deadline, clock)
        values = {"go": gs["go"], "stop": gs["stop"]}
        decision["go_stop"] = {
            "stop": {"expected": round(gs["stop"], 2), "win": 1.0 if gs["stop"] > 0 else 0.0},
            "go": {
                "expected": round(gs["go"], 2),
                "win": round(gs["go_win"], 3),
                "lose": round(gs["go_lose"], 3),
            },
        }
        n = gs["samples"]
    else:
        means, n = move_values(v, legal, rng, samples, deadline, clock=clock)
        values = {action_str(a): m for a, m in zip(legal, means, strict=True)}
    mine = values[decision["move"]]
    best = max(values, key=lambda m: (values[m], m == decision["move"]))
    loss = max(0.0, values[best] - mine)
    mark = mark_of(loss, THRESHOLDS)
    decision.update(
        best=best,
        loss=round(loss, 2),
        mark=mark,
        mark_ko=MARK_KO[mark],
        samples=n,
        options=[
            {"move": m, "value": round(x, 2)}
            for m, x in sorted(values.items(), key=lambda t: -t[1])
        ],
    )
    return decision
