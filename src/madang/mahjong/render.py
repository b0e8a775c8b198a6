"""Text rendering of mahjong views and events for terminals and logs (Rich markup).

Tiles are shown with Korean labels: ``3만`` (만수), ``5통`` (통수), the winds ``동 남
서 북``, the dragons ``백 발 중``, and flowers ``춘 하 추 동`` (in their own colour).

>>> tile_label("3m"), tile_label("9p"), tile_label("1z"), tile_label("7z"), tile_label("2f")
('3만', '9통', '동', '중', '꽃하')
>>> narrate({"type": "pon", "seat": 2, "tile": "5z", "from": 1}, names=("나", "A", "B", "C"))
'B: 뽕! 백 (A에게서)'
>>> sort_tiles(["1z", "3p", "2m", "9m"])
['2m', '9m', '3p', '1z']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from madang.mahjong.tiles import parse_tile

__all__ = [
    "WIND_LABELS",
    "hand_markup",
    "index_of_key",
    "key_of",
    "melds_markup",
    "narrate",
    "settlement_lines",
    "sort_tiles",
    "table_lines",
    "tile_label",
    "tile_markup",
    "tiles_markup",
]

_HONORS: Final = ("동", "남", "서", "북", "백", "발", "중")
_FLOWERS: Final = ("꽃춘", "꽃하", "꽃추", "꽃동")
WIND_LABELS: Final = {"1z": "동", "2z": "남", "3z": "서", "4z": "북"}
"""자기 바람 (jagi baram) / 판 바람 labels of the wind tiles."""
_MELD_LABELS: Final = {"pon": "뽕", "kan": "깡", "ankan": "암깡"}
_STYLE: Final = {"m": "red", "p": "cyan", "z": "bold white", "f": "magenta"}


def tile_label(code: str) -> str:
    """The Korean label of a tile code (``"3m"`` -> ``3만``)."""
    n, suit = int(code[:-1]), code[-1]
    if suit == "m":
        return f"{n}만"
    if suit == "p":
        return f"{n}통"
    if suit == "z":
        return _HONORS[n - 1]
    return _FLOWERS[n - 1]


def tile_markup(code: str) -> str:
    """The label in its suit's colour (Rich markup)."""
    return f"[{_STYLE[code[-1]]}]{tile_label(code)}[/]"


def tiles_markup(codes: Sequence[str], empty: str = "-") -> str:
    """Several tiles, separated by spaces."""
    return " ".join(tile_markup(c) for c in codes) or empty


def sort_tiles(codes: Sequence[str]) -> list[str]:
    """Tile codes sorted by suit (만 통 자) and number."""
    return sorted(codes, key=parse_tile)


def hand_markup(codes: Sequence[str], cursor: int | None = None, numbered: bool = True) -> str:
    """A hand as ``1:3만 2:4만 …`` (digits pick a tile; ``0`` is the tenth, then ``a``…),
    the tile under ``cursor`` in reverse video."""
    items = []
    for i, code in enumerate(codes):
        label = tile_markup(code)
        if numbered:
            label = f"{key_of(i)}:{label}"
        if cursor == i:
            label = f"[reverse]{label}[/]"
        items.append(label)
    return " ".join(items)


_KEYS: Final = "1234567890abcd"


def key_of(index: int) -> str:
    """The key that picks the tile at ``index`` of the hand (``1``–``9``, ``0``, ``a``–``d``)."""
    return _KEYS[index]


def index_of_key(key: str) -> int:
    """The hand index a key picks, or -1."""
    return _KEYS.find(key) if len(key) == 1 else -1


def melds_markup(melds: Sequence[dict[str, Any]]) -> str:
    """Declared melds: ``뽕 백백백``, ``암깡 3만×4``."""
    parts = []
    for m in melds:
        kind = m["kind"]
        size = 3 if kind == "pon" else 4
        parts.append(f"{_MELD_LABELS[kind]} {tile_markup(m['tile'])}×{size}")
    return ", ".join(parts)


def table_lines(
    v: dict[str, Any], names: Sequence[str] = ("나", "오른쪽", "맞은편", "왼쪽")
) -> list[str]:
    """The table as Rich-markup lines, seen from ``v["seat"]`` (seat 0 for a spectator):
    for every seat its wind, concealed count, melds, flowers, declaration and river;
    then the wall count."""
    me = v["seat"] if v["seat"] is not None else 0
    lines = [
        f"[b]판 바람[/] {WIND_LABELS.get(v['round_wind'], v['round_wind'])}   "
        f"[b]패산[/] {v['wall_count']}장   나가리 판돈 {v['pot']}"
    ]
    for i in (1, 2, 3, 0):
        s = (me + i) % 4
        p = v["players"][s]
        head = f"[b]{names[i]}[/] ({WIND_LABELS[p['wind']]})"
        if s == v["dealer"]:
            head += " [yellow]선[/]"
        head += f"  손패 {p['concealed']}장"
        if p["declared"] == "eopeo":
            head += "  [bold red]엎어![/]"
        elif p["declared"] == "bulleo":
            head += f"  [bold red]불러! 대기: {tiles_markup(p['waits'] or [])}[/]"
        if s == v["turn"] and v["phase"] != "over":
            head += "  ◀ 차례"
        lines.append(head)
        if p["melds"]:
            lines.append(f"   울기: {melds_markup(p['melds'])}")
        if p["flowers"]:
            lines.append(f"   꽃: {tiles_markup(p['flowers'])}")
        lines.append(f"   버림: {tiles_markup(p['river'])}")
    return lines


def narrate(event: dict[str, Any], names: Sequence[str] = ("P0", "P1", "P2", "P3")) -> str | None:
    """One line of commentary for an event dict (``None`` for events not worth a line)."""
    t = event["type"]
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    tile = tile_label(event["tile"]) if isinstance(event.get("tile"), str) else ""
    if t == "discard":
        text = f"{who}: {tile} 버림"
        if event.get("declare") == "eopeo":
            text += " — 엎어!" + (" (부지부)" if event.get("double") else "")
        elif event.get("declare") == "bulleo":
            waits = " ".join(tile_label(w) for w in event.get("waits", []))
            text += f" — 불러! 대기 {waits}" + (" (부지부)" if event.get("double") else "")
        return text
    if t == "draw":
        return f"{who}: {tile} 가져옴" if tile else None
    if t == "flower":
        return f"{who}: 꽃 {tile}"
    if t in ("pon", "kan"):
        frm = event.get("from")
        src = names[frm] if isinstance(frm, int) and 0 <= frm < len(names) else "?"
        return f"{who}: {'뽕' if t == 'pon' else '깡'}! {tile} ({src}에게서)"
    if t == "ankan":
        return f"{who}: 암깡! {tile}"
    if t == "kakan":
        return f"{who}: 가깡! {tile}"
    if t == "win":
        how = "올라" if event["by"] == "tsumo" else "쏘아"
        return f"{who}: {how}! {tile} — {event['points']}점"
    if t == "nagari":
        return f"나가리! (판돈 {event['pot']})"
    if t == "payment":
        payer, payee = names[event["from"]], names[event["to"]]
        return f"{payer} → {payee}: {event['points']}점"
    return None


def settlement_lines(
    result: dict[str, Any] | None, names: Sequence[str] = ("P0", "P1", "P2", "P3")
) -> list[str]:
    """The score sheet of a finished hand (a view's ``result``), itemised."""
    if result is None:
        return ["(아직 끝나지 않았습니다)"]
    if result["nagari"]:
        return [f"나가리 — 판돈 {result['next_pot']}점이 다음 판으로"]
    lines: list[str] = []
    for w in result["winners"]:
        how = "올라" if w["by"] == "tsumo" else f"쏘아 ({names[w['from']]}의 버림패)"
        lines.append(f"[b]{names[w['seat']]} 승리[/] — {how}, 화료패 {tile_markup(w['tile'])}")
        lines.append(f"   손패: {tiles_markup(sort_tiles(w['hand']))}")
        if w["melds"]:
            lines.append(f"   울기: {melds_markup(w['melds'])}")
        for item in w["items"]:
            lines.append(f"   {item['name_ko']}: {item['pan']}판")
        lines.append(
            f"   기본판 {w['base_pan']}  부가판 {w['extra_pan']}  기본점수 {w['base_points']}"
        )
        lines.append(f"   [b]합계 {w['points']}점[/]")
    for pay in result["payments"]:
        lines.append(f"   {names[pay['from']]} → {names[pay['to']]}: {pay['points']}점")
    return lines
