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

A particle written after a placeholder (``{who}이(가)``) is chosen by the value's last
syllable, as the browser's ``josa.js`` does:

>>> t("mahjong.ev.dealer", who="왼쪽"), t("mahjong.ev.dealer", who="컴퓨터 초급 2")
('왼쪽이 선(동)입니다', '컴퓨터 초급 2가 선(동)입니다')
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "PARTICLES", "MissingMessage", "catalogue", "has", "t", "with_particle"]

LANGUAGES = ("ko", "en")
"""The catalogue's languages, the default first."""

PARTICLES = {
    "이(가)": ("이", "가"),
    "은(는)": ("은", "는"),
    "을(를)": ("을", "를"),
    "과(와)": ("과", "와"),
}
"""The particle pairs a message may write after a placeholder: the form after a final
consonant (받침) first, the form after a vowel second."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}(이\(가\)|은\(는\)|을\(를\)|과\(와\))?")
#: digits 0-9 read 영 일 이 삼 사 오 육 칠 팔 구: which end in a 받침
_DIGIT_FINAL = (True, True, False, True, False, False, True, True, True, False)
#: Latin letters whose Korean name ends in a 받침: 엘, 엠, 엔, 알
_LATIN_FINAL = frozenset("lmnr")
_TRAILING = re.compile(r"[\s)\]}\"'.,!?·…]+$")


def _has_final(word: str) -> bool | None:
    """Does ``word`` end in a final consonant when read in Korean? None: cannot tell."""
    w = _TRAILING.sub("", word)
    if not w:
        return None
    c = w[-1]
    if "가" <= c <= "힣":
        return (ord(c) - 0xAC00) % 28 != 0
    if "0" <= c <= "9":
        return _DIGIT_FINAL[int(c)]
    if c.isascii() and c.isalpha():
        return c.lower() in _LATIN_FINAL
    return None


def with_particle(word: str, pair: str) -> str:
    """``word`` followed by the form of ``pair`` (``"이(가)"``, ``"은(는)"``, ``"을(를)"``,
    ``"과(와)"``) that fits its last syllable; a word it cannot read keeps ``pair``.

    >>> with_particle("손님 a01c0b", "이(가)"), with_particle("판", "을(를)")
    ('손님 a01c0b가', '판을')
    >>> with_particle("★", "이(가)")
    '★이(가)'
    >>> with_particle("나", "에게")
    Traceback (most recent call last):
    ...
    ValueError: unknown particle pair: '에게'
    """
    if pair not in PARTICLES:
        raise ValueError(f"unknown particle pair: {pair!r}")
    final = _has_final(word)
    if final is None:
        return word + pair
    return word + PARTICLES[pair][0 if final else 1]


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
        name, pair = m.group(1), m.group(2)
        if name not in params:
            return m.group(0)
        return with_particle(str(params[name]), pair) if pair else str(params[name])

    return _PLACEHOLDER.sub(fill, text)
