"""Server settings: one frozen dataclass, filled by ``madang serve`` or by tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def default_database_url(data_dir: str | Path) -> str:
    """The SQLite database of a data folder (``DATA/madang.sqlite3``)."""
    return f"sqlite:///{Path(data_dir).resolve() / 'madang.sqlite3'}"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything the app needs to know; the defaults are those of ``madang serve``."""

    database_url: str = ""
    """SQLAlchemy URL; ``postgresql://`` uses psycopg 3. Empty: SQLite in ``data_dir``."""
    data_dir: str = "data"
    """Folder of the SQLite database (made if missing)."""
    web_dir: Path = WEB_DIR
    """The client's static files (``index.html`` is served at ``/``)."""
    turn_seconds: float = 20.0
    """Time to answer one question; then the engine's default answer is played."""
    grace_seconds: float = 15.0
    """How long a disconnected seat waits before a bot answers for it."""
    next_game_seconds: float = 60.0
    """Pause between the games of a table (cut short when every person is ready)."""
    bot_delay: float = 0.6
    """A bot's pause before it answers (so that people can follow); 0 in tests."""
    bot_budget_s: float = 0.1
    """Thinking time of a searching bot per decision."""
    max_message: int = 4096
    """Largest WebSocket message accepted (bytes)."""
    rate_per_s: float = 20.0
    """Messages per second per connection (token bucket) …"""
    rate_burst: float = 40.0
    """… and its burst size."""
    history: int = 200
    """Updates kept per stream for reconnecting clients (older: a snapshot)."""
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    login_failures: int = 5
    """Failed logins per name or address within ``login_window_s`` before a block."""
    login_window_s: float = 300.0
    secure_cookie: bool = False
    """Mark the session cookie ``Secure`` (behind HTTPS)."""
    stakes: tuple[int, ...] = field(default=(1, 10, 100, 1000))
    deal_seed: int | None = None
    """Deal table ``N``'s games from seed ``deal_seed + N`` (reproducible deals, for tests
    and demonstrations; never on a public server). None: an unpredictable seed per table."""

    def url(self) -> str:
        """The database URL in force."""
        return self.database_url or default_database_url(self.data_dir)
