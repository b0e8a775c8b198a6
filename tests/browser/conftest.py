"""The browser tests' shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.test_play import CHROMIUM, FLAGS, Axe


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def axe() -> Axe:
    """axe-core's scans for one test (:class:`Axe`); ``axe.finish()`` is its last line."""
    return Axe()
