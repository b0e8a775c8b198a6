"""Rules as data: one base for every game's rules options.

A game's rules are a frozen dataclass that subclasses :class:`Options`. Each field is
an option: its name is the option's name (``notation.md``), its annotation its type
(``bool``, ``int``, ``str`` or an ``Enum``, whose values are the allowed ones), its
default the default table's value, and :func:`option` may add what an annotation cannot
say (the allowed integers, or the least and the largest value, Korean names of the
values). An integer option must say which integers it allows — a set of choices or both
bounds: a rules class with an open-ended number cannot be declared (a table's points,
and so what changes hands, grow with these numbers). From that alone
the base derives validation on creation, :meth:`Options.from_dict` (names and values
checked, enums read from their values), :meth:`Options.to_dict` (every option,
JSON-ready), :meth:`Options.changes` (those that differ from the defaults) and
:meth:`Options.describe` (what a form offers: every option's type and allowed values).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Demo(Options):
...     GAME = "demo"
...     fast: bool = False
...     seats: int = option(2, choices={2: "둘", 4: "넷"})
>>> Demo.from_dict({"seats": 4}).to_dict(), Demo(seats=4).changes()
({'fast': False, 'seats': 4}, {'seats': 4})
>>> Demo.from_dict({"seats": 3})
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: demo option 'seats' must be one of 2, 4 (둘, 넷), not 3
>>> Demo.describe()[1]
{'name': 'seats', 'type': 'int', 'default': 2, 'values': [2, 4], 'labels': ['둘', '넷']}
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any, ClassVar, Self

from madang.core.errors import RuleConfigError

__all__ = ["OptionField", "Options", "option"]


def option(
    default: Any,
    *,
    choices: Mapping[Any, str] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """A rules field with what its annotation cannot say: the allowed values (with
    their names, shown in messages and forms) or, for an integer, the least and the
    largest allowed (an integer option needs one or the other)."""
    meta = {
        "choices": dict(choices) if choices else None,
        "minimum": minimum,
        "maximum": maximum,
    }
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True, slots=True)
class OptionField:
    """One option as the base sees it."""

    name: str
    kind: type  #: bool, int, str or an Enum subclass
    default: Any
    choices: dict[Any, str] | None
    minimum: int | None
    maximum: int | None = None

    def check(self, game: str, value: Any) -> None:
        """Raise RuleConfigError unless ``value`` (already of the field's Python type,
        for an Enum its member) is allowed."""
        where = f"{game} option {self.name!r}"
        kind = self.kind
        if kind is bool:
            if not isinstance(value, bool):
                raise RuleConfigError(f"{where} must be true or false, not {value!r}")
        elif issubclass(kind, Enum):
            if not isinstance(value, kind):
                allowed = ", ".join(repr(e.value) for e in kind)
                raise RuleConfigError(f"{where} must be one of {allowed}, not {value!r}")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleConfigError(f"{where} must be an integer, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise RuleConfigError(f"{where} must be at least {self.minimum}, not {value!r}")
            if self.maximum is not None and value > self.maximum:
                raise RuleConfigError(f"{where} must be at most {self.maximum}, not {value!r}")
        elif not isinstance(value, kind):
            raise RuleConfigError(f"{where} must be a {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            names = ", ".join(self.choices.values())
            raise RuleConfigError(f"{where} must be one of {allowed} ({names}), not {value!r}")

    def read(self, game: str, value: Any) -> Any:
        """A JSON value as the field's Python value (an Enum from its value)."""
        if isinstance(self.kind, type) and issubclass(self.kind, Enum):
            try:
                return self.kind(value)
            except (ValueError, TypeError):
                allowed = ", ".join(repr(e.value) for e in self.kind)
                raise RuleConfigError(
                    f"{game} option {self.name!r} must be one of {allowed}, not {value!r}"
                ) from None
        return value


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


class Options:
    """The base of a game's rules dataclass (frozen, slotted); see the module doc."""

    __slots__ = ()

    GAME: ClassVar[str] = "game"
    """The game's name, in messages."""

    @classmethod
    def option_fields(cls) -> tuple[OptionField, ...]:
        """Every option of the rules type, in field order."""
        return _option_fields(cls)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        for f in self.option_fields():
            f.check(self.GAME, getattr(self, f.name))
        self.validate()

    def validate(self) -> None:
        """Checks across options (none by default); raise RuleConfigError."""

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, JSON-ready (an Enum by its value)."""
        return dict(_full(self))

    def changes(self) -> dict[str, Any]:
        """The options that differ from the defaults, JSON-ready."""
        return {n: v for n, v, changed in _marked(self) if changed}

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rules from option names and JSON values; missing options take their default,
        unknown names and bad values raise RuleConfigError."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleConfigError(f"{cls.GAME} rules must be an object of option names and values")
        by_name = {f.name: f for f in cls.option_fields()}
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            f = by_name.get(name) if isinstance(name, str) else None
            if f is None:
                known = ", ".join(by_name)
                raise RuleConfigError(f"unknown {cls.GAME} rules option {name!r} (known: {known})")
            kwargs[name] = f.read(cls.GAME, value)
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (by Python value; validated)."""
        known = {f.name for f in self.option_fields()}
        for name in changes:
            if name not in known:
                raise RuleConfigError(f"unknown {self.GAME} rules option {name!r}")
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """What a form offers for each option: ``name``, ``type`` (``bool``, ``int``,
        ``str``, ``enum``), ``default``, and the allowed ``values`` (with ``labels``
        where they have names) or, for an integer range, its ``min`` and ``max``."""
        out = []
        for f in cls.option_fields():
            d: dict[str, Any] = {"name": f.name}
            if f.kind is bool:
                d["type"] = "bool"
            elif issubclass(f.kind, Enum):
                d["type"] = "enum"
            else:
                d["type"] = "int" if f.kind is int else "str"
            d["default"] = _plain(f.default)
            if f.choices is not None:
                d["values"] = list(f.choices)
                d["labels"] = list(f.choices.values())
            elif issubclass(f.kind, Enum):
                d["values"] = [e.value for e in f.kind]
            elif f.kind is bool:
                d["values"] = [False, True]
            if f.minimum is not None:
                d["min"] = f.minimum
            if f.maximum is not None:
                d["max"] = f.maximum
            out.append(d)
        return out


@cache
def _option_fields(cls: type) -> tuple[OptionField, ...]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        if not isinstance(kind, type) or not (
            kind in (bool, int, str) or issubclass(kind, Enum)
        ):  # pragma: no cover - a programming error in a rules class
            raise TypeError(f"{cls.__name__}.{f.name}: an option is a bool, int, str or Enum")
        meta = f.metadata
        field_ = OptionField(
            f.name, kind, f.default, meta.get("choices"), meta.get("minimum"), meta.get("maximum")
        )
        if (
            kind is int
            and field_.choices is None
            and (field_.minimum is None or field_.maximum is None)
        ):
            raise TypeError(
                f"{cls.__name__}.{f.name}: an integer option needs its choices, or both a "
                "minimum and a maximum (option(default, minimum=…, maximum=…))"
            )
        out.append(field_)
    return tuple(out)


@cache
def _marked(rules: Options) -> tuple[tuple[str, Any, bool], ...]:
    return tuple(
        (f.name, _plain(v := getattr(rules, f.name)), v != f.default) for f in rules.option_fields()
    )


@cache
def _full(rules: Options) -> tuple[tuple[str, Any], ...]:
    return tuple((n, v) for n, v, _ in _marked(rules))
