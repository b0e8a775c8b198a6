"""Typed errors shared by every game.

Each error carries a stable ``code`` that the command line and the server use as the
wire name of the failure.

>>> try:
...     raise IllegalActionError("not your turn")
... except RulesError as e:
...     print(e.code, e)
illegal_action not your turn
"""

from __future__ import annotations

from zipfile import BadZipFile

#: What ``numpy.load`` raises on a file that is not a readable ``.npz``: missing
#: (OSError), empty (EOFError), a broken zip, a pickle refused or a field that is not
#: one (ValueError), or a ``.npy`` array (no context manager: TypeError or
#: AttributeError). The loaders of saved models turn these into their typed errors.
UNREADABLE_NPZ = (OSError, ValueError, EOFError, BadZipFile, TypeError, AttributeError)


class MadangError(Exception):
    """Base class of every error raised on purpose by madang."""

    code = "error"


class RulesError(MadangError):
    """A problem with the rules: an action, a configuration or a record."""

    code = "rules_error"


class InvalidActionError(RulesError):
    """An action that is malformed: it cannot be parsed or names no real card or tile."""

    code = "invalid_action"


class IllegalActionError(RulesError):
    """A well-formed action that is not legal in the current state."""

    code = "illegal_action"


class RuleConfigError(RulesError):
    """An unknown, malformed or contradictory rules option."""

    code = "rule_config"


class RecordError(MadangError):
    """A game record (or calculator input) that is malformed or inconsistent."""

    code = "bad_record"

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class FairnessError(RecordError):
    """Fairness data (``docs/fairness.md``) that is malformed or incomplete: a seed that
    is not 32 bytes of hex, a commitment that is not a SHA-256, entropy that is not one
    string per seat, a record with no fairness data or whose seed is not revealed yet."""

    code = "bad_fairness"


class VerificationError(FairnessError):
    """Well-formed fairness data that does not verify: the revealed seed does not open
    the commitment, or the deal it gives is not the record's deal."""

    code = "not_verified"
