"""Deals anyone can verify (provably fair): commit, mix, shuffle, reveal, verify.

``docs/fairness.md`` specifies the scheme byte for byte; this module is its reference
implementation, and it knows no game. Before a game the server draws a secret seed
(:func:`new_seed`) and shows the players :func:`commitment`, the SHA-256 of the seed and
of what it is bound to (:class:`Binding`: the game, the table, the game's number, the
ruleset and a digest of the rules). The players may then add their own entropy; the
deal key (:func:`deal_key`) is an HMAC of all of it under the seed, so neither the
server (bound by the commitment) nor any player (who does not know the seed) chooses the
deal. Each game turns the key into its deck or wall with :func:`shuffle` (a SHA-256
byte stream, rejection sampling, Fisher–Yates over the deck in its notation order). At
the end the seed is revealed (:class:`Fairness`, the record's ``fairness`` field) and
:func:`verify` checks the commitment and deals again.

>>> seed = bytes(range(32))
>>> b = Binding(game="matgo", table="t1", game_no=1, ruleset="1", rules=rules_digest({}))
>>> commitment(seed, b)[:16]
'8be25a8d86ea44eb'
>>> key = deal_key(seed, b, ["", "hello"])
>>> shuffle(key, "abcdef", "deck")
['c', 'b', 'a', 'd', 'e', 'f']
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from madang.core.errors import FairnessError, MadangError, VerificationError

__all__ = [
    "SCHEME",
    "SEED_BYTES",
    "Binding",
    "Fairness",
    "Stream",
    "Verified",
    "binding_of",
    "canonical_json",
    "commitment",
    "deal_key",
    "encode_entropy",
    "fisher_yates",
    "new_seed",
    "rules_digest",
    "shuffle",
    "verify",
]

T = TypeVar("T")

SCHEME: Final = "madang-fair/1"
"""The scheme's name and version; a record of another scheme is refused."""
SEED_BYTES: Final = 32
"""The server seed's length in bytes."""
MAX_TEXT_BYTES: Final = 256
"""The longest table id or player entropy string, in UTF-8 bytes."""
MAX_GAME_NO: Final = 2**53 - 1
"""The largest game number (an integer a browser holds exactly)."""

_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_U32: Final = struct.Struct(">I")
_BLOCK: Final = struct.Struct(">8I")
_TWO32: Final = 1 << 32
_FAIRNESS_KEYS: Final = frozenset(
    ("scheme", "table", "game_no", "commitment", "entropy", "seed", "first_picks")
)
MAX_PICK_ROUNDS: Final = 64
"""The most rounds of picks (선 뽑기) a record may carry."""


def new_seed() -> bytes:
    """A fresh server seed: 32 bytes from the operating system's secure generator."""
    return secrets.token_bytes(SEED_BYTES)


def _text(value: str, what: str) -> bytes:
    """``value`` as UTF-8 (a lone surrogate cannot be encoded: FairnessError)."""
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError:
        raise FairnessError(f"{what} is not valid Unicode text") from None
    if len(data) > MAX_TEXT_BYTES:
        raise FairnessError(f"{what} is longer than {MAX_TEXT_BYTES} UTF-8 bytes")
    return data


def _field(data: bytes) -> bytes:
    """``u32(len) ‖ data``: the scheme's one encoding of a string or bytes."""
    return _U32.pack(len(data)) + data


def _label(text: str) -> bytes:
    return _field(text.encode("ascii"))


def _plain(obj: Any, depth: int = 0) -> None:
    """Raise FairnessError unless ``obj`` is JSON of strings, integers a browser holds
    exactly (below 2**53 in size), booleans, null, lists and objects."""
    if depth > 32:
        raise FairnessError("the rules are nested too deeply")
    if obj is None or isinstance(obj, bool | str):
        return
    if type(obj) is int:
        if abs(obj) > MAX_GAME_NO:
            raise FairnessError(f"the rules hold an integer too large to compare: {obj}")
        return
    if isinstance(obj, list):
        for x in obj:
            _plain(x, depth + 1)
        return
    if isinstance(obj, Mapping) and all(isinstance(k, str) for k in obj):
        for x in obj.values():
            _plain(x, depth + 1)
        return
    raise FairnessError(f"the rules hold {type(obj).__name__} data, not plain JSON")


def canonical_json(obj: Any) -> bytes:
    """The canonical JSON of ``obj`` as UTF-8: keys sorted by code point, no spaces,
    non-ASCII characters as themselves. Only strings, integers below 2**53 in size,
    booleans, null, lists and objects are allowed (no fractions: their text differs
    between languages).

    >>> canonical_json({"b": True, "a": "2+3", "c": [1, None]})
    b'{"a":"2+3","b":true,"c":[1,null]}'
    """
    _plain(obj)
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise FairnessError("the rules hold text that is not valid Unicode") from None


def rules_digest(rules: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of the rules object's canonical JSON: what a commitment binds.

    The object is the record's ``rules`` exactly as written (an exported record writes
    every option).

    >>> rules_digest({})
    '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
    """
    if not isinstance(rules, Mapping):
        raise FairnessError("the rules must be a JSON object")
    return hashlib.sha256(canonical_json(dict(rules))).hexdigest()


def _check_int(value: object, what: str, least: int, most: int) -> int:
    if type(value) is not int or not least <= value <= most:
        raise FairnessError(f"{what} must be an integer {least}–{most}, not {value!r}")
    return value


def _check_str(value: object, what: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty):
        raise FairnessError(f"{what} must be a {'' if empty else 'non-empty '}string")
    _text(value, what)
    return value


def _check_hex(value: object, what: str) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise FairnessError(f"{what} must be 64 lowercase hex digits (32 bytes)")
    return value


@dataclass(frozen=True, slots=True)
class Binding:
    """What a commitment is bound to, so that a seed cannot be moved to another deal:
    the game, the table, the game's number at that table, the ruleset version and the
    digest of the rules (:func:`rules_digest`), under the scheme's version."""

    game: str
    table: str
    game_no: int
    ruleset: str
    rules: str
    scheme: str = SCHEME

    def __post_init__(self) -> None:
        if self.scheme != SCHEME:
            raise FairnessError(f"unknown fairness scheme {self.scheme!r} (this is {SCHEME})")
        _check_str(self.game, "the game")
        _check_str(self.table, "the table id")
        _check_int(self.game_no, "the game number", 1, MAX_GAME_NO)
        _check_str(self.ruleset, "the ruleset")
        _check_hex(self.rules, "the rules digest")

    def encode(self) -> bytes:
        """The canonical bytes: ``field(name) ‖ field(value)`` for each of scheme,
        game, table, game_no (decimal), ruleset and rules, in that order."""
        pairs = (
            ("scheme", self.scheme),
            ("game", self.game),
            ("table", self.table),
            ("game_no", str(self.game_no)),
            ("ruleset", self.ruleset),
            ("rules", self.rules),
        )
        return b"".join(_label(name) + _field(value.encode("utf-8")) for name, value in pairs)

    def to_dict(self) -> dict[str, Any]:
        """The binding as the players are shown it with the commitment."""
        return {
            "scheme": self.scheme,
            "game": self.game,
            "table": self.table,
            "game_no": self.game_no,
            "ruleset": self.ruleset,
            "rules": self.rules,
        }


def _check_seed(seed: object) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise FairnessError(f"a seed is {SEED_BYTES} bytes")
    return seed


def commitment(seed: bytes, binding: Binding) -> str:
    """``SHA-256(field("madang-fair/1 commit") ‖ binding ‖ field(seed))``, hex: what the
    players see before any card is shown."""
    _check_seed(seed)
    msg = _label(f"{SCHEME} commit") + binding.encode() + _field(seed)
    return hashlib.sha256(msg).hexdigest()


def encode_entropy(entropy: Sequence[str]) -> bytes:
    """``u32(seats) ‖ field(entropy[0]) ‖ …``: each seat's string in seat order (a seat
    that added nothing: the empty string)."""
    if isinstance(entropy, str) or not isinstance(entropy, Sequence) or not entropy:
        raise FairnessError("the entropy must be a list of strings, one per seat")
    parts = [_U32.pack(len(entropy))]
    for i, e in enumerate(entropy):
        parts.append(_field(_text(_check_str(e, f"seat {i}'s entropy", empty=True), "entropy")))
    return b"".join(parts)


def deal_key(seed: bytes, binding: Binding, entropy: Sequence[str]) -> bytes:
    """``HMAC-SHA256(seed, field("madang-fair/1 deal") ‖ binding ‖ entropy)``: the 32
    bytes every random choice of the game is drawn from."""
    _check_seed(seed)
    msg = _label(f"{SCHEME} deal") + binding.encode() + encode_entropy(entropy)
    return hmac.new(seed, msg, hashlib.sha256).digest()


class Stream:
    """The byte stream of a deal key for one purpose (``label``): block ``i`` is
    ``SHA-256(key ‖ field(label) ‖ u32(i))``, read as big-endian 32-bit words.

    >>> s = Stream(bytes(32), "deck")
    >>> [s.below(6) for _ in range(5)]
    [1, 3, 1, 3, 4]
    """

    __slots__ = ("_words",)

    def __init__(self, key: bytes, label: str) -> None:
        if not isinstance(key, bytes) or len(key) != 32:
            raise FairnessError("a deal key is 32 bytes")
        self._words = _words(hashlib.sha256(key + _label(label)))

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        return next(self._words)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``1 <= n <= 2**32``: words at or above the
        largest multiple of ``n`` are rejected, the first other one is taken mod ``n``."""
        if not 1 <= n <= _TWO32:
            raise FairnessError(f"cannot draw below {n}")
        limit = _TWO32 - _TWO32 % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def _words(base: Any) -> Iterator[int]:
    """The words of the blocks ``SHA-256(prefix ‖ u32(i))``, ``base`` holding the prefix."""
    pack, unpack = _U32.pack, _BLOCK.unpack
    i = 0
    while True:
        h = base.copy()
        h.update(pack(i))
        yield from unpack(h.digest())
        i += 1


def shuffle(key: bytes, items: Iterable[T], label: str) -> list[T]:
    """Fisher–Yates over ``items`` (in their canonical order) from the stream of
    ``label``: for ``i`` from the last index down to 1, swap item ``i`` with item
    ``below(i + 1)``. The result's first item is the top of the deck."""
    return fisher_yates(list(items), Stream(key, label)._words)


def fisher_yates(out: list[T], words: Iterator[int]) -> list[T]:
    """Shuffle ``out`` in place (and return it) with the 32-bit ``words`` given, as
    :func:`shuffle` does with a key's stream (``Stream.below`` inlined: a deal draws
    about a hundred times).

    >>> fisher_yates(list(range(6)), iter([2**32 - 2, 0, 0, 0, 0, 0]))  # 2**32-2: rejected
    [1, 2, 3, 4, 5, 0]
    """
    two32 = _TWO32
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = two32 - two32 % n
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@dataclass(frozen=True, slots=True)
class Fairness:
    """A record's ``fairness`` field: the scheme, the table and game number the deal is
    bound to, the commitment shown before the deal, each seat's entropy, and the seed
    (hex) once revealed at the game's end (``None`` before: a game in progress)."""

    table: str
    game_no: int
    commitment: str
    entropy: tuple[str, ...]
    seed: str | None = None
    scheme: str = SCHEME
    first_picks: tuple[tuple[int, ...], ...] | None = None
    """선 뽑기 (Matgo, a table's game 1 with a person seated): each round's picks, one
    slot per seat; the game's ``fair_deal`` reads them (``docs/fairness.md``)."""

    def __post_init__(self) -> None:
        if self.scheme != SCHEME:
            raise FairnessError(f"unknown fairness scheme {self.scheme!r} (this is {SCHEME})")
        _check_str(self.table, "the table id")
        _check_int(self.game_no, "the game number", 1, MAX_GAME_NO)
        _check_hex(self.commitment, "the commitment")
        encode_entropy(self.entropy)
        if self.seed is not None:
            _check_hex(self.seed, "the seed")
        if self.first_picks is not None:
            if not 1 <= len(self.first_picks) <= MAX_PICK_ROUNDS:
                raise FairnessError(f"first_picks must hold 1-{MAX_PICK_ROUNDS} rounds")
            for picks in self.first_picks:
                if len(picks) != len(self.entropy):
                    raise FairnessError("each round of first_picks holds one slot per seat")
                for p in picks:
                    _check_int(p, "a picked slot", 0, 255)

    @classmethod
    def from_dict(cls, obj: object) -> Fairness:
        """Read a record's ``fairness`` field; a malformed one raises FairnessError."""
        if not isinstance(obj, Mapping):
            raise FairnessError("fairness must be a JSON object")
        unknown = sorted(str(k) for k in obj if k not in _FAIRNESS_KEYS)
        if unknown:
            raise FairnessError(f"unknown fairness field(s): {', '.join(unknown)}")
        for key in ("scheme", "table", "game_no", "commitment", "entropy"):
            if key not in obj:
                raise FairnessError(f"fairness has no {key!r}")
        entropy = obj["entropy"]
        if not isinstance(entropy, list):
            raise FairnessError("the entropy must be a list of strings, one per seat")
        picks = obj.get("first_picks")
        if picks is not None and not (
            isinstance(picks, list) and all(isinstance(r, list) for r in picks)
        ):
            raise FairnessError("first_picks must be a list of rounds, each a list of slots")
        return cls(
            table=obj["table"],
            game_no=obj["game_no"],
            commitment=obj["commitment"],
            entropy=tuple(entropy),
            seed=obj.get("seed"),
            scheme=obj["scheme"],
            first_picks=None if picks is None else tuple(tuple(r) for r in picks),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON field (``seed`` only once revealed)."""
        out: dict[str, Any] = {
            "scheme": self.scheme,
            "table": self.table,
            "game_no": self.game_no,
            "commitment": self.commitment,
            "entropy": list(self.entropy),
        }
        if self.first_picks is not None:
            out["first_picks"] = [list(r) for r in self.first_picks]
        if self.seed is not None:
            out["seed"] = self.seed
        return out


@dataclass(frozen=True, slots=True)
class Verified:
    """What :func:`verify` checked: the deal key and the record fields it fixes."""

    game: str
    binding: Binding
    commitment: str
    key: bytes
    deal: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """``madang verify --json``'s object."""
        return {
            "ok": True,
            "game": self.game,
            "scheme": self.binding.scheme,
            "table": self.binding.table,
            "game_no": self.binding.game_no,
            "ruleset": self.binding.ruleset,
            "rules": self.binding.rules,
            "commitment": self.commitment,
            "deal_key": self.key.hex(),
            "checked": ["commitment", *self.deal],
        }


def binding_of(record: Mapping[str, Any], fairness: Fairness, ruleset: str) -> Binding:
    """The binding a record's deal was committed under: its game, ruleset (absent: the
    current ``ruleset``) and rules digest, and the fairness field's table and number."""
    game = record.get("game")
    if not isinstance(game, str):
        raise FairnessError("the record names no game")
    rs = record.get("ruleset", ruleset)
    if not isinstance(rs, str):
        raise FairnessError("the record's ruleset must be a string")
    return Binding(
        game=game,
        table=fairness.table,
        game_no=fairness.game_no,
        ruleset=rs,
        rules=rules_digest(record.get("rules", {})),
        scheme=fairness.scheme,
    )


def _first_difference(got: object, want: object) -> str:
    def show(x: object) -> str:
        return json.dumps(x, ensure_ascii=False, default=repr)

    if isinstance(got, list) and isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            if g != w:
                return f"at position {i} the record has {show(g)}, the seed deals {show(w)}"
        return f"the record has {len(got)} entries, the seed deals {len(want)}"
    return f"the record has {show(got)}, the seed deals {show(want)}"


def verify(record: object, *, commitment_seen: str | None = None) -> Verified:
    """Verify a finished game's record: its revealed seed opens its commitment (and the
    commitment is ``commitment_seen``, the one shown before the deal, when given), and
    the deal key re-deals exactly the record's deck or wall (and whatever else chance
    decided: Matgo's first dealer, its mission).

    Malformed or incomplete data raises :class:`FairnessError`; data that does not
    verify raises its subclass :class:`VerificationError`, naming what differs.
    """
    from madang.core.registry import spec

    if not isinstance(record, Mapping):
        raise FairnessError("a record must be a JSON object")
    if "fairness" not in record:
        raise FairnessError("the record carries no fairness data")
    fairness = Fairness.from_dict(record["fairness"])
    if fairness.seed is None:
        raise FairnessError("the seed is not revealed yet (the game is not over)")
    try:
        game = spec(record.get("game"))
    except MadangError as e:
        raise FairnessError(str(e)) from None
    if game.fair_deal is None:
        raise FairnessError(f"{game.name} has no verifiable deal")
    # the seats of the game recorded: a record naming its ``players`` (고스톱: 3, or 4
    # with 광팔기) has that many, any other the game's
    seats = record.get("players", game.seats)
    if type(seats) is not int or seats < 1:
        raise FairnessError(f"the record's players must be a count of seats, not {seats!r}")
    if len(fairness.entropy) != seats:
        raise FairnessError(
            f"the entropy must hold one string per seat ({seats}), not {len(fairness.entropy)}"
        )
    binding = binding_of(record, fairness, game.ruleset_version)
    if commitment_seen is not None:
        _check_hex(commitment_seen, "the commitment seen")
        if commitment_seen != fairness.commitment:
            raise VerificationError("the record's commitment is not the one shown before the deal")
    seed = bytes.fromhex(fairness.seed)
    if commitment(seed, binding) != fairness.commitment:
        raise VerificationError(
            "the revealed seed does not open the commitment "
            "(with this game, table, game number, ruleset and rules)"
        )
    key = deal_key(seed, binding, fairness.entropy)
    rules = record.get("rules", {})
    if "players" in record and isinstance(rules, Mapping):  # dealt among the record's seats
        rules = {**rules, "players": seats}
    try:
        deal = game.fair_deal(rules, key, fairness.game_no, first_picks=fairness.first_picks)
    except FairnessError:  # picks the game cannot take (docs/fairness.md, 선 뽑기)
        raise
    except MadangError as e:  # rules the game cannot play
        raise FairnessError(f"rules: {e}") from None
    for name, want in deal.items():
        got = record.get(name)
        if got != want:
            raise VerificationError(
                f"the record's {name} is not the seed's deal: {_first_difference(got, want)}"
            )
    return Verified(game.name, binding, fairness.commitment, key, deal)
