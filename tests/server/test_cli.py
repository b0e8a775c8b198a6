"""The ``madang serve`` command is registered and parses its options."""

from __future__ import annotations

import pytest

from madang.cli import build_parser


def test_serve_options() -> None:
    args = build_parser("serve").parse_args(
        ["serve", "--port", "9000", "--data", "d", "--database-url", "postgresql://x/y"]
    )
    assert (args.port, args.data, args.database_url, args.host) == (
        9000,
        "d",
        "postgresql://x/y",
        "127.0.0.1",
    )
    assert callable(args.handler)
    assert args.deal_seed is None
    assert build_parser("serve").parse_args(["serve", "--deal-seed", "7"]).deal_seed == 7


def test_serve_rejects_a_bad_port() -> None:
    with pytest.raises(SystemExit):
        build_parser("serve").parse_args(["serve", "--port", "many"])
