"""Small grammar helpers for what the games and the bot say about players.

A player's display name can be "you" (the local console's player is called that), so a possessive is
"your", not "you's", and a verb agrees with it ("you take back", not "you takes back"); a count of one
takes the singular.
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


_IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}


def says(name: str, verb: str) -> str:
    """A player doing something, the verb agreeing with the name: ("Ann", "takes") -> "Ann takes", ("you", "takes")
    -> "you take", ("you", "is seated") -> "you are seated". `verb` is the third-person form, its first word the
    verb."""
    if name.casefold() != "you":
        return f"{name} {verb}"
    head, _, rest = verb.partition(" ")
    if head in _IRREGULAR:
        base = _IRREGULAR[head]
    elif head.endswith("ies") and len(head) > 4:
        base = head[:-3] + "y"
    elif head.endswith(("sses", "shes", "ches", "xes", "zes")):
        base = head[:-2]
    elif head.endswith("s") and not head.endswith("ss"):
        base = head[:-1]
    else:
        base = head
    return f"{name} {base}" + (f" {rest}" if rest else "")


def agrees(name: str, verb: str) -> str:
    """Only the verb of `says`, for a second verb with the same subject: ("you", "wins") -> "win" in "you reach
    the marker and win"."""
    return says(name, verb)[len(name) + 1:]
