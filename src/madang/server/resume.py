"""Tables that survive a restart: each one left open is rebuilt from its seed and its
games' journals, and goes on.

A table's row holds its game, preset, changed options and seed; every deal at the table
follows from the seed, and every accepted move of every game is in the journal
(``game_moves``) before anything showed it. So a fresh session of the table, stepped
through the journal game by game (``next_game`` between them, as the room does), is the
table as it was: the same deals, the same match scores, the same offer open. Each game
is checked on the way — its number, its deal against the record stored when it began,
a finished one's whole record against the one it was settled with — and a table whose
history does not replay is closed with its game aborted unpaid and the reason logged.

Nothing here knows a game: the session is the contract's (:mod:`madang.core.game`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Engine

from madang.core.errors import FairnessError, MadangError
from madang.core.registry import spec
from madang.server import store
from madang.server.config import ServerConfig
from madang.server.db import run_in_db
from madang.server.fairdeal import FairDeal, restored
from madang.server.games import Session, make_session, pacing
from madang.server.games import seats as seats_of
from madang.server.room import Kind, Room, Seat, Status
from madang.server.rules_catalogue import option_values
from madang.server.stakes import worth

log = logging.getLogger("madang.server")

__all__ = ["ResumeError", "rebuild", "resume_tables"]


class ResumeError(Exception):
    """A table's stored history does not rebuild it (the reason is the message)."""


def _without_moves(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("moves", "fairness")}


def replay(session: Session, games: list[dict[str, Any]]) -> tuple[bool, FairDeal | None]:
    """Step ``session`` (fresh, from the table's seed) through the table's ``games`` (as
    :func:`store.unfinished_tables` gives them); a game with verifiable deals is dealt
    again from its stored seed and the strings its record holds. Returns whether the
    last move left an offer open (the move offered for claims and, after it, only
    answers to its window) and the last game's verifiable deal (None: a seeded game).
    A game that does not replay raises :class:`ResumeError`."""
    offer = False
    fair: FairDeal | None = None
    for i, g in enumerate(games):
        if i:
            session.next_game()
        if g["status"] not in ("playing", "finished") or (
            g["status"] == "playing" and i != len(games) - 1
        ):
            raise ResumeError(f"game {g['id']} is {g['status']}")
        if session.game_no != g["game_no"]:
            raise ResumeError(f"game {g['id']} is number {g['game_no']}, not {session.game_no}")
        stored = g["record"]
        fair = None
        if isinstance(stored, dict) and "fairness" in stored:
            try:
                fair = restored(stored, g.get("fair_seed"))
                session.redeal(fair.key(), fair.first_picks)
            except (FairnessError, MadangError) as e:  # picks that decide nothing
                raise ResumeError(f"game {g['id']}: {e}") from None
            if fair.binding.game_no != g["game_no"]:
                raise ResumeError(f"game {g['id']}: its commitment is for another game")
        if not isinstance(stored, dict) or _without_moves(stored) != _without_moves(
            session.record()
        ):
            raise ResumeError(f"game {g['id']}: the deal is not the one stored")
        offer = False
        pace = pacing(session)  # None: a game that never offers
        for n, m in enumerate(g["moves"]):
            seat = m["seat"]
            if pace is not None and offer and seat not in pace.window():
                pace.end_offer()  # the pause had ended before this move
                offer = False
            try:
                session.step(seat, session.string_to_action(m["move"]))
            except MadangError as e:
                raise ResumeError(f"game {g['id']}, move {n} ({m['move']!r}): {e}") from None
            offer = offer or (pace is not None and pace.offering)
        if g["status"] == "finished":
            if not session.over or _without(session.record()) != _without(stored):
                raise ResumeError(f"game {g['id']}: the journal does not replay its record")
            if pace is not None and offer:
                pace.end_offer()
            offer = False
    return offer, fair


def _without(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "fairness"}


def rebuild(
    plan: dict[str, Any],
    config: ServerConfig,
    engine: Engine,
    on_close: Callable[[Room], None] | None = None,
) -> Room:
    """The room of one stored table (a row of :func:`store.unfinished_tables`), rebuilt
    and not yet started. Raises :class:`ResumeError` if its history does not replay."""
    if plan.get("seed") is None:
        raise ResumeError("no seed stored (a table from before the journal)")
    game, preset, rules = plan["game"], plan["preset"], plan.get("rules") or {}
    try:
        seed = int(plan["seed"])
        in_force = spec(game).rules(preset, rules)
        seats = [
            Seat(
                i,
                Kind(s["kind"]),
                user_id=s.get("user_id"),
                username=s.get("username"),
                level=s.get("level"),
                left=bool(s.get("left")),
                account_bot=bool(s.get("bot")),
            )
            for i, s in enumerate(plan["seats"])
        ]
        games: list[dict[str, Any]] = plan["games"]
        session = make_session(game, preset, seed, rules) if games else None
        offering, fair = replay(session, games) if session is not None else (False, None)
    except ResumeError:
        raise
    except (MadangError, KeyError, TypeError, ValueError) as e:
        raise ResumeError(f"{type(e).__name__}: {e}") from None
    if len(seats) != seats_of(game, in_force):
        raise ResumeError(f"{len(seats)} seats at a table of {game}")
    room = Room(
        table_id=plan["id"],
        game=game,
        preset=preset,
        rules=rules,
        rules_in_force=option_values(in_force),
        stake=plan["stake"],
        worth=worth(game, in_force, plan["stake"]),
        private=plan["private"],
        invite=plan["invite"],
        seats=seats,
        config=config,
        engine=engine,
        seed=seed,
        on_close=on_close,
        fair=(config.deal_seed is None) if not games else fair is not None,
    )
    last = games[-1] if games else None
    finished = [g for g in games if g["status"] == "finished"]
    if last is None:
        status = Status.WAITING
    elif last["status"] == "playing":
        status = Status.PLAYING
    else:
        status = Status.BETWEEN
    result = None
    if status == Status.BETWEEN and last is not None and isinstance(last["result"], dict):
        result = {**last["result"], "game_id": last["id"]}
        result.setdefault("match_over", "match_scores" in result)
        if fair is not None:  # the finished game's seed, revealed as at its end
            result["fair"] = fair.fairness(reveal=True)
    room.restore(
        session,
        status=status,
        game_id=None if last is None else last["id"],
        moves=0 if last is None else len(last["moves"]),
        games_played=len(finished),
        last_result=result,
        offering=offering,
        fair=fair,
    )
    return room


async def resume_tables(
    config: ServerConfig,
    engine: Engine,
    rooms: dict[int, Room],
    on_close: Callable[[Room], None] | None = None,
) -> tuple[int, int]:
    """At start: rebuild and start every table left open (into ``rooms``); a table that
    does not replay is closed, its game aborted unpaid, the reason logged. Returns the
    tables resumed and the games aborted."""
    plans = await run_in_db(engine, store.unfinished_tables)
    resumed = aborted = 0
    for plan in plans:
        try:
            room = rebuild(plan, config, engine, on_close)
        except ResumeError as e:
            log.warning("table %s not resumed, closed: %s", plan["id"], e)
            aborted += await run_in_db(engine, store.abort_table, plan["id"], "unreadable journal")
            continue
        rooms[room.table_id] = room
        room.start()
        resumed += 1
    if resumed or aborted:
        log.info("resumed %d tables; %d games aborted", resumed, aborted)
    return resumed, aborted
