"""Regressions found by bots and arena runs, each pinned by the situation that showed it."""

from __future__ import annotations

from madang.mahjong.engine import _waits_of, new_hand
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import MeldInfo
from madang.mahjong.tiles import parse_tile, parse_tiles, to_counts


def test_a_wait_on_a_tile_held_four_times_with_melds_is_no_wait() -> None:
    """A concealed kan of 8m and a 7-9m closed wait: 8m cannot arrive, so no wait (the
    엎어 check under 양판 used to score it with five 8m and crash)."""
    st = new_hand(MahjongRules(min_pan=2), seed=1)
    st.hands[0] = to_counts(parse_tiles("79m123456p11z"))
    st.melds[0] = [MeldInfo("ankan", parse_tile("8m"))]
    assert _waits_of(st, 0) == ()
    st.melds[0] = [MeldInfo("pon", parse_tile("8m"), 1)]
    assert _waits_of(st, 0) == (parse_tile("8m"),)  # one 8m is still out there
