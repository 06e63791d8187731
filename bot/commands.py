"""The one definition of every command; Discord and the local console both derive from it.

`/game ...` and `/rules` are the platform's own; each registered game adds `/<game id> ...`
from its engine's `commands`, plus `preview` when its engine previews.
"""
from __future__ import annotations

from functools import cache

from games.core import CommandSpec, Game, OptionSpec, all_games

VOTE_KINDS = ("skip", "end", "computer")
COMPUTER_LEVELS = ("easy", "normal", "hard")
SEED_MAX = 2**63 - 1  # a seed is stored as a signed 64-bit integer
HOURS_MAX = 24 * 30  # deadlines and reminders: 1 hour to 30 days


def _game_new_options() -> tuple[OptionSpec, ...]:
    games = all_games()
    base: list[OptionSpec] = [
        OptionSpec(name="game", description="Which game to play", required=True, choices=tuple(sorted(games))),
        OptionSpec(name="seed", description="Seed for a reproducible game (dice, setup); announced to all",
                   kind="int", min=0, max=SEED_MAX),
        OptionSpec(name="thread", description="Open a thread for the game (default: yes where allowed)", kind="bool"),
        OptionSpec(name="deadline", description="Hours a player has for a turn (default 48)", kind="int",
                   min=1, max=HOURS_MAX),
    ]
    seen = {o.name for o in base}
    for engine in games.values():
        for opt in engine.options:
            if opt.name not in seen:
                seen.add(opt.name)
                # choices differ per game: offer them by autocomplete, check them in the engine
                base.append(opt.model_copy(update={"required": False, "choices": (),
                                                   "autocomplete": bool(opt.choices) or opt.autocomplete}))
    return tuple(base)


def _seat_options() -> tuple[OptionSpec, ...]:
    out: list[OptionSpec] = []
    seen: set[str] = set()
    for engine in all_games().values():
        for opt in engine.seat_options:
            if opt.name not in seen:
                seen.add(opt.name)
                out.append(opt.model_copy(update={"required": False, "choices": (), "autocomplete": True}))
    return tuple(out)


@cache
def game_group() -> tuple[CommandSpec, ...]:
    """`/game` subcommands, the same for every game."""
    return (
        CommandSpec(name="new", description="Open a new game in this channel", options=_game_new_options()),
        CommandSpec(name="join", description="Take a seat (options left out are assigned at start)",
                    options=_seat_options()),
        CommandSpec(name="leave", description="Give up your seat before the game starts"),
        CommandSpec(name="start", description="Start the game with the seated players (host)"),
        CommandSpec(name="status", description="Show the board, whose turn it is and the deadline"),
        CommandSpec(name="undo", description="Take back your last action this turn"),
        CommandSpec(name="abandon", description="End the game without a result (host or Manage Channel)"),
        CommandSpec(name="export", description="Download the game record as JSON"),
        CommandSpec(name="replay", description="The finished game as an animated image, one frame per turn"),
        CommandSpec(name="log", description="Show the latest moves", options=(
            OptionSpec(name="count", description="How many moves (default 15)", kind="int", min=1, max=50),)),
        CommandSpec(name="help", description="What you can do now, and the game's commands"),
        CommandSpec(name="hand", description="Your private information (only you see it)"),
        CommandSpec(name="history", description="Past games of this channel"),
        CommandSpec(name="settings", description="Change the turn deadline or reminders (host)", options=(
            OptionSpec(name="deadline", description="Hours a player has for a turn", kind="int", min=1,
                       max=HOURS_MAX),
            OptionSpec(name="reminder", description="Hours between reminders", kind="int", min=1, max=HOURS_MAX),)),
        CommandSpec(name="pause", description="Pause deadlines (vacation)"),
        CommandSpec(name="resume", description="Resume deadlines"),
        CommandSpec(name="kick", description="Remove a player from the lobby (host or Manage Channel)", options=(
            OptionSpec(name="player", description="Who to remove", required=True, kind="user"),)),
        CommandSpec(name="vote", description="After a missed deadline: skip the late player's turn, or end the game",
                    options=(OptionSpec(name="kind", description="skip the turn, a computer plays the late seat, "
                                        "or end the game", required=True, choices=VOTE_KINDS),)),
        CommandSpec(name="computer", description="Seat a computer player (host); in a running game, for a player "
                    "who left", options=(
                        OptionSpec(name="level", description="How well it plays (default normal)",
                                   choices=COMPUTER_LEVELS),
                        OptionSpec(name="player", description="Running game: whose seat it takes",
                                   autocomplete=True),
                        OptionSpec(name="hero", description="Lobby: the hero it plays (left out: assigned at start)",
                                   autocomplete=True),)),
        CommandSpec(name="takeover", description="Take back your seat from the computer playing it"),
        CommandSpec(name="rematch", description="Play the finished game again: same seats and options, a new seed"),
        preview_command(),
    )


def preview_command() -> CommandSpec:
    """`preview action:`: what an action would do, shown only to the caller (for games whose engine previews)."""
    return CommandSpec(name="preview", description="Only you see what an action would do; nothing changes", options=(
        OptionSpec(name="action", description='The action to try, e.g. "move to:C4"', required=True,
                   autocomplete=True),))


def previews(engine: Game) -> bool:
    """Whether the engine implements `Game.preview` (the base answers None: no previews)."""
    return type(engine).preview is not Game.preview


@cache
def rules_command() -> CommandSpec:
    return CommandSpec(name="rules", description="The rules, in short, without leaving Discord", options=(
        OptionSpec(name="game", description="Which game", required=True, choices=tuple(sorted(all_games()))),
        OptionSpec(name="topic", description="Which part of the rules", autocomplete=True),
    ))


def groups() -> dict[str, tuple[CommandSpec, ...]]:
    """Every slash-command group: 'game' plus one per registered game."""
    out: dict[str, tuple[CommandSpec, ...]] = {"game": game_group()}
    for gid, engine in sorted(all_games().items()):
        out[gid] = game_commands(engine)
    return out


def game_commands(engine: Game) -> tuple[CommandSpec, ...]:
    """`/<game id>` subcommands: the game's own, plus the platform's `preview` when the engine previews
    (unless the game declares its own)."""
    own = tuple(engine.commands)
    if previews(engine) and not any(c.name == "preview" for c in own):
        return (*own, preview_command())
    return own
