"""Small grammar helpers for what the games and the bot say about players.

A player's display name can be "you" (the local console's player is called that), so a possessive is
"your", not "you's"; a count of one takes the singular.
"""
from __future__ import annotations


def possessive(name: str) -> str:
    """ "Ann" -> "Ann's", "you" -> "your", "You" -> "Your", "Charles" -> "Charles's"."""
    if name.casefold() == "you":
        return "Your" if name[:1].isupper() else "your"
    return f"{name}'s"


def plural(n: int, word: str, many: str | None = None) -> str:
    """ "1 action", "2 actions"; `many` for an irregular plural ("1 die", "2 dice")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
