"""The Go-Stop family's scorer of the review (:mod:`madang.review`): 맞고 (``matgo``) and
고스톱 (``gostop``, three seats, or four with 광팔기), one engine, one scorer.

At each decision of the reviewed seat with more than one legal move, the seat's view
at that moment (:func:`madang.matgo.view.view`: its hand, the floor, every captured
pile, the count of each other hand and of the stock — nothing hidden; at four seats the
sitter's cards are in no view) is handed to the search of the ``hard`` bot
(:func:`madang.bots.matgo_search.move_values`): the unseen cards are dealt at random
consistently with the view (every other hand afresh), every legal move is tried in the
same sampled worlds and played on with the cheap rollout policy for three plays, and
valued in points (the payments made plus the difference of the piles' potentials
against each opponent). A move's *loss* is the best move's mean value less its own.

고/스톱 is scored by expected payment (:func:`madang.bots.matgo_search.go_stop_values`):
스톱 pays the settlement of the piles exactly (from every loser, 독박 included), 고 the
mean payment of playouts to the end of the game; the decision also carries 고's odds
(the share of worlds the seat ends paid, and paying).

고스톱's questions that decide the whole game are scored by expected payment to the end
of the game too (:func:`madang.bots.matgo_search.answer_values`: every answer played
out to the end in the same worlds): 광팔기's join/die (``question: "join"``), the answer
to another seat's 쇼당 (``"shodang"``) and a play where the seat may call 쇼당 (every
move of it played out to the end; ``"shodang_call"``). Such a decision carries
``answers``: each answer's expected payment and odds (for the call: 쇼당 and the best
other move). In the playouts the other seats answer join/die by the bots' rule
(:func:`~madang.bots.matgo_greedy.join_or_die`) and accept a 쇼당 (as the bots and the
timeout do).

Marks by the points lost (:data:`THRESHOLDS`): below 0.5 좋은 수, below 1.5 아쉬운 수,
below 3 실수, 3 or more 큰 실수.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

from madang.bots.matgo_search import answer_values, go_stop_values, move_values
from madang.core.errors import RecordError, RulesError
from madang.matgo import actions as A
from madang.matgo.actions import action_str, parse_action
from madang.matgo.engine import MatgoState, Phase
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
    return _review_family(state, moves, seat, seed, samples, budget_ms)


def review_gostop(
    record: dict[str, Any], seat: int, seed: int, samples: int, budget_ms: float | None
) -> list[dict[str, Any]]:
    """The scored decisions of ``seat`` in a finished 고스톱 ``record`` (three seats, or
    four with 광팔기: a seat that sat the game out has its join/die answer at most)."""
    from madang.gostop.record import load_record as load_gostop
    from madang.gostop.record import replay as replay_gostop

    end = replay_gostop(record)
    check_seat(seat, len(end.hands))
    if not end.over:
        raise RecordError("the game is not finished: only a finished game is reviewed")
    state, moves = load_gostop(record)
    return _review_family(state, moves, seat, seed, samples, budget_ms)


def _review_family(
    state: MatgoState,
    moves: list[Any],
    seat: int,
    seed: int,
    samples: int,
    budget_ms: float | None,
) -> list[dict[str, Any]]:
    """Replay ``moves`` from ``state`` (a game as dealt), scoring ``seat``'s choices."""
    out: list[dict[str, Any]] = []
    for i, move in enumerate(moves):
        try:
            action = parse_action(move)
        except RulesError as e:  # pragma: no cover - the replay before checked every move
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
    by_move: dict[str, dict[str, float]] = {}
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
    elif phase is Phase.JOIN or phase is Phase.SHODANG or A.SHODANG in legal:
        odds, n = answer_values(v, legal, rng, samples, deadline, clock)
        by_move = {action_str(a): x for a, x in zip(legal, odds, strict=True)}
        values = {m: x["expected"] for m, x in by_move.items()}
    else:
        means, n = move_values(v, legal, rng, samples, deadline, clock=clock)
        values = {action_str(a): m for a, m in zip(legal, means, strict=True)}
    mine = values[decision["move"]]
    best = max(values, key=lambda m: (values[m], m == decision["move"]))
    if by_move:
        decision["question"] = _QUESTIONS.get(phase, "shodang_call")
        decision["answers"] = [
            {
                "move": m,
                "expected": round(by_move[m]["expected"], 2),
                "win": round(by_move[m]["win"], 3),
                "lose": round(by_move[m]["lose"], 3),
            }
            for m in _answers_shown(phase, by_move, values)
        ]
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


_QUESTIONS: Final = {Phase.JOIN: "join", Phase.SHODANG: "shodang"}
"""The ``question`` of a decision scored to the end of the game, by phase (a play where
쇼당 may be called: ``shodang_call``)."""


def _answers_shown(
    phase: Phase, by_move: dict[str, dict[str, float]], values: dict[str, float]
) -> list[str]:
    """The answers a decision scored to the end shows: both of join/die and of a 쇼당's
    answer; for a play where 쇼당 may be called, 쇼당 and the best other move."""
    if phase is not Phase.PLAY:
        return list(by_move)
    call = action_str(A.SHODANG)
    play = max((m for m in values if m != call), key=lambda m: values[m])
    return [call, play]
