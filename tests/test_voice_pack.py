"""The default voice pack and the client's cues (``docs/voice-packs.md``).

The manifest is valid and names every file of its folder; every name the client cues
(``js/sound-cues.js``, run by Node) has a sound in the default pack, and the cues of
every sample event the engines make are in it; the pack ships (package-data) and stays
under 2 MB. With ``lame`` and ``sox`` installed, every file is measured as a listener
gets it (no clipping, no long silence, callouts equally loud); with the tools the pack
was made with, ``scripts/make_voice_pack.py`` rebuilds it byte for byte.
"""

from __future__ import annotations

import doctest
import fnmatch
import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tests.samples import mahjong_samples, matgo_samples, matgo_sheets

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "madang" / "web"
SOUNDS = WEB / "sounds"
PACK = SOUNDS / "default"
CUES_JS = WEB / "js" / "sound-cues.js"
MAX_BYTES = 2 * 1024 * 1024


@cache
def _script() -> ModuleType:
    """scripts/make_voice_pack.py, imported."""
    spec = importlib.util.spec_from_file_location(
        "make_voice_pack", ROOT / "scripts" / "make_voice_pack.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _manifest() -> dict[str, Any]:
    out: dict[str, Any] = json.loads((PACK / "manifest.json").read_text("utf-8"))
    return out


def _node(script: str, data: object) -> Any:
    """Run ``script`` (an ES module body that may import ``CUES``, the client's
    sound-cues.js copied as a .mjs) in Node with ``DATA`` bound to ``data``."""
    if shutil.which("node") is None:
        pytest.skip("node is missing (apt-get install nodejs)")
    with tempfile.TemporaryDirectory() as t:
        shutil.copy(CUES_JS, Path(t) / "cues.mjs")
        main = Path(t) / "main.mjs"
        main.write_text(
            f"import * as CUES from './cues.mjs';\nconst DATA = {json.dumps(data)};\n{script}\n",
            "utf-8",
        )
        r = subprocess.run(["node", str(main)], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_manifest_is_valid_and_names_every_file() -> None:
    m = _manifest()
    assert m["format"] == 1
    for key in ("name", "title", "language", "author", "licence"):
        assert isinstance(m[key], str) and m[key].strip(), key
    assert m["name"] == "default" and m["language"] == "ko"
    assert set(m["made_with"]) == {"espeak-ng", "sox", "lame"}
    named: set[str] = set()
    for name, entry in m["sounds"].items():
        assert set(entry) <= {"files", "gain", "text"}, name
        files = entry["files"]
        assert isinstance(files, list) and files, name
        for f in files:
            assert isinstance(f, str) and "/" not in f and not f.startswith("."), f
            assert f.endswith(".mp3") and (PACK / f).is_file(), f
            head = (PACK / f).read_bytes()[:3]
            assert head == b"ID3" or (head[0] == 0xFF and head[1] & 0xE0 == 0xE0), f  # MPEG
        named |= set(files)
        gain = entry.get("gain", 1)
        assert isinstance(gain, int | float) and 0 < gain <= 4, name
        if "text" in entry:
            assert len(entry["text"]) == len(files), name
    on_disk = {p.name for p in PACK.iterdir()} - {"manifest.json"}
    assert on_disk == named  # no file left out of the manifest, none missing
    packs = json.loads((SOUNDS / "packs.json").read_text("utf-8"))["packs"]
    assert packs[0]["id"] == "default"
    for p in packs:
        assert (SOUNDS / p["id"] / "manifest.json").is_file(), p


def test_the_pack_is_small_and_ships() -> None:
    total = sum(p.stat().st_size for p in SOUNDS.rglob("*") if p.is_file())
    assert total < MAX_BYTES, total
    # Every file of the client matches a package-data pattern, so a wheel carries it.
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["madang"]
    for path in WEB.rglob("*"):
        if path.is_file():
            rel = path.relative_to(ROOT / "src" / "madang").as_posix()
            assert any(
                fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns
            ), rel


def test_every_name_the_client_cues_has_a_sound_in_the_default_pack() -> None:
    names = _node(
        "console.log(JSON.stringify({cards: CUES.CARD_SOUNDS, voices: CUES.CALLOUTS,"
        " max: CUES.MAX_GO}));",
        None,
    )
    sounds = set(_manifest()["sounds"])
    vocabulary = set(names["cards"]) | set(names["voices"])
    assert vocabulary == sounds
    assert not set(names["cards"]) & set(names["voices"])
    assert names["max"] >= 5 and {f"go_{n}" for n in range(1, names["max"] + 1)} <= sounds
    # the callouts the issue names, by their glossary identifiers
    assert {"ppeok", "ttadak", "jjok", "sseul", "heundeulgi", "bomb", "chongtong", "stop",
            "nagari", "pibak", "gwangbak", "gobak", "meongbak", "pon", "kan", "ron", "tsumo",
            "eopeo", "bulleo"} <= set(names["voices"])  # fmt: skip
    assert {"deal", "play", "flip", "capture", "shuffle", "discard", "draw", "claim"} <= set(
        names["cards"]
    )


def test_the_cues_of_every_sample_event_are_in_the_pack() -> None:
    """Every event kind the engines make (as a seat sees it), and a settlement with each
    multiplier, cued by the client's own mapping: each name has a sound."""
    sheets = matgo_sheets()
    data = {
        "matgo": matgo_samples()["events"],
        "mahjong": mahjong_samples()["events"],
        "sheets": sheets,
    }
    got = _node(
        """
        const out = {matgo: [], mahjong: [], sheets: []};
        for (const g of ['matgo', 'mahjong'])
          for (const e of DATA[g]) out[g].push(CUES.cuesOf(g, [e], null));
        for (const s of DATA.sheets)
          out.sheets.push(CUES.cuesOf('matgo', [{type: 'end', winner: 0, reason: 'stop'}],
                                      {sheet: s}));
        console.log(JSON.stringify(out));
        """,
        data,
    )
    sounds = set(_manifest()["sounds"])
    for g in ("matgo", "mahjong"):
        assert len(got[g]) == len(data[g])
        for e, names in zip(data[g], got[g], strict=True):
            assert set(names) <= sounds, (e, names)
    called = {n for names in got["sheets"] for n in names}
    assert called == {"pibak", "gwangbak", "meongtta", "meongbak", "gobak"}
    for s, names in zip(sheets, got["sheets"], strict=True):
        bak = [m["name"] for m in s["multipliers"] if m["name"] in called]
        assert names == bak, (s["multipliers"], names)


#: Events and what they must sound like (the table of docs/voice-packs.md).
CASES: list[tuple[str, list[dict[str, Any]], Any, list[str]]] = [
    ("matgo", [{"type": "deal", "dealer": 0}], None, ["shuffle", "deal"]),
    (
        "matgo",
        [
            {"type": "play", "seat": 0, "card": "03g"},
            {"type": "flip", "seat": 0, "card": "03p1"},
            {"type": "ppeok", "seat": 0, "month": 3, "count": 1},
        ],
        None,
        ["play", "flip", "ppeok"],
    ),
    (
        "matgo",
        [
            {"type": "shake", "seat": 1, "month": 5, "cards": []},
            {"type": "play", "seat": 1, "card": "05a"},
        ],
        None,
        ["heundeulgi", "play"],
    ),
    ("matgo", [{"type": "bomb", "seat": 0, "month": 7, "cards": []}], None, ["bomb", "play"]),
    (
        "matgo",
        [
            {"type": "jjok", "seat": 0, "month": 1},
            {"type": "ttadak", "seat": 0, "month": 2},
            {"type": "sseul", "seat": 0},
            {"type": "capture", "seat": 0, "cards": []},
        ],
        None,
        ["jjok", "ttadak", "sseul", "capture"],
    ),
    ("matgo", [{"type": "go", "seat": 0, "count": 1, "score": 7}], None, ["go_1"]),
    ("matgo", [{"type": "go", "seat": 0, "count": 5, "score": 12}], None, ["go_5"]),
    ("matgo", [{"type": "go", "seat": 0, "count": 11, "score": 30}], None, ["go"]),
    ("matgo", [{"type": "chongtong", "seat": 1, "months": [4]}], None, ["chongtong"]),
    (
        "matgo",
        [
            {"type": "stop", "seat": 0, "score": 9},
            {"type": "end", "winner": 0, "points": 36, "reason": "stop"},
        ],
        {
            "sheet": {
                "multipliers": [
                    {"name": "go", "factor": 2},
                    {"name": "pibak", "factor": 2},
                    {"name": "gobak", "factor": 2},
                ]
            }
        },
        ["stop", "pibak", "gobak"],
    ),
    ("matgo", [{"type": "end", "winner": None, "points": 0, "reason": "nagari"}], None, ["nagari"]),
    (
        "matgo",
        [
            {"type": "token_flip", "seat": 0, "tokens_left": 1},
            {"type": "gukjin_fixed", "seat": 0, "as": "pi"},
            {"type": "payment", "from": 1, "to": 0, "points": 3, "reason": "win"},
        ],
        None,
        [],
    ),
    (
        "mahjong",
        [{"type": "deal", "seat": s, "count": 13} for s in range(4)],
        None,
        ["shuffle", "deal"],
    ),
    (
        "mahjong",
        [{"type": "draw", "seat": 0, "tile": "3m"}, {"type": "discard", "seat": 0, "tile": "3m"}],
        None,
        ["draw", "discard"],
    ),
    (
        "mahjong",
        [{"type": "discard", "seat": 2, "tile": "7p", "declare": "bulleo", "waits": ["1p"]}],
        None,
        ["discard", "bulleo"],
    ),
    (
        "mahjong",
        [{"type": "discard", "seat": 2, "tile": "7p", "declare": "eopeo"}],
        None,
        ["discard", "eopeo"],
    ),
    ("mahjong", [{"type": "pon", "seat": 1, "tile": "5z", "from": 0}], None, ["claim", "pon"]),
    ("mahjong", [{"type": "ankan", "seat": 1, "tile": "5z"}], None, ["claim", "kan"]),
    ("mahjong", [{"type": "win", "seat": 3, "by": "ron", "from": 0, "tile": "1p"}], None, ["ron"]),
    ("mahjong", [{"type": "win", "seat": 3, "by": "tsumo", "tile": "1p"}], None, ["tsumo"]),
    ("mahjong", [{"type": "nagari", "pot": 10}, {"type": "end"}], None, ["nagari"]),
    ("mahjong", [{"type": "ask", "seat": 0, "tile": "1p", "options": ["ron", "pass"]}], None, []),
]


def test_events_sound_as_documented() -> None:
    got = _node(
        "console.log(JSON.stringify(DATA.map(([g, evs, view]) => CUES.cuesOf(g, evs, view))));",
        [[g, evs, view] for g, evs, view, _ in CASES],
    )
    for (g, evs, _, want), names in zip(CASES, got, strict=True):
        assert names == want, (g, [e["type"] for e in evs])


def _tools(*names: str) -> None:
    for n in names:
        if shutil.which(n) is None:
            pytest.skip(f"{n} is missing (apt-get install espeak-ng sox lame)")


def test_every_file_is_clean_and_the_callouts_equally_loud() -> None:
    """As a listener gets them (decoded MP3): no clipping, no silence over 0.1 s at
    either end, lengths of a sound, callouts within 1 dB of one loudness."""
    _tools("lame", "sox", "soxi")
    files = _script().measure(PACK)
    assert len(files) == sum(len(e["files"]) for e in _manifest()["sounds"].values())
    for f in files:
        assert f.peak_db <= -1.0, f  # headroom: nothing clips
        assert f.lead < 0.1 and f.tail < 0.1, f
        assert 0.05 < f.seconds < (1.0 if f.kind == "card" else 1.2), f
    voices = [f.rms_db for f in files if f.kind == "voice"]
    mid = statistics.median(voices)
    assert all(abs(v - mid) <= 1.0 for v in voices), voices
    cards = [f for f in files if f.kind == "card"]
    assert all(f.peak_db >= -6 for f in cards), cards


def test_the_script_rebuilds_the_pack_byte_for_byte() -> None:
    _tools("espeak-ng", "sox", "soxi", "lame")
    script = _script()
    versions = script.tool_versions()
    if versions != script.TOOLS:
        pytest.skip(f"tools {versions}, the pack was made with {script.TOOLS}")
    assert _manifest()["made_with"] == script.TOOLS
    assert script.check(PACK) == []


def test_the_script_doctests() -> None:
    result = doctest.testmod(_script())
    assert result.attempted and not result.failed
