"""Errors an engine or the command layer raises; each carries what is legal instead."""
from __future__ import annotations


class PlaypostError(Exception):
    """A domain error whose message is safe to show to the player."""

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.hint = hint

    def __str__(self) -> str:  # pragma: no cover - trivial
        return f"{self.reason} {self.hint}".strip()


class IllegalAction(PlaypostError):
    """The action is well formed but not allowed now; hint names what is."""


class MalformedAction(PlaypostError):
    """The command text could not be read as an action."""


class AmbiguousAction(PlaypostError):
    """Several legal actions match what was written; hint lists them."""


class RulesDataError(ValueError):
    """A bundled or user-supplied rules data file failed validation."""
