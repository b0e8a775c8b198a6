"""Mahjong in the terminal: a person (seat 0) against three bots.

The screen shows every seat's wind, melds, flowers, 엎어/불러 and river, the wall count,
the person's hand sorted by suit (the tile just drawn marked), the waits of the hand —
or, while choosing a discard, the waits it would leave — and a 진팅 (jinting) warning
when one of those waits is among the person's own discards.

Keys: digits ``1``–``9``, ``0``, ``a``–``d`` or ←/→ and Enter pick a tile to discard;
numbered options answer every question (``1`` 쏘아 / ``2`` 뽕 / … / pass, 올라 or play
on, 깡 or discard, discard plain / 엎어 / 불러); ``q`` quits. Every prompt line starts
with ``▶``. Each hand ends on a settlement screen that itemises the score sheet.
"""

from __future__ import annotations

from typing import Any

from madang.bots.base import Bot, make_bot
from madang.i18n import t, with_particle
from madang.mahjong.engine import MahjongMatch, default_action, legal_actions, step
from madang.mahjong.events import Event, redact
from madang.mahjong.hand import shanten, waits
from madang.mahjong.render import (
    WIND_LABELS,
    caption,
    hand_markup,
    index_of_key,
    narrate,
    settlement_lines,
    table_lines,
    tile_label,
    tile_markup,
    tiles_markup,
)
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import ACTION_FORMS, PHASE_DISCARD, Action, HandState, act
from madang.mahjong.tiles import NUM_KINDS, parse_tile, tile_name
from madang.mahjong.view import declare_pan, discard_help, view
from madang.play.keys import ENTER, LEFT, RIGHT
from madang.play.terminal import PROMPT, TerminalSession

HUMAN = 0
NAMES = ("나", "오른쪽", "맞은편", "왼쪽")
_VERB_LABELS = {"ron": "쏘아", "pon": "뽕", "kan": "깡", "pass": "패스"}


def hand_waits(v: dict[str, Any], discard: int = -1) -> list[int] | None:
    """The waits of the viewer's hand (after discarding ``discard`` from a 3k+2 hand),
    or ``None`` when the hand is not ready."""
    me = v["players"][v["seat"]]
    counts = [0] * NUM_KINDS
    for code in me["hand"]:
        counts[parse_tile(code)] += 1
    if discard >= 0:
        counts[discard] -= 1
    melds = len(me["melds"])
    if (sum(counts) + 3 * melds) != 13:
        return None
    quad = bool(v["rules"].get("quad_as_two_pairs", False))
    if shanten(counts, melds, quad) != 0:
        return None
    return waits(counts, melds, quad)


def own_discards(v: dict[str, Any]) -> set[int]:
    """Every kind the viewer has discarded: its river and the tiles claimed from it."""
    seat = v["seat"]
    out = {parse_tile(c) for c in v["players"][seat]["river"]}
    for p in v["players"]:
        for m in p["melds"]:
            if m["from"] == seat and m["kind"] != "ankan":
                out.add(parse_tile(m["tile"]))
    return out


class MahjongTerminal(TerminalSession):
    """One session of hands against three bots, drawn on a Rich console."""

    def start(self, level: str, rules: MahjongRules | None, seed: int | None) -> None:
        self.bots: list[Bot | None] = [None] + [make_bot("mahjong", level) for _ in range(3)]
        self.match = MahjongMatch(rules, seed=seed)

    # ------------------------------------------------------------------ drawing

    def draw(self, state: HandState, prompt: str, cursor: int | None = None) -> None:
        """Redraw the whole screen with ``prompt`` on the last line."""
        v = view(state, HUMAN)
        c = self.console
        c.clear()
        c.rule(f"마작 — {self.round_text(state)}")
        c.print(self.totals_line())
        for line in table_lines(v, NAMES):
            c.print(line)
        me = v["players"][HUMAN]
        hand = me["hand"]
        c.print("[b]손패[/]  " + hand_markup(hand, cursor))
        if me["drawn"]:
            c.print(f"   가져온 패: {tile_markup(me['drawn'])}")
        self.print_waits(v, hand, cursor)
        help_ = discard_help(state, HUMAN)
        if help_:  # every discard that keeps the hand ready, and 엎어/불러 with their 판
            parts = []
            for x in help_:
                decl = [
                    t("mahjong.help_declare", name=t(f"mahjong.{d}"), pan=x[d])
                    for d in ("eopeo", "bulleo")
                    if x[d]
                ]
                waits_ = tiles_markup(x["waits"])
                parts.append(
                    f"{tile_markup(x['tile'])}→{waits_}" + (f" ({', '.join(decl)})" if decl else "")
                )
            c.print(f"   {t('mahjong.help_title')}: " + "  ".join(parts))
        c.rule("기록")
        for line in self.log[-6:]:
            c.print("  " + line)
        c.print(PROMPT + prompt)

    def print_waits(self, v: dict[str, Any], hand: list[str], cursor: int | None) -> None:
        """The waits (of the hand, or after discarding the tile under the cursor) and a
        진팅 warning."""
        discard = -1
        prefix = "대기"
        if (len(hand) + 3 * len(v["players"][HUMAN]["melds"])) % 3 == 2:
            if cursor is None:
                return
            discard = parse_tile(hand[cursor])
            prefix = f"{with_particle(tile_label(hand[cursor]), '을(를)')} 버리면 대기"
        w = hand_waits(v, discard)
        if w is None:
            return
        names = [tile_name(k) for k in w]
        line = f"   {prefix}: {tiles_markup(names, '없음')}"
        furiten = sorted(set(w) & own_discards(v))
        if furiten:
            shown = tiles_markup([tile_name(k) for k in furiten])
            line += f"  [bold red]진팅! ({shown}) 쏘아 불가[/]"
        self.console.print(line)

    def narrate(self, events: list[Event]) -> None:
        for ev in events:
            seen = redact(ev, HUMAN)
            if seen is None:
                continue
            big = caption(seen, NAMES)
            if big:  # what just happened, large: 뽕!, 쏘아!, 불러! …
                self.log.append(f"[bold reverse] {big} [/]")
            line = narrate(seen, NAMES)
            if line:
                self.log.append(line)

    # ------------------------------------------------------------------ input

    def human_claim(self, state: HandState, legal: list[Action]) -> Action:
        tile = tile_label(tile_name(state.claim_tile))
        who = NAMES[state.claim_from]
        robbing = state.phase != "claim"
        question = f"{who}의 {'가깡' if robbing else '버림패'} {tile}:"
        labels = [_VERB_LABELS[a.verb] for a in legal]
        return legal[self.choose(state, question, labels)]

    def human_turn(self, state: HandState, legal: list[Action]) -> Action:
        by_verb = {a.verb: a for a in legal}
        if "tsumo" in by_verb and self.choose(state, "올라! 나시겠습니까?", ["올라", "계속"]) == 0:
            return by_verb["tsumo"]
        discards = [a for a in legal if a.verb == "discard"]
        if state.declared[HUMAN]:
            return discards[0]  # the hand is locked: the drawn tile goes
        hand = view(state, HUMAN)["players"][HUMAN]["hand"]
        me_drawn = state.drawn
        cursor = next((i for i, c in enumerate(hand) if parse_tile(c) == me_drawn), len(hand) - 1)
        while True:
            self.draw(state, "버릴 패를 고르세요 (숫자, ←/→ Enter)", cursor)
            k = self.key()
            if k == LEFT:
                cursor = (cursor - 1) % len(hand)
                continue
            if k == RIGHT:
                cursor = (cursor + 1) % len(hand)
                continue
            if k == ENTER:
                index = cursor
            else:
                index = index_of_key(k)
                if not 0 <= index < len(hand):
                    continue
            tile = parse_tile(hand[index])
            return self.tile_options(state, legal, tile)

    def tile_options(self, state: HandState, legal: list[Action], tile: int) -> Action:
        """What to do with the chosen tile: 깡, or discard (plain, 엎어 or 불러)."""
        label = tile_label(tile_name(tile))
        same = [a for a in legal if a.tile == tile]
        kans = [a for a in same if a.verb in ("ankan", "kakan")]
        plain = next(a for a in same if a.verb == "discard" and not a.declare)
        if kans:
            kind = "암깡" if kans[0].verb == "ankan" else "가깡"
            if self.choose(state, f"{label}:", [kind, "버리기"]) == 0:
                return kans[0]
        declares = [a for a in same if a.declare]
        if not declares:
            return plain
        pans = declare_pan(state.discards_made[HUMAN] == 0)
        options = [plain, *declares]
        labels = ["그냥 버리기"] + [
            t("mahjong.toggle", name=f"버리고 {t(f'mahjong.{a.declare}')}", pan=pans[a.declare])
            for a in declares
        ]
        return options[self.choose(state, f"{with_particle(label, '을(를)')} 버리면 대기:", labels)]

    def bot_act(self, state: HandState, seat: int) -> Action:
        bot = self.bots[seat]
        assert bot is not None
        legal = [a.code for a in legal_actions(state, seat)]
        choice = bot.act(view(state, seat), list(legal), self.rng, self.budget)
        if choice not in legal:
            return default_action(state, seat)
        return act(seat, *ACTION_FORMS[choice])

    # ------------------------------------------------------------------ loop

    def play_one(self) -> None:
        state = self.match.hand
        self.log = []
        self.narrate(list(state.deal_events))
        while not state.over:
            pending = list(state.pending)
            if state.phase == PHASE_DISCARD:
                seat = pending[0]
                legal = list(legal_actions(state, seat))
                if seat == HUMAN:
                    action = self.human_turn(state, legal)
                else:
                    action = self.bot_act(state, seat)
                self.narrate(step(state, action))
                continue
            for seat in pending:
                if seat == HUMAN:
                    action = self.human_claim(state, list(legal_actions(state, seat)))
                else:
                    action = self.bot_act(state, seat)
                self.narrate(step(state, action))
        self.settlement(state)

    def settlement(self, state: HandState) -> None:
        c = self.console
        c.clear()
        c.rule("정산")
        result = view(state, HUMAN)["result"]
        for line in settlement_lines(result, NAMES):
            c.print(line)

    def advance(self) -> bool:
        return self.match.next_hand() is not None

    def round_text(self, state: HandState) -> str:
        """동장 1국 · 연장 1 · 3번째 판: the hand counter."""
        m = self.match
        repeat = 0
        for h in reversed(m.hands[:-1]):
            if h.dealer != state.dealer or h.round_wind != state.round_wind:
                break
            repeat += 1
        wind = WIND_LABELS[tile_name(state.round_wind)]
        text = t("mahjong.round", wind=wind, k=m.passes % 4 + 1)
        if repeat:
            text += " · " + t("mahjong.repeat", n=repeat)
        return text + " · " + t("mahjong.hand_no", n=len(m.hands))

    def totals_line(self) -> str:
        totals = zip(NAMES, self.match.scores, strict=True)
        return "점수: " + "  ".join(f"{n} {s:+d}" for n, s in totals)
