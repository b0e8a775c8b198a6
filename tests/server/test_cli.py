"""The ``madang serve`` command is registered and parses its options, and says where it
listens and when it stops."""

from __future__ import annotations

import re
import selectors
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

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


def _serve(tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    """``madang serve`` on a free port (``--port 0``) as a person starts it: Ctrl+C
    (SIGINT) reaches it with Python's own handler, as in a terminal."""
    return subprocess.Popen(
        [sys.executable, "-m", "madang", "serve", "--port", "0", "--data", str(tmp_path), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _first_line(proc: subprocess.Popen[str], within: float = 60.0) -> str:
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(within):
            proc.kill()
            raise AssertionError("madang serve printed nothing")
    return proc.stdout.readline()


@pytest.mark.parametrize(
    ("host", "sig", "rc"),
    [("127.0.0.1", signal.SIGINT, 0), ("0.0.0.0", signal.SIGTERM, -signal.SIGTERM)],
)
def test_serve_says_where_it_listens_and_when_it_stops(
    tmp_path: Path, host: str, sig: signal.Signals, rc: int
) -> None:
    """U15: once it listens, a URL that opens the lobby (on every address: the loopback
    one, and where it listens); Ctrl+C or SIGTERM: a line saying it stopped, no trace."""
    proc = _serve(tmp_path, "--host", host)
    try:
        line = _first_line(proc)
        m = re.fullmatch(r"Madang: (http://127\.0\.0\.1:(\d+)) \((.*)Ctrl\+C stops it\)\n", line)
        assert m, line
        url, port, where = m[1], int(m[2]), m[3]
        assert where == (
            "" if host == "127.0.0.1" else f"listening on every address, {host}:{port}; "
        )
        with urllib.request.urlopen(url + "/", timeout=10) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert out == "Madang stopped.\n"
    assert proc.returncode == rc and "Traceback" not in err, err
