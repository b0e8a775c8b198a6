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


def test_every_setting_has_a_flag() -> None:
    from madang.server.cli import config_from_args

    args = build_parser("serve").parse_args(
        ["serve", "--secure-cookie", "--stakes", "5,50", "--allowed-origin", "https://a.example",
         "--set", "ws_ban_s=60", "--set", "max_body=1024", "--set", "login_name_failures=9"]
    )  # fmt: skip
    c = config_from_args(args)
    assert c.secure_cookie and c.stakes == (5, 50) and c.allowed_origins == ("https://a.example",)
    assert (c.ws_ban_s, c.max_body, c.login_name_failures) == (60.0, 1024, 9)
    for bad in (["--set", "no_such=1"], ["--set", "max_body=big"], ["--stakes", "x"]):
        with pytest.raises(SystemExit):
            config_from_args(build_parser("serve").parse_args(["serve", *bad]))


def test_the_proxy_protocol_is_read_only_from_named_proxies() -> None:
    """``--proxy-protocol`` believes the header of the ``--forwarded-allow-ips`` only:
    without them it would believe nobody's, so it is refused."""
    from madang.server.cli import config_from_args

    parse = build_parser("serve").parse_args
    c = config_from_args(parse(["serve", "--proxy-protocol", "--forwarded-allow-ips", "10.0.0.2"]))
    assert c.proxy_protocol and c.forwarded_allow_ips == "10.0.0.2"
    with pytest.raises(SystemExit, match="forwarded-allow-ips"):
        config_from_args(parse(["serve", "--proxy-protocol"]))
