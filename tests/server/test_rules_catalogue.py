"""``GET /api/rules``: every registered game's options and presets as data, built from
the rules dataclasses; every value it offers is one ``POST /api/tables`` accepts, and a
table made with changes shows every option in force."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import register

from madang.core.errors import RuleConfigError
from madang.core.registry import games, spec


def _offered(option: dict[str, Any]) -> list[Any]:
    """The values the lobby's form offers for an option."""
    if option["type"] == "bool":
        return [False, True]
    if "values" in option:
        return list(option["values"])
    return [option["min"], option["min"] + 1, option["min"] + 7]


def _other(option: dict[str, Any], value: Any) -> Any:
    return next(v for v in _offered(option) if v != value)


def test_every_game_lists_its_options_and_presets(client: TestClient) -> None:
    got = client.get("/api/rules").json()["games"]
    assert list(got) == games()
    for game, cat in got.items():
        g = spec(game)
        assert list(cat["presets"]) == g.presets()
        assert cat["ruleset_version"] == g.ruleset_version
        names = [o["name"] for o in cat["options"]]
        for preset, values in cat["presets"].items():
            assert list(values) == names
            # the preset's values are its rules: read back, they give the same object
            assert g.rules(preset, values) == g.rules(preset)
        for option in cat["options"]:
            assert option["type"] in ("bool", "int", "enum", "str"), option
            for value in _offered(option):  # every offered value is valid ...
                rules = g.rules(g.presets()[0], {option["name"]: value})
                assert getattr(rules, option["name"]) is not None
            if option["type"] == "int" and "values" in option:  # ... and no other
                for bad in set(range(-1, 20)) - set(option["values"]):
                    with pytest.raises(RuleConfigError):
                        g.rules(g.presets()[0], {option["name"]: bad})
    mahjong = {o["name"]: o for o in got["mahjong"]["options"]}
    assert mahjong["min_pan"]["values"] == [0, 2, 3] and mahjong["pan_value"]["min"] == 1
    matgo = {o["name"]: o for o in got["matgo"]["options"]}
    assert matgo["first_dealer"] == {
        "name": "first_dealer",
        "type": "enum",
        "default": "high",
        "values": ["high", "night_low"],
    }
    assert mahjong["rounds"]["labels"] == ["동풍전", "동남전"]


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_a_table_with_every_option_changed_shows_them_in_force(
    client: TestClient, game: str
) -> None:
    register(client)
    cat = client.get("/api/rules").json()["games"][game]
    preset = list(cat["presets"])[-1]
    base = cat["presets"][preset]
    changes = {o["name"]: _other(o, base[o["name"]]) for o in cat["options"]}
    seats = [{"kind": "human"}] + [{"kind": "bot"}] * (spec(game).seats - 1)
    r = client.post(
        "/api/tables", json={"game": game, "preset": preset, "rules": changes, "seats": seats}
    )
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["preset"] == preset and table["rules"] == changes
    assert table["rules_in_force"] == {**base, **changes}
    listed = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert listed["rules_in_force"] == {**base, **changes}
