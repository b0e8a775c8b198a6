"""The ``madang`` command.

Each game package contributes its own sub-commands through ``register_cli``; this
module only assembles them and turns every typed error into one line on standard error
and exit status 2, as ``notation.md`` requires.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from madang.core.errors import MadangError

#: The command groups that are not a game's, and their modules (imported when used).
TOOL_CLIS = {
    "play": "madang.play.cli",
    "serve": "madang.server.cli",
    "arena": "madang.arena_cli",
    "verify": "madang.verify_cli",
    "stats": "madang.stats.cli",
    "bot": "madang.bots.bridge",
    "train": "madang.rl.train",
}


#: The command groups of games not registered yet, and their modules: their records and
#: scoring can work before the layers that play them (고스톱's did, until it registered
#: with its browser board). A game's registered ``GameSpec.cli`` replaces its entry.
UNREGISTERED_GAME_CLIS: dict[str, str] = {}


def command_groups() -> dict[str, str]:
    """Every command group and its module: each registered game's own (its
    ``GameSpec.cli``), the unregistered games' (:data:`UNREGISTERED_GAME_CLIS`), then the
    tools."""
    return {**game_command_groups(), **TOOL_CLIS}


def game_command_groups() -> dict[str, str]:
    """The command groups of the games: the registered ones (with ``madang GAME
    review``) first, then :data:`UNREGISTERED_GAME_CLIS`."""
    from madang.core.registry import games, spec

    own = {g: m for g in games() if (m := spec(g).cli)}
    return {**own, **{g: m for g, m in UNREGISTERED_GAME_CLIS.items() if g not in own}}


Handler = Callable[[argparse.Namespace], int]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only``, just that command group is loaded."""
    parser = argparse.ArgumentParser(
        prog="madang", description="Matgo and Korean mahjong: engines, scoring and play."
    )
    from madang.core.registry import games

    sub = parser.add_subparsers(dest="command", required=True)
    for name, module_name in command_groups().items():
        if only is not None and name != only:
            continue
        module = importlib.import_module(module_name)
        module.register_cli(sub)
        if name in games():  # the review plays a game through its registered contract
            _add_review(sub.choices[name], name)
    return parser


def _add_review(game_parser: argparse.ArgumentParser, game: str) -> None:
    """``madang GAME review``: the review (:mod:`madang.review`) under a game's commands
    (added here, above the engine packages, which never import the review)."""
    from madang.review.cli import add_review_parser

    for action in game_parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            add_review_parser(action, game)


def read_json_input(path: str) -> Any:
    """Read JSON from ``path`` (``-`` is standard input); bad JSON is a ``MadangError``."""
    from madang.core.errors import RecordError

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"malformed JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def print_json(obj: Any) -> None:
    """Print one JSON object on standard output."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in command_groups() else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except MadangError as e:
        message = " ".join(str(e).split()) or type(e).__name__
        sys.stderr.write(f"madang: error: {message}\n")
        return 2
    except RecursionError:
        sys.stderr.write("madang: error: input nested too deeply\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
