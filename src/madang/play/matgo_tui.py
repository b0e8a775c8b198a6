"""Matgo in the terminal: a person (seat 0) against a bot (seat 1).

Keys: digits ``1``–``9`` and ``0`` (the tenth card) or ←/→ and Enter pick a hand card;
``1``/``2`` answer two-option questions (고/스톱, 패 선택, 흔들기, 폭탄, 국진, 총통);
space flips with a bomb token; ``q`` quits. Each game ends on a settlement screen that
itemises the score.
"""

from __future__ import annotations

from typing import Any

from madang.bots.base import make_bot
from madang.i18n import t
from madang.matgo import actions as A
from madang.matgo.cards import MONTH, parse_card
from madang.matgo.engine import MatgoState, Phase
from madang.matgo.events import redact
from madang.matgo.match import MatgoMatch
from madang.matgo.render import (
    caption,
    card_label,
    card_markup,
    multiplier_name,
    narrate,
    table_lines,
)
from madang.matgo.rules import MatgoRules
from madang.matgo.view import view
from madang.play.keys import ENTER, LEFT, RIGHT, SPACE
from madang.play.terminal import PROMPT, TerminalSession

HUMAN, BOT = 0, 1
NAMES = ("나", "컴퓨터")


class MatgoTerminal(TerminalSession):
    """One session of games against a bot, drawn on a Rich console. The person plays
    seat 0 (:data:`HUMAN`) and a bot every other seat (:attr:`bots`); a game of the
    family with more seats subclasses it (:mod:`madang.play.gostop_tui`)."""

    title = "맞고"
    names: tuple[str, ...] = NAMES
    """Per seat, how the table names it (the person's seat first)."""

    def start(self, level: str, rules: MatgoRules | None, seed: int | None) -> None:
        self.bots = {BOT: make_bot("matgo", level)}
        self.match = MatgoMatch(rules, seed=seed)

    def balance(self) -> int:
        """The person's points over the games played so far."""
        return self.match.balances[HUMAN]

    # ------------------------------------------------------------------ drawing

    def draw(self, state: MatgoState, prompt: str, cursor: int | None = None) -> None:
        v = view(state, HUMAN)
        c = self.console
        c.clear()
        c.rule(f"{self.title} — 판 {self.match.games_played + 1}  잔고 {self.balance():+d}")
        for line in table_lines(v, self.names):
            c.print(line)
        hand = v["hand"]
        if hand:
            items = []
            for i, code in enumerate(hand):
                key = str((i + 1) % 10)
                mark = "[reverse]" if cursor == i else ""
                end = "[/]" if cursor == i else ""
                items.append(f"{mark}{key}:{card_markup(code)}{end}")
            c.print("   " + "  ".join(items))
        c.rule("기록")
        for line in self.log[-6:]:
            c.print("  " + line)
        c.print(PROMPT + prompt, markup=True)

    def narrate(self, events: list[Any]) -> None:
        for ev in events:
            seen = redact(ev, HUMAN)
            big = caption(seen, self.names)
            if big:  # what just happened, large: 뻑!, 쪽!, 3고! …
                self.log.append(f"[bold reverse] {big} [/]")
            line = narrate(seen, self.names)
            if line:
                self.log.append(line)

    # ------------------------------------------------------------------ input

    def choose_two(self, state: MatgoState, question: str, a: str, b: str) -> int:
        """Ask a two-option question (keys 1 and 2); return 0 or 1."""
        return self.choose(state, question, [a, b])

    def human_play(self, state: MatgoState) -> int:
        legal = set(state.legal_actions())
        hand = view(state, HUMAN)["hand"]
        cursor = 0
        flip_hint = "  space: 폭탄패로 뒤집기" if A.FLIP in legal else ""
        while True:
            self.draw(state, f"낼 패를 고르세요 (숫자, ←/→ Enter){flip_hint}", cursor)
            k = self.key()
            if k == SPACE and A.FLIP in legal:
                return A.FLIP
            if k == LEFT and hand:
                cursor = (cursor - 1) % len(hand)
                continue
            if k == RIGHT and hand:
                cursor = (cursor + 1) % len(hand)
                continue
            if k == ENTER and hand:
                index = cursor
            elif k.isdigit() and hand:
                index = (int(k) - 1) % 10
                if index >= len(hand):
                    continue
            else:
                continue
            card = parse_card(hand[index])
            options = [a for a in (A.PLAY + card, A.SHAKE + card) if a in legal]
            m = MONTH[card]
            if m and A.BOMB + m - 1 in legal:
                options.append(A.BOMB + m - 1)
            if len(options) == 1:
                return options[0]
            second = options[1]
            label = "흔들기" if second < A.BOMB else "폭탄"
            pick = self.choose_two(state, f"{card_label(hand[index])}:", label, "그냥 한 장")
            return second if pick == 0 else options[0]

    def human_turn(self, state: MatgoState) -> int:
        phase = state.phase
        if phase is Phase.PLAY:
            return self.human_play(state)
        legal = state.legal_actions()
        if phase in (Phase.PICK_PLAY, Phase.PICK_FLIP):
            a, b = (A.action_str(x).split()[1] for x in legal)
            pick = self.choose_two(state, "어느 패를 먹을까요?", card_label(a), card_label(b))
        elif phase is Phase.GO_STOP:
            score = state.score(HUMAN)
            stop = self.stop_pays(state)
            go = state.go_count[HUMAN] + 1
            nxt = (
                t("matgo.go_next_x", n=go, factor=2 ** (go - 2))
                if go >= 3
                else t("matgo.go_next", n=go, bonus=1)
            )
            question = f"{score}점입니다. [b]{t('matgo.stop_now', n=stop)}[/] · {nxt}."
            pick = self.choose_two(state, question, "고", "스톱")
        elif phase is Phase.GUKJIN:
            pick = self.choose_two(state, "국진을 어떻게 셀까요?", "열끗", "쌍피")
        elif phase is Phase.CHONGTONG:
            pick = self.choose_two(state, "총통!", "스톱 (10점)", "계속")
        else:  # a question of another game of the family: its moves in the notation
            pick = self.choose(state, f"{phase.name.lower()}?", [A.action_str(a) for a in legal])
        return legal[pick]

    def stop_pays(self, state: MatgoState) -> int:
        """What 스톱 pays the person now (the view's ``stop_now``)."""
        points: int = view(state, HUMAN)["stop_now"]["points"]
        return points

    # ------------------------------------------------------------------ loop

    def play_one(self) -> None:
        state = self.match.game
        self.log = []
        if self.match.games_played == 0:
            self.log.extend(self.first_dealer_lines())
        self.narrate(state.events)
        while not state.over:
            seat = state.current
            if seat == HUMAN:
                action = self.human_turn(state)
            else:
                action = self.bots[seat].act(
                    view(state, seat), list(state.legal_actions()), self.rng, self.budget
                )
            self.narrate(state.step(action))
        self.settlement(state)

    def first_dealer_lines(self) -> list[str]:
        """선 결정 of the first game: the months each side drew (seeds 000, 003)."""
        from madang.matgo.cards import MONTH
        from madang.matgo.rules import FirstDealer

        draws = self.match.first_draws
        if not draws:
            return []
        rule = self.match.rules.first_dealer is FirstDealer.NIGHT_LOW
        out = [t("matgo.first_rule_low" if rule else "matgo.first_rule_high")]
        for i, (a, b) in enumerate(draws):
            key = "matgo.first_dealer" if i == len(draws) - 1 else "matgo.first_dealer_tie"
            out.append(
                t(
                    key,
                    a=NAMES[0],
                    ca=t("matgo.month_n", month=MONTH[a]),
                    b=NAMES[1],
                    cb=t("matgo.month_n", month=MONTH[b]),
                    dealer=NAMES[self.match.dealer],
                )
            )
        return out

    def settlement(self, state: MatgoState) -> None:
        c = self.console
        c.clear()
        c.rule("정산")
        reason = t(f"matgo.end.{state.end_reason}") if state.end_reason else ""
        if state.winner is None:
            c.print(reason)
        else:
            c.print(f"[b]{self.names[state.winner]} 승리[/] ({reason})")
        # a 스톱 win at a table of three settles a sheet per loser (each its own 박)
        sheets = state.sheets if len(state.sheets) > 1 else (state.sheet,)
        for i, sheet in enumerate(sheets):
            if sheet is None:
                continue
            if len(sheets) > 1 and state.winner is not None:
                loser = state.after[state.winner][i]
                c.print(f"  [b]{self.names[loser]}[/]")
            for item in sheet.items:
                c.print(f"   {t(f'matgo.jokbo.{item.name}')}: {item.points}점")
            c.print(f"   {t('matgo.sheet.jokbo')} {sheet.jokbo}점")
            if sheet.go:
                c.print(f"   {t('matgo.sheet.go', n=sheet.go)}: +{sheet.go}점")
            c.print(f"   {t('matgo.sheet.base')} {sheet.base}점")
            for m in sheet.multipliers:
                name = multiplier_name({"name": m.name, "factor": m.factor})
                c.print(f"   {name} x{m.factor}")
            c.print(f"   [b]{t('matgo.sheet.total')} {sheet.points}점[/]")
        for frm, to, points, why in state.payments:
            c.print(f"   {self.names[frm]} → {self.names[to]}: {points}점 ({t(f'pay.{why}')})")

    def advance(self) -> bool:
        self.match.next_game()
        return True

    def totals_line(self) -> str:
        return f"잔고: {self.balance():+d}점"
