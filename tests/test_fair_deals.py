"""10,000 verifiable deals of each game, checked against ``docs/fairness.md`` by an
implementation written here from the page alone — its own encoding, commitment, HMAC
key, SHA-256 stream, rejection sampling and Fisher–Yates, its own canonical deck and
wall copied from the page, its own deal of the cards to the seats (``matgo.md`` §2,
``mahjong.md`` §2) — and compared with :mod:`madang.core.fair`, the games'
``fair_deal`` and what the engines actually deal from that deck or wall: the hands, the
floor, the bonus cards taken, the draw pile; the hands, the flowers and the wall.

Each test takes about two seconds (``pytest --durations``).
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from collections.abc import Iterator

from madang.core.fair import Binding, commitment, deal_key, rules_digest
from madang.core.registry import spec
from madang.mahjong.fair import fair_hand
from madang.mahjong.rules import PRESETS as MJ_PRESETS
from madang.matgo.cards import codes_of
from madang.matgo.fair import fair_game
from madang.matgo.rules import PRESETS as MG_PRESETS

DEALS = 10_000

# ----------------------------------------------------------------- from the page alone

#: "The deck … in this canonical order", as the page lists it, then the bonus cards.
PAGE_DECK = [
    "01g", "01r", "01p1", "01p2",  "02a", "02r", "02p1", "02p2",  "03g", "03r", "03p1", "03p2",
    "04a", "04r", "04p1", "04p2",  "05a", "05r", "05p1", "05p2",  "06a", "06r", "06p1", "06p2",
    "07a", "07r", "07p1", "07p2",  "08g", "08a", "08p1", "08p2",  "09a", "09r", "09p1", "09p2",
    "10a", "10r", "10p1", "10p2",  "11g", "11d", "11p1", "11p2",  "12g", "12a", "12r", "12d",
]  # fmt: skip
PAGE_BONUS = {"2+3": ["b2", "b3"], "none": [], "2+2+2": ["b2", "b2x", "b2y"]}
PAGE_MISSIONS = [
    "godori", "hongdan", "cheongdan", "chodan", "ssangpi", "gwang_1_3_8", "gwang_11_12", "ogwang",
]  # fmt: skip
PAGE_WALL = [f"{n}{s}" for s, top in ["m9", "p9", "z7"] for n in range(1, int(top) + 1)
             for _ in range(4)] + ["1f", "2f", "3f", "4f"]  # fmt: skip
#: The 29 tile codes in the engine's kind order (0-8 1m-9m, 9-17 1p-9p, 18-24 1z-7z,
#: 25-28 1f-4f): the page's order with the copies merged.
KIND_NAMES = tuple(dict.fromkeys(PAGE_WALL))
KIND = {name: k for k, name in enumerate(KIND_NAMES)}


def field(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def page_rules_sha(rules: dict[str, object]) -> str:
    """SHA-256 of the canonical JSON of a flat rules object (sorted keys, no spaces)."""
    parts = []
    for k in sorted(rules):
        v = rules[k]
        if isinstance(v, bool):
            text = "true" if v else "false"
        elif isinstance(v, int):
            text = str(v)
        else:
            assert isinstance(v, str) and v.isprintable() and '"' not in v and "\\" not in v
            text = f'"{v}"'
        parts.append(f'"{k}":{text}')
    return hashlib.sha256(("{" + ",".join(parts) + "}").encode()).hexdigest()


def page_binding(game: str, table: str, game_no: int, rules_sha: str) -> bytes:
    pairs = [("scheme", "madang-fair/1"), ("game", game), ("table", table),
             ("game_no", str(game_no)), ("ruleset", "1"), ("rules", rules_sha)]  # fmt: skip
    return b"".join(field(n.encode()) + field(v.encode()) for n, v in pairs)


def page_commitment(seed: bytes, binding: bytes) -> str:
    return hashlib.sha256(field(b"madang-fair/1 commit") + binding + field(seed)).hexdigest()


def page_key(seed: bytes, binding: bytes, entropy: list[str]) -> bytes:
    mix = len(entropy).to_bytes(4, "big") + b"".join(field(e.encode()) for e in entropy)
    return hmac.new(seed, field(b"madang-fair/1 deal") + binding + mix, "sha256").digest()


def page_words(key: bytes, label: str) -> Iterator[int]:
    i = 0
    while True:
        block = hashlib.sha256(key + field(label.encode()) + i.to_bytes(4, "big")).digest()
        yield from struct.unpack(">8I", block)
        i += 1


def page_below(words: Iterator[int], n: int) -> int:
    limit = 2**32 - 2**32 % n
    for x in words:
        if x < limit:
            return x % n
    raise AssertionError("the stream never ends")


def page_shuffle(key: bytes, items: list[str], label: str) -> list[str]:
    a = list(items)
    words = page_words(key, label)
    for i in range(len(a) - 1, 0, -1):
        j = page_below(words, i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def page_first_dealer(key: bytes, night_low: bool) -> int:
    words = page_words(key, "first_dealer")
    while True:
        a = page_below(words, 48)
        b = page_below(words, 47)
        b += b >= a
        if a // 4 != b // 4:
            return int((a // 4 > b // 4) == night_low)


def page_matgo_deal(deck: list[str], dealer: int) -> tuple[list[set[str]], set[str], set[str],
                                                          list[str]]:  # fmt: skip
    """``matgo.md`` §2: 4 floor, 5 to the other player, 5 to 선, 4, 5, 5; bonus cards on
    the floor go to 선 and are replaced from the top of the rest. Returns the hands, the
    floor, 선's captured bonus cards and the draw pile, top first."""
    hands: list[set[str]] = [set(), set()]
    hands[1 - dealer] = set(deck[4:9] + deck[18:23])
    hands[dealer] = set(deck[9:14] + deck[23:28])
    floor = set(deck[0:4] + deck[14:18])
    rest = deck[28:]
    taken = {c for c in floor if c.startswith("b")}
    floor -= taken
    need = len(taken)
    while need and rest:
        c = rest.pop(0)
        if c.startswith("b"):
            taken.add(c)
        else:
            floor.add(c)
            need -= 1
    return hands, floor, taken, rest


def page_mahjong_deal(wall: list[str], dealer: int) -> tuple[list[list[int]], list[list[str]]]:
    """``mahjong.md`` §2: from the dealer each seat takes 4, 4, 4, then 1 from the top,
    the dealer a 14th; flowers are laid out and replaced from the back, the dealer first,
    each seat's in tile order (a replacement flower is replaced again). Returns each
    seat's concealed tiles as counts in :data:`KIND_NAMES` order, and its flowers."""
    dealt: list[list[str]] = [[] for _ in range(4)]
    top = 0
    for _ in range(3):
        for o in range(4):
            dealt[(dealer + o) % 4] += wall[top : top + 4]
            top += 4
    for o in range(4):
        dealt[(dealer + o) % 4].append(wall[top])
        top += 1
    dealt[dealer].append(wall[top])
    back = len(wall)
    hands = [[0] * 25 for _ in range(4)]
    flowers: list[list[str]] = [[] for _ in range(4)]
    for o in range(4):
        seat = (dealer + o) % 4
        hand = hands[seat]
        for t in dealt[seat]:
            if t[1] != "f":
                hand[KIND[t]] += 1
        for f in sorted(t for t in dealt[seat] if t[1] == "f"):
            flowers[seat].append(f)
            while True:
                back -= 1
                t = wall[back]
                if t[1] == "f":
                    flowers[seat].append(t)
                else:
                    hand[KIND[t]] += 1
                    break
    return hands, flowers


# ----------------------------------------------------------------- the deals


def _inputs(i: int, seats: int) -> tuple[bytes, str, int, list[str]]:
    seed = hashlib.sha256(b"fair deal %d" % i).digest()
    entropy = [""] * seats
    entropy[i % seats] = f"seat {i % seats} says {i}"
    return seed, f"t{i % 97}", 1 + i % 3, entropy


def test_10000_matgo_deals_as_the_page_says() -> None:
    presets = ["default", "classic", "bonus3", "missions"]
    game = spec("matgo")
    dealers = Counter[int]()
    tops = Counter[str]()
    for i in range(DEALS):
        rules = MG_PRESETS[presets[i % len(presets)]]
        rules_dict = rules.to_dict()
        seed, table, game_no, entropy = _inputs(i, 2)
        sha = page_rules_sha(rules_dict)
        own = page_binding("matgo", table, game_no, sha)
        key = page_key(seed, own, entropy)
        deck = page_shuffle(key, PAGE_DECK + PAGE_BONUS[rules_dict["bonus_cards"]], "deck")
        # the module
        b = Binding(game="matgo", table=table, game_no=game_no, ruleset="1", rules=sha)
        assert rules_digest(rules_dict) == sha and b.encode() == own
        assert commitment(seed, b) == page_commitment(seed, own)
        assert deal_key(seed, b, entropy) == key
        want: dict[str, object] = {"deck": deck}
        if game_no == 1:
            want["dealer"] = page_first_dealer(key, rules_dict["first_dealer"] == "night_low")
        if rules.missions:
            want["mission"] = PAGE_MISSIONS[page_below(page_words(key, "mission"), 8)]
        assert game.fair_deal(rules_dict, key, game_no) == want
        # the engine, dealing that deck
        dealer = int(want.get("dealer", i & 1))  # type: ignore[call-overload]
        g = fair_game(rules, key, dealer=dealer, events=False)
        hands, floor, taken, pile = page_matgo_deal(deck, dealer)
        assert [set(codes_of(h)) for h in g.hands] == hands
        assert set(codes_of(g.floor)) == floor
        assert set(codes_of(g.captured[dealer])) == taken and g.captured[1 - dealer] == 0
        assert [codes_of(1 << c)[0] for c in reversed(g.pile)] == pile
        assert g.mission is None or g.mission.name == want["mission"]
        dealers[dealer] += "dealer" in want
        tops[deck[0]] += 1
    # chance, roughly: both seats deal first, every card comes on top
    assert min(dealers.values()) > DEALS / 3 * 0.4
    assert len(tops) == 52  # the 48 month cards and the 4 bonus cards of the presets


def test_10000_mahjong_deals_as_the_page_says() -> None:
    presets = list(MJ_PRESETS)
    game = spec("mahjong")
    tops = Counter[str]()
    for i in range(DEALS):
        rules = MJ_PRESETS[presets[i % len(presets)]]
        rules_dict = rules.to_dict()
        seed, table, game_no, entropy = _inputs(i, 4)
        sha = page_rules_sha(rules_dict)
        own = page_binding("mahjong", table, game_no, sha)
        key = page_key(seed, own, entropy)
        wall = page_shuffle(key, PAGE_WALL, "wall")
        b = Binding(game="mahjong", table=table, game_no=game_no, ruleset="1", rules=sha)
        assert rules_digest(rules_dict) == sha and b.encode() == own
        assert commitment(seed, b) == page_commitment(seed, own)
        assert deal_key(seed, b, entropy) == key
        assert game.fair_deal(rules_dict, key, game_no) == {"wall": wall}
        dealer = i % 4
        st = fair_hand(rules, key, dealer=dealer)
        assert [KIND_NAMES[k] for k in st.wall] == wall
        hands, flowers = page_mahjong_deal(wall, dealer)
        assert st.hands == hands
        assert [[KIND_NAMES[k] for k in f] for f in st.flowers] == flowers
        assert st.back == 104 - sum(map(len, flowers))
        tops[wall[0]] += 1
    assert len(tops) == 29


def test_the_lists_here_are_the_page_s() -> None:
    """The canonical orders this file copied are those the page shows."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "fairness.md").read_text("utf-8")
    listing = page[page.index("    01g 01r") : page.index("12r 12d") + len("12r 12d")]
    assert listing.split() == PAGE_DECK
    assert "`b2 b3`" in page and "`b2 b2x b2y`" in page
    assert ", ".join(f"`{m}`" for m in PAGE_MISSIONS) in page.replace(",\n", ", ")
    assert "1m 1m 1m 1m 2m 2m 2m 2m … 9m 9m 9m 9m" in page and "1f 2f 3f 4f" in page
