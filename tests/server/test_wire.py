"""Client message checks and the mapping of engine errors to wire codes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from madang.core import errors as E
from madang.server.room import dumps
from madang.server.wire import STATUS, WireError, parse_client_message, wire_error


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (E.InvalidActionError("x"), "invalid_action"),
        (E.IllegalActionError("x"), "illegal_action"),
        (E.RuleConfigError("x"), "rule_config"),
        (E.RecordError("x"), "bad_record"),
        (E.RulesError("x"), "rules_error"),
        (E.MadangError("x"), "bad_request"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_engine_errors_map_to_codes(error: E.MadangError, code: str) -> None:
    w = wire_error(error)
    assert w.code == code and w.status == STATUS[code]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        "42",
        "{",
        '{"type": "fly"}',
        '{"type": "act"}',
        '{"type": "act", "version": 1}',
        '{"type": "act", "version": 1.5, "action": "go"}',
        '{"type": "act", "version": true, "action": "go"}',
        '{"type": "act", "version": 1, "action": ""}',
        '{"type": "act", "version": 1, "action": 7}',
        '{"type": "act", "version": 1, "action": "go", "ref": -1}',
        '{"type": "hello", "last_version": "3"}',
        "[" * 5000 + "]" * 5000,
    ],
    ids=[
        "empty",
        "null",
        "list",
        "number",
        "truncated",
        "unknown-type",
        "act-no-version",
        "act-no-action",
        "float-version",
        "bool-version",
        "empty-action",
        "int-action",
        "negative-ref",
        "string-last-version",
        "deep-nesting",
    ],
)
def test_malformed_messages_are_bad_request(text: str) -> None:
    with pytest.raises(WireError) as e:
        parse_client_message(text)
    assert e.value.code == "bad_request"


def test_good_messages_parse() -> None:
    assert parse_client_message('{"type": "hello", "last_version": null}')["last_version"] is None
    m = parse_client_message('{"type": "act", "version": 0, "action": "play 01a", "ref": 3}')
    assert (m["version"], m["action"], m["ref"]) == (0, "play 01a", 3)


def test_unknown_wire_code_is_refused() -> None:
    with pytest.raises(ValueError):
        WireError("nope", "x")


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.integers(-99, 99), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(_json_values)
def test_wire_json_reads_back_as_the_standard_library_writes_it(obj: object) -> None:
    """The fast encoder of the room (orjson when installed) means what json.dumps means:
    the text parses to the same value (int keys become strings, as json.dumps does)."""
    text = dumps(obj)
    assert json.loads(text) == json.loads(json.dumps(obj))


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ({"type": "seats", "you": "민수"}, '{"type":"seats","you":"민수"}'),
        ({3: [1, 2.5, None, True]}, '{"3":[1,2.5,null,true]}'),
        ((1, 2), "[1,2]"),
    ],
    ids=["hangul-unescaped", "int-key", "tuple"],
)
def test_wire_json_is_compact(obj: object, text: str) -> None:
    assert dumps(obj) == text
