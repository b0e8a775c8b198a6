"""``madang arena GAME …``: bots against bots on duplicate deals (see :mod:`madang.arena`).

    madang arena matgo --a hard --b greedy --games 2000 --workers 2 [--seed S] [--json]
                       [--records DIR] [--budget-ms N] [--iterations N]
    madang arena mahjong --a hard --others normal --hands 2000 [--preset yangpan] …
    madang arena gostop --a hard --others normal,easy --games 2000
    madang arena ladder GAME [--bots a,b,c] [--games N] [--jobs J] [--out DIR] [--publish]

Every registered game with an arena gets a sub-command. In a two-seat game bot A meets
bot B (``--b``), each deal played twice with the seats swapped, and ``--games`` counts
games; in a game of more seats A meets the same bot in every other seat
(``--others``), each deal played once with A at each seat, or a bot per other seat
(``--others normal,easy``), each deal played once per seating of the bots
(:func:`madang.arena.rotations`: at 고스톱's three seats, every permutation), and
``--hands`` (or ``--games``) counts games. The seats are those of the preset's table
(:func:`madang.arena.table_seats`): ``madang arena gostop --preset gwangpalgi`` seats
four (광팔기), A at each seat of every deal. Counts are rounded up to whole deals; the
result gives every agent's mean points a game with its 95% interval. ``--preset`` and
``--rule NAME=VALUE`` (a JSON value, repeatable) choose the rules. A bot may be
``learned:PATH``, a policy saved by ``madang train`` (``policy.npz``) or by
``examples/train_matgo_maskable_ppo.py`` (in Matgo also a points net saved by
``python -m madang.bots._matgo_net_train``: ``hard_learned`` reading it), or
``cmd:COMMAND``, a program speaking the bot protocol (``docs/bot-protocol.md``), e.g.
``--a cmd:"python3 examples/bots/random_bot.py"``: ``--limit-ms`` is its hard limit per
decision and ``--max-faults`` the faults in a game after which its seat plays default
moves; the result counts its faults. A Rich progress bar goes to standard error;
``--json`` prints the result as one object on standard output. ``arena ladder`` plays
every level round robin (:mod:`madang.ladder`, ``docs/bots.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from madang.arena import rotations, run_arena, table_seats
from madang.bots.base import BotLimits, Budget, load_model, make_agent
from madang.cli import print_json
from madang.core.errors import RuleConfigError
from madang.core.registry import games, spec


def register_cli(sub: Any) -> None:
    """Add ``arena`` and a sub-command per registered game to the ``madang`` parser."""
    arena = sub.add_parser("arena", help="bots against bots on duplicate deals, with statistics")
    asub = arena.add_subparsers(dest="arena_game", required=True)
    _ladder_parser(asub)
    for name in games():
        g = spec(name)
        if g.deal is None:
            continue
        if g.seats == 2:
            p = asub.add_parser(name, help=f"{name}: bot A against bot B, seats swapped each deal")
            p.add_argument("--b", default="greedy", help="bot B: a level or a name")
            p.add_argument("--games", type=int, default=200, help="games to play (2 per deal)")
        else:
            p = asub.add_parser(
                name, help=f"{name}: bot A against {g.seats - 1} others, A at every seat"
            )
            p.add_argument(
                "--others",
                default="normal",
                help="the other seats' bot, or one per other seat separated by commas "
                "(e.g. normal,easy)",
            )
            p.add_argument(
                "--hands",
                "--games",
                dest="games",
                type=int,
                default=200,
                help=f"games (hands) to play ({g.seats} per deal; the preset's seat count)",
            )
        p.add_argument(
            "--a",
            default="hard",
            help='bot A: a level (easy/normal/hard), a name, or cmd:"COMMAND" (a bot program)',
        )
        p.add_argument("--preset", default="default", help="rules preset (e.g. yangpan)")
        p.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help='change one rules option (VALUE in JSON: true, 2, "ask"); repeatable',
        )
        _common(p)
        p.set_defaults(handler=_run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    _play_options(p)
    p.add_argument("--records", metavar="DIR", default=None, help="write every game's record")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _play_options(p: argparse.ArgumentParser) -> None:
    """The options of how bots play: seed, budget, limits of a ``cmd:`` bot."""
    p.add_argument("--seed", type=int, default=0, help="match seed: fixes every deal")
    p.add_argument("--budget-ms", type=float, default=100.0, help="time per decision (ms)")
    p.add_argument("--iterations", type=int, default=None, help="search samples per decision")
    p.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count the budget in each bot thread's CPU time, not wall time (shared machines)",
    )
    p.add_argument(
        "--limit-ms",
        type=float,
        default=None,
        help="hard limit per decision of a cmd: bot (default: the budget + 1000 ms)",
    )
    p.add_argument(
        "--max-faults",
        type=int,
        default=3,
        help="faults of a cmd: bot in one game before its seat plays default moves",
    )


def _ladder_parser(asub: Any) -> None:
    """``madang arena ladder GAME``: every level round robin (:mod:`madang.ladder`)."""
    names = [g for g in games() if spec(g).deal is not None]
    p = asub.add_parser(
        "ladder",
        help="every level of a game round robin on duplicate deals: points, wins, ratings",
    )
    p.add_argument("ladder_game", metavar="GAME", choices=names, help=", ".join(names))
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots (levels, names, learned:PATH, cmd:COMMAND); "
        "default: the game's levels",
    )
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per pair (default: the measured default size of the game)",
    )
    p.add_argument("--out", default="ladder", metavar="DIR", help="where to write the tables")
    p.add_argument(
        "--jobs",
        "--workers",
        dest="workers",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the machine's cores)",
    )
    p.add_argument("--preset", default="default", help="rules preset (e.g. yangpan)")
    p.add_argument(
        "--publish",
        action="store_true",
        help="also write the JSON the server shows (src/madang/data/ladder_GAME.json)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _play_options(p)
    p.set_defaults(handler=_run_ladder)


def _run_ladder(args: argparse.Namespace) -> int:
    from madang import ladder

    game = args.ladder_game
    bots = (
        ladder.default_bots(game)
        if args.bots is None
        else [b.strip() for b in args.bots.split(",") if b.strip()]
    )
    count = ladder.default_games(game) if args.games is None else args.games
    if args.workers < 1:
        raise RuleConfigError(f"the number of workers must be positive, not {args.workers}")
    limits = _limits(args)
    for name in bots:
        _load_learned(game, name)
    seats = spec(game).seats
    matches = len(ladder.pairings(seats, len(bots)))
    per = (count + seats - 1) // seats * seats
    advance, close = _progress(matches * per, f"{game} ladder", not args.no_progress)
    try:
        result = ladder.run_ladder(
            game,
            bots,
            games=count,
            seed=args.seed,
            workers=args.workers,
            budget=_budget(args),
            preset=args.preset,
            limits=limits,
            progress=advance,
        )
    finally:
        close()
    sys.stdout.write(ladder.markdown(result))
    for note in ladder.write(result, Path(args.out), publish=args.publish):
        sys.stderr.write(note + "\n")
    return 0


def _budget(args: argparse.Namespace) -> Budget:
    ms = args.budget_ms
    time_s = None if ms is None or ms <= 0 else ms / 1000
    return Budget(time_s=time_s, iterations=args.iterations, cpu=args.cpu_clock)


def _limits(args: argparse.Namespace) -> BotLimits:
    ms = args.limit_ms
    return BotLimits(limit_s=None if ms is None else ms / 1000, max_faults=args.max_faults)


def _load_learned(game: str, name: str) -> None:
    """``learned:PATH``: one of the game's own saved models
    (:func:`madang.bots.base.register_model_loader`), or a policy saved by ``madang
    train`` or the training example (``madang.rl.learned``), registered as a bot of
    ``game`` under that name."""
    kind, _, path = name.partition(":")
    if kind != "learned" or not path:
        return
    if not (Path(path).is_file() or Path(path + ".zip").is_file()):
        raise RuleConfigError(f"no saved policy at {path}")
    if load_model(game, path) is not None:  # one of the game's own models
        return
    try:
        from madang.rl.learned import register_learned
    except ImportError as e:
        raise RuleConfigError(f"{name} needs the rl and train extras (no {e.name})") from None
    register_learned(game, path)


def _rules(pairs: list[str]) -> dict[str, Any]:
    """``["NAME=VALUE", …]`` as options (a VALUE that is not JSON is taken as text)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise RuleConfigError(f"--rule takes NAME=VALUE, not {pair!r}")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _progress(
    total: int, label: str, enabled: bool
) -> tuple[Callable[[int], None], Callable[[], None]]:
    """A progress callback and a closer: a Rich bar on stderr when Rich is installed."""
    if not enabled:
        return (lambda n: None), (lambda: None)
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:  # pragma: no cover - rich is a dependency; degrade quietly
        return (lambda n: None), (lambda: None)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task = bar.add_task(label, total=total)
    bar.start()
    return (lambda n: bar.advance(task, n)), bar.stop


def _run(args: argparse.Namespace) -> int:
    game = args.arena_game
    if args.games < 1:
        raise RuleConfigError(f"the number of games must be positive, not {args.games}")
    rules = _rules(args.rule)
    seats = table_seats(game, args.preset, rules)  # bad presets and options fail here
    bots = [args.a, *_others(args.b if seats == 2 else args.others, seats)]
    per_deal = len(rotations(seats, seats, bots))
    deals = (args.games + per_deal - 1) // per_deal
    limits = _limits(args)
    for name in dict.fromkeys(bots):
        _load_learned(game, name)
        make_agent(game, name, limits)  # an unknown bot fails before the progress bar starts
    if seats == 2:
        label = f"{game} {args.a} vs {bots[1]}"
    elif len(set(bots[1:])) == 1:
        label = f"{game} {args.a} vs {bots[1]} x{seats - 1}"
    else:
        label = f"{game} {' vs '.join(bots)}"
    advance, close = _progress(deals * per_deal, label, not args.no_progress)
    try:
        result = run_arena(
            game,
            bots,
            deals=deals,
            seed=args.seed,
            workers=args.workers,
            budget=_budget(args),
            rules=rules,
            preset=args.preset,
            records=args.records,
            progress=advance,
            limits=limits,
        )
    finally:
        close()
    if args.json:
        print_json(result)
    else:
        _print(result)
    return 0


def _others(text: str, seats: int) -> list[str]:
    """The bots of the seats other than A's: one name for every seat, or one per seat
    separated by commas.

    >>> _others("normal", 3), _others("normal, easy", 3)
    (['normal', 'normal'], ['normal', 'easy'])
    >>> _others("normal,easy", 4)
    Traceback (most recent call last):
    ...
    madang.core.errors.RuleConfigError: name one bot for the other seats or one per ... (3), not 2
    """
    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        return names * (seats - 1)
    if len(names) != seats - 1 or not all(names):
        raise RuleConfigError(
            f"name one bot for the other seats or one per other seat ({seats - 1}), "
            f"not {len(names)}"
        )
    return names


def _others_label(b: list[str]) -> str:
    """The other seats' bots in a line: ``2 x normal`` or ``normal, easy``."""
    return f"{len(b)} x {b[0]}" if len(set(b)) == 1 else ", ".join(b)


def _print(r: dict[str, Any]) -> None:
    w = sys.stdout.write
    wins, draws = r["wins"], r["draws"]
    others = isinstance(r["b"], list)
    b_label = f"{_others_label(r['b'])} (others)" if others else f"{r['b']} (B)"
    w(f"{r['game']}: {r['a']} (A) vs {b_label}, {r['games']} games on {r['deals']} deals\n")
    rate = r["win_rate_a"]
    rate_text = "n/a" if rate is None else f"{100 * rate:.1f}%"
    b_name = "others win" if others else "B wins"
    w(f"  A wins {wins['a']}, {b_name} {wins['b']}, draws {draws}: A wins {rate_text} of decided\n")
    ci = r["ci95_points_a"]
    ci_text = "" if ci is None else f" (95% CI {ci[0]:+.2f} .. {ci[1]:+.2f})"
    w(f"  A's mean points per game: {r['mean_points_a']:+.2f}{ci_text}\n")
    if others:
        for label, agent in zip(r["decision_ms"], r["agents"], strict=True):
            ci = agent["ci95_points"]
            ci_text = "" if ci is None else f" (95% CI {ci[0]:+.2f} .. {ci[1]:+.2f})"
            w(
                f"  {label.upper()} ({agent['bot']}): {agent['mean_points']:+.2f} points a game"
                f"{ci_text}, wins {agent['wins']} ({100 * agent['win_rate']:.1f}% of games)\n"
            )
    if "hand_win_rate_a" in r:
        w(
            f"  A wins {100 * r['hand_win_rate_a']:.1f}% of hands "
            f"(each other seat {100 * r['others_win_rate_each']:.1f}%)\n"
        )
    if "deal_in_rate_a" in r:
        w(
            f"  A deals in {100 * r['deal_in_rate_a']:.1f}% of hands "
            f"(each other seat {100 * r['deal_in_rate_others_each']:.1f}%)\n"
        )
    for label, shape in r.get("points_shape", {}).items():
        _print_shape(w, label, r, shape)
    for label, d in r["decision_ms"].items():
        w(
            f"  decision time {label.upper()} ({d['bot']}): p50 {d['p50']:.2f} ms, "
            f"p95 {d['p95']:.2f} ms over {d['decisions']} decisions\n"
        )
    _print_faults(w, r["faults"])
    w(f"  elapsed {r['elapsed_s']:.1f} s with {r['workers']} worker(s)\n")


def _print_faults(w: Callable[[str], Any], faults: dict[str, dict[str, Any]]) -> None:
    """Each agent's faults (bots outside Madang), or that there were none."""
    faulty = {label: f for label, f in faults.items() if f["total"]}
    if not faulty:
        w("  faults: none\n")
        return
    for label, f in faulty.items():
        kinds = ", ".join(f"{k} {n}" for k, n in f["kinds"].items())
        w(
            f"  faults {label.upper()} ({f['bot']}): {f['total']} ({kinds}); "
            f"broken in {f['broken_games']} game(s)\n"
        )
        for line in f["first"]:
            w(f"    {line}\n")


def _print_shape(
    w: Callable[[str], Any], label: str, r: dict[str, Any], shape: dict[str, Any]
) -> None:
    """One side's points shape: wins and losses, their means and extremes, the tags."""
    name = (
        r["a"] if label == "a" else (_others_label(r["b"]) if isinstance(r["b"], list) else r["b"])
    )
    who = f"{label.upper() if label in ('a', 'b') else 'others'} ({name})"

    def pts(x: float | None) -> str:
        return "n/a" if x is None else f"{x:+.1f}" if isinstance(x, float) else f"{x:+d}"

    w(
        f"  {who}: {shape['wins']} wins, mean {pts(shape['mean_win'])}, largest "
        f"{pts(shape['largest_win'])}; {shape['losses']} losses, mean "
        f"{pts(shape['mean_loss'])}, largest {pts(shape['largest_loss'])}\n"
    )
    tags = shape["win_tags"]
    if tags:
        text = ", ".join(f"{t} {100 * v:.1f}%" for t, v in tags.items())
        w(f"    wins with: {text}\n")
