"""Generator of ``_tables.py``: the precomputed shanten tables (development tool).

Run ``python3 -m madang.mahjong._tablegen`` after changing the table definitions; a test
regenerates the tables and checks that the checked-in module is up to date. Needs numpy
(a development dependency only: the package reads the generated module without it).

What is computed (see docs/mahjong-hand-analysis.md):

* For every suit count vector ``v`` (9 entries 0–4, at most 14 tiles, base-5 key
  ``sum(v[i] * 5**i)``) and every target ``(m, p)`` (m sets, 0–4; p pairs, 0–1) the
  exact distance ``D[v][m, p] = min_H sum_k max(0, H[k] - v[k])`` over every pattern ``H``
  of one suit made of m sets and p pairs with at most four of each kind. The 10-vectors
  take only 126 distinct values ("suit profiles").
* The same for the seven honor kinds (no runs): 55 distinct "honor profiles".
* ``MP``: the min-plus combination of a man and a pin profile (180 distinct results).
* ``FIN``: for a combined man+pin profile, an honor profile and the number of declared
  melds, the distance of the whole hand to a complete one (4 − melds sets and a pair).
"""

from __future__ import annotations

import base64
import itertools
import lzma
import sys
from pathlib import Path
from typing import Any

SUIT_KEYS = 5**9
HONOR_KEYS = 5**7
TARGETS = 10  # index m * 2 + p
INVALID = 255
INF = 99

Vec = tuple[int, ...]


def _np() -> Any:
    import numpy

    return numpy


def _digits(nkeys: int, width: int) -> Any:
    np = _np()
    keys = np.arange(nkeys, dtype=np.int64)
    dig = np.zeros((nkeys, width), dtype=np.int16)
    for i in range(width):
        dig[:, i] = keys % 5
        keys //= 5
    return dig


def _suit_patterns(m: int, p: int) -> list[int]:
    """Base-5 keys of every one-suit pattern of m sets and p pairs (≤ 4 of a kind)."""
    sets = [(i, i, i) for i in range(9)] + [(i, i + 1, i + 2) for i in range(7)]
    out: set[int] = set()
    for combo in itertools.combinations_with_replacement(range(len(sets)), m):
        base = [0] * 9
        for s in combo:
            for k in sets[s]:
                base[k] += 1
        for pair in [None] if p == 0 else list(range(9)):
            v = list(base)
            if pair is not None:
                v[pair] += 2
            if max(v) <= 4:
                out.add(sum(c * 5**i for i, c in enumerate(v)))
    return sorted(out)


def suit_distances() -> Any:
    """``D`` as an array (5**9, 10); rows of vectors with more than 14 tiles are 0."""
    np = _np()
    dig = _digits(SUIT_KEYS, 9)
    tot = dig.sum(axis=1)
    steps = [5**i for i in range(9)]
    dist = np.zeros((SUIT_KEYS, TARGETS), dtype=np.int16)
    for m in range(5):
        for p in range(2):
            size = 3 * m + 2 * p
            member = np.zeros(SUIT_KEYS, dtype=bool)  # v is below some pattern
            member[_suit_patterns(m, p)] = True
            for s in range(size, 0, -1):
                idx = np.nonzero(member & (tot == s))[0]
                for i in range(9):
                    sel = idx[dig[idx, i] > 0]
                    member[sel - steps[i]] = True
            overlap = np.where(member, tot, 0).astype(np.int16)  # max |u|, u <= v, u member
            for s in range(1, 15):
                idx = np.nonzero((tot == s) & ~member)[0]
                for i in range(9):
                    sel = idx[dig[idx, i] > 0]
                    overlap[sel] = np.maximum(overlap[sel], overlap[sel - steps[i]])
            dist[:, m * 2 + p] = size - overlap
    dist[tot > 14] = 0
    return dist


def _combine(a: Vec, b: Vec) -> Vec:
    """Min-plus combination of two 10-vectors (sets add up to ≤ 4, pairs to ≤ 1)."""
    out = [INF] * TARGETS
    for m1 in range(5):
        for p1 in range(2):
            x = a[m1 * 2 + p1]
            for m2 in range(5 - m1):
                for p2 in range(2 - p1):
                    j = (m1 + m2) * 2 + p1 + p2
                    y = x + b[m2 * 2 + p2]
                    if y < out[j]:
                        out[j] = y
    return tuple(out)


def honor_distances() -> Any:
    """``D`` for the honors as an array (5**7, 10): each kind alone is a triplet or a pair."""
    np = _np()
    dig = _digits(HONOR_KEYS, 7)
    acc = np.full((HONOR_KEYS, TARGETS), INF, dtype=np.int16)
    acc[:, 0] = 0
    for i in range(7):
        c = dig[:, i]
        one = np.full((HONOR_KEYS, TARGETS), INF, dtype=np.int16)
        one[:, 0] = 0
        one[:, 1] = np.maximum(0, 2 - c)  # a pair of this kind
        one[:, 2] = np.maximum(0, 3 - c)  # a triplet of this kind
        new = np.full((HONOR_KEYS, TARGETS), INF, dtype=np.int16)
        for m1 in range(5):
            for p1 in range(2):
                for m2 in range(5 - m1):
                    for p2 in range(2 - p1):
                        j = (m1 + m2) * 2 + p1 + p2
                        new[:, j] = np.minimum(new[:, j], acc[:, m1 * 2 + p1] + one[:, m2 * 2 + p2])
        acc = new
    acc[dig.sum(axis=1) > 14] = 0
    return acc


def _profiles(dist: Any, width: int) -> tuple[bytes, list[Vec]]:
    """Map every key to a profile id (``INVALID`` for over 14 tiles) and list the profiles."""
    np = _np()
    valid = _digits(len(dist), width).sum(axis=1) <= 14
    profs, inverse = np.unique(dist[valid], axis=0, return_inverse=True)
    table = np.full(len(dist), INVALID, dtype=np.uint8)
    table[valid] = inverse.reshape(-1)
    return table.tobytes(), [tuple(int(x) for x in row) for row in profs]


def build() -> dict[str, Any]:
    """Compute every table; returns plain bytes and tuples."""
    suit_table, suit_profs = _profiles(suit_distances(), 9)
    honor_table, honor_profs = _profiles(honor_distances(), 7)
    combined: dict[Vec, int] = {}
    mp = bytearray()
    for a in suit_profs:
        for b in suit_profs:
            mp.append(combined.setdefault(_combine(a, b), len(combined)))
    fin = bytearray()
    for q in combined:
        for h in honor_profs:
            both = _combine(q, h)
            for melds in range(5):
                fin.append(both[(4 - melds) * 2 + 1])
    assert len(suit_profs) < 256 and len(combined) < 256 and len(honor_profs) < 256
    return {
        "SUIT": suit_table,
        "HONOR": honor_table,
        "MP": bytes(mp),
        "FIN": bytes(fin),
        "SUIT_PROFILES": suit_profs,
        "HONOR_PROFILES": honor_profs,
        "N_COMBINED": len(combined),
    }


def _blob(data: bytes) -> str:
    text = base64.b85encode(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)).decode()
    lines = [text[i : i + 88] for i in range(0, len(text), 88)]
    return "(\n" + "".join(f'    "{line}"\n' for line in lines) + ")"


def render(tables: dict[str, Any]) -> str:
    """The source text of ``_tables.py``."""
    out = [
        '"""Precomputed shanten tables. GENERATED by ``python3 -m madang.mahjong._tablegen``:',
        "do not edit. See ``_tablegen.py`` for what they hold.",
        '"""',
        "",
        "# fmt: off",
        f"N_SUIT_PROFILES = {len(tables['SUIT_PROFILES'])}",
        f"N_HONOR_PROFILES = {len(tables['HONOR_PROFILES'])}",
        f"N_COMBINED = {tables['N_COMBINED']}",
        "",
    ]
    for name in ("SUIT", "HONOR", "MP", "FIN"):
        out.append(f"{name} = {_blob(tables[name])}")
        out.append("")
    for name in ("SUIT_PROFILES", "HONOR_PROFILES"):
        out.append(f"{name} = (")
        out.extend(f"    {row!r}," for row in tables[name])
        out.append(")")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Write ``_tables.py`` next to this file (or to the path given)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else Path(__file__).with_name("_tables.py")
    tables = build()
    path.write_text(render(tables), encoding="utf-8")
    print(
        f"wrote {path}: {len(tables['SUIT_PROFILES'])} suit profiles, "
        f"{len(tables['HONOR_PROFILES'])} honor profiles, {tables['N_COMBINED']} combined"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
