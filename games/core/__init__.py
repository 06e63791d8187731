"""The engine contract and the code every game shares (phases, pending decisions, grids, hexes, dice, RNG)."""
from .actions import Action, tokenize
from .contract import CommandSpec, Event, Game, OptionSpec, Result, Seat, Status
from .errors import AmbiguousAction, IllegalAction, MalformedAction, PlaypostError, RulesDataError
from .pending import Pending
from .phases import Phase, PhasedGame
from .registry import all_games, get_game, register
from .rng import Rng
from .seats import UniqueChoice

__all__ = [
    "Action", "AmbiguousAction", "CommandSpec", "Event", "Game", "IllegalAction", "MalformedAction",
    "OptionSpec", "Pending", "Phase", "PhasedGame", "PlaypostError", "Result", "Rng", "RulesDataError", "Seat",
    "Status", "UniqueChoice", "all_games", "get_game", "register", "tokenize",
]
