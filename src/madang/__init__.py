"""Madang (마당): rules engines, scoring and play for Matgo and Korean mahjong."""

from madang.core.errors import (
    IllegalActionError,
    InvalidActionError,
    MadangError,
    RecordError,
    RuleConfigError,
    RulesError,
)

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "MadangError",
    "RecordError",
    "RuleConfigError",
    "RulesError",
]
__version__ = "0.1.0"
