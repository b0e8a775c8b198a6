"""고스톱 (gostop) in the terminal: a person (seat 0) against two bots (seats 1 and 2,
who play after the person in that order, ``gostop.md`` §1).

The table, keys and questions are Matgo's (:mod:`madang.play.matgo_tui`): digits ``1``–
``9`` or ←/→ and Enter pick a hand card, ``1``/``2`` answer two-option questions, space
flips with a bomb token, ``q`` quits. Both other seats are drawn above the floor, the
seat playing last at the top; 스톱's question says what every loser pays together
(독박 included), and each game ends on a settlement screen with every payment.
"""

from __future__ import annotations

from madang.bots.base import make_bot
from madang.core.errors import RuleConfigError
from madang.core.match import Match
from madang.gostop.game import GostopMatch
from madang.gostop.rules import GostopRules
from madang.i18n import t
from madang.matgo.engine import MatgoState
from madang.matgo.rules import FirstDealer, MatgoRules
from madang.play.matgo_tui import HUMAN, MatgoTerminal


class GostopTerminal(MatgoTerminal):
    """A session of 고스톱 games against two bots of one level, drawn on a Rich console."""

    title = "고스톱"
    match: GostopMatch

    def start(self, level: str, rules: MatgoRules | None, seed: int | None) -> None:
        rules = GostopRules() if rules is None else rules
        if not isinstance(rules, GostopRules):
            raise RuleConfigError("고스톱 is played under gostop rules (GostopRules)")
        seats = rules.players
        self.names = ("나", *(f"컴퓨터 {s}" for s in range(1, seats)))
        self.bots = {s: make_bot("gostop", level) for s in range(1, seats)}
        self.match = GostopMatch(rules, seed=seed)
        self.first_dealer = self.match.dealer
        self.series = Match(seats)

    def balance(self) -> int:
        return self.series.balances[HUMAN]

    def stop_pays(self, state: MatgoState) -> int:
        """What 스톱 pays the person now: every loser's share together (독박 included)."""
        return state.stop_points(HUMAN)

    def first_dealer_lines(self) -> list[str]:
        """선 결정 of the first game: the months each seat drew, round by round (the
        seats tied for best draw again)."""
        rounds = self.match.first_rounds
        if not rounds:
            return []
        low = self.match.rules.first_dealer is FirstDealer.NIGHT_LOW
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

    def advance(self) -> bool:
        self.series.settle(self.match.game.payments, over=False)
        self.match.next_game()
        return True
