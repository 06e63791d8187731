"""Before round 1: each player in turn seeds one token of their god's terrain until all are down."""
from __future__ import annotations

from games.core import Action, Event, Phase, Status
from games.core.actions import action_of

from ..rulebook import Rulebook, arg
from ..state import HeroballState
from ..turns import start_turn


class Seed(Phase[HeroballState]):
    name = "seed"

    def status(self, game: Rulebook, state: HeroballState) -> Status:
        act = game.active(state)
        return Status(phase="seed", round=state.round, to_act=[act.player],
                      waiting_for=f"{act.name} to place seed terrain", turn_key=f"t{state.turn_no}:{act.player}")

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        return [action_of("seed", to=lab) for lab in game.board.labels
                if not game.tile_hex(state, lab) and game.at(state, lab) is None]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s = state
        h = game.hero(s, player)
        to = arg(action, "to")
        s.terrain[to] = game.favoured(h)
        events.append(Event(text=f"{h.name} seeds {game.favoured(h)} terrain on {to}."))
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
            return f"{to} is part of {game.player_name(s, owner)}'s goal tile; seed terrain goes on an empty hex."
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
