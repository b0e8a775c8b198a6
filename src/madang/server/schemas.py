"""The JSON schemas of the request bodies, for the OpenAPI document (``/openapi.json``).

The endpoints check their bodies themselves (each refusal has its own wire code, see
``docs/protocol.md``); these schemas only describe them, so that the document a client
or a fuzzer (schemathesis, in the tests) reads says what each endpoint takes.
"""

from __future__ import annotations

from typing import Any

_NAME = {"type": "string", "minLength": 3, "maxLength": 20}
_PASSWORD = {"type": "string", "minLength": 6, "maxLength": 200}

BODIES: dict[str, dict[str, Any]] = {
    "register": {
        "type": "object",
        "properties": {"username": _NAME, "password": _PASSWORD},
        "required": ["username", "password"],
    },
    "login": {
        "type": "object",
        "properties": {"username": {"type": "string", "maxLength": 40}, "password": _PASSWORD},
        "required": ["username", "password"],
    },
    "empty": {"type": "object"},
    "logout": {"type": "object", "properties": {"everywhere": {"type": "boolean"}}},
    "table": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "preset": {"type": "string"},
            "stake": {"type": "integer"},
            "private": {"type": "boolean"},
            "rules": {"type": "object"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "enum": ["human", "bot"]},
                        "level": {"type": "string"},
                    },
                    "required": ["kind"],
                },
            },
        },
        "required": ["game", "seats"],
    },
    "quick": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "preset": {"type": "string"},
            "stake": {"type": "integer"},
        },
        "required": ["game"],
    },
    "limit": {
        "type": "object",
        "properties": {
            "limit": {"type": "string", "enum": ["play_minutes", "loss"]},
            "value": {"type": ["integer", "null"], "minimum": 1},
        },
        "required": ["limit", "value"],
    },
    "exclude": {
        "type": "object",
        "properties": {"months": {"type": "integer", "enum": [3, 6, 12]}},
        "required": ["months"],
    },
    "join": {
        "type": "object",
        "properties": {
            "stake": {"type": "integer"},
            "seat": {"type": "integer"},
            "invite": {"type": "string"},
        },
        "required": ["stake"],
    },
}


def body(name: str) -> dict[str, Any]:
    """The ``openapi_extra`` of an endpoint whose JSON body is ``BODIES[name]`` (a table's
    ``game`` is one of the registered games)."""
    schema = BODIES[name]
    if name in ("table", "quick"):
        from madang.core.registry import games

        game = {"type": "string", "enum": games()}
        schema = {**schema, "properties": {**schema["properties"], "game": game}}
    return {
        "requestBody": {
            "required": name not in ("empty", "logout"),
            "content": {"application/json": {"schema": schema}},
        }
    }
