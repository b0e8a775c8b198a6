"""A learned evaluation of Matgo positions in points: what a seat will be paid from here.

:class:`PointsNet` is a small multilayer perceptron (two ReLU layers) evaluated with
numpy. Its inputs (:func:`inputs`) describe a whole position from one seat's side: the
67 numbers of :func:`madang.bots.matgo_value.features` (족보 progress of both piles,
what each hand can take, the cards left, who is to move, 고 and 흔들기) and where every
card is (the seat's hand, the other hand, each captured pile, the floor: 5 × 52 bits).
Its output is the seat's net payment from this position to the end of the game (points
received minus points paid, 고, 박 and multipliers included), as self-play of the search
bot ended it (:mod:`madang.bots._matgo_net_train`).

Positions are whole states: the inputs read the other seat's hand, which is right for a
world the searcher dealt itself (a sample consistent with its view) and never done with
a real game's hidden cards. The ``hard_learned`` bot
(``SearchBot(leaf="net", go_net=True)``) values its cut playouts and its 고/스톱
playouts with it.

The weights ship as ``_matgo_net_weights.npz`` beside this module; :func:`load` reads
any such file and refuses a malformed one with :class:`NetWeightsError`.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=4)
>>> net = default_net()
>>> inputs([g], 0).shape == (1, INPUTS)
True
>>> -50.0 < float(net.points([g], 0)[0]) < 50.0
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots.matgo_search import HARD_WEIGHTS, leaf_value
from madang.bots.matgo_value import NAMES, features
from madang.core.errors import UNREADABLE_NPZ, RuleConfigError
from madang.matgo.cards import NUM_CARDS
from madang.matgo.engine import MatgoState

__all__ = [
    "FORMAT",
    "INPUTS",
    "WEIGHTS_PATH",
    "NetWeightsError",
    "PointsNet",
    "default_net",
    "inputs",
    "is_points_net",
    "load",
]

#: The ``format`` field of a weights file's metadata.
FORMAT = "madang-matgo-points-net"
#: Card places, in order: the seat's hand, the other hand, the seat's pile, the other's
#: pile, the floor (each a bit per card id).
PLACES = 5
#: The length of one input row: the value features, the search's potential leaf, then
#: the card places.
INPUTS = len(NAMES) + 1 + PLACES * NUM_CARDS
#: The weights shipped with the package.
WEIGHTS_PATH = Path(__file__).with_name("_matgo_net_weights.npz")


class NetWeightsError(RuleConfigError):
    """A weights file that is not a points net of this format: missing or unreadable,
    a wrong field, shapes that do not chain, values that are not finite."""


def inputs(states: Sequence[MatgoState], seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The input rows of ``states`` from ``seat``'s side (shape ``(len(states), INPUTS)``)."""
    o = 1 - seat
    feats = np.array(
        [[*features(s, seat), leaf_value(s, seat, len(s.payments), HARD_WEIGHTS)] for s in states],
        dtype=np.float32,
    ).reshape(len(states), len(NAMES) + 1)
    masks = np.array(
        [(s.hands[seat], s.hands[o], s.captured[seat], s.captured[o], s.floor) for s in states],
        dtype="<u8",
    ).reshape(len(states), PLACES)
    bits = np.unpackbits(
        masks.view(np.uint8).reshape(len(states), PLACES, 8), axis=2, bitorder="little"
    )
    cards = bits[:, :, :NUM_CARDS].reshape(len(states), PLACES * NUM_CARDS)
    return np.hstack([feats, cards.astype(np.float32)])


class PointsNet:
    """The network: ``(x - mean) / scale``, ReLU layers, one linear output in points.

    ``layers`` is ``[(W0, b0), (W1, b1), …]`` (``W`` of shape ``(inputs, outputs)``);
    the last layer has one output. Build one with :func:`load` (checked) or directly.
    """

    __slots__ = ("layers", "mean", "meta", "scale")

    def __init__(
        self,
        mean: np.ndarray[Any, Any],
        scale: np.ndarray[Any, Any],
        layers: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]],
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.mean = mean.astype(np.float32)
        self.scale = scale.astype(np.float32)
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.meta = dict(meta or {})

    def forward(self, x: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The predicted points of each input row (shape ``(rows,)``)."""
        h = (np.asarray(x, dtype=np.float32) - self.mean) / self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        out: np.ndarray[Any, np.dtype[np.float32]] = h[:, 0]
        return out

    def points(self, states: Sequence[MatgoState], seat: int) -> np.ndarray[Any, Any]:
        """The predicted payments to ``seat`` from each of ``states`` to the game's end."""
        return self.forward(inputs(states, seat))

    def save(self, path: str | Path) -> None:
        """Write the network as a ``.npz`` that :func:`load` reads (no pickles)."""
        arrays: dict[str, Any] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"] = w
            arrays[f"b{i}"] = b
        meta = {**self.meta, "format": FORMAT, "inputs": INPUTS, "layers": len(self.layers)}
        with open(path, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)


def _array(z: Any, key: str, path: str | Path) -> np.ndarray[Any, Any]:
    try:
        a = z[key]
    except KeyError:
        raise NetWeightsError(f"{path}: no array {key!r}") from None
    if a.dtype.kind != "f" or not np.all(np.isfinite(a)):
        raise NetWeightsError(f"{path}: {key} must hold finite floats")
    return np.asarray(a)


def is_points_net(path: str | Path) -> bool:
    """Whether ``path`` is an ``.npz`` whose metadata names this format (a quick look,
    for telling a points net from another saved model; :func:`load` checks the rest)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
    except (*UNREADABLE_NPZ, KeyError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT


def load(path: str | Path) -> PointsNet:
    """The network saved at ``path``; :class:`NetWeightsError` if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as z:
            try:
                meta = json.loads(str(z["meta"]))
            except (KeyError, ValueError):
                raise NetWeightsError(f"{path}: no readable metadata") from None
            if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                raise NetWeightsError(f"{path}: not a {FORMAT} file")
            if meta.get("inputs") != INPUTS:
                raise NetWeightsError(
                    f"{path}: made for {meta.get('inputs')} inputs, this version has {INPUTS}"
                )
            n = meta.get("layers")
            if not isinstance(n, int) or n < 1:
                raise NetWeightsError(f"{path}: layers must be a positive integer")
            mean, scale = _array(z, "mean", path), _array(z, "scale", path)
            layers = [(_array(z, f"W{i}", path), _array(z, f"b{i}", path)) for i in range(n)]
    except UNREADABLE_NPZ as e:
        raise NetWeightsError(f"{path} is not a points net: {e}") from None
    if mean.shape != (INPUTS,) or scale.shape != (INPUTS,) or np.any(scale <= 0):
        raise NetWeightsError(f"{path}: mean and scale must be {INPUTS} numbers, scale above 0")
    width = INPUTS
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise NetWeightsError(f"{path}: layer {i} has shapes {w.shape} and {b.shape}")
        width = w.shape[1]
    if width != 1:
        raise NetWeightsError(f"{path}: the last layer must have one output, not {width}")
    return PointsNet(mean, scale, layers, meta)


@cache
def default_net() -> PointsNet:
    """The network shipped with the package (read once)."""
    return load(WEIGHTS_PATH)
