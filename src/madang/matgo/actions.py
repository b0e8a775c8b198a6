"""Matgo actions: small ints with a text notation (``notation.md``'s move column).

An action id is what the engine, bots and RL code pass around; the text form is what
records, the command line and the web protocol use.

========  =====================================
ids       action
========  =====================================
0–51      ``play CARD``
52–103    ``play CARD shake`` (흔들기)
104–115   ``bomb MM`` (폭탄)
116       ``flip`` (use a bomb token)
117–168   ``pick CARD`` (패 선택)
169, 170  ``go``, ``stop``
171, 172  ``gukjin animal``, ``gukjin pi``
173, 174  ``chongtong stop``, ``chongtong play``
175, 176  ``join``, ``die`` (광팔기, 고스톱 with four)
177       ``shodang`` (쇼당, 고스톱)
178, 179  ``shodang accept``, ``shodang refuse``
========  =====================================

맞고 uses the ids below :data:`NUM_ACTIONS` (its RL encoding's action space); 고스톱
adds the last five (:data:`NUM_FAMILY_ACTIONS`), which are never legal in 맞고.

>>> parse_action("play 08g shake")
80
>>> action_str(parse_action("bomb 08"))
'bomb 08'
>>> parse_action("pick 99x")
Traceback (most recent call last):
...
madang.core.errors.InvalidActionError: unknown card '99x'
"""

from __future__ import annotations

from typing import Final

from madang.core.errors import InvalidActionError
from madang.matgo.cards import CODES, NUM_CARDS, parse_card

PLAY: Final = 0
SHAKE: Final = PLAY + NUM_CARDS  # 52
BOMB: Final = SHAKE + NUM_CARDS  # 104: BOMB + month - 1
FLIP: Final = BOMB + 12  # 116
PICK: Final = FLIP + 1  # 117
GO: Final = PICK + NUM_CARDS  # 169
STOP: Final = GO + 1
GUKJIN_ANIMAL: Final = STOP + 1
GUKJIN_PI: Final = GUKJIN_ANIMAL + 1
CHONGTONG_STOP: Final = GUKJIN_PI + 1
CHONGTONG_PLAY: Final = CHONGTONG_STOP + 1
NUM_ACTIONS: Final = CHONGTONG_PLAY + 1  # 175: 맞고's ids
JOIN: Final = NUM_ACTIONS  # 175
DIE: Final = JOIN + 1
SHODANG: Final = DIE + 1
SHODANG_ACCEPT: Final = SHODANG + 1
SHODANG_REFUSE: Final = SHODANG_ACCEPT + 1
NUM_FAMILY_ACTIONS: Final = SHODANG_REFUSE + 1  # 180: 맞고's and 고스톱's

_FIXED: Final = {
    FLIP: "flip",
    GO: "go",
    STOP: "stop",
    GUKJIN_ANIMAL: "gukjin animal",
    GUKJIN_PI: "gukjin pi",
    CHONGTONG_STOP: "chongtong stop",
    CHONGTONG_PLAY: "chongtong play",
    JOIN: "join",
    DIE: "die",
    SHODANG: "shodang",
    SHODANG_ACCEPT: "shodang accept",
    SHODANG_REFUSE: "shodang refuse",
}
_FIXED_BY_TEXT: Final = {v: k for k, v in _FIXED.items()}


def action_str(action: int) -> str:
    """The notation of an action id."""
    if PLAY <= action < SHAKE:
        return f"play {CODES[action]}"
    if SHAKE <= action < BOMB:
        return f"play {CODES[action - SHAKE]} shake"
    if BOMB <= action < FLIP:
        return f"bomb {action - BOMB + 1:02d}"
    if PICK <= action < GO:
        return f"pick {CODES[action - PICK]}"
    try:
        return _FIXED[action]
    except KeyError:
        raise InvalidActionError(f"no action has id {action!r}") from None


def parse_action(text: object) -> int:
    """The action id of a move written in notation; malformed text is an InvalidActionError."""
    if not isinstance(text, str):
        raise InvalidActionError(f"a move must be a string, not {type(text).__name__}")
    words = text.split()
    joined = " ".join(words)
    if joined in _FIXED_BY_TEXT:
        return _FIXED_BY_TEXT[joined]
    if len(words) == 2 and words[0] == "play":
        return PLAY + parse_card(words[1])
    if len(words) == 3 and words[0] == "play" and words[2] == "shake":
        return SHAKE + parse_card(words[1])
    if len(words) == 2 and words[0] == "pick":
        return PICK + parse_card(words[1])
    if len(words) == 2 and words[0] == "bomb":
        mm = words[1]
        if len(mm) == 2 and mm.isascii() and mm.isdigit() and 1 <= int(mm) <= 12:
            return BOMB + int(mm) - 1
        raise InvalidActionError(f"bomb needs a month 01-12, not {mm!r}")
    raise InvalidActionError(f"malformed move {text!r}")
