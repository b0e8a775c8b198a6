"""Play against the bots in a terminal: ``madang play matgo`` / ``madang play mahjong``."""
