"""The shape every game state shares (OpenSpiel's State, Pgx's step/observe).

Bots, the arena, the server and RL adapters are written against this protocol, so a
new game only has to provide it.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class GameState(Protocol):
    """A mutable game state: whole truth, stepped in place."""

    @property
    def over(self) -> bool:
        """Whether the game (or hand) has ended."""
        ...

    def legal_actions(self) -> list[int]:
        """The action ids legal now for whoever must answer; empty once over."""
        ...

    def default_action(self) -> int:
        """The answer taken when the player to act runs out of time."""
        ...

    def step(self, action: int | str) -> list[Any]:
        """Apply one action; illegal ones raise and change nothing."""
        ...

    def clone(self) -> Any:
        """An independent copy."""
        ...
