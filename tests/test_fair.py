"""Deals anyone can verify (``docs/fairness.md``): the scheme's pieces, the test vectors
of the page, the record's ``fairness`` field, :func:`madang.core.fair.verify` on honest
and tampered records, and ``madang verify`` per ``notation.md``'s contract."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.fair_records import fair_record

from madang.cli import main
from madang.core.errors import FairnessError, RecordError, VerificationError
from madang.core.fair import (
    SCHEME,
    Binding,
    Stream,
    canonical_json,
    commitment,
    deal_key,
    fisher_yates,
    new_seed,
    rules_digest,
    shuffle,
    verify,
)
from madang.core.registry import BUILTIN_SPECS, spec
from madang.mahjong.record import replay as replay_hand
from madang.matgo.fair import fair_first_dealer
from madang.matgo.record import replay as replay_game
from madang.matgo.rules import MatgoRules

DOC = Path(__file__).resolve().parent.parent / "docs" / "fairness.md"
SEED = bytes(range(32))


def doc_vectors() -> dict[str, Any]:
    """The JSON block of the page's test vectors."""
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    found = [json.loads(b) for b in blocks if '"vectors"' in b]
    assert len(found) == 1
    data: dict[str, Any] = found[0]
    return data


def _binding(**kw: Any) -> Binding:
    base: dict[str, Any] = {
        "game": "matgo", "table": "7", "game_no": 1, "ruleset": "1",
        "rules": rules_digest(MatgoRules().to_dict()),
    }  # fmt: skip
    return Binding(**{**base, **kw})


# ------------------------------------------------------------------ the page's vectors


def test_the_stream_vector_of_the_page() -> None:
    v = doc_vectors()["stream"]
    key = bytes.fromhex(v["key"])
    block = hashlib.sha256(key + struct.pack(">I", 4) + b"deck" + struct.pack(">I", 0))
    assert block.hexdigest() == v["stream_block_0"]
    s = Stream(key, v["label"])
    assert [s.below(6) for _ in range(5)] == v["below_6"]
    assert shuffle(key, range(10), "deck") == v["shuffle_0_to_9"]


@pytest.mark.parametrize("i", [0, 1], ids=["matgo", "mahjong"])
def test_each_vector_of_the_page(i: int) -> None:
    v = doc_vectors()["vectors"][i]
    seed = bytes.fromhex(v["seed"])
    assert canonical_json(v["rules"]).decode() == v["rules_json"]
    assert hashlib.sha256(v["rules_json"].encode()).hexdigest() == v["rules_sha256"]
    b = Binding(
        game=v["game"], table=v["table"], game_no=v["game_no"], ruleset=v["ruleset"],
        rules=rules_digest(v["rules"]),
    )  # fmt: skip
    assert b.encode().hex() == v["binding_hex"]
    # the messages as the page spells them, hashed with nothing but hashlib and hmac
    commit_msg = bytes.fromhex(v["commit_message_hex"])
    assert commit_msg == struct.pack(">I", 20) + b"madang-fair/1 commit" + b.encode() + (
        struct.pack(">I", 32) + seed
    )
    assert hashlib.sha256(commit_msg).hexdigest() == v["commitment"] == commitment(seed, b)
    deal_msg = bytes.fromhex(v["deal_message_hex"])
    assert deal_msg.endswith(bytes.fromhex(v["entropy_hex"]))
    key = hmac.new(seed, deal_msg, hashlib.sha256).digest()
    assert key.hex() == v["deal_key"] == deal_key(seed, b, v["entropy"]).hex()
    label = b"deck" if v["game"] == "matgo" else b"wall"
    block = hashlib.sha256(key + struct.pack(">I", len(label)) + label + bytes(4)).digest()
    assert block.hex() == v["stream_block_0"]
    assert list(struct.unpack(">4I", block[:16])) == v["first_words"]
    assert spec(v["game"]).fair_deal(v["rules"], key, v["game_no"]) == v["deal"]
    if v["game"] == "matgo":
        dealer, draws = fair_first_dealer(MatgoRules.from_dict(v["rules"]), key)
        from madang.matgo.cards import CODES

        assert [[CODES[a], CODES[b]] for a, b in draws] == v["first_dealer_draws"]
        assert dealer == v["deal"]["dealer"]


def test_the_page_example_record_field_verifies() -> None:
    """The ``fairness`` example of the page is the first vector's."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r'```json\n("fairness": \{.*?\})\n```', text, re.S)
    assert found is not None
    example = json.loads("{" + found[1] + "}")
    v = doc_vectors()["vectors"][0]
    record = {"game": "matgo", "ruleset": "1", "rules": v["rules"], **v["deal"], "moves": []}
    record["fairness"] = example["fairness"]
    assert verify(record).key.hex() == v["deal_key"]


# ------------------------------------------------------------------ the pieces


def test_a_new_seed_is_32_fresh_bytes() -> None:
    a, b = new_seed(), new_seed()
    assert len(a) == 32 and a != b


@pytest.mark.parametrize(
    "change",
    [{"game": "mahjong"}, {"table": "8"}, {"game_no": 2}, {"ruleset": "2"},
     {"rules": rules_digest({"bonus_cards": "none"})}],
    ids=lambda c: next(iter(c)),
)  # fmt: skip
def test_the_commitment_and_the_key_bind_every_field(change: dict[str, Any]) -> None:
    assert commitment(SEED, _binding(**change)) != commitment(SEED, _binding())
    assert deal_key(SEED, _binding(**change), ["", ""]) != deal_key(SEED, _binding(), ["", ""])


def test_the_commitment_binds_the_seed_and_the_key_every_seat() -> None:
    b = _binding()
    assert commitment(bytes(32), b) != commitment(SEED, b)
    keys = {deal_key(SEED, b, e).hex() for e in (["", ""], ["a", ""], ["", "a"], ["a", "a"])}
    assert len(keys) == 4
    # the fields are length-prefixed: moving a character between seats changes the key
    assert deal_key(SEED, b, ["ab", "c"]) != deal_key(SEED, b, ["a", "bc"])
    assert deal_key(SEED, b, ["", "", ""]) != deal_key(SEED, b, ["", ""])


def test_rules_digest_is_of_the_canonical_json() -> None:
    assert rules_digest({"b": 1, "a": True}) == rules_digest({"a": True, "b": 1})
    assert canonical_json({"é": "마당", "a": [None, -3]}) == '{"a":[null,-3],"é":"마당"}'.encode()
    assert rules_digest({}) == hashlib.sha256(b"{}").hexdigest()


@pytest.mark.parametrize(
    "rules", [{"x": 1.5}, {"x": 2**53}, {"x": "\ud800"}, [1], {"x": {1: 2}}, {"x": object()}],
    ids=["fraction", "huge", "surrogate", "list", "int-key", "object"],
)  # fmt: skip
def test_rules_that_are_not_plain_json_are_refused(rules: Any) -> None:
    with pytest.raises(FairnessError):
        rules_digest(rules)


def test_below_rejects_the_words_above_the_last_multiple() -> None:
    class Fed(Stream):
        __slots__ = ("feed",)

        def word(self) -> int:
            return next(self.feed)

    s = Fed(SEED, "deck")
    s.feed = iter([0xFFFFFFFF, 0xFFFFFFFE, 7])  # limit for n=3 is 2**32 - 1
    assert s.below(3) == 0xFFFFFFFE % 3
    assert s.below(3) == 1
    s2 = Stream(SEED, "deck")
    first = Stream(SEED, "deck").word()
    assert s2.below(2**32) == first  # n = 2**32 never rejects
    with pytest.raises(FairnessError):
        s2.below(0)
    with pytest.raises(FairnessError):
        s2.below(2**32 + 1)


def test_the_shuffle_rejects_too() -> None:
    """2**32 - 2 is at or above the last multiple of 6 (2**32 - 4): drawn again."""
    assert fisher_yates(list(range(6)), iter([2**32 - 2, 0, 0, 0, 0, 0])) == [1, 2, 3, 4, 5, 0]
    with pytest.raises(StopIteration):
        fisher_yates(list(range(6)), iter([2**32 - 2, 0, 0, 0, 0]))


def test_the_words_run_across_blocks_in_order() -> None:
    s = Stream(SEED, "x")
    words = [s.word() for _ in range(17)]
    base = SEED + struct.pack(">I", 1) + b"x"
    blocks = b"".join(hashlib.sha256(base + struct.pack(">I", i)).digest() for i in range(3))
    assert words == list(struct.unpack(">17I", blocks[: 17 * 4]))


def test_shuffle_is_a_permutation_fixed_by_key_and_label() -> None:
    items = list(range(104))
    a = shuffle(SEED, items, "wall")
    assert sorted(a) == items and a != items
    assert a == shuffle(SEED, items, "wall")
    assert a != shuffle(SEED, items, "deck")
    assert shuffle(SEED, [], "deck") == [] and shuffle(SEED, ["x"], "deck") == ["x"]


def test_shuffle_positions_are_uniform() -> None:
    """Each of 5 items lands in each place about 1/5 of the time over 5,000 keys (χ²
    with 16 degrees of freedom stays far below its 0.1 % point, 39.25)."""
    n, runs = 5, 5000
    counts = [[0] * n for _ in range(n)]
    for k in range(runs):
        key = hashlib.sha256(k.to_bytes(4, "big")).digest()
        for pos, item in enumerate(shuffle(key, range(n), "deck")):
            counts[item][pos] += 1
    expected = runs / n
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert chi2 < 39.25, counts


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"scheme": "madang-fair/2"}, "unknown fairness scheme"),
        ({"game": ""}, "the game"),
        ({"table": ""}, "the table id"),
        ({"table": "x" * 257}, "longer than 256"),
        ({"table": "\udc00"}, "not valid Unicode"),
        ({"game_no": 0}, "the game number"),
        ({"game_no": True}, "the game number"),
        ({"game_no": 2**53}, "the game number"),
        ({"rules": "ABC"}, "64 lowercase hex"),
    ],
    ids=lambda x: x if isinstance(x, str) else next(iter(x)),
)
def test_a_malformed_binding_is_refused(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(FairnessError, match=message):
        _binding(**kw)


def test_malformed_seeds_keys_and_entropy_are_refused() -> None:
    b = _binding()
    with pytest.raises(FairnessError, match="32 bytes"):
        commitment(bytes(31), b)
    with pytest.raises(FairnessError, match="32 bytes"):
        deal_key("00" * 32, b, ["", ""])  # type: ignore[arg-type]
    with pytest.raises(FairnessError, match="32 bytes"):
        Stream(bytes(16), "deck")
    for bad in ("ab", [], [1, ""], ["x" * 257, ""], ["\ud800", ""]):
        with pytest.raises(FairnessError):
            deal_key(SEED, b, bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the record field


def test_every_built_in_game_has_a_fair_deal() -> None:
    for name in BUILTIN_SPECS:
        assert spec(name).fair_deal is not None, name


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_a_record_with_fairness_replays_as_without(game: str) -> None:
    rec = fair_record(game, SEED, moves=-1)
    bare = {k: v for k, v in rec.items() if k != "fairness"}
    replay = replay_game if game == "matgo" else replay_hand
    assert replay(rec).snapshot() == replay(bare).snapshot()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fairness": []}, "must be a JSON object"),
        ({"extra": 1}, "unknown fairness field"),
        ({"scheme": "x"}, "unknown fairness scheme"),
        ({"seed": "00"}, "the seed must be 64"),
        ({"commitment": "A" * 64}, "the commitment must be 64"),
        ({"entropy": "ab"}, "one per seat"),
        ({"entropy": [1, 2]}, "seat 0's entropy"),
        ({"table": 7}, "the table id"),
        ({"game_no": "1"}, "the game number"),
        ({"drop": "commitment"}, "fairness has no 'commitment'"),
    ],
    ids=lambda x: x if isinstance(x, str) else next(iter(x)),
)
def test_a_malformed_fairness_field_is_a_record_error(change: dict[str, Any], message: str) -> None:
    for game, replay in (("matgo", replay_game), ("mahjong", replay_hand)):
        rec = fair_record(game, SEED)
        f = rec["fairness"]
        if "fairness" in change:
            rec["fairness"] = change["fairness"]
        elif "drop" in change:
            del f[change["drop"]]
        else:
            f.update(change)
        with pytest.raises(FairnessError, match=message) as err:
            replay(rec)
        assert isinstance(err.value, RecordError)
        with pytest.raises(FairnessError, match=message):
            verify(rec)


# ------------------------------------------------------------------ verify


@pytest.mark.parametrize(
    ("game", "rules", "game_no"),
    [
        ("matgo", {}, 1),
        ("matgo", {"bonus_cards": "none"}, 1),
        ("matgo", {"bonus_cards": "2+2+2", "first_dealer": "night_low"}, 1),
        ("matgo", {"missions": True}, 5),
        ("mahjong", {}, 1),
        ("mahjong", {"min_pan": 2, "rounds": 2}, 9),
    ],
)
def test_an_honest_record_verifies(game: str, rules: dict[str, Any], game_no: int) -> None:
    entropy = ["마당", "x"] if game == "matgo" else ["a", "", "🀄", "b"]
    rec = fair_record(game, SEED, rules=rules, game_no=game_no, entropy=entropy, moves=-1)
    got = verify(rec, commitment_seen=rec["fairness"]["commitment"])
    assert got.game == game and got.binding.game_no == game_no
    want = ["commitment", "deck" if game == "matgo" else "wall"]
    if game == "matgo" and game_no == 1:
        want.append("dealer")
    if rules.get("missions"):
        want.append("mission")
    assert got.to_dict()["checked"] == want


def _swap(xs: list[str]) -> None:
    i = next(i for i in range(1, len(xs)) if xs[i] != xs[0])
    xs[0], xs[i] = xs[i], xs[0]


@pytest.mark.parametrize(
    ("game", "tamper", "message"),
    [
        ("matgo", lambda r: _swap(r["deck"]), "deck is not the seed's deal: at position 0"),
        ("mahjong", lambda r: _swap(r["wall"]), "record's wall is not the seed's deal"),
        ("matgo", lambda r: r.update(dealer=1 - r["dealer"]), "record's dealer"),
        ("matgo", lambda r: r.update(mission="ogwang" if r["mission"] != "ogwang" else "godori"),
         "record's mission"),
        ("matgo", lambda r: r["fairness"].update(seed="11" * 32), "does not open the commitment"),
        ("mahjong", lambda r: r["fairness"].update(commitment="11" * 32), "does not open"),
        ("matgo", lambda r: r["fairness"].update(table="8"), "does not open"),
        ("matgo", lambda r: r["fairness"].update(game_no=2), "does not open"),
        ("mahjong", lambda r: r["rules"].update(min_pan=3), "does not open"),
        ("mahjong", lambda r: r.update(ruleset="0"), "does not open"),
        # entropy is not committed to (it comes after): a changed string changes the deal
        ("matgo", lambda r: r["fairness"].update(entropy=["a", "c"]), "record's deck"),
        ("mahjong", lambda r: r["fairness"].update(entropy=["", "", "", "z"]), "record's wall"),
    ],
    ids=["deck", "wall", "dealer", "mission", "seed", "commitment", "table", "game_no",
         "rules", "ruleset", "matgo-entropy", "mahjong-entropy"],
)  # fmt: skip
def test_a_tampered_record_does_not_verify(game: str, tamper: Any, message: str) -> None:
    rules = {"missions": True} if game == "matgo" else {}
    entropy = ["a", "b"] if game == "matgo" else None
    rec = fair_record(game, SEED, rules=rules, entropy=entropy)
    verify(rec)
    tamper(rec)
    with pytest.raises(VerificationError, match=re.escape(message)):
        verify(rec)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "must be a JSON object"),
        ({"game": "matgo"}, "carries no fairness data"),
        ({"game": "chess", "fairness": {}}, "fairness has no"),
    ],
)
def test_verify_refuses_what_is_not_a_fair_record(record: Any, message: str) -> None:
    with pytest.raises(FairnessError, match=message) as err:
        verify(record)
    assert not isinstance(err.value, VerificationError)


def test_verify_refuses_an_unrevealed_seed_a_wrong_game_and_wrong_seats() -> None:
    rec = fair_record("matgo", SEED, reveal=False, moves=3)
    with pytest.raises(FairnessError, match="not revealed yet"):
        verify(rec)
    rec = fair_record("matgo", SEED)
    rec["game"] = "chess"
    with pytest.raises(FairnessError, match="unknown game 'chess'"):
        verify(rec)
    rec = fair_record("mahjong", SEED)
    rec["fairness"]["entropy"] = ["", ""]
    with pytest.raises(FairnessError, match=r"one string per seat \(4\), not 2"):
        verify(rec)


def test_verify_refuses_rules_the_game_cannot_play() -> None:
    """Rules committed to but not playable: malformed (a FairnessError), not a mismatch."""
    seed = SEED
    rules = {"bonus_cards": "7+7"}
    b = Binding(game="matgo", table="1", game_no=1, ruleset="1", rules=rules_digest(rules))
    rec = fair_record("matgo", seed)
    rec["rules"] = rules
    rec["fairness"]["commitment"] = commitment(seed, b)
    with pytest.raises(FairnessError, match="rules: matgo option 'bonus_cards'") as err:
        verify(rec)
    assert not isinstance(err.value, VerificationError)


def test_verify_against_the_commitment_seen_before_the_deal() -> None:
    rec = fair_record("matgo", SEED)
    with pytest.raises(VerificationError, match="not the one shown before the deal"):
        verify(rec, commitment_seen="00" * 32)
    with pytest.raises(FairnessError, match="64 lowercase hex"):
        verify(rec, commitment_seen="xyz")


def test_a_forged_record_with_its_own_commitment_needs_its_own_seed() -> None:
    """A server that rewrites the deck must show another commitment: the one the
    players saw before the deal no longer matches."""
    honest = fair_record("matgo", SEED)
    forged = fair_record("matgo", bytes(32))
    verify(forged)
    with pytest.raises(VerificationError, match="shown before the deal"):
        verify(forged, commitment_seen=honest["fairness"]["commitment"])


# ------------------------------------------------------------------ madang verify


def _cli(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    stdin: str | None = None,
) -> tuple[int, str, str]:  # fmt: skip
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


def _one_error_line(rc: int, out: str, err: str) -> str:
    assert rc == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("madang: error: ")
    return lines[0]


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_verify_json_prints_one_object(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = fair_record(game, SEED, moves=-1, table="table 9", game_no=4)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    rc, out, err = _cli(["verify", str(path), "--json"], capsys, monkeypatch)
    assert rc == 0 and err == "" and out.count("\n") == 1
    got = json.loads(out)
    assert got["ok"] is True and got["game"] == game and got["scheme"] == SCHEME
    assert (got["table"], got["game_no"]) == ("table 9", 4)
    assert got["commitment"] == rec["fairness"]["commitment"]
    assert got["rules"] == rules_digest(rec["rules"])
    assert got["checked"] == ["commitment", "deck" if game == "matgo" else "wall"]


def test_verify_text_and_stdin_and_the_commitment_seen(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = fair_record("matgo", SEED, moves=-1)
    c = rec["fairness"]["commitment"]
    rc, out, _ = _cli(["verify", "-", "--commitment", c], capsys, monkeypatch, json.dumps(rec))
    assert rc == 0 and out.startswith("verified: matgo at table 1, game 1")
    assert f"commitment {c}" in out and "deck, dealer" in out
    rc, out, err = _cli(
        ["verify", "-", "--json", "--commitment", "ab" * 32], capsys, monkeypatch, json.dumps(rec)
    )
    assert "not the one shown before the deal" in _one_error_line(rc, out, err)


def test_verify_names_the_first_card_that_differs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's example message: the first vector's deck with positions 4 and 12
    swapped."""
    v = doc_vectors()["vectors"][0]
    rec = fair_record("matgo", bytes.fromhex(v["seed"]), table="7", entropy=v["entropy"])
    deck = rec["deck"]
    assert deck == v["deal"]["deck"]
    deck[4], deck[12] = deck[12], deck[4]
    rc, out, err = _cli(["verify", "-", "--json"], capsys, monkeypatch, json.dumps(rec))
    line = _one_error_line(rc, out, err)
    assert line in DOC.read_text(encoding="utf-8").replace("\n", " ")


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{", "malformed JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "matgo", "moves": []}', "carries no fairness data"),
    ],
)
def test_verify_bad_input_is_one_line_and_exit_2(
    stdin: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(["verify", "-", "--json"], capsys, monkeypatch, stdin)
    assert message in _one_error_line(rc, out, err)


def test_verify_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, out, err = _cli(["verify", str(tmp_path / "none.json")], capsys, monkeypatch)
    assert "cannot read" in _one_error_line(rc, out, err)


@pytest.mark.parametrize("players", [3, 4], ids=["three", "four-gwangpalgi"])
def test_a_gostop_record_verifies_with_one_entropy_string_per_seat_it_names(players: int) -> None:
    """고스톱's seats are its rules' (4 with 광팔기): the record's ``players`` is the count
    of entropy strings, and its first 선 is drawn among them."""
    for i in range(12):  # a first 선 drawn among three would miss seat 3 (and differ)
        rec = fair_record("gostop", bytes([i]) + SEED[1:], rules={"players": players}, moves=-1)
        assert rec["players"] == players and len(rec["fairness"]["entropy"]) == players
        assert verify(rec).deal["deck"] == rec["deck"]
    rec["fairness"]["entropy"] = [""] * (7 - players)
    with pytest.raises(
        FairnessError, match=rf"one string per seat \({players}\), not {7 - players}"
    ):
        verify(rec)
    rec["players"] = "four"
    with pytest.raises(FairnessError, match="players must be a count of seats"):
        verify(rec)
