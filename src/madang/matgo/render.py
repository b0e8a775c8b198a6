"""Text rendering of Matgo views and events for terminals and logs (Rich markup).

>>> card_label("08g"), card_label("02r"), card_label("11d"), card_label("b3")
('8광', '2홍', '11쌍', '+3피')
>>> narrate({"type": "ppeok", "seat": 1, "month": 5, "count": 1}, names=("나", "상대"))
'상대 뻑! (5월, 1번째)'
>>> caption({"type": "go", "seat": 0, "count": 2, "score": 9}, names=("나", "상대"))
'2고! — 나'

Every word comes from the message catalogue (:mod:`madang.i18n`), as in the browser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from madang.i18n import MissingMessage, t
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

_RIBBON = {
    "01r": "hong", "02r": "hong", "03r": "hong", "06r": "cheong", "09r": "cheong",
    "10r": "cheong", "04r": "cho", "05r": "cho", "07r": "cho", "12r": "r",
}  # fmt: skip

WARNING_LABELS = {
    k: t(f"matgo.warn.{k}") for k in ("pibak", "gwangbak", "meongtta", "meongbak", "gobak")
}


def _warning_label(key: str, default: str) -> str:
    """The catalogue's label of a warning, or ``default`` where it has none yet."""
    try:
        return t(f"matgo.warn.{key}")
    except MissingMessage:
        return default


#: 고스톱's 독박 (a 고 caller pays every share) in place of 고박 (``view.help_of``).
WARNING_LABELS["dokbak"] = _warning_label("dokbak", "독박 위험")


def card_label(code: str) -> str:
    """A short Korean label: month and kind (``8광``, ``2홍``, ``11쌍``, ``+3피``)."""
    if code.startswith("b"):
        return t("matgo.short.b3" if code == "b3" else "matgo.short.b2")
    month = int(code[:2])
    kind = _RIBBON.get(code, code[2])
    return f"{month}{t(f'matgo.short.{kind}')}"


def cards_label(codes: Sequence[str]) -> str:
    """Several short labels."""
    return " ".join(card_label(c) for c in codes)


def card_markup(code: str) -> str:
    """The label in the month's colour (Rich markup)."""
    if code.startswith("b"):
        return f"[bold white on red]{card_label(code)}[/]"
    colour = _MONTH_COLOUR[int(code[:2])]
    style = f"bold {colour}" if code[2] in "gar" else colour
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


def _pile_lines(v: Mapping[str, Any], p: int, last: set[str]) -> list[str]:
    """The four piles of seat ``p``, 국진 where it counts for its holder (D7)."""
    codes = v["captured"][p]
    as_pi = (v.get("gukjin_as") or [None] * len(v["captured"]))[p] == "pi"
    piles = pile_by_kind(codes)
    if as_pi and "09a" in piles["열끗"]:
        piles["열끗"].remove("09a")
        piles["피"].append("09a")
    out = []
    for kind, cards in piles.items():
        shown = " ".join(
            f"[underline]{card_markup(c)}[/]◀" if c in last else card_markup(c) for c in cards
        )
        extra = ""
        if kind == "피":
            from madang.matgo.scoring import pi_count

            extra = f" (피 {pi_count(mask_of(parse_cards(list(cards))), as_pi)})"
        out.append(f"   {kind} {len(cards)}{extra}: {shown or '-'}")
    return out


def score_line(v: Mapping[str, Any], p: int) -> str:
    """Points per category, 족보 progress, the multipliers in force and how 국진 counts."""
    parts = [f"{t('matgo.jokbo.' + i['name'])} {i['points']}" for i in v["score_items"][p]]
    prog = v["progress"][p]
    parts += [
        t(f"matgo.prog.{k}", n=prog[k])
        for k in ("godori", "hongdan", "cheongdan", "chodan")
        if prog[k]
    ]
    for m in v["in_force"][p]:
        parts.append(f"[bold]{multiplier_name(m)} x{m['factor']}[/]")
    ga = v["gukjin_as"][p]
    if ga:
        parts.append(t("matgo.gukjin_pi" if ga == "pi" else "matgo.gukjin_animal"))
    return "   " + " · ".join(parts) if parts else ""


def multiplier_name(m: dict[str, Any]) -> str:
    """The name of a multiplier (of a sheet, or of the view's ``in_force``)."""
    name = m["name"]
    if name == "go":
        return t("matgo.mult.go", n=m.get("count", int(m["factor"]).bit_length() + 1))
    if name.startswith("mission_"):
        return t("matgo.mult.mission", name=t(f"matgo.mission.{name[8:]}"))
    return t(f"matgo.mult.{name}")


def mission_line(v: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """미션: its cards, multiplier and how many of them each seat holds (``names`` in the
    order of :func:`_seats`: the viewer first)."""
    info = v.get("mission_info")
    if not info:
        return None
    head = t(
        "matgo.mission_line", name=t(f"matgo.mission.{info['name']}"), factor=info["multiplier"]
    )
    held = [
        t("matgo.mission_done", name=names[i])
        if info["done"][s]
        else t("matgo.mission_held", name=names[i], k=len(info["held"][s]), n=len(info["cards"]))
        for i, s in enumerate(_seats(v))
    ]
    return f"   [bold yellow]{head}[/]: {cards_markup(info['cards'])}  ({', '.join(held)})"


def _seats(v: Mapping[str, Any]) -> tuple[int, ...]:
    """The viewer's seat (0 for a spectator), then the others in turn order after it."""
    me = v["seat"] if v["seat"] is not None else 0
    n = len(v["hand_counts"])
    return tuple((me + i) % n for i in range(n))


def table_lines(v: Mapping[str, Any], names: Sequence[str] = ("나", "상대")) -> list[str]:
    """The table as Rich-markup lines, seen from ``v["seat"]`` (0 if a spectator), with
    the help a person reads (:func:`madang.matgo.view.annotate`, added if ``v`` has none).
    ``names``: the viewer's, then each other seat's in turn order after it; the other
    seats are drawn above the floor, the one playing last at the top."""
    from madang.matgo.view import HELP_KEYS, help_of

    if HELP_KEYS[0] not in v:
        v = {**v, **help_of(v)}
    me, *others = _seats(v)
    lines = []
    last = {c for c in v.get("last_played", []) if c}

    def player_block(p: int, label: str) -> None:
        head = (
            f"[b]{label}[/] 점수 {v['scores'][p]}  고 {v['go'][p]}  흔들기 {v['shakes'][p]}"
            f"  뻑 {v['ppeok'][p]}  폭탄패 {v['tokens'][p]}  손패 {v['hand_counts'][p]}장"
        )
        if p == v["dealer"]:
            head += "  [yellow](선)[/]"
        lines.append(head)
        detail = score_line(v, p)
        if detail:
            lines.append(detail)
        lines.extend(_pile_lines(v, p, last))
        warn = [WARNING_LABELS[w] for w in v["warnings"][p]]
        if warn:
            lines.append(f"   [bold red]위험: {' '.join(warn)}[/]")
        if v["revealed"][p]:
            lines.append(f"   보인 패: {cards_markup(v['revealed'][p])}")

    for i in range(len(others), 0, -1):
        player_block(others[i - 1], names[i])
        lines.append("")
    floor = []
    for group in v["floor"]:
        s = " ".join(
            f"[underline]{card_markup(c)}[/]◀" if c in last else card_markup(c)
            for c in group["cards"] + group["bonus"]
        )
        if group["ppeok"] is not None:
            s = f"[reverse]{s}[/](뻑)"
        floor.append(f"{group['month']}월: {s}")
    lines.append(f"[b]바닥[/]  더미 {v['pile']}장   (◀ {t('matgo.last')})")
    lines.append("   " + ("   ".join(floor) or "(비어 있음)"))
    if v["turn"]["flipped"]:
        lines.append(f"   뒤집은 패: {card_markup(v['turn']['flipped'])}")
    ml = mission_line(v, names)
    if ml:
        lines.append(ml)
    if v["carry"] > 1:
        lines.append(f"   [yellow]{t('matgo.carry', n=v['carry'])}[/]")
    lines.append("")
    player_block(me, names[0])
    if "hand" in v:
        lines.append(f"   손패: {cards_markup(v['hand'])}")
    return lines


def narrate(event: dict[str, Any], names: Sequence[str] = ("P0", "P1")) -> str | None:
    """One line for an event dict, from the catalogue (``None`` for events not worth a
    line: the deal, and the capture that the play and flip lines already tell)."""
    ty = event["type"]
    seat = event.get("seat")
    who = names[seat] if seat is not None and 0 <= seat < len(names) else ""
    card = card_label(event["card"]) if "card" in event else ""
    if ty in ("deal", "capture"):
        return None
    if ty == "draw":
        return t("matgo.ev.draw_card", who=who, card=card) if card else t("matgo.ev.draw", who=who)
    if ty == "payment":
        return t(
            "matgo.ev.payment",
            **{"from": names[event["from"]], "to": names[event["to"]]},
            points=event["points"],
            reason=t(f"pay.{event['reason']}"),
        )
    if ty == "end":
        reason = t(f"matgo.end.{event['reason']}")
        if event["winner"] is None:
            return t("matgo.ev.end_none", reason=reason)
        return t(
            "matgo.ev.end", winner=names[event["winner"]], points=event["points"], reason=reason
        )
    params: dict[str, Any] = {"who": who, "card": card}
    for k in ("month", "count", "score"):
        if k in event:
            params[k] = event[k]
    if ty in ("steal", "steal_none"):
        params["victim"] = names[event["victim"]]
        params["reason"] = t(f"matgo.steal.{event['reason']}")
    elif ty == "redeal":
        params["reason"] = t(f"matgo.redeal.{event['reason']}")
    elif ty == "chongtong":
        params["months"] = ", ".join(t("matgo.month_n", month=m) for m in event["months"])
    elif ty == "gukjin_fixed":
        params["as"] = t(f"matgo.as.{event['as']}")
    elif ty == "token_flip":
        params["n"] = event["tokens_left"]
    elif ty == "floor_bonus":
        params["who"] = names[event["seat"]]
    return t(f"matgo.ev.{ty}", **params)


_CAPTIONS = frozenset(
    ("ppeok", "jjok", "ttadak", "sseul", "shake", "bomb", "chongtong", "stop", "take_stack")
)


def caption(event: dict[str, Any], names: Sequence[str] = ("P0", "P1")) -> str | None:
    """The big caption an event deserves (뻑!, 쪽!, 따닥!, 싹쓸이!, 흔들기!, 폭탄!, 총통!,
    N고!, 스톱!), with who made it; ``None`` for the others."""
    ty = event["type"]
    seat = event.get("seat")
    who = names[seat] if seat is not None and 0 <= seat < len(names) else ""
    if ty == "go":
        return f"{t('matgo.cap.go', n=event['count'])} — {who}"
    if ty in _CAPTIONS:
        return f"{t(f'matgo.cap.{ty}')} — {who}"
    if ty == "end" and event["reason"] == "nagari":
        return t("matgo.cap.nagari")
    return None
