"""Deal statistics (:mod:`madang.stats`, ``madang stats deals``): honest deals pass,
biased ones are flagged, the tests themselves are right, the command's contract."""

from __future__ import annotations

import copy
import json
import math
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from scipy import stats as sps

from madang import stats
from madang.cli import main
from madang.stats import chi2_goodness, chi2_homogeneity, hypergeom_pmf


@cache
def honest(game: str, n: int, seed: int) -> tuple[dict[str, Any], ...]:
    """Records of ``n`` games dealt by the engine and played at random."""
    return tuple(s.record() for s in stats.simulated_sessions(game, n, seed))


@cache
def reference(game: str, n: int) -> tuple[stats.Observation, ...]:
    return tuple(stats.simulate(game, n, 0))


def report_of(game: str, records: Any, n_ref: int) -> stats.DealReport:
    observed, skipped, unreadable = stats.observe_records(game, records)
    assert (skipped, unreadable) == (0, 0)
    return stats.report(
        game, observed, reference(game, n_ref), simulated=n_ref, bot="random", seed=0
    )


# ---------------------------------------------------------------------- the tests' maths


def test_hypergeometric_law_matches_scipy() -> None:
    for pop, succ, draws in [(50, 2, 10), (51, 3, 8), (104, 4, 53), (104, 4, 14)]:
        for k in range(succ + 1):
            assert math.isclose(
                hypergeom_pmf(pop, succ, draws, k), sps.hypergeom.pmf(k, pop, succ, draws)
            )
    assert hypergeom_pmf(50, 2, 10, 3) == 0.0


def test_goodness_of_fit_is_pearsons_and_merges_small_categories() -> None:
    obs, p = [30, 50, 20], [0.3, 0.5, 0.2]
    assert chi2_goodness(obs, p).p_value == pytest.approx(1.0)
    obs = [40, 45, 15]
    ref = sps.chisquare(obs, [30, 50, 20])
    got = chi2_goodness(obs, p)
    assert got.statistic == pytest.approx(ref.statistic)
    assert got.p_value == pytest.approx(ref.pvalue)
    # a category expected 2 times of 100 is merged into its neighbour: one df fewer
    merged = chi2_goodness([60, 38, 2], [0.6, 0.38, 0.02])
    assert merged.dof == 1
    # the finite-population factor scales the statistic
    assert chi2_goodness(obs, p, scale=0.5).statistic == pytest.approx(2 * ref.statistic)


def test_an_impossible_category_observed_is_p_zero() -> None:
    got = chi2_goodness([99, 1], [1.0, 0.0])
    assert got.p_value == 0.0 and got.statistic == math.inf
    assert chi2_goodness([], []).p_value is None


def test_too_few_for_chi2_is_an_exact_test() -> None:
    # a rare category expected 0.01 times: the most expected one against the rest
    got = chi2_goodness([9, 1], [0.999, 0.001])
    assert got.method == "binomial"
    assert got.p_value == pytest.approx(sps.binomtest(1, 10, 0.001).pvalue)
    got = chi2_homogeneity([97, 3], [9997, 3])
    assert got.method == "fisher"
    assert got.p_value == pytest.approx(sps.fisher_exact([[97, 3], [9997, 3]]).pvalue)
    assert got.p_value is not None and got.p_value < 0.001
    assert chi2_homogeneity([10, 0], [10, 0]).p_value is None  # one category: no test


def test_homogeneity_is_a_two_row_contingency_test() -> None:
    got = chi2_homogeneity([30, 70], [400, 600])
    ref = sps.chi2_contingency([[30, 70], [400, 600]], correction=False)
    assert got.p_value == pytest.approx(ref.pvalue)
    assert chi2_homogeneity([0, 0], [5, 5]).p_value is None
    assert chi2_homogeneity([50, 50], [100, 0]).p_value is not None


# ---------------------------------------------------------------------- the places counted


def test_seons_places_are_the_cards_the_engine_deals_to_seon() -> None:
    from madang.matgo.cards import BIT
    from madang.matgo.engine import new_game

    for seed in range(20):
        g = new_game(seed=seed, dealer=seed % 2)
        assert sum(BIT[g.deck[i]] for i in SEON_PLACES) == g.hands[g.dealer]
        other = sum(BIT[g.deck[i]] for i in [4, 5, 6, 7, 8, 18, 19, 20, 21, 22])
        assert other == g.hands[1 - g.dealer]


def test_the_flower_places_are_the_tiles_the_engine_deals() -> None:
    from madang.mahjong.engine import new_hand
    from madang.stats.mahjong import observe_state

    for seed in range(30):
        st = new_hand(seed=seed, dealer=seed % 4)
        dealt = [0] * 4
        for e in st.deal_events:
            if e["type"] in ("deal", "draw") and not e.get("back"):
                tiles = e["tiles"] if e["type"] == "deal" else [e["tile"]]
                dealt[(e["seat"] - st.dealer) % 4] += sum(t.endswith("f") for t in tiles)
        by_seat = observe_state(st).values["flowers_by_seat"]
        assert isinstance(by_seat, tuple)
        assert list(by_seat[:4]) == dealt


# ---------------------------------------------------------------------- honest and biased


@pytest.mark.parametrize(("game", "n"), [("matgo", 400), ("mahjong", 150)])
def test_honest_deals_are_not_flagged(game: str, n: int) -> None:
    r = report_of(game, honest(game, n, 7), 300)
    assert r.games == n
    assert r.flagged == [], [s.to_dict() for s in r.statistics if s.flagged]
    tested = {s.source for s in r.statistics if s.test.p_value is not None}
    by = {s.name: s for s in r.statistics}
    if game == "matgo":
        assert tested == {"exact", "simulation", "self_play"}
        assert sum(by["months_to_seon"].observed) == 10 * n
        assert sum(by["bonus_to_seon"].observed) == n
    else:  # random play rarely wins a mahjong hand: the winners are too few to test
        assert "exact" in tested
        assert sum(by["flowers_by_seat"].observed) == 4 * n


def _swap(deck: list[str], i: int, j: int) -> None:
    deck[i], deck[j] = deck[j], deck[i]


SEON_PLACES = [9, 10, 11, 12, 13, 23, 24, 25, 26, 27]  # 선's ten cards in the deck


def _seon_gets_the_bonus(rec: dict[str, Any]) -> dict[str, Any]:
    """The record's deck with its bonus cards moved into 선's hand (no moves: a deal)."""
    rec = copy.deepcopy(rec)
    deck = rec["deck"]
    places = iter(SEON_PLACES)
    for i, code in enumerate(list(deck)):
        if code.startswith("b") and i not in SEON_PLACES:
            j = next(p for p in places if not deck[p].startswith("b"))
            _swap(deck, i, j)
    rec["moves"] = []
    return rec


def _seon_gets_a_chongtong(rec: dict[str, Any]) -> dict[str, Any]:
    """The record's deck with all four cards of January in 선's hand."""
    rec = copy.deepcopy(rec)
    deck = rec["deck"]
    places = iter(SEON_PLACES)
    for i, code in enumerate(list(deck)):
        if code.startswith("01") and i not in SEON_PLACES:
            j = next(p for p in places if not deck[p].startswith("01"))
            _swap(deck, i, j)
    rec["moves"] = []
    return rec


def test_seon_always_dealt_the_bonus_cards_is_flagged() -> None:
    recs = [_seon_gets_the_bonus(r) for r in honest("matgo", 100, 8)]
    r = report_of("matgo", recs, 100)
    assert {"bonus_to_seon", "bonus_to_other", "months_to_seon"} <= set(r.flagged)
    assert "bonus_on_floor" in r.flagged
    by = {s.name: s for s in r.statistics}
    assert by["bonus_to_seon"].observed[2] == 100
    # a deal only (no moves): the play's statistics count nothing
    assert by["winner"].games == 0 and by["winner"].test.p_value is None


def test_a_chongtong_in_every_deal_is_flagged_against_the_simulation() -> None:
    recs = [_seon_gets_a_chongtong(r) for r in honest("matgo", 60, 9)]
    r = report_of("matgo", recs, 300)
    assert "chongtong" in r.flagged
    # bonus cards are where the honest deal put them (only January's cards moved)
    assert "bonus_to_seon" not in r.flagged


def test_flowers_always_dealt_to_the_dealer_are_flagged() -> None:
    from madang.stats.mahjong import _deal_places

    dealer_places = _deal_places(0)
    recs = []
    for rec in honest("mahjong", 60, 10):
        rec = copy.deepcopy(rec)
        wall = rec["wall"]
        places = iter(dealer_places)
        for i, code in enumerate(list(wall)):
            if code.endswith("f") and i not in dealer_places:
                j = next(p for p in places if not wall[p].endswith("f"))
                _swap(wall, i, j)
        rec["moves"] = []
        recs.append(rec)
    r = report_of("mahjong", recs, 100)
    assert {"flowers_by_seat", "flowers_dealt", "flowers_to_dealer"} <= set(r.flagged)


def test_records_of_other_rules_are_skipped_and_bad_ones_refused() -> None:
    from madang.core.errors import RecordError
    from madang.core.registry import spec

    recs = list(honest("matgo", 5, 11))
    other = copy.deepcopy(recs[0])
    other["rules"] = spec("matgo").rules("classic").to_dict()
    rules = spec("matgo").rules("default").to_dict()
    obs, skipped, unreadable = stats.observe_records("matgo", [*recs, other], rules)
    assert (len(obs), skipped, unreadable) == (5, 1, 0)
    bad = copy.deepcopy(recs[0])
    bad["deck"] = bad["deck"][:-1]
    with pytest.raises(RecordError):
        stats.observe_records("matgo", [bad])
    assert stats.observe_records("matgo", [bad], strict=False)[2] == 1
    with pytest.raises(stats.StatsError):
        stats.features("go")


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_the_fast_random_play_is_the_random_bots_play(game: str) -> None:
    """``play_random`` (no views, no move strings) plays exactly the games of the
    ``random`` bot at every seat through the game contract."""
    from madang.arena import new_deal
    from madang.bots.base import Budget, make_bot, play

    bot = make_bot(game, "random")
    for ds in (1, 2, 3):
        fast, slow = new_deal(game, ds), new_deal(game, ds)
        n = fast.seats
        stats.features(game).play_random(fast, [random.Random(f"{ds}:{s}") for s in range(n)])
        play(slow, [bot] * n, [random.Random(f"{ds}:{s}") for s in range(n)], Budget(None, 1))
        assert fast.over and fast.record() == slow.record()


def test_the_simulated_expectation_is_reproducible() -> None:
    a = stats.report(
        "mahjong", [], stats.simulate("mahjong", 20, 3), simulated=20, bot="random", seed=3
    )
    b = stats.report(
        "mahjong", [], stats.simulate("mahjong", 20, 3), simulated=20, bot="random", seed=3
    )
    assert a == b


# ---------------------------------------------------------------------- the command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(["stats", "deals", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_command_on_simulated_games_prints_one_json_object(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, out, _ = run(
        capsys, "--simulate-only", "40", "--observed-seed", "5", "--simulate", "40", "--json"
    )
    assert rc == 0
    obj = json.loads(out)
    assert set(obj["games"]) == {"matgo", "mahjong"}
    assert obj["source"] == {"simulated": 40, "seed": 5}
    m = obj["games"]["matgo"]
    assert m["games"] == 40 and m["simulation"] == {"games": 40, "bot": "random", "seed": 0}
    st = {s["name"]: s for s in m["statistics"]}
    assert st["winner"]["reference"] is True and st["bonus_to_seon"]["source"] == "exact"
    rc, text, _ = run(capsys, "--simulate-only", "10", "--simulate", "10", "--game", "mahjong")
    assert rc == 0 and "flowers_by_seat" in text and "matgo" not in text


def test_command_on_record_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recs = honest("matgo", 12, 12)
    for i, r in enumerate(recs[:10]):
        (tmp_path / f"g{i}.json").write_text(json.dumps(r), encoding="utf-8")
    many = tmp_path / "more.list"
    many.write_text(json.dumps(list(recs[10:])), encoding="utf-8")
    rc, out, _ = run(
        capsys,
        "--records",
        str(tmp_path),
        str(many),
        "--game",
        "matgo",
        "--simulate",
        "20",
        "--json",
    )
    assert rc == 0
    assert json.loads(out)["games"]["matgo"]["games"] == 12


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--simulate", "0"], "--simulate must be at least 1"),
        (["--simulate-only", "0"], "--simulate-only must be at least 1"),
        (["--simulate-only", "3", "--bot", "nobody"], "no matgo bot 'nobody'"),
        (["--simulate-only", "3", "--preset", "nope"], "unknown"),
        (["--data", "/nonexistent/x"], "no database at"),
        (["--records", "/nonexistent/r.json"], "cannot read"),
    ],
)
def test_command_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_command_refuses_a_record_of_another_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "x.json"
    f.write_text(json.dumps({"game": "go"}), encoding="utf-8")
    rc, _, err = run(capsys, "--records", str(f))
    assert rc == 2 and "not a record of matgo or mahjong" in err
    bad = dict(honest("matgo", 1, 13)[0])
    del bad["deck"]
    f.write_text(json.dumps(bad), encoding="utf-8")
    rc, out, err = run(capsys, "--records", str(f), "--simulate", "5")
    assert rc == 2 and out == "" and "the record has no 'deck'" in err
