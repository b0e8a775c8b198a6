"""고스톱 (gostop) in the terminal: a person (seat 0) against two bots (seats 1 and 2,
who play after the person in that order, ``gostop.md`` §1).

The table, keys and questions are Matgo's (:mod:`madang.play.matgo_tui`): digits ``1``–
``9`` or ←/→ and Enter pick a hand card, ``1``/``2`` answer two-option questions, space
flips with a bomb token, ``q`` quits. Both other seats are drawn above the floor, the
seat playing last at the top; 스톱's question says what every loser pays together
(독박 included), and each game ends on a settlement screen with every payment.
"""

from __future__ import annotations

import random

from madang.core.game import Session
from madang.core.match import Match
from madang.gostop.game import GostopMatch, GostopSession
from madang.i18n import t
from madang.matgo.engine import MatgoState
from madang.matgo.view import LoserSheet, MatgoTableView, MatgoView, is_gostop_table_view
from madang.play.matgo_tui import MatgoTerminal
from madang.play.terminal import HUMAN


class GostopTerminal(MatgoTerminal):
    """A session of 고스톱 games against two bots of one level (three with 광팔기),
    drawn on a Rich console."""

    game = "gostop"
    title = "고스톱"

    def seated(self) -> None:
        super().seated()
        seats = self.session.seats
        self.names = ("나", *(f"컴퓨터 {s}" for s in range(1, seats)))

    @property
    def match(self) -> GostopMatch:
        """The session's match: its finished games' records."""
        s: Session[MatgoView, MatgoTableView] = self.session
        assert isinstance(s, GostopSession)
        return s.match

    @property
    def series(self) -> Match:
        """The games in series: each seat's balance."""
        return self.session.series

    def stop_pays(self, v: MatgoView) -> int:
        """What 스톱 pays the person now: every loser's share together (독박 included),
        from the view alone (a state from the view: the hidden cards take no part)."""
        return MatgoState.from_view(v, random.Random(0)).stop_points(HUMAN)

    def loser_sheets(self, v: MatgoTableView) -> list[LoserSheet]:
        return v.get("sheets", []) if is_gostop_table_view(v) else []

    def first_dealer_lines(self) -> list[str]:
        """선 결정 of the first game: the months each seat drew, round by round (the
        seats tied for best draw again)."""
        rounds = self.first["first_draws"]
        if not rounds:
            return []
        low = self.first["first_dealer_rule"] == "night_low"
        out = [t("matgo.first_rule_low" if low else "matgo.first_rule_high")]
        for months in rounds:
            drawn = [
                f"{self.names[s]} {t('matgo.month_n', month=m)}"
                for s, m in enumerate(months)
                if m is not None
            ]
            out.append("선 뽑기: " + ", ".join(drawn))
        out.append(f"선: {self.names[self.first_dealer]}")
        return out
