"""Matgo in the terminal: a person (seat 0) against a bot (seat 1).

Keys: digits ``1``–``9`` and ``0`` (the tenth card) or ←/→ and Enter pick a hand card;
``1``/``2`` answer two-option questions (고/스톱, 패 선택, 흔들기, 폭탄, 국진, 총통);
space flips with a bomb token; ``q`` quits. Each game ends on a settlement screen that
itemises the score.
"""

from __future__ import annotations

import secrets
from typing import Any

from madang.core.registry import spec
from madang.i18n import t
from madang.matgo.cards import MONTH, parse_card
from madang.matgo.first_pick import FirstPick
from madang.matgo.render import (
    caption,
    card_label,
    card_markup,
    multiplier_name,
    narrate,
    table_lines,
)
from madang.matgo.view import LoserSheet, MatgoTableView, MatgoView
from madang.play.keys import ENTER, LEFT, RIGHT, SPACE
from madang.play.terminal import HUMAN, PROMPT, TerminalSession

BOT = 1
NAMES = ("나", "컴퓨터")
FLIP = "flip"
"""The notation of a flip with a bomb token."""


class MatgoTerminal(TerminalSession[MatgoView, MatgoTableView]):
    """One session of games against a bot, drawn on a Rich console. The person plays
    seat 0 (:data:`~madang.play.terminal.HUMAN`) and a bot every other seat; a game of
    the family with more seats subclasses it (:mod:`madang.play.gostop_tui`)."""

    game = "matgo"
    title = "맞고"
    names: tuple[str, ...] = NAMES

    def seated(self) -> None:
        v = self.session.view(HUMAN)
        self.first = v["match"]
        """The first game's match facts (how its 선 was drawn)."""
        self.first_dealer = v["dealer"]

    def before_match(self) -> None:
        """선 뽑기 before the first game (an unseeded 맞고; a seeded one keeps the 선 of its
        seed, as a seeded server table does): eight face-down cards laid out from a
        fresh deal key, the person picks one by its number, the bot another; the higher
        month is 선 (the lower under 밤일낮장), the same month lays out new cards. The
        game is then dealt from that key with those picks (``Session.redeal``), as a
        verifiable table deals after its 선 뽑기 (``docs/fairness.md``)."""
        if self.seeded or spec(self.game).first_pick is None:
            return
        key = secrets.token_bytes(32)
        picker = FirstPick(self.session.record()["rules"], key)
        rounds: list[list[int]] = []
        while True:
            r = len(rounds)
            slot = self.pick_slot(picker.slots, r)
            other = self.rng.choice([i for i in range(picker.slots) if i != slot])
            rounds.append([slot, other])
            codes = picker.codes(r)
            self.console.print(
                f"  {NAMES[HUMAN]}: {card_markup(codes[slot])}   "
                f"{NAMES[BOT]}: {card_markup(codes[other])}"
            )
            if picker.winner(r, [slot, other]) is not None:
                break
            self.console.print("  같은 월: 새 패를 깔고 다시 뽑습니다.")
        self.session.redeal(key, first_picks=rounds)
        self.seated()  # the match facts now say how 선 was drawn

    def pick_slot(self, slots: int, r: int) -> int:
        """The person's face-down card of round ``r`` (keys 1 … ``slots``)."""
        c = self.console
        if r == 0:
            c.clear()
            c.rule(f"{self.title} — 선 뽑기")
        c.print("   " + "  ".join(f"{i + 1}:[white on red] ? [/]" for i in range(slots)))
        c.print(PROMPT + f"선 뽑기: 엎어 놓은 패 한 장을 고르세요 (1–{slots})", markup=True)
        while True:
            k = self.key()
            if k.isdigit() and 1 <= int(k) <= slots:
                return int(k) - 1

    def balance(self) -> int:
        """The person's points over the games played so far."""
        return self.scores()[HUMAN]

    def shown(self) -> MatgoTableView:
        """The person's view with the help the table adds (piles, progress, legal moves)."""
        return self.session.annotate(self.session.view(HUMAN), HUMAN)

    # ------------------------------------------------------------------ drawing

    def draw(self, prompt: str, cursor: int | None = None) -> None:
        v = self.shown()
        c = self.console
        c.clear()
        c.rule(f"{self.title} — 판 {self.session.game_no}  잔고 {self.balance():+d}")
        for line in table_lines(v, self.names):
            c.print(line)
        hand = v.get("hand")
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

    def describe(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        return caption(event, self.names), narrate(event, self.names)

    # ------------------------------------------------------------------ input

    def choose_two(self, question: str, a: str, b: str) -> int:
        """Ask a two-option question (keys 1 and 2); return 0 or 1."""
        return self.choose(question, [a, b])

    def human_play(self, legal: list[str]) -> str:
        """A card of the hand (and whether to shake it or bomb its month), or a flip."""
        hand = self.session.view(HUMAN).get("hand", [])
        cursor = 0
        flip_hint = "  space: 폭탄패로 뒤집기" if FLIP in legal else ""
        while True:
            self.draw(f"낼 패를 고르세요 (숫자, ←/→ Enter){flip_hint}", cursor)
            k = self.key()
            if k == SPACE and FLIP in legal:
                return FLIP
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
            code = hand[index]
            month = MONTH[parse_card(code)]
            plays = (f"play {code}", f"play {code} shake", f"bomb {month:02d}" if month else "")
            options = [m for m in plays if m in legal]
            if len(options) < 2:  # (none: the card cannot be played now, which is said)
                return options[0] if options else plays[0]
            label = "흔들기" if options[1].endswith("shake") else "폭탄"
            pick = self.choose_two(f"{card_label(code)}:", label, "그냥 한 장")
            return options[1] if pick == 0 else options[0]

    def human_move(self, seat: int) -> str:
        s = self.session
        question = s.question(seat)
        legal = [s.action_to_string(a) for a in s.legal(seat)]
        if question == "play":
            return self.human_play(legal)
        if question in ("pick_play", "pick_flip"):
            a, b = (m.split()[1] for m in legal)
            pick = self.choose_two("어느 패를 먹을까요?", card_label(a), card_label(b))
        elif question == "go_stop":
            v = s.view(HUMAN)
            stop = self.stop_pays(v)
            go = v["go"][HUMAN] + 1
            nxt = (
                t("matgo.go_next_x", n=go, factor=2 ** (go - 2))
                if go >= 3
                else t("matgo.go_next", n=go, bonus=1)
            )
            ask = f"{v['scores'][HUMAN]}점입니다. [b]{t('matgo.stop_now', n=stop)}[/] · {nxt}."
            pick = self.choose_two(ask, "고", "스톱")
        elif question == "gukjin":
            pick = self.choose_two("국진을 어떻게 셀까요?", "열끗", "쌍피")
        elif question == "chongtong":
            pick = self.choose_two("총통!", "스톱 (10점)", "계속")
        else:  # a question of another game of the family: its moves in the notation
            pick = self.choose(f"{question}?", legal)
        return legal[pick]

    def stop_pays(self, v: MatgoView) -> int:
        """What 스톱 pays the person now (the view's ``stop_now``)."""
        stop = v["stop_now"]
        return stop["points"] if stop is not None else 0

    # ------------------------------------------------------------------ the game

    def intro_lines(self) -> list[str]:
        return self.first_dealer_lines() if self.session.game_no == 1 else []

    def first_dealer_lines(self) -> list[str]:
        """선 결정 of the first game: the months each side drew (seeds 000, 003)."""
        draws = self.first["first_draws"]
        if not draws:
            return []
        low = self.first["first_dealer_rule"] == "night_low"
        out = [t("matgo.first_rule_low" if low else "matgo.first_rule_high")]
        for i, (a, b) in enumerate(draws):
            key = "matgo.first_dealer" if i == len(draws) - 1 else "matgo.first_dealer_tie"
            out.append(
                t(
                    key,
                    a=NAMES[0],
                    ca=t("matgo.month_n", month=a),
                    b=NAMES[1],
                    cb=t("matgo.month_n", month=b),
                    dealer=NAMES[self.first_dealer],
                )
            )
        return out

    def loser_sheets(self, v: MatgoTableView) -> list[LoserSheet]:
        """The sheets of a win that every loser pays with its own (고스톱's); [] here."""
        return []

    def settlement(self) -> None:
        s = self.session
        v = self.shown()
        c = self.console
        c.clear()
        c.rule("정산")
        end = s.outcome()["reason"]
        reason = t(f"matgo.end.{end}") if end else ""
        winner = v["winner"]
        if winner is None:
            c.print(reason)
        else:
            c.print(f"[b]{self.names[winner]} 승리[/] ({reason})")
        # a 스톱 win at a table of three settles a sheet per loser (each its own 박)
        per_loser = self.loser_sheets(v)
        sheets = per_loser if len(per_loser) > 1 else [v.get("sheet")]
        for i, sheet in enumerate(sheets):
            if sheet is None:
                continue
            if len(sheets) > 1:
                c.print(f"  [b]{self.names[per_loser[i]['loser']]}[/]")
            for item in sheet["items"]:
                jokbo = t(f"matgo.jokbo.{item['name']}")
                c.print(f"   {jokbo}: {item['points']}점")
            c.print(f"   {t('matgo.sheet.jokbo')} {sheet['jokbo']}점")
            if sheet["go"]:
                c.print(f"   {t('matgo.sheet.go', n=sheet['go'])}: +{sheet['go']}점")
            c.print(f"   {t('matgo.sheet.base')} {sheet['base']}점")
            for m in sheet["multipliers"]:
                name = multiplier_name({"name": m["name"], "factor": m["factor"]})
                c.print(f"   {name} x{m['factor']}")
            c.print(f"   [b]{t('matgo.sheet.total')} {sheet['points']}점[/]")
        for p in v["payments"]:
            frm, to, why = self.names[p["from"]], self.names[p["to"]], t(f"pay.{p['reason']}")
            c.print(f"   {frm} → {to}: {p['points']}점 ({why})")

    def totals_line(self) -> str:
        return f"잔고: {self.balance():+d}점"
