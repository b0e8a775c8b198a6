"""Text rendering of Matgo views and events for terminals and logs (Rich markup).

>>> card_label("08g"), card_label("02r"), card_label("11d"), card_label("b3")
('8광', '2홍', '11쌍', '+3피')
>>> narrate({"type": "ppeok", "seat": 1, "month": 5, "count": 1}, names=("나", "상대"))
'상대: 뻑! (5월, 1번째)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from madang.matgo.cards import (
    ANIMAL_MASK,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    GWANG_MASK,
    HONGDAN_MASK,
    RIBBON_MASK,
    codes_of,
    mask_of,
    parse_cards,
)

_MONTH_COLOUR = {
    1: "green", 2: "magenta", 3: "bright_magenta", 4: "bright_black", 5: "blue", 6: "red",
    7: "bright_red", 8: "yellow", 9: "bright_yellow", 10: "bright_red", 11: "white",
    12: "cyan",
}  # fmt: skip

_KIND = {"g": "광", "a": "열", "d": "쌍", "p": "피"}
_RIBBON = {
    "01r": "홍", "02r": "홍", "03r": "홍", "06r": "청", "09r": "청", "10r": "청",
    "04r": "초", "05r": "초", "07r": "초", "12r": "띠",
}  # fmt: skip

WARNING_LABELS = {
    "pibak": "피박",
    "gwangbak": "광박",
    "meongtta": "멍따",
    "meongbak": "멍박",
    "gobak": "고박",
}


def card_label(code: str) -> str:
    """A short Korean label: month and kind (``8광``, ``2홍``, ``11쌍``, ``+3피``)."""
    if code.startswith("b"):
        return "+3피" if code == "b3" else "+2피"
    month = int(code[:2])
    if code in _RIBBON:
        return f"{month}{_RIBBON[code]}"
    return f"{month}{_KIND[code[2]]}"


def card_markup(code: str) -> str:
    """The label in the month's colour (Rich markup)."""
    if code.startswith("b"):
        return f"[bold white on red]{card_label(code)}[/]"
    colour = _MONTH_COLOUR[int(code[:2])]
    style = f"bold {colour}" if code[2] in "ga" or code in _RIBBON else colour
    return f"[{style}]{card_label(code)}[/]"


def cards_markup(codes: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in codes) or "-"


def pile_by_kind(codes: Sequence[str]) -> dict[str, list[str]]:
    """A captured pile grouped as a settlement screen shows it: 광, 열끗, 띠, 피."""
    m = mask_of(parse_cards(list(codes)))
    return {
        "광": codes_of(m & GWANG_MASK),
        "열끗": codes_of(m & ANIMAL_MASK),
        "띠": codes_of(m & RIBBON_MASK),
        "피": codes_of(m & ~(GWANG_MASK | ANIMAL_MASK | RIBBON_MASK)),
    }


def pi_total(codes: Sequence[str]) -> int:
    from madang.matgo.scoring import pi_count

    return pi_count(mask_of(parse_cards(list(codes))))


def dan_progress(codes: Sequence[str]) -> str:
    m = mask_of(parse_cards(list(codes)))
    parts = []
    for name, mask in (("홍단", HONGDAN_MASK), ("청단", CHEONGDAN_MASK), ("초단", CHODAN_MASK)):
        n = (m & mask).bit_count()
        if n:
            parts.append(f"{name} {n}/3")
    return " ".join(parts)


def table_lines(v: dict[str, Any], names: tuple[str, str] = ("나", "상대")) -> list[str]:
    """The table as Rich-markup lines, seen from ``v["seat"]`` (0 if a spectator)."""
    me = v["seat"] if v["seat"] is not None else 0
    opp = 1 - me
    lines = []

    def player_block(p: int, label: str) -> None:
        piles = pile_by_kind(v["captured"][p])
        head = (
            f"[b]{label}[/] 점수 {v['scores'][p]}  고 {v['go'][p]}  흔들기 {v['shakes'][p]}"
            f"  뻑 {v['ppeok'][p]}  폭탄패 {v['tokens'][p]}  손패 {v['hand_counts'][p]}장"
        )
        if p == v["dealer"]:
            head += "  [yellow](선)[/]"
        lines.append(head)
        for kind, cards in piles.items():
            extra = f" (피 {pi_total(cards)})" if kind == "피" else ""
            lines.append(f"   {kind} {len(cards)}{extra}: {cards_markup(cards)}")
        dan = dan_progress(v["captured"][p])
        if dan:
            lines.append(f"   {dan}")
        warn = [WARNING_LABELS[w] for w in v["warnings"][p]]
        if warn:
            lines.append(f"   [bold red]위험: {' '.join(warn)}[/]")
        if v["revealed"][p]:
            lines.append(f"   보인 패: {cards_markup(v['revealed'][p])}")

    player_block(opp, names[1])
    lines.append("")
    floor = []
    for group in v["floor"]:
        s = cards_markup(group["cards"] + group["bonus"])
        if group["ppeok"] is not None:
            s = f"[reverse]{s}[/](뻑)"
        floor.append(f"{group['month']}월: {s}")
    lines.append(f"[b]바닥[/]  더미 {v['pile']}장")
    lines.append("   " + ("   ".join(floor) or "(비어 있음)"))
    if v["turn"]["flipped"]:
        lines.append(f"   뒤집은 패: {card_markup(v['turn']['flipped'])}")
    if v["mission"]:
        lines.append(f"   미션: {v['mission']}")
    if v["carry"] > 1:
        lines.append(f"   [yellow]나가리 x{v['carry']}[/]")
    lines.append("")
    player_block(me, names[0])
    if "hand" in v:
        lines.append(f"   손패: {cards_markup(v['hand'])}")
    return lines


def narrate(event: dict[str, Any], names: tuple[str, str] = ("P0", "P1")) -> str | None:
    """One line of commentary for an event dict (``None`` for events not worth a line)."""
    t = event["type"]
    who = names[event["seat"]] if "seat" in event and event["seat"] in (0, 1) else ""
    card = card_label(event["card"]) if "card" in event else ""
    texts = {
        "play": f"{who}: {card} 냄",
        "bonus_play": f"{who}: 보너스 {card} 사용",
        "draw": f"{who}: 한 장 받음" + (f" ({card})" if card else ""),
        "flip": f"{who}: 뒤집기 {card}",
        "pick": f"{who}: {card} 선택",
        "shake": f"{who}: 흔들기! ({event.get('month')}월)",
        "bomb": f"{who}: 폭탄! ({event.get('month')}월)",
        "token_flip": f"{who}: 폭탄패로 뒤집기만",
        "ppeok": f"{who}: 뻑! ({event.get('month')}월, {event.get('count')}번째)",
        "jjok": f"{who}: 쪽!",
        "ttadak": f"{who}: 따닥!",
        "sseul": f"{who}: 싹쓸이!",
        "take_stack": f"{who}: {event.get('month')}월 더미를 가져감",
        "steal": f"{who}: 피 한 장 뺏음 ({card})",
        "go": f"{who}: {event.get('count')}고! ({event.get('score')}점)",
        "stop": f"{who}: 스톱! ({event.get('score')}점)",
        "chongtong": f"{who}: 총통!",
        "gukjin_fixed": f"{who}: 국진을 {'쌍피' if event.get('as') == 'pi' else '열끗'}로",
    }
    if t == "payment":
        payer, payee = names[event["from"]], names[event["to"]]
        return f"{payer} → {payee}: {event['points']}점 ({event['reason']})"
    if t == "end":
        if event["winner"] is None:
            return "나가리!" if event["reason"] == "nagari" else f"게임 끝 ({event['reason']})"
        return f"{names[event['winner']]} 승리! {event['points']}점"
    return texts.get(t)
