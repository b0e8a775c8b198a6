"""The settlement calculator of ``gostop.md`` §11 over the worked examples of §13."""

from __future__ import annotations

from typing import Any

import pytest

from madang.core.errors import RecordError, RuleConfigError
from madang.gostop.score import score_json


def _c(text: str) -> list[str]:
    return text.split()


PI12 = _c("06p1 06p2 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11p1 11p2")


@pytest.mark.parametrize(
    ("data", "base", "points", "pays"),
    [
        # §13.2: 광박 on one loser
        ({"winner": _c("01g 03g 08g"), "losers": [_c("11g"), []]}, 3, 3, [3, 6]),
        # §13.3: 피박 at 5; a loser with no 피 is exempt …
        (
            {"winner": _c("01r 02r 03r 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11d 11p1"),
             "losers": [_c("12d 11p2 01p1 01p2"), []]},
            5, 5, [10, 5],
        ),
        # … unless pibak_zero_pi
        (
            {"winner": _c("01r 02r 03r 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11d 11p1"),
             "losers": [_c("12d 11p2 01p1 01p2"), []], "rules": {"pibak_zero_pi": True}},
            5, 5, [10, 10],
        ),
        # §13.4: 독박, x1 and x2
        ({"winner": _c("01r 02r 03r"), "losers": [_c("01g 03g 08g"), []], "gobak": 0},
         3, 3, [6, 0]),
        ({"winner": _c("01r 02r 03r"), "losers": [_c("01g 03g 08g"), []], "gobak": 0,
          "rules": {"gobak_multiplier": 2}}, 3, 3, [12, 0]),
        # §13.7: 3고, 흔들기, 피박 on one loser
        ({"winner": _c("01r 02r 03r") + PI12, "go": 3, "shakes": 1,
          "losers": [_c("01p1 01p2 02p1 02p2"), _c("03p1 03p2 04p1 04p2 05p1 05p2 12d")]},
         9, 36, [72, 36]),
        # §13.14: 멍따, and 멍박
        ({"winner": _c("02a 04a 05a 06a 07a 10a 12a"), "losers": [_c("08a"), []]}, 3, 6, [6, 6]),
        ({"winner": _c("02a 04a 05a 06a 07a 10a 12a"), "losers": [_c("08a"), []],
          "rules": {"meong": "meongbak"}}, 3, 3, [3, 6]),
    ],
    ids=["13.2", "13.3", "13.3-zero", "13.4", "13.4-x2", "13.7", "13.14", "13.14-meongbak"],
)  # fmt: skip
def test_worked_examples(data: dict[str, Any], base: int, points: int, pays: list[int]) -> None:
    out = score_json(data)
    assert (out["base"], out["points"], out["pays"]) == (base, points, pays)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"winner": [], "losers": [[]]}, "the two losers"),
        ({"winner": ["01g"], "losers": [["01g"], []]}, "in two piles"),
        ({"winner": [], "losers": [[], []], "gobak": 2}, "'gobak' must be 0, 1 or null"),
        ({"winner": [], "losers": [[], []], "gobak": True}, "'gobak' must be 0, 1 or null"),
        ({"winner": [], "losers": [[], []], "go": -1}, "'go' must be an integer >= 0"),
        ({"winner": ["b2y"], "losers": [[], []]}, "not in the deck of these rules"),
        ({"winner": [], "losers": [[], []], "extra": 1}, "unknown field"),
        ({"losers": [[], []]}, "needs 'winner' and 'losers'"),
    ],
)
def test_bad_input(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        score_json(data)
    with pytest.raises(RuleConfigError):
        score_json({"winner": [], "losers": [[], []], "rules": {"stop_points": 0}})
