"""말 (mal): the message catalogue of the clients, one file per language.

Every name a player reads — cards, tiles, events, prompts, errors, payment and end
reasons, patterns, missions, presets — comes from ``madang/web/i18n/<lang>.json``:
Korean (``ko``) is the default, English (``en``) the complete second language. The
browser client loads the same files (``/static/i18n/ko.json``), the terminal reads them
through :func:`t`. Placeholders are ``{name}``.

>>> t("matgo.ev.ppeok", who="나", month=5, count=1)
'나 뻑! (5월, 1번째)'
>>> t("matgo.cap.go", "en", n=3)
'3 go!'
>>> sorted(catalogue("ko")) == sorted(catalogue("en"))
True
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "MissingMessage", "catalogue", "has", "t"]

LANGUAGES = ("ko", "en")
"""The catalogue's languages, the default first."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class MissingMessage(KeyError):
    """A key that the catalogue does not hold (a bug: every name must be there)."""


@cache
def catalogue(lang: str = "ko") -> dict[str, str]:
    """The messages of ``lang`` (``ko`` or ``en``), key -> text."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r} (known: {', '.join(LANGUAGES)})")
    path = resources.files("madang").joinpath("web", "i18n", f"{lang}.json")
    text = path.read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def has(key: str, lang: str = "ko") -> bool:
    """Whether ``key`` is in the catalogue of ``lang``."""
    return key in catalogue(lang)


def t(key: str, lang: str = "ko", /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``.

    A missing key raises :class:`MissingMessage`; a placeholder without a value stays
    as written (so a test can find it).
    """
    try:
        text = catalogue(lang)[key]
    except KeyError:
        raise MissingMessage(key) from None

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        return str(params[name]) if name in params else m.group(0)

    return _PLACEHOLDER.sub(fill, text)
