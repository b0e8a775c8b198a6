"""A table's verifiable deals (``docs/fairness.md``, Server integration): the secret seed
of one game, its commitment, the players' entropy and the reveal.

The room draws a :class:`FairDeal` for its next game before it is dealt (at the table's
start for game 1, at the end of game N for game N+1) and sends every connection its
:meth:`~FairDeal.commit_message`. The seats add their entropy strings
(:func:`check_entropy`) until the deal; the deal key mixes them in. The seed stays in
the server's memory and in the game's row (``games.fair_seed``), never in a message or a
record before the game's end, when :meth:`~FairDeal.fairness` reveals it.

>>> d = FairDeal.draw("matgo", 7, 1, {"bonus_cards": "2+3"}, seats=2)
>>> d.add(1, "hello"); d.strings()
['', 'hello']
>>> from madang.core.fair import commitment
>>> commitment(d.seed, d.binding) == d.commitment
True
>>> check_entropy("\\x00")
Traceback (most recent call last):
...
madang.server.wire.WireError: entropy must be text without control characters
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Final

from madang.core.errors import FairnessError
from madang.core.fair import (
    MAX_TEXT_BYTES,
    Binding,
    Fairness,
    commitment,
    deal_key,
    new_seed,
    rules_digest,
)
from madang.core.registry import spec
from madang.server.wire import WireError

__all__ = ["FairDeal", "check_entropy", "restored"]

MAX_ENTROPY_BYTES: Final = MAX_TEXT_BYTES
"""The longest entropy string a seat may send, in UTF-8 bytes (the scheme's cap)."""


def check_entropy(value: object) -> str:
    """A seat's entropy string, checked: text of at most 256 UTF-8 bytes with no control
    characters and no lone surrogates (WireError ``bad_entropy`` otherwise)."""
    if not isinstance(value, str):
        raise WireError("bad_entropy", "entropy must be a string")
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise WireError("bad_entropy", "entropy must be valid Unicode text") from None
    if size > MAX_ENTROPY_BYTES:
        raise WireError("bad_entropy", f"entropy is at most {MAX_ENTROPY_BYTES} UTF-8 bytes")
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise WireError("bad_entropy", "entropy must be text without control characters")
    return value


@dataclass
class FairDeal:
    """One game's fairness data at a table: the secret ``seed``, the ``binding`` and its
    ``commitment``, and per seat the entropy string it sent (None: none yet)."""

    seed: bytes
    binding: Binding
    commitment: str
    entropy: list[str | None] = field(default_factory=list)
    window_until: float | None = None
    """When the deal stops waiting for entropy (monotonic seconds; None: not waiting)."""
    first_picks: list[list[int]] | None = None
    """The rounds of 선 뽑기 that chose the first dealer (:mod:`.first_dealer`), once
    made: they enter the record's ``fairness`` and the deal (``Session.redeal``)."""

    @classmethod
    def draw(
        cls, game: str, table_id: int, game_no: int, rules: dict[str, Any], *, seats: int
    ) -> FairDeal:
        """A fresh seed for game ``game_no`` of a table under the record's ``rules``."""
        binding = Binding(
            game=game,
            table=str(table_id),
            game_no=game_no,
            ruleset=spec(game).ruleset_version,
            rules=rules_digest(rules),
        )
        seed = new_seed()
        return cls(seed, binding, commitment(seed, binding), [None] * seats)

    def commit_message(self) -> dict[str, Any]:
        """``fair_commit``: the binding and commitment, sent before any card is shown."""
        return {
            "type": "fair_commit",
            "binding": self.binding.to_dict(),
            "commitment": self.commitment,
        }

    def public(self, *, dealt: bool) -> dict[str, Any]:
        """What a snapshot or a deal's update says of it (never the seed): the
        commitment, and once dealt the strings mixed in."""
        out: dict[str, Any] = {"binding": self.binding.to_dict(), "commitment": self.commitment}
        if dealt:
            out["entropy"] = self.strings()
        return out

    def add(self, seat: int, entropy: str) -> None:
        """Seat ``seat``'s string (checked by :func:`check_entropy`); once per game."""
        if self.entropy[seat] is not None:
            raise WireError("bad_entropy", "you sent your entropy for this game already")
        self.entropy[seat] = entropy

    def strings(self) -> list[str]:
        """Each seat's string, the empty string for a seat that sent none."""
        return [e or "" for e in self.entropy]

    def key(self) -> bytes:
        """The deal key of the seed, the binding and the strings."""
        return deal_key(self.seed, self.binding, self.strings())

    def fairness(self, *, reveal: bool) -> dict[str, Any]:
        """The record's ``fairness`` field; the seed only with ``reveal`` (the end)."""
        return Fairness(
            table=self.binding.table,
            game_no=self.binding.game_no,
            commitment=self.commitment,
            entropy=tuple(self.strings()),
            seed=self.seed.hex() if reveal else None,
            first_picks=(
                None if self.first_picks is None else tuple(tuple(r) for r in self.first_picks)
            ),
        ).to_dict()


def restored(record: dict[str, Any], seed_hex: str | None) -> FairDeal:
    """A dealt game's fairness data rebuilt after a restart from its stored record (its
    ``fairness`` field) and its row's secret seed; FairnessError when they disagree."""
    if seed_hex is None:
        raise FairnessError("the game's seed is not stored")
    f = Fairness.from_dict(record.get("fairness"))
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise FairnessError("the stored seed is not hex") from None
    game = record.get("game")
    if not isinstance(game, str):
        raise FairnessError("the record names no game")
    binding = Binding(
        game=game,
        table=f.table,
        game_no=f.game_no,
        ruleset=spec(game).ruleset_version,
        rules=rules_digest(record.get("rules", {})),
    )
    if commitment(seed, binding) != f.commitment:
        raise FairnessError("the stored seed does not open the stored commitment")
    picks = None if f.first_picks is None else [list(r) for r in f.first_picks]
    return FairDeal(seed, binding, f.commitment, list(f.entropy), first_picks=picks)
