"""The mahjong scorer of the review (:mod:`madang.review`).

At each discard of the reviewed seat, from the seat's view at that moment
(:func:`madang.mahjong.view.view`; :class:`~madang.bots.mahjong_efficiency.Table`
counts the unseen tiles from it), every tile it could discard gets its effect on the
hand — the shanten (향청) left and the accepted tiles (유효패, ukeire: unseen tiles that
would lower it) — and its deal-in risk, the ``hard`` bot's estimate
(:class:`~madang.bots.mahjong_defensive.DangerModel`: Σ over the opponents of the
chance they are ready × what a deal-in costs × the chance the tile wins for them). The
best move is the ``hard`` bot's (:class:`~madang.bots.mahjong_defensive.DefensiveBot`)
choice — it pushes for the fastest hand, or folds against a declared or strong hand; a
discard that passes up a 올라 (self-drawn win) is a 큰 실수 with ``tsumo`` best.

Marks (the worse of the two):

* efficiency (not counted for a discard at least as safe as the bot's while an
  opponent is a strong threat — a fold is no fault): one shanten more than the best
  discard leaves is 실수, two or more — or leaving ready (텐파이) for not ready — 큰
  실수; at the best shanten, losing 25% of the best discard's accepted tiles is 아쉬운
  수 and 60% 실수;
* risk: danger above the bot's choice by 0.05 is 아쉬운 수, 0.15 실수, 0.4 (or a tile
  that surely wins for a 불러 hand, where the bot's does not) 큰 실수.

``loss`` is the shanten lost plus the share of accepted tiles lost plus the extra risk.
"""

from __future__ import annotations

from typing import Any, Final

from madang.bots.mahjong_defensive import DangerModel, DefensiveBot
from madang.bots.mahjong_efficiency import Table, discard_options
from madang.core.errors import RecordError
from madang.mahjong.engine import legal_actions, step
from madang.mahjong.record import replay
from madang.mahjong.state import Action
from madang.mahjong.tiles import tile_name
from madang.mahjong.view import view
from madang.review import MARK_KO, MARKS, check_seat, mark_of

UKEIRE_THRESHOLDS: Final = (0.25, 0.6, float("inf"))
"""Share of the best discard's accepted tiles lost (same shanten): 아쉬운 수, 실수."""

RISK_THRESHOLDS: Final = (0.05, 0.15, 0.4)
"""Danger added against the bot's choice: the bounds of 좋은 수, 아쉬운 수, 실수."""


def review_mahjong(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The scored discards (and passed-up 올라) of ``seat`` in a finished ``record``."""
    check_seat(seat, 4)
    final = replay(record)
    if not final.over:
        raise RecordError("the hand is not finished: only a finished hand is reviewed")
    played_record = dict(record)
    played_record["moves"] = []
    state = replay(played_record)
    bot = DefensiveBot()
    out: list[dict[str, Any]] = []
    for i, move in enumerate(record.get("moves", [])):
        action = Action.parse(move)
        if action.seat == seat and action.verb == "discard" and state.phase == "discard":
            out.append(_score(state, seat, action, i, bot))
        step(state, action, events=False)
    return out


def _score(state: Any, seat: int, played: Action, index: int, bot: DefensiveBot) -> dict[str, Any]:
    v = view(state, seat)
    legal = legal_actions(state, seat)
    t = Table.from_view(dict(v))
    danger = DangerModel(t)
    raw = discard_options(t.hand, len(t.my_melds), t.unseen, t.quad_as_two_pairs)
    opts = {k: (sh, uk, danger.danger(k), danger.fatal(k)) for k, sh, uk, _ in raw}
    decision: dict[str, Any] = {"index": index, "move": str(played)}
    options = [
        {
            "move": f"discard {tile_name(k)}",
            "shanten": sh,
            "ukeire": uk,
            "risk": round(d, 3),
        }
        for k, (sh, uk, d, _) in sorted(
            opts.items(), key=lambda kv: (kv[1][0], -kv[1][1], kv[1][2])
        )
    ]
    mine = played.tile
    m_sh, m_uk, m_risk, m_fatal = opts[mine]
    decision.update(shanten=m_sh, ukeire=m_uk, risk=round(m_risk, 3))
    if any(a.verb == "tsumo" for a in legal):
        mark = MARKS[-1]
        decision.update(best="tsumo", loss=float(m_sh + 1), mark=mark, mark_ko=MARK_KO[mark])
        decision["options"] = options
        return decision
    choice = bot.turn(t, [a for a in legal if a.verb == "discard"])
    best = choice.tile
    b_sh, b_uk, b_risk, b_fatal = opts[best]
    top_sh = min(o[0] for o in opts.values())
    top_uk = max(o[1] for o in opts.values() if o[0] == top_sh)
    sh_loss = m_sh - top_sh
    uk_loss = 0.0 if sh_loss else max(0.0, (top_uk - m_uk) / max(top_uk, 1))
    risk_gain = max(0.0, m_risk - b_risk)
    if mine == best:
        mark = MARKS[0]
    else:
        threatened = danger.strong_threat or danger.max_threat >= 1.0
        folding = threatened and m_risk <= b_risk
        eff = 0 if folding else _eff_rank(sh_loss, top_sh, uk_loss)
        risk_rank = (
            3 if m_fatal and not b_fatal else MARKS.index(mark_of(risk_gain, RISK_THRESHOLDS))
        )
        mark = MARKS[max(eff, risk_rank)]
    decision.update(
        best=f"discard {tile_name(best)}",
        best_shanten=b_sh,
        best_ukeire=b_uk,
        best_risk=round(b_risk, 3),
        loss=round(sh_loss + uk_loss + risk_gain, 3),
        mark=mark,
        mark_ko=MARK_KO[mark],
        options=options,
    )
    return decision


def _eff_rank(sh_loss: int, top_sh: int, uk_loss: float) -> int:
    """The efficiency mark's index in :data:`MARKS`."""
    if sh_loss >= 2 or (sh_loss >= 1 and top_sh == 0):
        return 3
    if sh_loss == 1:
        return 2
    return MARKS.index(mark_of(uk_loss, UKEIRE_THRESHOLDS))
