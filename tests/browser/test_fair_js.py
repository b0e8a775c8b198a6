"""The browser's deal verifier (``src/madang/web/js/fair.js``) in headless Chromium,
against Python's :mod:`madang.core.fair` on the same inputs.

A small static server on 127.0.0.1 serves the client's folder (a secure context, so
``crypto.subtle`` exists); the page imports ``/js/fair.js`` and computes, with WebCrypto,
the commitment, the deal key and the deal of a few hundred random inputs of each game
(random seeds, table ids, game numbers, entropy strings with Hangul, emoji and controls,
random rules), the canonical JSON of random JSON objects, the page's test vectors, and
``verifyRecord`` on honest and tampered records. Every answer must be Python's.

Skipped only when ``/usr/bin/chromium`` is missing (CI installs Debian's ``chromium``).
"""

from __future__ import annotations

import json
import random
import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.fair_records import fair_record
from tests.test_fair import doc_vectors

from madang.core.errors import VerificationError
from madang.core.fair import (
    Binding,
    canonical_json,
    commitment,
    deal_key,
    rules_digest,
    verify,
)
from madang.core.registry import spec
from madang.mahjong.rules import PRESETS as MJ_PRESETS
from madang.matgo.rules import MatgoRules

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
WEB = Path(__file__).resolve().parents[2] / "src" / "madang" / "web"
INPUTS = 300  # of each game

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not on the PATH (Debian's: apt-get install chromium; .ci/run does)",
)


class _Handler(SimpleHTTPRequestHandler):
    """The client's files, and an empty page at ``/`` to import them from."""

    def do_GET(self) -> None:
        if self.path == "/":
            body = b"<!doctype html><meta charset=utf-8><title>fair</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(WEB)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                pg = browser.new_page()
                pg.goto(f"http://127.0.0.1:{server.server_address[1]}/")
                pg.evaluate("async () => { window.F = await import('/js/fair.js'); }")
                yield pg
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


_CHARS = 'abcXYZ019 -_마당패🀄é"\\\n\t\x01/'


def _text(rng: random.Random, least: int = 0) -> str:
    return "".join(rng.choice(_CHARS) for _ in range(rng.randint(least, 12)))


def _rules(rng: random.Random, game: str) -> dict[str, Any]:
    if game == "matgo":
        return MatgoRules.from_dict(
            {
                "bonus_cards": rng.choice(["2+3", "none", "2+2+2"]),
                "first_dealer": rng.choice(["high", "night_low"]),
                "missions": rng.random() < 0.3,
                "jabbeok": rng.random() < 0.5,
            }
        ).to_dict()
    return rng.choice(list(MJ_PRESETS.values())).to_dict()


def _cases(seed: int) -> list[dict[str, Any]]:
    """Random inputs of both games with Python's answers."""
    rng = random.Random(seed)
    cases = []
    for game in ("matgo", "mahjong"):
        seats = spec(game).seats
        for _ in range(INPUTS):
            rules = _rules(rng, game)
            b = Binding(
                game=game, table=_text(rng, 1), game_no=rng.choice([1, 1, 2, 7, 2**53 - 1]),
                ruleset="1", rules=rules_digest(rules),
            )  # fmt: skip
            s = rng.randbytes(32)
            entropy = [_text(rng) for _ in range(seats)]
            key = deal_key(s, b, entropy)
            cases.append(
                {
                    "binding": b.to_dict(), "seed": s.hex(), "entropy": entropy, "rules": rules,
                    "commitment": commitment(s, b), "key": key.hex(),
                    "deal": spec(game).fair_deal(rules, key, b.game_no),
                }
            )  # fmt: skip
    return cases


_RUN_CASES = """async (cases) => {
  const hex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
  const out = [];
  for (const c of cases) {
    const seed = hex(c.seed);
    const rules = await F.rulesDigest(c.rules);
    const commitment = await F.commitment(seed, c.binding);
    const key = await F.dealKey(seed, c.binding, c.entropy);
    const deal = await F.fairDeal(c.binding.game, c.rules, key, c.binding.game_no);
    out.push({rules, commitment, key: F.toHex(key), deal});
  }
  return out;
}"""


def test_the_browser_deals_as_python_on_random_inputs(page: Any) -> None:
    cases = _cases(2026)
    got = page.evaluate(_RUN_CASES, cases)
    assert len(got) == 2 * INPUTS
    for c, g in zip(cases, got, strict=True):
        assert g["rules"] == c["binding"]["rules"]
        assert g["commitment"] == c["commitment"], c
        assert g["key"] == c["key"], c
        assert g["deal"] == c["deal"], c
    games = {c["binding"]["game"] for c in cases}
    assert games == {"matgo", "mahjong"}
    assert any("mission" in c["deal"] for c in cases) and any("dealer" in c["deal"] for c in cases)


def test_the_browser_draws_the_first_dealer_as_python(page: Any) -> None:
    """3,000 keys: the draws themselves (a draw whose second number equals the first is
    the rare case the ``+1`` of the page decides, about one key in 188)."""
    from madang.matgo.cards import CODES
    from madang.matgo.fair import fair_first_dealer

    rng = random.Random(3)
    keys = [rng.randbytes(32).hex() for _ in range(3000)]
    rules = [{"first_dealer": rng.choice(["high", "night_low"])} for _ in keys]
    got = page.evaluate(
        """async ([keys, rules]) => {
          const hex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
          return Promise.all(keys.map((k, i) => F.firstDealer(rules[i], hex(k))));
        }""",
        [keys, rules],
    )
    for k, r, g in zip(keys, rules, got, strict=True):
        dealer, draws = fair_first_dealer(MatgoRules.from_dict(r), bytes.fromhex(k))
        assert g == {"dealer": dealer, "draws": [[CODES[a], CODES[b]] for a, b in draws]}


def test_the_browser_lays_out_and_decides_first_picks_as_python(page: Any) -> None:
    """선 뽑기 (docs/fairness.md): 300 keys, three rounds of layouts each, and random picks
    — decided, tied at the end, decided too early, bad slots — judged the same way."""
    from madang.core.errors import FairnessError
    from madang.matgo.first_pick import FirstPick

    rng = random.Random(4)
    keys = [rng.randbytes(32).hex() for _ in range(300)]
    rules = [{"first_dealer": rng.choice(["high", "night_low"])} for _ in keys]

    def rounds() -> list[list[int]]:
        n = rng.randint(1, 3)
        return [rng.sample(range(8), 2) if rng.random() < 0.95 else [1, 1] for _ in range(n)]

    picks = [rounds() for _ in keys]
    got = page.evaluate(
        """async ([keys, rules, picks]) => {
          const hex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
          return Promise.all(keys.map(async (k, i) => {
            const layouts = await F.firstPickLayouts(hex(k), 3);
            let dealer = null;
            try { dealer = await F.pickedDealer(rules[i], hex(k), picks[i]); }
            catch (e) { dealer = "refused"; }
            return {layouts, dealer};
          }));
        }""",
        [keys, rules, picks],
    )
    decided = refused = 0
    for k, r, p, g in zip(keys, rules, picks, got, strict=True):
        fp = FirstPick(MatgoRules.from_dict(r), bytes.fromhex(k))
        assert g["layouts"] == [fp.codes(i) for i in range(3)]
        try:
            want: int | str = fp.decide(p)[0]
            decided += 1
        except FairnessError:
            want = "refused"
            refused += 1
        assert g["dealer"] == want, (k, r, p)
    assert decided > 50 and refused > 50


def _json_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return _text(rng)
    if kind == 1:
        return rng.randint(-(2**53) + 1, 2**53 - 1)
    if kind == 2:
        return rng.choice([True, False])
    if kind == 3:
        return None
    if kind == 4:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {_text(rng): _json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def test_the_browser_writes_python_s_canonical_json(page: Any) -> None:
    rng = random.Random(7)
    objs = [{_text(rng): _json_value(rng) for _ in range(rng.randint(0, 5))} for _ in range(300)]
    objs.append({"\U0001f004": 1, "\uffff": 2, "a": 3, "": 4})  # code point order, not UTF-16
    got = page.evaluate("(objs) => objs.map((o) => F.canonicalJson(o))", objs)
    assert got == [canonical_json(o).decode() for o in objs]
    digests = page.evaluate("(objs) => Promise.all(objs.map((o) => F.rulesDigest(o)))", objs)
    assert digests == [rules_digest(o) for o in objs]


def test_the_browser_gives_the_page_s_vectors(page: Any) -> None:
    data = doc_vectors()
    got = page.evaluate(
        """async ({stream, vectors}) => {
          const hex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
          const key0 = hex(stream.key);
          const s = new F.Stream(key0, stream.label);
          const below6 = [];
          for (let i = 0; i < 5; i++) below6.push(await s.below(6));
          const shuffled = await F.shuffle(key0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "deck");
          const out = [];
          for (const v of vectors) {
            const b = {scheme: "madang-fair/1", game: v.game, table: v.table,
                       game_no: v.game_no, ruleset: v.ruleset, rules: await F.rulesDigest(v.rules)};
            const seed = hex(v.seed);
            const key = await F.dealKey(seed, b, v.entropy);
            out.push({binding: F.toHex(F.encodeBinding(b)), commitment: await F.commitment(seed, b),
                      key: F.toHex(key), deal: await F.fairDeal(v.game, v.rules, key, v.game_no)});
          }
          return {below6, shuffled, out};
        }""",
        data,
    )
    assert got["below6"] == data["stream"]["below_6"]
    assert got["shuffled"] == data["stream"]["shuffle_0_to_9"]
    for v, g in zip(data["vectors"], got["out"], strict=True):
        assert g == {"binding": v["binding_hex"], "commitment": v["commitment"],
                     "key": v["deal_key"], "deal": v["deal"]}  # fmt: skip


def test_the_browser_rejects_words_above_the_last_multiple(page: Any) -> None:
    got = page.evaluate(
        """async () => {
          const fed = (words) => {
            const s = new F.Stream(new Uint8Array(32), "deck");
            s.word = async () => words.shift();
            return s;
          };
          return {
            below: await fed([2 ** 32 - 2, 0]).below(6),
            shuffled: await F.fisherYates([0, 1, 2, 3, 4, 5], fed([2 ** 32 - 2, 0, 0, 0, 0, 0])),
          };
        }"""
    )
    assert got == {"below": 0, "shuffled": [1, 2, 3, 4, 5, 0]}


def _tamper(rec: dict[str, Any], what: str) -> None:
    field = "deck" if rec["game"] == "matgo" else "wall"
    if what == "deal":
        xs = rec[field]
        i = next(i for i in range(1, len(xs)) if xs[i] != xs[0])
        xs[0], xs[i] = xs[i], xs[0]
    elif what == "seed":
        rec["fairness"]["seed"] = "22" * 32
    elif what == "rules":
        rec["rules"] = {**rec["rules"], "sneaky": 1}
    elif what == "entropy":
        rec["fairness"]["entropy"] = ["?", *rec["fairness"]["entropy"][1:]]
    elif what == "unrevealed":
        del rec["fairness"]["seed"]
    elif what == "unknown":
        rec["fairness"]["extra"] = 1


def test_verify_record_in_the_browser_agrees_with_python(page: Any) -> None:
    records: list[dict[str, Any]] = []
    for i, game in enumerate(["matgo", "mahjong"] * 4):
        rules = {"missions": True, "bonus_cards": "2+2+2"} if game == "matgo" and i % 4 else {}
        rec = fair_record(game, bytes([i]) * 32, table=f"t{i}", game_no=1 + i % 3,
                          entropy=[f"s{i}"] * spec(game).seats, rules=rules, moves=-1)  # fmt: skip
        records.append(rec)
        for what in ("deal", "seed", "rules", "entropy", "unrevealed", "unknown"):
            bad = json.loads(json.dumps(rec))
            _tamper(bad, what)
            records.append(bad)
    got = page.evaluate("(recs) => Promise.all(recs.map((r) => F.verifyRecord(r)))", records)
    for rec, g in zip(records, got, strict=True):
        try:
            v = verify(rec)
        except VerificationError as e:
            assert g["ok"] is False and g["reason"], (str(e), g)
            assert str(e).split(":")[0].split(" (")[0] in g["reason"]
            continue
        except Exception as e:  # malformed: both refuse it
            assert g["ok"] is False and g["reason"], (str(e), g)
            continue
        field = "deck" if rec["game"] == "matgo" else "wall"
        assert g == {"ok": True, "deck": rec[field], "commitment": v.commitment,
                     "key": v.key.hex(), "checked": v.to_dict()["checked"]}  # fmt: skip
    assert sum(g["ok"] for g in got) == 8
    seen = page.evaluate(
        "([r, c]) => F.verifyRecord(r, {commitmentSeen: c})", [records[0], "00" * 32]
    )
    assert seen == {"ok": False, "reason": "the record's commitment is not the one shown "
                    "before the deal"}  # fmt: skip
