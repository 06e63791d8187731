"""Before round 1: each player in turn seeds one token of their god's terrain until all are down."""
from __future__ import annotations

from games.core import Action, Event, Phase, Status
from games.core.actions import action_of
from games.core.words import possessive, says

from ..rulebook import Rulebook, arg
from ..state import HeroballState
from ..turns import start_turn

SEED_BUTTON_REACH = 2
SEED_BUTTONS = 15


def seed_rules(game: Rulebook, state: HeroballState) -> str:
    """What the seed phase allows, said when the game starts."""
    b = game.board
    pillars = ", ".join(sorted(b.pillars, key=b.labels.index))
    goals = ", ".join(g for h in state.heroes for g in b.goal(h.corner))
    each = state.seeds_left // max(1, len(state.heroes))
    return (f"Before round 1 each player in turn places a token of their god's terrain, {each} each "
            f"({state.seeds_left} in all): on any empty hex but the pillars ({pillars}), the centre post "
            f"{b.centre} and the goal tiles ({goals}), and never under a hero. `/heroball seed to:HEX`, or a "
            "button for the hexes near your hero.")


class Seed(Phase[HeroballState]):
    name = "seed"

    def status(self, game: Rulebook, state: HeroballState) -> Status:
        act = game.active(state)
        left = f"{state.seeds_left} token{'s' if state.seeds_left != 1 else ''} left in all"
        return Status(phase="seed", round=state.round, to_act=[act.player],
                      waiting_for=f"{act.name} to place {game.favoured(act)} seed terrain ({left})",
                      turn_key=f"t{state.turn_no}:{act.player}")

    def buttons(self, game: Rulebook, state: HeroballState, player: str, legal: list[Action]) -> list[Action]:
        """The free hexes within 2 of your hero as buttons (terrain you favour near your start); every other
        free hex stays with `/heroball seed to:` and its autocomplete."""
        pos = game.hero(state, player).pos
        near = [a for a in legal if a.cmd == "seed" and game.board.dist(pos, arg(a, "to")) <= SEED_BUTTON_REACH]
        return near[:SEED_BUTTONS]

    def label(self, game: Rulebook, state: HeroballState, action: Action) -> str | None:
        h = game.active(state)
        return f"Seed {game.favoured(h)} → {arg(action, 'to')}" if action.cmd == "seed" else None

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        """Every free hex, nearest to the player's hero first (so a refusal's list and the autocomplete start
        where the player is looking)."""
        b = game.board
        pos = game.hero(state, player).pos
        free = game.free_tile_hexes(state)
        return [action_of("seed", to=lab) for lab in sorted(free, key=lambda lab: b.dist(pos, lab))]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s = state
        h = game.hero(s, player)
        to = arg(action, "to")
        s.terrain[to] = game.favoured(h)
        events.append(Event(text=f"{says(h.name, 'seeds')} {game.favoured(h)} terrain on {to}."))
        s.seeds_left -= 1
        s.turn_no += 1
        s.active = (s.active + 1) % len(s.heroes)
        if s.seeds_left == 0:
            s.phase = "play"
            s.round = 1
            s.active = 0
            events.append(Event(text="Seed terrain is down. Round 1 begins.", kind="round"))
            start_turn(game, s, events)

    def explain(self, game: Rulebook, state: HeroballState, player: str, action: Action) -> str:
        s, b = state, game.board
        if action.cmd != "seed":
            return "Setup first: place your seed terrain with `seed to:HEX`."
        to = action.get("to")
        if to is None:
            return "Say where: `seed to:HEX`."
        if to in b.pillars:
            return f"{to} holds a Pillar of Heaven; seed terrain goes on an empty hex."
        if to == b.centre:
            return f"{to} is the centre post; seed terrain goes on an empty hex."
        owner = game.goal_owner(s).get(to)
        if owner is not None:
            return (f"{to} is part of {possessive(game.player_name(s, owner))} goal tile; "
                    "seed terrain goes on an empty hex.")
        if to in s.terrain:
            return f"{to} already has {s.terrain[to]} terrain."
        occ = game.at(s, to)
        if occ is not None:
            return f"{game.who(occ)} stands on {to}; seed terrain never goes under a hero."
        return ""

    def skip(self, game: Rulebook, state: HeroballState, player: str) -> Action | None:
        """A skipped seed turn puts the token on the free hex farthest from every hero (lowest label on
        ties), so setup never gets stuck."""
        b = game.board
        seeds = self.legal(game, state, player) if player == game.active(state).player else []
        if not seeds:
            return None
        return max(seeds, key=lambda a: (min(b.dist(arg(a, "to"), h.pos) for h in state.heroes),
                                         -b.labels.index(arg(a, "to"))))
