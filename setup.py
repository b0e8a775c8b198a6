"""The build hook of an optional compiled build: the project's metadata is in pyproject.toml.

``MADANG_COMPILE=1`` compiles the engines' hot modules with mypyc (from mypy) into C
extensions: the same source, type-checked by ``mypy --strict``, run as native code
(``docs/rl/README.md``, "Compiled build"). Without it (every ordinary install) nothing is
compiled. mypyc type-checks against the installed packages, so the build environment
needs a C compiler, Python's headers, mypy, and numpy and Rich already installed::

    python3 -m venv .venv-compiled
    .venv-compiled/bin/pip install mypy 'setuptools>=68' wheel numpy rich
    MADANG_COMPILE=1 .venv-compiled/bin/pip install --no-build-isolation '.[rl,bench]'

``.ci/compiled`` (run by CI after the suite) builds it in place in a scratch copy of the
source and runs the tests of the compiled modules against it.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules compiled, the hot paths of simulation and of ``madang.rl``'s batched
#: environments. Modules that build classes at run time (the rules' options) stay
#: interpreted; compiled modules import them as any module does.
COMPILED = [
    "src/madang/mahjong/encode.py",
    "src/madang/mahjong/engine.py",
    "src/madang/mahjong/hand.py",
    "src/madang/mahjong/patterns.py",
    "src/madang/mahjong/scoring.py",
    "src/madang/mahjong/state.py",
    "src/madang/mahjong/tiles.py",
    "src/madang/matgo/actions.py",
    "src/madang/matgo/cards.py",
    "src/madang/matgo/deal.py",
    "src/madang/matgo/encode.py",
    "src/madang/matgo/engine.py",
    "src/madang/matgo/scoring.py",
]


def ext_modules() -> list[object]:
    if os.environ.get("MADANG_COMPILE", "").lower() not in ("1", "true", "yes"):
        return []
    from mypyc.build import mypycify

    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=ext_modules())
