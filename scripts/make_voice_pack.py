"""Make Madang's default voice pack: Korean callouts and card sounds, from open tools.

The callouts (뻑, 쪽, 3고, 쏘아 …) are spoken by ``espeak-ng``'s Korean voice and shaped
with ``sox`` (trimmed, a slight pitch and tempo lift, presence, compression, a small room,
one loudness); the card and tile sounds are synthesised by ``sox`` from shaped noise and
tones (no recorded sample from anywhere). Each is encoded to MP3 by ``lame`` (every
browser decodes MP3 in the Web Audio API) and listed in ``manifest.json``
(``docs/voice-packs.md``). All three tools come from Debian's packages::

    apt-get install espeak-ng sox lame

The output is reproducible: the same tool versions give the same bytes (sox runs with
``-R``, which seeds its noise and dither; lame is deterministic). The versions it was made
with are written to the manifest; ``--check`` rebuilds into a temporary folder and
compares with the committed pack::

    python3 scripts/make_voice_pack.py            # write src/madang/web/sounds/default/
    python3 scripts/make_voice_pack.py --check    # same bytes as the committed pack?
    python3 scripts/make_voice_pack.py --report   # level and length of every file
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_ENV = {**os.environ, "LC_ALL": "C.UTF-8"}
PACK_DIR = ROOT / "src" / "madang" / "web" / "sounds" / "default"

#: The tool versions the committed pack was made with (Debian 12 "bookworm").
TOOLS = {"espeak-ng": "1.51", "sox": "14.4.2", "lame": "3.100"}

VOICE_RATE = 22050
"""espeak-ng's own rate; MPEG-2 layer III carries it."""
VOICE_KBPS = 56
CARD_RATE = 44100
CARD_KBPS = 96
VOICE_RMS_DB = -17.0
"""Every callout is brought to this RMS level (dBFS) so that they sound equally loud …"""
PEAK_CEILING_DB = -1.5
"""… unless that would lift its peak above this (MP3 adds a little overshoot)."""
CARD_PEAK_DB = -3.0
"""Card sounds are transients: normalised by their peak, a little under the voices."""


@dataclass(frozen=True)
class Callout:
    """One callout: what espeak-ng says, in Hangul."""

    name: str
    texts: tuple[str, ...]


#: Every callout of the vocabulary (``docs/voice-packs.md``), in its order. N고 is said
#: the way portal players say it (원고, 투고, 쓰리고 …).
CALLOUTS: tuple[Callout, ...] = (
    Callout("ppeok", ("뻑!",)),
    Callout("ttadak", ("따닥!",)),
    Callout("jjok", ("쪽!",)),
    Callout("sseul", ("싹쓸이!", "쓸!")),
    Callout("heundeulgi", ("흔들기!",)),
    Callout("bomb", ("폭탄!",)),
    Callout("chongtong", ("총통!",)),
    Callout("go", ("고!",)),
    Callout("go_1", ("원고!",)),
    Callout("go_2", ("투고!",)),
    Callout("go_3", ("쓰리고!",)),
    Callout("go_4", ("포고!",)),
    Callout("go_5", ("파이브고!",)),
    Callout("go_6", ("식스고!",)),
    Callout("go_7", ("세븐고!",)),
    Callout("go_8", ("에잇고!",)),
    Callout("go_9", ("나인고!",)),
    Callout("go_10", ("텐고!",)),
    Callout("stop", ("스톱!",)),
    Callout("nagari", ("나가리!",)),
    Callout("pibak", ("피박!",)),
    Callout("gwangbak", ("광박!",)),
    Callout("meongtta", ("멍따!",)),
    Callout("meongbak", ("멍박!",)),
    Callout("gobak", ("고박!",)),
    Callout("pon", ("뽕!",)),
    Callout("kan", ("깡!",)),
    Callout("ron", ("쏘아!",)),
    Callout("tsumo", ("올라!",)),
    Callout("eopeo", ("엎어!",)),
    Callout("bulleo", ("불러!",)),
)

#: espeak-ng: the Korean voice, a brisk rate (words per minute), a raised pitch (0-99) and
#: amplitude (0-200).
ESPEAK = ["espeak-ng", "-v", "ko", "-s", "150", "-p", "62", "-a", "110"]

#: sox effects that shape a spoken word: trim espeak's pauses, cut rumble, lift the pitch
#: (cents) and the tempo a little, add presence, compress, a small room, trim the tail
#: at -50 dB, fade both ends (60 ms out, 6 ms in; reversed, so the unknown length is fine).
VOICE_FX = [
    "silence", "1", "0.005", "-40d", "reverse", "silence", "1", "0.005", "-40d", "reverse",
    "highpass", "120",
    "pitch", "60",
    "tempo", "-s", "1.08",
    "equalizer", "2800", "1.2q", "4",
    "compand", "0.003,0.15", "-70,-70,-40,-24,-12,-10,0,-8", "-6",
    "reverb", "18", "60", "25", "100", "8", "-4",
    "reverse", "silence", "1", "0.01", "-50d", "fade", "q", "0.06", "reverse",
    "fade", "q", "0.006",
]  # fmt: skip


@dataclass(frozen=True)
class Layer:
    """One layer of a synthesised sound: ``sox -n`` effects, started ``at`` seconds in,
    ``gain`` dB."""

    fx: tuple[str, ...]
    at: float = 0.0
    gain: float = 0.0


def _snap(
    length: float, centre: int, q: str, tone: int, at: float = 0.0, gain: float = 0.0
) -> list[Layer]:
    """A card slapped down: a band of noise with a fast decay over a short low tone."""
    return [
        Layer(("synth", f"{length}", "pinknoise", "bandpass", f"{centre}", q,
               "fade", "l", "0.001", f"{length}", f"{length - 0.002:.3f}"), at, gain),
        Layer(("synth", f"{length * 0.6:.3f}", "sine", f"{tone}",
               "fade", "l", "0.001", f"{length * 0.6:.3f}", f"{length * 0.6 - 0.002:.3f}"),
              at, gain - 10),
    ]  # fmt: skip


def _clack(at: float = 0.0, gain: float = 0.0, pitch: int = 2100) -> list[Layer]:
    """A tile knocked on the table: a resonant click, two partials and a noise burst."""
    return [
        Layer(("synth", "0.10", "sine", f"{pitch}",
               "fade", "l", "0", "0.10", "0.098"), at, gain - 6),
        Layer(("synth", "0.07", "sine", f"{int(pitch * 1.57)}",
               "fade", "l", "0", "0.07", "0.068"), at, gain - 12),
        Layer(("synth", "0.03", "whitenoise", "bandpass", "3500", "1q",
               "fade", "l", "0", "0.03", "0.029"), at, gain),
        Layer(("synth", "0.06", "sine", "240",
               "fade", "l", "0", "0.06", "0.058"), at, gain - 8),
    ]  # fmt: skip


def _swish(length: float, lo: int, hi: int, at: float = 0.0, gain: float = 0.0) -> Layer:
    """A card sliding: band-passed noise that swells and fades."""
    return Layer(
        ("synth", f"{length}", "brownnoise", "highpass", f"{lo}", "lowpass", f"{hi}",
         "fade", "h", f"{length * 0.4:.3f}", f"{length}", f"{length * 0.55:.3f}"),
        at, gain,
    )  # fmt: skip


def _blip(length: float, pitch: int, at: float = 0.0, gain: float = 0.0) -> list[Layer]:
    """A soft bubble pop (a chat message at the table): a sine with its octave, quick
    attack, round decay."""
    return [
        Layer(("synth", f"{length}", "sine", f"{pitch}",
               "fade", "l", "0.003", f"{length}", f"{length - 0.004:.3f}"), at, gain - 4),
        Layer(("synth", f"{length * 0.7:.3f}", "sine", f"{pitch * 2}",
               "fade", "l", "0.002", f"{length * 0.7:.3f}", f"{length * 0.7 - 0.003:.3f}"),
              at, gain - 16),
    ]  # fmt: skip


def _riffle() -> list[Layer]:
    """A shuffle: a riffle of many small clicks (noise chopped by a square wave whose rate
    rises), twice."""
    out = []
    for at in (0.0, 0.42):
        out.append(
            Layer(("synth", "0.34", "whitenoise", "synth", "0.34", "square", "amod", "38-64",
                   "bandpass", "3000", "0.9q", "fade", "h", "0.05", "0.34", "0.12"), at, 0)
        )  # fmt: skip
        out.append(_swish(0.12, 300, 2500, at + 0.3, -4))
    return out


#: The card and tile sounds: name -> layers.
CARD_SOUNDS: dict[str, list[Layer]] = {
    "shuffle": _riffle(),
    "deal": [_swish(0.07, 600, 5000, 0.09 * i, -2 * (i % 2)) for i in range(5)]
    + [layer for i in range(5) for layer in _snap(0.03, 2600, "1.2q", 300, 0.09 * i + 0.05, -8)],
    "play": _snap(0.09, 2200, "1.1q", 190),
    "flip": [_swish(0.09, 900, 6000, 0.0, -3), *_snap(0.05, 3000, "1.3q", 260, 0.07, -3)],
    "capture": [*_snap(0.06, 1900, "1.1q", 170), *_snap(0.06, 2400, "1.1q", 210, 0.085, -3)],
    "draw": [_swish(0.14, 400, 3000, 0.0, 0), *_clack(0.12, -10, 1800)],
    "discard": _clack(0.0, 0, 2100),
    "claim": [*_clack(0.0, 0, 1900), *_clack(0.09, -2, 2300)],
    "chat": [*_blip(0.07, 988, 0.0, -2), *_blip(0.09, 1319, 0.075, 0)],
}


def _run(cmd: list[str]) -> str:
    """Run a tool in the C locale; its output (stdout and stderr), or SystemExit."""
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, env=_ENV)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
    return r.stdout + r.stderr


def tool_versions() -> dict[str, str]:
    """The versions of espeak-ng, sox and lame found on PATH (SystemExit if one is
    missing)."""
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        raise SystemExit(f"missing: {', '.join(missing)} (apt-get install espeak-ng sox lame)")
    found = {
        "espeak-ng": re.search(r"text-to-speech:\s*([\d.]+)", _run(["espeak-ng", "--version"])),
        "sox": re.search(r"SoX v([\d.]+)", _run(["sox", "--version"])),
        "lame": re.search(r"version ([\d.]+)", _run(["lame", "--version"])),
    }
    return {k: m.group(1) if m else "?" for k, m in found.items()}


def levels(wav: Path) -> dict[str, float]:
    """Peak and RMS (dBFS) and length (s) of a WAV file, as ``sox … stats`` gives them."""
    text = _run(["sox", str(wav), "-n", "stats"])
    pk = re.search(r"Pk lev dB\s+(-?[\d.]+|-inf)", text)
    rms = re.search(r"RMS lev dB\s+(-?[\d.]+|-inf)", text)
    assert pk and rms, text
    return {"peak_db": float(pk.group(1)), "rms_db": float(rms.group(1)), "seconds": _secs(wav)}


def _secs(wav: Path) -> float:
    return float(_run(["soxi", "-D", str(wav)]).strip())


def silences(wav: Path, tmp: Path, threshold: str = "-45d") -> tuple[float, float]:
    """Seconds of silence (under ``threshold``) before the sound starts and after it
    ends."""
    whole = _secs(wav)
    lead, tail = tmp / "lead.wav", tmp / "tail.wav"
    _run(["sox", str(wav), str(lead), "silence", "1", "0", threshold])
    _run(["sox", str(wav), str(tail), "reverse", "silence", "1", "0", threshold, "reverse"])
    return whole - _secs(lead), whole - _secs(tail)


def _encode(wav: Path, mp3: Path, kbps: int) -> None:
    _run(["lame", "--quiet", "--noreplaygain", "-m", "m", "-q", "2", "-b", str(kbps),
          str(wav), str(mp3)])  # fmt: skip


def _levelled(src: Path, out: Path, rms_db: float | None, peak_db: float) -> None:
    """``src`` brought to ``rms_db``, its peaks limited to ``peak_db``; or, with no
    ``rms_db``, its peak brought to ``peak_db``."""
    lv = levels(src)
    if rms_db is None:
        gain = peak_db - lv["peak_db"]
        _run(["sox", "-R", str(src), "-b", "16", str(out), "gain", f"{gain:.2f}"])
        return
    # sox's limiter (gain -l) holds the peaks under full scale, then the ceiling's margin
    # is taken off; the limiter lowers the RMS a little, so aim again (twice at most).
    gain = rms_db - lv["rms_db"]
    for _ in range(3):
        _run(["sox", "-R", str(src), "-b", "16", str(out), "gain", "-l",
              f"{gain - peak_db:.2f}", "gain", f"{peak_db:.2f}"])  # fmt: skip
        miss = rms_db - levels(out)["rms_db"]
        if abs(miss) < 0.15:
            break
        gain += miss


def make_callout(text: str, tmp: Path, mp3: Path) -> None:
    raw, shaped, final = tmp / "raw.wav", tmp / "shaped.wav", tmp / "final.wav"
    _run([*ESPEAK, "-w", str(raw), text])
    _run(["sox", "-R", str(raw), "-b", "16", str(shaped), *VOICE_FX, "rate", str(VOICE_RATE)])
    _levelled(shaped, final, VOICE_RMS_DB, PEAK_CEILING_DB)
    _encode(final, mp3, VOICE_KBPS)


def make_card(layers: list[Layer], tmp: Path, mp3: Path) -> None:
    parts = []
    for i, layer in enumerate(layers):
        part = tmp / f"layer{i}.wav"
        _run(["sox", "-R", "-n", "-r", str(CARD_RATE), "-c", "1", "-b", "16", str(part),
              *layer.fx, "gain", f"{layer.gain - 6:.1f}", "pad", f"{layer.at:.3f}"])  # fmt: skip
        parts.append(str(part))
    mixed, final = tmp / "mixed.wav", tmp / "final.wav"
    if len(parts) == 1:
        shutil.copy(parts[0], mixed)
    else:
        _run(["sox", "-R", "-m", *parts, "-b", "16", str(mixed), "fade", "q", "0.002"])
    _levelled(mixed, final, None, CARD_PEAK_DB)
    _encode(final, mp3, CARD_KBPS)


def build(out: Path) -> dict[str, object]:
    """Write every file of the pack and its manifest into ``out``; return the manifest."""
    versions = tool_versions()
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.mp3"), out / "manifest.json"]:  # what an older build left
        old.unlink(missing_ok=True)
    sounds: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for name, layers in CARD_SOUNDS.items():
            make_card(layers, tmp, out / f"{name}.mp3")
            sounds[name] = {"files": [f"{name}.mp3"]}
        for c in CALLOUTS:
            files = [f"{c.name}.mp3"] if len(c.texts) == 1 else [
                f"{c.name}-{i + 1}.mp3" for i in range(len(c.texts))
            ]  # fmt: skip
            for text, f in zip(c.texts, files, strict=True):
                make_callout(text, tmp, out / f)
            sounds[c.name] = {"files": files, "text": list(c.texts)}
    manifest: dict[str, object] = {
        "format": 1,
        "name": "default",
        "title": "기본 목소리",
        "language": "ko",
        "author": "Madang; made by scripts/make_voice_pack.py",
        "licence": "MIT",
        "made_with": versions,
        "sounds": sounds,
    }
    (out / "manifest.json").write_text(to_json(manifest) + "\n", "utf-8")
    return manifest


def to_json(value: object, indent: int = 0) -> str:
    """JSON as the client's formatter (Biome) writes it: objects one key a line, lists
    of plain values on one line when it fits in 100 columns.

    >>> print(to_json({"a": {"files": ["x.mp3", "y.mp3"], "gain": 0.5}}))
    {
      "a": {
        "files": ["x.mp3", "y.mp3"],
        "gain": 0.5
      }
    }
    """
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {to_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and value:
        flat = "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        if all(not isinstance(v, dict | list) for v in value) and len(pad) + len(flat) < 90:
            return flat
        items = [pad + to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Measured:
    """One file of a pack as a listener gets it (decoded from its MP3)."""

    name: str
    kind: str  # "voice" or "card"
    file: str
    bytes: int
    seconds: float
    peak_db: float
    rms_db: float
    lead: float
    """Seconds under -45 dBFS before the sound starts …"""
    tail: float
    """… and after it ends."""


def measure(pack: Path) -> list[Measured]:
    """Every file of ``pack``'s manifest, decoded (``lame --decode``) and measured
    (``sox … stats``)."""
    manifest = json.loads((pack / "manifest.json").read_text("utf-8"))
    voices = {c.name for c in CALLOUTS}
    out: list[Measured] = []
    with tempfile.TemporaryDirectory() as t:
        wav = Path(t) / "decoded.wav"
        for name, entry in manifest["sounds"].items():
            for f in entry["files"]:
                _run(["lame", "--quiet", "--decode", str(pack / f), str(wav)])
                lead, tail = silences(wav, Path(t))
                lv = levels(wav)
                out.append(Measured(name, "voice" if name in voices else "card", f,
                                    (pack / f).stat().st_size, lv["seconds"], lv["peak_db"],
                                    lv["rms_db"], lead, tail))  # fmt: skip
    return out


def report(pack: Path) -> str:
    """A Markdown table of :func:`measure`, with what espeak-ng says for each callout."""
    manifest = json.loads((pack / "manifest.json").read_text("utf-8"))
    rows = [
        "| sound | file | says (espeak-ng IPA) | bytes | seconds | peak dBFS | RMS dBFS "
        "| lead ms | tail ms |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    files = measure(pack)
    for r in files:
        entry = manifest["sounds"][r.name]
        texts = entry.get("text", [])
        i = entry["files"].index(r.file)
        says = f"{texts[i]} [{ipa(texts[i])}]" if i < len(texts) else ""
        rows.append(f"| {r.name} | {r.file} | {says} | {r.bytes:,} | {r.seconds:.2f} | "
                    f"{r.peak_db:.1f} | {r.rms_db:.1f} | {r.lead * 1000:.0f} | "
                    f"{r.tail * 1000:.0f} |")  # fmt: skip
    total = sum(r.bytes for r in files)
    rows.append(f"| **total** | {len(files)} files | | {total:,} | | | | | |")
    return "\n".join(rows)


def ipa(text: str) -> str:
    """The phonemes espeak-ng's Korean voice says for ``text`` (its IPA)."""
    return _run(["espeak-ng", "-v", "ko", "-q", "--ipa", text]).strip()


def check(pack: Path) -> list[str]:
    """The files that differ between ``pack`` and a fresh build (empty: identical)."""
    with tempfile.TemporaryDirectory() as t:
        build(Path(t))
        fresh = {p.name: p.read_bytes() for p in Path(t).iterdir()}
    have = {p.name: p.read_bytes() for p in pack.iterdir() if p.is_file()}
    return sorted(n for n in fresh.keys() | have.keys() if fresh.get(n) != have.get(n))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=PACK_DIR, help="the pack's folder")
    ap.add_argument("--check", action="store_true", help="compare a fresh build with --out")
    ap.add_argument("--report", action="store_true", help="print the levels of --out's files")
    args = ap.parse_args(argv)
    if args.check:
        diff = check(args.out)
        print("identical" if not diff else f"differs: {', '.join(diff)}")
        return 1 if diff else 0
    if args.report:
        print(report(args.out))
        return 0
    versions = tool_versions()
    if versions != TOOLS:
        print(f"note: tools {versions} differ from {TOOLS}; the bytes will differ", file=sys.stderr)
    build(args.out)
    print(report(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
