"""Text rendering of mahjong views and events for terminals and logs (Rich markup).

Tiles are shown with Korean labels: ``3만`` (만수), ``5통`` (통수), the winds ``동 남
서 북``, the dragons ``백 발 중``, and flowers ``춘 하 추 동`` (in their own colour).

>>> tile_label("3m"), tile_label("9p"), tile_label("1z"), tile_label("7z"), tile_label("2f")
('3만', '9통', '동', '중', '꽃하')
>>> narrate({"type": "pon", "seat": 2, "tile": "5z", "from": 1}, names=("나", "A", "B", "C"))
'B 뽕! 백 (A에게서)'
>>> caption({"type": "win", "seat": 0, "by": "ron", "tile": "5z"}, names=("나", "A", "B", "C"))
'쏘아! — 나'
>>> sort_tiles(["1z", "3p", "2m", "9m"])
['2m', '9m', '3p', '1z']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from madang.i18n import t
from madang.mahjong.tiles import parse_tile

__all__ = [
    "WIND_LABELS",
    "caption",
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


def melds_markup(melds: Sequence[Mapping[str, Any]]) -> str:
    """Declared melds: ``뽕 백백백``, ``암깡 3만×4``."""
    parts = []
    for m in melds:
        kind = m["kind"]
        size = 3 if kind == "pon" else 4
        parts.append(f"{_MELD_LABELS[kind]} {tile_markup(m['tile'])}×{size}")
    return ", ".join(parts)


def table_lines(
    v: Mapping[str, Any], names: Sequence[str] = ("나", "오른쪽", "맞은편", "왼쪽")
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
    """One line for an event dict, from the catalogue (``None`` for events not worth a
    line)."""
    ty = event["type"]
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    tile = tile_label(event["tile"]) if isinstance(event.get("tile"), str) else ""

    def name_of(s: Any) -> str:
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    if ty == "discard":
        declare = event.get("declare")
        waits = " ".join(tile_label(w) for w in event.get("waits", []))
        key = f"mahjong.ev.discard_{declare}" if declare else "mahjong.ev.discard"
        text = t(key, who=who, tile=tile, waits=waits)
        return text + (t("mahjong.double") if event.get("double") else "")
    if ty == "draw":
        return t("mahjong.ev.draw_tile", who=who, tile=tile) if tile else None
    if ty == "flower":
        return t("mahjong.ev.flower", who=who, tile=tile)
    if ty in ("pon", "kan"):
        return t(f"mahjong.ev.{ty}", who=who, tile=tile, **{"from": name_of(event.get("from"))})
    if ty in ("ankan", "kakan"):
        return t(f"mahjong.ev.{ty}", who=who, tile=tile)
    if ty == "win":
        if event["by"] == "tsumo":
            return t("mahjong.ev.win_tsumo", who=who, tile=tile, points=event["points"])
        return t(
            "mahjong.ev.win_ron",
            who=who,
            tile=tile,
            points=event["points"],
            **{"from": name_of(event.get("from"))},
        )
    if ty == "nagari":
        return t("mahjong.ev.nagari", pot=event["pot"])
    if ty == "payment":
        return t(
            "mahjong.ev.payment",
            points=event["points"],
            reason=t(f"pay.{event['reason']}"),
            **{"from": names[event["from"]], "to": names[event["to"]]},
        )
    return None


def caption(event: dict[str, Any], names: Sequence[str] = ("P0", "P1", "P2", "P3")) -> str | None:
    """The big caption an event deserves (뽕!, 깡!, 쏘아!, 올라!, 엎어!, 불러!, 나가리)."""
    ty = event["type"]
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if ty in ("pon", "kan", "ankan", "kakan"):
        return f"{t(f'mahjong.cap.{ty}')} — {who}"
    if ty == "win":
        return f"{t('mahjong.cap.tsumo' if event['by'] == 'tsumo' else 'mahjong.cap.ron')} — {who}"
    if ty == "discard" and event.get("declare"):
        return f"{t('mahjong.cap.' + event['declare'])} — {who}"
    if ty == "nagari":
        return t("mahjong.cap.nagari")
    return None


def settlement_lines(
    result: Mapping[str, Any] | None, names: Sequence[str] = ("P0", "P1", "P2", "P3")
) -> list[str]:
    """The score sheet of a finished hand (a view's ``result``): every row that makes the
    total (판 × 판당 점수, 기본 점수, 나가리 적립), who pays what, the winning hand; at
    나가리 every hand."""
    if result is None:
        return ["(아직 끝나지 않았습니다)"]
    lines: list[str] = []
    if result["nagari"]:
        lines.append(t("mahjong.sheet.nagari", pot=result["next_pot"]))
        for h in result.get("hands", []):
            melds = f"  울기: {melds_markup(h['melds'])}" if h["melds"] else ""
            lines.append(f"   {names[h['seat']]}: {tiles_markup(sort_tiles(h['hand']))}{melds}")
    for w in result["winners"]:
        how = (
            t("mahjong.sheet.win_tsumo", name=names[w["seat"]])
            if w["by"] == "tsumo"
            else t("mahjong.sheet.win_ron", name=names[w["seat"]], **{"from": names[w["from"]]})
        )
        lines.append(f"[b]{how}[/], {t('mahjong.sheet.win_tile')} {tile_markup(w['tile'])}")
        lines.append(f"   {t('mahjong.sheet.hand')}: {tiles_markup(sort_tiles(w['hand']))}")
        if w["melds"]:
            lines.append(f"   울기: {melds_markup(w['melds'])}")
        for item in w["items"]:
            lines.append(f"   {t('mahjong.pattern.' + item['name'])}: {item['pan']}판")
        lines.append(
            f"   {t('mahjong.sheet.total_pan', base=w['base_pan'], extra=w['extra_pan'])}: "
            f"{w['total_pan']}판"
        )
        if w["pan_value"] != 1:
            lines.append(f"   {t('mahjong.sheet.pan_value', n=w['pan_value'])}")
        lines.append(f"   {t('mahjong.sheet.pan_points')}: {w['pan_points']}")
        if w["base_points"]:
            lines.append(f"   {t('mahjong.sheet.base_points')}: +{w['base_points']}")
        if w["pot"]:
            lines.append(f"   {t('mahjong.sheet.pot')}: +{w['pot']}")
        lines.append(f"   [b]{t('mahjong.sheet.points')} {w['points']}점[/]")
        if w["by"] == "ron":
            pays = t("mahjong.sheet.ron_pays", n=w["ron_pays"], **{"from": names[w["from"]]})
            lines.append(f"   [b]{pays}: {w['points'] * w['ron_pays']}점[/]")
        else:
            lines.append(f"   {t('mahjong.sheet.tsumo_pays')}: {w['points']}점씩")
    for pay in result["payments"]:
        reason = t(f"pay.{pay['reason']}")
        lines.append(f"   {names[pay['from']]} → {names[pay['to']]}: {pay['points']}점 ({reason})")
    return lines
