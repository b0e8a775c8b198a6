"""Records with fairness data (``docs/fairness.md``), made as the server will make them:
a seed, its commitment, the players' entropy, the game dealt from the deal key, some
moves played, the record exported and the fairness field added with the seed revealed.
"""

from __future__ import annotations

from typing import Any

from madang.core.fair import Binding, Fairness, commitment, deal_key, rules_digest
from madang.core.registry import spec


def fair_record(
    game: str,
    seed: bytes,
    *,
    table: str = "1",
    game_no: int = 1,
    entropy: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    moves: int = 0,
    dealer: int = 0,
    reveal: bool = True,
) -> dict[str, Any]:
    """A record of ``game`` dealt from ``seed`` with ``moves`` default moves played (all
    of them while the game runs: -1). Matgo's game 1 takes the key's first 선, later
    games ``dealer``; a mahjong hand is dealt by ``dealer``."""
    g = spec(game)
    r = g.rules(g.presets()[0], rules or {})
    bound = r.to_dict()
    seats = bound.pop("players", g.seats)  # a 고스톱 record keeps its players beside its rules
    if game != "gostop":
        bound = r.to_dict()
    binding = Binding(
        game=game, table=table, game_no=game_no, ruleset=g.ruleset_version,
        rules=rules_digest(bound),
    )  # fmt: skip
    entropy = [""] * seats if entropy is None else entropy
    key = deal_key(seed, binding, entropy)
    record = _play(game, r, key, game_no, dealer, moves)
    record["fairness"] = Fairness(
        table=table, game_no=game_no, commitment=commitment(seed, binding),
        entropy=tuple(entropy), seed=seed.hex() if reveal else None,
    ).to_dict()  # fmt: skip
    return record


def _play(game: str, rules: Any, key: bytes, game_no: int, dealer: int, moves: int) -> Any:
    if game == "gostop":  # as a table deals it: the session dealt again from the key
        from madang.gostop.game import GostopMatch, GostopSession

        session = GostopSession(GostopMatch(rules, seed=0, dealer=dealer))
        session.redeal(key)
        while moves and not session.over:
            seat = session.pending()[0]
            session.step(seat, session.default_move(seat))
            moves -= 1
        return session.record()
    if game == "matgo":
        from madang.matgo.fair import fair_first_dealer, fair_game
        from madang.matgo.record import export_record

        if game_no == 1:
            dealer = fair_first_dealer(rules, key)[0]
        st = fair_game(rules, key, dealer=dealer)
        while moves and not st.over:
            st.step(st.default_action())
            moves -= 1
        return export_record(st)
    from madang.mahjong.engine import default_action, step
    from madang.mahjong.fair import fair_hand
    from madang.mahjong.record import export_record as export_hand

    hand = fair_hand(rules, key, dealer=dealer)
    while moves and not hand.over:
        step(hand, default_action(hand, hand.pending[0]))
        moves -= 1
    return export_hand(hand)
