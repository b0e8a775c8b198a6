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

from collections.abc import Mapping
from typing import Any

from madang.i18n import t, with_particle
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
from madang.mahjong.tiles import NUM_KINDS, parse_tile, tile_name
from madang.mahjong.view import MahjongTableView, MahjongView
from madang.play.keys import ENTER, LEFT, RIGHT
from madang.play.terminal import HUMAN, PROMPT, TerminalSession

NAMES = ("나", "오른쪽", "맞은편", "왼쪽")
_VERB_LABELS = {"ron": "쏘아", "pon": "뽕", "kan": "깡", "pass": "패스"}


def hand_waits(v: Mapping[str, Any], discard: int = -1) -> list[int] | None:
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


def own_discards(v: Mapping[str, Any]) -> set[int]:
    """Every kind the viewer has discarded: its river and the tiles claimed from it."""
    seat = v["seat"]
    out = {parse_tile(c) for c in v["players"][seat]["river"]}
    for p in v["players"]:
        for m in p["melds"]:
            if m["from"] == seat and m["kind"] != "ankan":
                out.add(parse_tile(m["tile"]))
    return out


def _words(move: str) -> list[str]:
    """A move of the notation as its words: the verb, then the tile and the declaration
    where it has them (``discard 3m bulleo``)."""
    return move.split()


class MahjongTerminal(TerminalSession[MahjongView, MahjongTableView]):
    """One session of hands against three bots, drawn on a Rich console."""

    game = "mahjong"
    title = "마작"
    names = NAMES

    def shown(self) -> MahjongTableView:
        """The person's view with the help the table adds (legal moves, discard help)."""
        return self.session.annotate(self.session.view(HUMAN), HUMAN)

    # ------------------------------------------------------------------ drawing

    def draw(self, prompt: str, cursor: int | None = None) -> None:
        """Redraw the whole screen with ``prompt`` on the last line."""
        v = self.shown()
        c = self.console
        c.clear()
        c.rule(f"마작 — {self.round_text(v)}")
        c.print(self.totals_line())
        for line in table_lines(v, NAMES):
            c.print(line)
        me = v["players"][HUMAN]
        hand = me["hand"] or []
        c.print("[b]손패[/]  " + hand_markup(hand, cursor))
        if me["drawn"]:
            c.print(f"   가져온 패: {tile_markup(me['drawn'])}")
        self.print_waits(v, hand, cursor)
        help_ = v["help"]
        if help_:  # every discard that keeps the hand ready, and 엎어/불러 with their 판
            parts = []
            for x in help_:
                decl = [
                    t("mahjong.help_declare", name=t(f"mahjong.{d}"), pan=pan)
                    for d, pan in (("eopeo", x["eopeo"]), ("bulleo", x["bulleo"]))
                    if pan
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

    def print_waits(self, v: MahjongView, hand: list[str], cursor: int | None) -> None:
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

    def describe(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        return caption(event, NAMES), narrate(event, NAMES)

    # ------------------------------------------------------------------ input

    def human_move(self, seat: int) -> str:
        s = self.session
        legal = [s.action_to_string(a) for a in s.legal(seat)]
        v = s.view(HUMAN)
        if v["phase"] == "discard":
            return self.human_turn(v, legal)
        return self.human_claim(v, legal)

    def human_claim(self, v: MahjongView, legal: list[str]) -> str:
        claim = v["claim"]
        assert claim is not None  # (a claim window's view names the tile offered)
        tile = tile_label(claim["tile"])
        who = NAMES[claim["from"]]
        robbing = v["phase"] != "claim"
        question = f"{who}의 {'가깡' if robbing else '버림패'} {tile}:"
        labels = [_VERB_LABELS[_words(m)[0]] for m in legal]
        return legal[self.choose(question, labels)]

    def human_turn(self, v: MahjongView, legal: list[str]) -> str:
        by_verb = {_words(m)[0]: m for m in legal}
        if "tsumo" in by_verb and self.choose("올라! 나시겠습니까?", ["올라", "계속"]) == 0:
            return by_verb["tsumo"]
        me = v["players"][HUMAN]
        if me["declared"]:
            discards = [m for m in legal if _words(m)[0] == "discard"]
            return discards[0]  # the hand is locked: the drawn tile goes
        hand = me["hand"] or []
        cursor = next((i for i, c in enumerate(hand) if c == me["drawn"]), len(hand) - 1)
        while True:
            self.draw("버릴 패를 고르세요 (숫자, ←/→ Enter)", cursor)
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
            return self.tile_options(legal, hand[index])

    def tile_options(self, legal: list[str], tile: str) -> str:
        """What to do with the chosen tile: 깡, or discard (plain, 엎어 or 불러); a tile
        that cannot be discarded now is discarded all the same, and the game says why."""
        label = tile_label(tile)
        same = [m for m in legal if _words(m)[1:2] == [tile]]
        kans = [m for m in same if _words(m)[0] in ("ankan", "kakan")]
        plain = f"discard {tile}"
        if kans:
            kind = "암깡" if _words(kans[0])[0] == "ankan" else "가깡"
            if self.choose(f"{label}:", [kind, "버리기"]) == 0:
                return kans[0]
        declares = [m for m in same if _words(m)[0] == "discard" and len(_words(m)) == 3]
        if not declares:
            return plain
        help_ = self.shown()["help"] or []
        pans = next((h for h in help_ if h["tile"] == tile), None)
        options = [plain, *declares]
        labels = ["그냥 버리기"]
        for m in declares:
            declare = _words(m)[2]
            pan = pans.get(declare) if pans is not None else None
            name = f"버리고 {t(f'mahjong.{declare}')}"
            labels.append(t("mahjong.toggle", name=name, pan=pan))
        return options[self.choose(f"{with_particle(label, '을(를)')} 버리면 대기:", labels)]

    # ------------------------------------------------------------------ the hand

    def settlement(self) -> None:
        c = self.console
        c.clear()
        c.rule("정산")
        result = self.session.view(HUMAN)["result"]
        for line in settlement_lines(result, NAMES):
            c.print(line)

    def round_text(self, v: MahjongView) -> str:
        """동장 1국 · 연장 1 · 3번째 판: the hand counter."""
        m = v["match"]
        wind = WIND_LABELS[v["round_wind"]]
        text = t("mahjong.round", wind=wind, k=m["kyoku"])
        if m["repeat"]:
            text += " · " + t("mahjong.repeat", n=m["repeat"])
        return text + " · " + t("mahjong.hand_no", n=m["hand_no"])

    def totals_line(self) -> str:
        totals = zip(NAMES, self.scores(), strict=True)
        return "점수: " + "  ".join(f"{n} {s:+d}" for n, s in totals)
