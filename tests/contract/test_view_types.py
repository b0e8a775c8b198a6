"""Views are typed per game, and the types cannot drift from the data.

Each game's session declares its view type (what :meth:`Session.view` returns: a
``TypedDict``, ``MatgoView``, ``GostopView``, ``MahjongView``, the toy's ``PairsView``) and
the type of the view with a person's help (what :meth:`Session.annotate` returns). Over
random games of every registered game and preset (and the toy), every view of every
seat and of a spectator — plain, annotated, and a mahjong offer's — holds exactly the
keys of its type (the required ones, and only declared ones), nested parts included, with
values of the declared types; and every optional key of every type is seen at least
once, so no type keeps a key the data has lost.
"""

from __future__ import annotations

import functools
import random
import types
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import (
    Any,
    Literal,
    NotRequired,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest
from tests.contract import toy

import madang.matgo.engine
from madang.core.game import Session, pacing
from madang.core.registry import games, register_spec, spec, unregister_spec

pytestmark = pytest.mark.skipif(
    (madang.matgo.engine.__file__ or "").endswith(".so"),
    reason="the compiled build (mypyc) erases its TypedDicts' annotations at run time "
    "(list[str] becomes list, str | None becomes type): the types are checked on the "
    "pure build, and the data are the same in both",
)

GAMES_PER_PRESET = {"matgo": 1, "gostop": 1, "mahjong": 1, "pairs": 3}
CHECKED = 0.5
"""The share of positions whose views are checked (every game's last one is)."""


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    register_spec(toy.SPEC)
    yield
    unregister_spec(toy.SPEC.name)


@functools.cache
def fields(tp: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's keys with their types, and its optional keys."""
    assert tp.__total__, f"{tp.__name__}: mark optional keys NotRequired"
    # (``__required_keys__`` is wrong under ``from __future__ import annotations`` before
    # Python 3.12: the qualifiers are read from the hints)
    hints = get_type_hints(tp, include_extras=True)
    optional = frozenset(k for k, h in hints.items() if get_origin(h) is NotRequired)
    return {k: get_args(h)[0] if k in optional else h for k, h in hints.items()}, optional


class Checker:
    """Checks values against a type (TypedDicts, lists, dicts, unions, literals and
    plain types), each type compiled once into a check, and remembers the keys each
    TypedDict was seen with."""

    def __init__(self) -> None:
        self.seen: dict[type, set[str]] = defaultdict(set)
        self.optional: dict[type, frozenset[str]] = {}
        self._checks: dict[Any, Callable[[object], None]] = {}

    def check(self, value: object, tp: Any, path: str = "view") -> None:
        """An AssertionError naming the place where ``value`` is not a ``tp``."""
        try:
            self.compiled(tp)(value)
        except AssertionError as e:
            raise AssertionError(f"{path}{e}") from None

    def check_keys(self, value: dict[str, Any], tp: Any) -> None:
        """The keys of ``value`` are those of the TypedDict ``tp`` (its values unchecked)."""
        hints, optional = fields(tp)
        missing = set(hints) - optional - value.keys()
        extra = value.keys() - hints.keys()
        assert not missing, f"view: missing keys {sorted(missing)} of {tp.__name__}"
        assert not extra, f"view: keys {sorted(extra)} not in {tp.__name__}"
        self.compiled(tp)  # (its optional keys are counted as the annotated view's)
        self.seen[tp].update(value.keys())

    def compiled(self, tp: Any) -> Callable[[object], None]:
        check = self._checks.get(tp)
        if check is None:
            check = self._checks[tp] = self._compile(tp)
        return check

    def _compile(self, tp: Any) -> Callable[[object], None]:
        """A check that raises AssertionError(": what is wrong", or ".key…" / "[i]…"
        down to it) where a value is not a ``tp``."""
        if tp is Any or tp is object:
            return lambda value: None
        if is_typeddict(tp):
            return self._typed_dict(tp)
        origin, args = get_origin(tp), get_args(tp)
        if origin in (Union, types.UnionType):
            options = [self.compiled(a) for a in args]

            def union(value: object) -> None:
                errors = []
                for option in options:
                    try:
                        option(value)
                        return
                    except AssertionError as e:
                        errors.append(str(e))
                raise AssertionError(f": {value!r} is none of {args}: {errors}")

            return union
        if origin is Literal:

            def literal(value: object) -> None:
                assert value in args, f": {value!r} not in {args}"

            return literal
        if origin is list:
            item = self.compiled(args[0])
            plain = args[0] if args[0] in (int, str, bool) else None

            def list_of(value: object) -> None:
                assert type(value) is list, f": {type(value).__name__}, not a list"
                if plain is not None and all(type(x) is plain for x in value):
                    return
                for i, x in enumerate(value):
                    try:
                        item(x)
                    except AssertionError as e:
                        raise AssertionError(f"[{i}]{e}") from None

            return list_of
        if origin is dict:
            key, item = self.compiled(args[0]), self.compiled(args[1])

            def dict_of(value: object) -> None:
                assert type(value) is dict, f": {type(value).__name__}, not a dict"
                for k, x in value.items():
                    try:
                        key(k)
                        item(x)
                    except AssertionError as e:
                        raise AssertionError(f"[{k!r}]{e}") from None

            return dict_of
        if tp is None or tp is type(None):

            def none(value: object) -> None:
                assert value is None, f": {value!r}, not None"

            return none
        if tp in (int, str, bool, float):

            def plain_type(value: object) -> None:
                assert type(value) is tp, f": {value!r} is not {tp.__name__}"

            return plain_type
        raise AssertionError(f"the test cannot check {tp!r}")

    def _typed_dict(self, tp: Any) -> Callable[[object], None]:
        hints, optional = fields(tp)
        self.optional[tp] = optional
        required = set(hints) - optional
        checks = {k: self.compiled(h) for k, h in hints.items()}
        seen = self.seen[tp]

        def typed_dict(value: object) -> None:
            assert type(value) is dict, f": {type(value).__name__}, not a dict"
            keys = value.keys()
            missing = required - keys
            extra = keys - checks.keys()
            assert not missing, f": missing keys {sorted(missing)} of {tp.__name__}"
            assert not extra, f": keys {sorted(extra)} not in {tp.__name__}"
            for k, x in value.items():
                try:
                    checks[k](x)
                except AssertionError as e:
                    raise AssertionError(f".{k}{e}") from None
            seen.update(keys)

        return typed_dict

    def unseen(self) -> dict[str, list[str]]:
        """The optional keys of each TypedDict checked that no value had."""
        out = {}
        for tp, keys in self.seen.items():
            never = sorted(self.optional[tp] - keys)
            if never:
                out[tp.__name__] = never
        return out


def view_types(s: Session) -> tuple[Any, Any]:
    """The view type and the annotated view's type a session declares (the annotated
    one is the view's where the game adds no help)."""
    return _declared(type(s))


@functools.cache
def _declared(cls: type[Session]) -> tuple[Any, Any]:
    view_type = get_type_hints(cls.view)["return"]
    shown = get_type_hints(cls.annotate)["return"]
    return view_type, view_type if isinstance(shown, TypeVar) else shown


def check_views(s: Session, checker: Checker) -> None:
    view_type, shown_type = view_types(s)
    for seat in (*range(s.seats), None):
        v = s.view(seat)
        checker.check_keys(v, view_type)  # its values: as the annotated view's, below
        checker.check(s.annotate(v, seat), shown_type, "annotated")
    pace = pacing(s)
    if pace is not None and pace.offering:
        for seat in (*range(s.seats), None):
            checker.check(pace.offered_view(seat), shown_type, "offered")


def play_games(game: str, checker: Checker) -> None:
    game_spec = spec(game)
    for preset in game_spec.presets():
        rng = random.Random(f"{game}/{preset}/types")
        s = game_spec.session(preset, rng.getrandbits(32))
        for _ in range(GAMES_PER_PRESET[game]):
            for _step in range(5000):
                if s.over or rng.random() < CHECKED:
                    check_views(s, checker)
                if s.over:
                    break
                seat = rng.choice(s.pending())
                s.step(seat, rng.choice(s.legal(seat)))
                pace = pacing(s)
                if pace is not None and pace.offering:
                    check_views(s, checker)
                    pace.end_offer()
            s.next_game()


def test_every_view_has_exactly_its_types_keys() -> None:
    checker = Checker()
    for game in [*games(), toy.SPEC.name]:
        play_games(game, checker)
    checked = {tp.__name__ for tp in checker.seen}
    for name in ("MatgoView", "GostopView", "MatgoTableView", "GostopTableView"):
        assert name in checked
    for name in ("MahjongView", "MahjongTableView", "PairsView", "Player", "Result"):
        assert name in checked
    assert checker.unseen() == {}  # every optional key of every type occurs


def test_the_check_fails_on_a_key_added_removed_or_mistyped() -> None:
    """The checker is not vacuous: a view with one key more, one less, or a value of
    another type (nested too) fails it."""
    s = spec("matgo").session("default", 3)
    view_type, _ = view_types(s)
    good = s.view(0)
    Checker().check(good, view_type)
    extra: dict[str, Any] = {**good, "secret": 1}
    missing: dict[str, Any] = {k: v for k, v in good.items() if k != "pile"}
    mistyped: dict[str, Any] = {**good, "turn": {**good["turn"], "last": 0}}
    for bad in (extra, missing, mistyped):
        with pytest.raises(AssertionError):
            Checker().check(bad, view_type)
