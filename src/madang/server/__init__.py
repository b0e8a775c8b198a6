"""The game server: one ASGI app (FastAPI) serving the browser client, the JSON API and
a WebSocket per table; storage through SQLAlchemy with Alembic migrations.

The pieces: :mod:`~madang.server.config` (settings), :mod:`~madang.server.db` (schema,
engines, migrations), :mod:`~madang.server.store` (every query), :mod:`~madang.server.auth`
(passwords, sessions, login throttling), :mod:`~madang.server.ratings` (Glicko-2 and the
placement rating), :mod:`~madang.server.games` (one adapter per game over the engines),
:mod:`~madang.server.room` (the room actor: the only writer of a table's game),
:mod:`~madang.server.wire` (wire error codes and message checks) and
:mod:`~madang.server.app` (the HTTP and WebSocket endpoints). See ``docs/protocol.md``.
"""
