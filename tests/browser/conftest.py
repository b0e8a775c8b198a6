"""The browser tests' shared fixtures."""

from __future__ import annotations

import pytest
from tests.browser.test_play import Axe


@pytest.fixture
def axe() -> Axe:
    """axe-core's scans for one test (:class:`Axe`); ``axe.finish()`` is its last line."""
    return Axe()
