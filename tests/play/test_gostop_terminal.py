"""고스톱 in the terminal, in process: a person (seat 0) against two bots, keys in,
screen out, to each game's settlement."""

from __future__ import annotations

import io
from types import TracebackType

import pytest
from rich.console import Console

from madang.bots import Budget
from madang.core.errors import RuleConfigError
from madang.matgo.rules import MatgoRules
from madang.play.gostop_tui import GostopTerminal
from madang.play.keys import ENTER, RIGHT


class Keys:
    """Scripted keys (the terminal's KeyReader): EOF when they run out."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = list(keys)
        self.read = 0

    def __enter__(self) -> Keys:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def key(self) -> str:
        if not self.keys:
            raise EOFError("no more keys")
        self.read += 1
        return self.keys.pop(0)


def _session(seed: int, keys: list[str]) -> tuple[GostopTerminal, io.StringIO, Keys]:
    out = io.StringIO()
    reader = Keys(keys)
    term = GostopTerminal(
        level="normal",
        seed=seed,
        budget=Budget(None, 2),
        console=Console(file=out, width=120, force_terminal=False),
        keys=reader,  # type: ignore[arg-type]
    )
    return term, out, reader


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_games_played_by_keys_end_on_the_settlement(seed: int) -> None:
    keys = ["1", RIGHT, ENTER, "2", " ", "1", "0"] * 400
    term, out, reader = _session(seed, keys)
    term.run(2)
    text = out.getvalue()
    assert text.count("정산") == 2 and text.rstrip().endswith("끝! 고맙습니다.")
    assert "컴퓨터 1" in text and "컴퓨터 2" in text and "고스톱 — 판 1" in text
    first = term.first_dealer_lines()  # the first 선, drawn by three seats
    assert first[1].startswith("선 뽑기: 나 ") and "컴퓨터 2" in first[1]
    assert first[-1] == f"선: {term.names[term.match.records[0]['dealer']]}"
    assert reader.read > 5  # the person was asked
    records = term.match.records
    assert len(records) == 2 == term.match.games_played  # both settled, the third dealt
    # the balance line is the person's net over both finished games
    assert term.series.balances[0] == int(text.rsplit("잔고: ", 1)[1].split("점")[0])
    assert sum(term.series.balances) == 0


def test_quit_key_ends_the_session() -> None:
    term, out, _ = _session(1, ["q"])
    term.run()
    assert out.getvalue().rstrip().endswith("끝! 고맙습니다.")


def test_matgo_rules_are_refused() -> None:
    with pytest.raises(RuleConfigError, match="gostop rules"):
        GostopTerminal(level="easy", rules=MatgoRules(), seed=1, keys=Keys([]))  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["gwangpalgi", "gwangpalgi_last"])
def test_four_seats_play_to_the_settlement(preset: str) -> None:
    """광팔기 in the terminal: three bots, one of the four sitting out each game (the
    person too, when it answers 죽기 or is 선+3); payments with 광값 sum to zero."""
    from madang.gostop.rules import preset as gostop_preset

    out = io.StringIO()
    reader = Keys(["1", RIGHT, ENTER, "2", " ", "1", "0"] * 600)
    term = GostopTerminal(
        level="normal",
        rules=gostop_preset(preset),
        seed=3,
        budget=Budget(None, 2),
        console=Console(file=out, width=120, force_terminal=False),
        keys=reader,  # type: ignore[arg-type]
    )
    term.run(3)
    text = out.getvalue()
    assert text.count("정산") == 3 and text.rstrip().endswith("끝! 고맙습니다.")
    assert all(f"컴퓨터 {s}" in text for s in (1, 2, 3))
    assert len(term.match.records) == 3
    assert sum(term.series.balances) == 0
