"""The engine contract and the code every game shares (grids, hexes, dice, RNG)."""
from .actions import Action, tokenize
from .contract import CommandSpec, Event, Game, OptionSpec, Result, Seat, Status
from .errors import AmbiguousAction, IllegalAction, MalformedAction, PlaypostError, RulesDataError
from .registry import all_games, get_game, register
from .rng import Rng

__all__ = [
    "Action", "AmbiguousAction", "CommandSpec", "Event", "Game", "IllegalAction", "MalformedAction",
    "OptionSpec", "PlaypostError", "Result", "Rng", "RulesDataError", "Seat", "Status",
    "all_games", "get_game", "register", "tokenize",
]
