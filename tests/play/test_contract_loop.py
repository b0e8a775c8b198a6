"""The terminals play through the game contract, in process: the person's bad moves
are said and change nothing, and each game plays to its settlement (mahjong: its match
to the end), the screen's totals being the session's."""

from __future__ import annotations

import io
import json
import random
from types import TracebackType

import pytest
from rich.console import Console
from rich.markup import escape

from madang.bots import Budget
from madang.core.errors import InvalidActionError
from madang.play.gostop_tui import GostopTerminal
from madang.play.keys import ENTER, RIGHT
from madang.play.mahjong_tui import MahjongTerminal
from madang.play.matgo_tui import MatgoTerminal
from madang.play.terminal import HUMAN, TerminalSession

TERMINALS: dict[str, type[TerminalSession]] = {
    "matgo": MatgoTerminal,
    "gostop": GostopTerminal,
    "mahjong": MahjongTerminal,
}
#: A move of no game's notation, and a well-formed move the person may not make now.
BAD_MOVES = {
    "matgo": ["play", "chongtong play"],
    "gostop": ["shodang accept please", "chongtong play"],
    "mahjong": ["discard", "ron"],
}
KEYS = ["1", RIGHT, ENTER, "2", " ", "1", "0"]


class Keys:
    """Scripted keys (the terminal's KeyReader): EOF when they run out."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = list(keys)

    def __enter__(self) -> Keys:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def key(self) -> str:
        if not self.keys:
            raise EOFError("no more keys")
        return self.keys.pop(0)


def _terminal(game: str, seed: int, keys: list[str], level: str = "normal") -> TerminalSession:
    return TERMINALS[game](
        level=level,
        seed=seed,
        budget=Budget(None, 2),
        console=Console(file=io.StringIO(), width=120, force_terminal=False),
        keys=Keys(keys),  # type: ignore[arg-type]
    )


def _text(term: TerminalSession) -> str:
    out = term.console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


@pytest.mark.parametrize("game", list(TERMINALS))
def test_bad_moves_are_said_and_change_nothing(game: str) -> None:
    """The person's first answers are a malformed move, then one not legal now: each is
    shown as its typed error, no view changes, and the keys' move is played after."""
    term = _terminal(game, 5, KEYS * 100)
    s = term.session
    real = term.human_move
    asked: list[str] = []

    def views() -> str:
        return json.dumps([s.view(seat) for seat in (*range(s.seats), None)])

    def human_move(seat: int) -> str:
        asked.append(views())
        bad = BAD_MOVES[game]
        return bad[len(asked) - 1] if len(asked) <= len(bad) else real(seat)

    term.human_move = human_move  # type: ignore[method-assign]
    term.play_one()
    assert asked[:3] == [asked[0]] * 3  # nothing changed between the bad answers
    malformed, illegal = BAD_MOVES[game]
    errors = [line for line in term.log if line.startswith("[bold red]")]
    with pytest.raises(InvalidActionError) as bad_text:
        s.string_to_action(malformed)
    assert errors[0] == f"[bold red]{escape(str(bad_text.value))}[/]"
    assert illegal in errors[1] and "is not legal now" in errors[1]
    assert len(errors) == 2 and s.over and "정산" in _text(term)  # then the keys played on


@pytest.mark.parametrize("seed", [4, 9])
def test_matgo_games_end_on_the_settlement_and_the_balance_is_the_sessions(seed: int) -> None:
    term = _terminal("matgo", seed, KEYS * 300)
    term.run(2)
    text = _text(term)
    assert text.count("정산") == 2 and text.rstrip().endswith("끝! 고맙습니다.")
    assert "맞고 — 판 1  잔고 +0" in text and "맞고 — 판 2" in text  # (game_no, balance)
    balances = term.session.series.balances
    assert sum(balances) == 0 and term.session.game_no == 3
    assert balances[HUMAN] == int(text.rsplit("잔고: ", 1)[1].split("점")[0])


def test_a_mahjong_match_plays_to_its_end_and_stops() -> None:
    """Hands until the match ends (the East round: every seat deals at least once);
    the last line of totals is the match's final totals, and the terminal stops. (The
    person answers the default move, without drawing every prompt: the keys' path is
    the tests above and ``test_mahjong_terminal``.)"""
    term = _terminal("mahjong", 2, [ENTER] * 100)
    s = term.session

    def human_move(seat: int) -> str:
        return s.action_to_string(s.default_move(seat))

    term.human_move = human_move  # type: ignore[method-assign]
    term.run()
    text = _text(term)
    final = term.final
    assert final is not None and sum(final) == 0
    hands = text.count("정산")
    assert hands >= 4 and text.rstrip().endswith("끝! 고맙습니다.")
    shown = text.rsplit("점수: ", 1)[1].splitlines()[0].split()
    assert [int(x) for x in shown[1::2]] == final


def test_an_unseeded_matgo_match_starts_with_seon_ppopgi(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a seed, 맞고 starts with 선 뽑기: the person picks a face-down card by its
    number (other keys are ignored), the bot another; a tie (the same month) lays out
    new cards; the game is then dealt from that key with those picks, so its first 선
    is the picks' (as a verifiable table's: ``FirstPick.decide``). With a seed, the
    first 선 is the seed's and nothing is asked."""
    import random

    from madang.matgo import fair
    from madang.matgo.cards import MONTH
    from madang.matgo.first_pick import FirstPick

    key = bytes(range(32))
    monkeypatch.setattr("madang.play.matgo_tui.secrets.token_bytes", lambda n: key)
    rules = _terminal("matgo", 1, []).session.record()["rules"]
    picker = FirstPick(rules, key)

    # a bot's rng and the person's slot that tie in round 0 and not in round 1 (the
    # person then picks the first card)
    def rounds_of(bot_seed: int, slot: int) -> list[list[int]]:
        rng = random.Random(bot_seed)
        first = [slot, _bot_pick(rng, slot)]
        return [first, [0, _bot_pick(rng, 0)]]

    bot_seed, slot = next(
        (b, s)
        for b in range(500)
        for s in range(8)
        if picker.winner(0, rounds_of(b, s)[0]) is None
        and picker.winner(1, rounds_of(b, s)[1]) is not None
    )
    term = _terminal("matgo", 0, ["x", str(slot + 1), "1", *KEYS * 300])
    term.seeded = False  # (``_terminal`` seeds the deal; the match is played unseeded)
    term.rng = random.Random(bot_seed)
    term.before_match()  # (what ``run`` does first)
    text = _text(term)
    assert text.count("선 뽑기: 엎어 놓은 패 한 장을 고르세요 (1–8)") == 2  # a tie, then again
    assert "같은 월: 새 패를 깔고 다시 뽑습니다." in text
    rounds = rounds_of(bot_seed, slot)
    dealer, draws = picker.decide(rounds)
    view = term.session.view(HUMAN)
    assert view["match"]["first_draws"] == [[MONTH[a], MONTH[b]] for a, b in draws]
    record = term.session.record()
    assert record["dealer"] == dealer
    assert record["deck"] == fair.fair_deal(record["rules"], key, 1, rounds)["deck"]
    term.play_one()  # and the game dealt from the key plays to its settlement
    assert term.session.over and "정산" in _text(term)
    seeded = _terminal("matgo", 4, KEYS * 300)
    seeded.run(1)
    assert "선 뽑기" not in _text(seeded)


def _bot_pick(rng: random.Random, taken: int) -> int:
    return rng.choice([i for i in range(8) if i != taken])
