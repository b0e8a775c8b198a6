"""The message catalogue: complete in both languages, in step with the engines' names,
and the terminal's words for every sample never show a raw code or a missing key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.samples import mahjong_samples, matgo_samples, matgo_sheets

from madang.i18n import LANGUAGES, MissingMessage, catalogue, t
from madang.mahjong.patterns import PATTERNS as MJ_PATTERNS
from madang.mahjong.render import caption as mj_caption
from madang.mahjong.render import narrate as mj_narrate
from madang.mahjong.render import settlement_lines
from madang.mahjong.state import VERBS
from madang.matgo.engine import INSTANT_PPEOK, Phase
from madang.matgo.events import EVENT_FIELDS
from madang.matgo.render import caption as mg_caption
from madang.matgo.render import multiplier_name, table_lines
from madang.matgo.render import narrate as mg_narrate
from madang.matgo.scoring import MISSIONS
from madang.matgo.scoring import PATTERNS as MG_PATTERNS

ROOT = Path(__file__).resolve().parents[1]
#: A raw card code (08g, 09p2, 11d, b3) or tile code (3m, 7z, 1f) in shown text.
RAW = re.compile(r"\b(\d\d[garpd]\d?|b[23][xy]?|[1-9][mpzf])\b")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _error_codes() -> set[str]:
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    table = text[text.index("| code | HTTP | meaning |") : text.index("## Accounts")]
    codes = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    server = "".join(p.read_text("utf-8") for p in (ROOT / "src/madang/server").glob("*.py"))
    codes |= set(re.findall(r'WireError\(\s*"(\w+)"', server))
    assert len(codes) >= 20
    return codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_languages_hold_the_same_keys_and_placeholders(lang: str) -> None:
    ko, other = catalogue("ko"), catalogue(lang)
    assert set(other) == set(ko)
    for key, text in other.items():
        assert text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ko[key])), key


def test_a_missing_key_is_an_error() -> None:
    with pytest.raises(MissingMessage):
        t("matgo.ev.no_such_event")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_name_the_engines_use_is_in_the_catalogue(lang: str) -> None:
    cat = catalogue(lang)
    want = {f"matgo.ev.{e}" for e in EVENT_FIELDS}
    want |= {f"matgo.q.{p.name.lower()}" for p in Phase if p is not Phase.OVER}
    want |= {f"matgo.jokbo.{p.name}" for p in MG_PATTERNS} | {
        "matgo.jokbo.chongtong", "matgo.jokbo.sam_ppeok"}  # fmt: skip
    want |= {f"matgo.mission.{m.name}" for m in MISSIONS}
    want |= {f"pay.{r}" for _, r in INSTANT_PPEOK.values()}
    want |= {f"pay.{r}" for r in ("win", "chongtong", "sam_ppeok", "cheot_ttadak", "ssoa", "olla")}
    want |= {
        f"matgo.end.{r}"
        for r in ("stop", "last_card", "nagari", "redeal", "chongtong", "sam_ppeok")
    }
    want |= {f"matgo.redeal.{r}" for r in ("four_on_floor", "two_chongtong")}
    want |= {
        f"matgo.steal.{r}" for r in ("ppeok", "jabbeok", "ttadak", "jjok", "sseul", "bomb", "bonus")
    }
    want |= {f"matgo.mult.{m}" for m in ("go", "heundeulgi", "pibak", "gwangbak", "meongtta",
                                          "meongbak", "gobak", "nagari_carry")}  # fmt: skip
    # the 박 a seat risks (madang.matgo.view.bak_risks; 고스톱's 고박 reads dokbak)
    want |= {f"matgo.warn.{w}" for w in ("pibak", "gwangbak", "meongtta", "meongbak", "gobak",
                                          "dokbak")}  # fmt: skip
    want |= {f"mahjong.pattern.{p.name}" for p in MJ_PATTERNS}
    want |= {f"mahjong.verb.{v}" for v in VERBS} | {f"mahjong.move.{v}" for v in VERBS}
    want |= {f"mahjong.ev.{e}" for e in ("deal", "draw", "flower", "discard", "ask", "answer",
                                          "pon", "kan", "ankan", "kakan", "nagari", "end",
                                          "payment")}  # fmt: skip
    from madang.core.registry import games, spec

    for game in games():  # the lobby names every preset of every game
        presets = spec(game).presets()
        want |= {f"preset.{game}.{p}" for p in presets} | {
            f"preset.{game}.{p}.desc" for p in presets
        }
        want |= {f"game.{game}", f"rank.note_{game}"}
    want |= {f"error.{c}" for c in _error_codes()}
    # the join dialog says what each scoring unit of a game is worth (a mahjong 판)
    for game in games():
        unit_points = spec(game).unit_points
        if unit_points is not None:
            want |= {f"join.unit.{u}" for u in unit_points(spec(game).rules("default"))}
    assert sorted(want - set(cat)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rules_option_and_value_has_a_name(lang: str) -> None:
    """The lobby's form and the rules in force name every option of every game, and
    every value of an option with a list of values (true/false: 켜기/끄기)."""
    from madang.core.registry import games
    from madang.server.rules_catalogue import catalogue as rules_of

    cat = catalogue(lang)
    want = {"rule.on", "rule.off"}
    for game in games():
        for o in rules_of(game)["options"]:
            want.add(f"rule.{game}.{o['name']}")
            if o["type"] != "bool":
                want |= {f"rule.{game}.{o['name']}.{v}" for v in o.get("values", [])}
    assert want <= set(cat), sorted(want - set(cat))
    if lang == "ko":
        assert not [k for k in want if re.search(r"[A-Za-z]{2,}", cat[k])]


def test_korean_names_agree_with_the_engines() -> None:
    for p in MG_PATTERNS:
        assert t(f"matgo.jokbo.{p.name}") == p.name_ko
    for m in MISSIONS:
        assert t(f"matgo.mission.{m.name}") == m.name_ko
    for q in MJ_PATTERNS:
        assert t(f"mahjong.pattern.{q.name}") == q.name_ko


def _clean(text: str) -> str:
    return re.sub(r"\[/?[a-z_ ]*\]", "", text)  # Rich markup


def _check(text: str) -> None:
    plain = _clean(text)
    assert "{" not in plain and not RAW.search(plain), plain
    assert not re.search(r"[A-Za-z]{2,}", plain), plain


def test_terminal_words_for_every_matgo_sample() -> None:
    s = matgo_samples()
    names = ("나", "상대")
    for e in s["events"]:
        for text in (mg_narrate(e, names), mg_caption(e, names)):
            if text is not None:
                _check(text)
    for v in s["views"]:
        for line in table_lines(v, names):
            _check(line.replace("(선)", ""))
    for sheet in matgo_sheets():
        for m in sheet["multipliers"]:  # type: ignore[attr-defined]
            _check(multiplier_name(m))


def test_terminal_words_for_every_mahjong_sample() -> None:
    s = mahjong_samples()
    names = ("나", "오른쪽", "맞은편", "왼쪽")
    for e in s["events"]:
        for text in (mj_narrate(e, names), mj_caption(e, names)):
            if text is not None:
                _check(text)
    for v in s["results"]:
        for line in settlement_lines(v["result"], names):
            _check(line)


def test_particles_by_the_last_syllable_here_and_in_the_browser() -> None:
    """U19: 이/가, 은/는, 을/를, 과/와 by the last syllable's final consonant, the same
    in the terminal (:func:`madang.i18n.with_particle`) and the browser (``josa.js``,
    run by node when it is installed)."""
    import json
    import shutil
    import subprocess

    from madang.i18n import PARTICLES, with_particle

    words = ["손님", "민수", "컴퓨터 초급 3", "컴퓨터 초급 2", "손님 a01c0b", "bot-n",
             "10", "왼쪽", "쏘아", "판", "9월 국진", "★", "", "(중)", "동."]  # fmt: skip
    want = {
        ("손님", "이(가)"): "손님이", ("민수", "이(가)"): "민수가",
        ("컴퓨터 초급 3", "이(가)"): "컴퓨터 초급 3이",
        ("컴퓨터 초급 2", "이(가)"): "컴퓨터 초급 2가",
        ("손님 a01c0b", "이(가)"): "손님 a01c0b가", ("bot-n", "이(가)"): "bot-n이",
        ("10", "은(는)"): "10은", ("왼쪽", "이(가)"): "왼쪽이", ("쏘아", "과(와)"): "쏘아와",
        ("판", "을(를)"): "판을", ("★", "이(가)"): "★이(가)", ("동.", "은(는)"): "동.은",
    }  # fmt: skip
    ours = {(w, p): with_particle(w, p) for w in words for p in PARTICLES}
    for k, v in want.items():
        assert ours[k] == v, (k, ours[k])
    assert t("mahjong.sheet.ron_pays", who="x", **{"from": "왼쪽", "n": 2}) == "쏘아: 왼쪽이 ×2 냄"
    with pytest.raises(ValueError, match="unknown particle pair"):
        with_particle("나", "에게")
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the browser's josa.js is checked in Chromium")
    josa = Path(__file__).resolve().parents[1] / "src" / "madang" / "web" / "js" / "josa.js"
    script = (
        f"import {{ withParticle, PAIRS }} from {json.dumps(josa.as_uri())};"
        f"const words = {json.dumps(words, ensure_ascii=False)};"
        "const out = {}; for (const w of words) for (const p of Object.keys(PAIRS))"
        " out[w + '|' + p] = withParticle(w, p); console.log(JSON.stringify(out));"
    )
    res = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert res.returncode == 0, res.stderr
    theirs = json.loads(res.stdout)
    assert {(k.split("|")[0], k.split("|")[1]): v for k, v in theirs.items()} == ours
