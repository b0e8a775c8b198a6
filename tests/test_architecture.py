"""The engine packages import nothing from the layers built on top of them (STYLE.md).

``madang.core``, ``madang.matgo``, ``madang.gostop`` and ``madang.mahjong`` are the rules;
``madang.server``, ``madang.rl``, ``madang.bots`` and ``madang.web`` use them, never the
other way round.
The check reads every source file with :mod:`ast` (absolute and relative imports, and
``importlib.import_module`` / ``__import__`` calls with a literal name), so it needs no
import of the packages themselves.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "madang"
ENGINE = ("core", "matgo", "gostop", "mahjong")
FORBIDDEN = ("madang.server", "madang.rl", "madang.bots", "madang.web")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module that ``source`` (the text of ``module``) imports, as absolute names.

    >>> sorted(imported_modules("from ..server import app", "madang.matgo.view"))
    ['madang.server', 'madang.server.app']
    >>> sorted(imported_modules("import importlib; importlib.import_module('madang.rl')", "m"))
    ['importlib', 'madang.rl']
    """
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: -(node.level - 1)]
                prefix = ".".join(base)
                target = f"{prefix}.{node.module}" if node.module else prefix
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            arg = node.args[0]
            if (
                name in ("import_module", "__import__")
                and isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
            ):
                found.add(arg.value)
    return found


def _forbidden(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))


ENGINE_FILES = sorted(p for pkg in ENGINE for p in (SRC / pkg).rglob("*.py"))


def test_the_engine_packages_exist() -> None:
    for pkg in ENGINE:
        assert (SRC / pkg / "__init__.py").is_file(), pkg
    assert len(ENGINE_FILES) >= 10


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_engine_module_imports_no_outer_layer(path: Path) -> None:
    names = imported_modules(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )
    assert _forbidden(names) == []


@pytest.mark.parametrize(
    ("source", "module", "bad"),
    [
        ("import madang.server", "madang.matgo.engine", ["madang.server"]),
        ("import madang.web.app as w", "madang.core.rng", ["madang.web.app"]),
        ("from madang.bots import greedy", "madang.matgo.view",
         ["madang.bots", "madang.bots.greedy"]),
        ("from ..rl import env", "madang.mahjong.engine", ["madang.rl", "madang.rl.env"]),
        ("from .. import server", "madang.matgo.view", ["madang.server"]),
        ("from . import server", "madang", ["madang.server"]),
        ("def f():\n    from madang.server import app", "madang.core.x", ["madang.server",
                                                                         "madang.server.app"]),
        ("importlib.import_module('madang.bots.random')", "madang.matgo.x", ["madang.bots.random"]),
        ("__import__('madang.web')", "madang.matgo.x", ["madang.web"]),
        ("from madang.serverless import x", "madang.matgo.x", []),
        ("from .server import x", "madang.matgo.cli", []),  # madang.matgo.server is fine
        ("from madang.matgo import engine", "madang.mahjong.x", []),
    ],
)  # fmt: skip
def test_the_checker_itself(source: str, module: str, bad: list[str]) -> None:
    is_package = module == "madang"
    assert _forbidden(imported_modules(source, module, is_package)) == bad


def _imports_of(path: Path) -> set[str]:
    return imported_modules(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )


def _hits(names: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in prefixes))


@pytest.mark.parametrize(
    "path", sorted((SRC / "bots").rglob("*.py")), ids=lambda p: str(p.relative_to(SRC))
)
def test_bots_import_no_server(path: Path) -> None:
    """A bot sees views and legal moves; it knows nothing of tables or the wire."""
    assert _hits(_imports_of(path), ("madang.server", "madang.web")) == []


SERVER_FILES = sorted((SRC / "server").glob("*.py"))


@pytest.mark.parametrize("path", SERVER_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_the_server_plays_games_through_the_contract(path: Path) -> None:
    """The server names no engine: it plays every game through the registry's contract
    (``madang.core.game``); only the bots it seats see an engine's views."""
    engines = ("madang.matgo", "madang.mahjong")
    assert _hits(_imports_of(path), engines) == []


def test_the_store_raises_its_own_errors() -> None:
    """Persistence knows nothing of the wire: the app maps its errors to wire codes."""
    assert _hits(_imports_of(SRC / "server" / "store.py"), ("madang.server.wire",)) == []


GENERIC_FILES = [
    SRC / "arena.py",
    SRC / "arena_cli.py",
    SRC / "ladder.py",
    SRC / "bots" / "base.py",
    SRC / "bots" / "external.py",
]


@pytest.mark.parametrize("path", GENERIC_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_the_arena_and_the_bot_runner_name_no_game(path: Path) -> None:
    """The arena and the bot runner play any registered game through the contract: they
    import no engine and no game's name appears in their code (docstrings aside)."""
    assert _hits(_imports_of(path), ("madang.matgo", "madang.mahjong")) == []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    named = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and any(g in node.value for g in ("matgo", "mahjong"))
    ]
    assert named == []
