"""The template game (`count`): the small, complete game a new game copies (see README.md).

The leading underscore keeps it out of the registry's discovery, so it never ships as a
playable game; the tests register `ENGINE` themselves and run the shared conformance test
over it like any other game.
"""
from .engine import CountGame

ENGINE = CountGame()

__all__ = ["ENGINE", "CountGame"]
