"""SDE-S dungeon crawl: the engine the framework talks to, as a table of phases.

The rules live in the phases (`phases/`) and the mechanism modules they call (`combat`, `monsters`,
`levels`, `turns`, `hero_actions`, `loot`, `sight`, `stats`, `dice`); this file holds the lobby, the
setup, the spelling a player may use for an action, and what the framework reads (view, summary, rules).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from games.core import Action, Event, IllegalAction, PhasedGame, Rng, Seat, UniqueChoice
from games.core.grid import DIRS8, parse_label
from games.core.grid import label as sq_label
from games.core.play import public_rng

from .board import board
from .commands import COMMANDS, DIFFICULTIES, OPTIONS, SEAT_OPTIONS
from .data import card_id, content, hero_id
from .levels import open_level, start_note
from .maps import RANDOM, dungeon_def, dungeon_ids, random_id
from .phases.activation import ActivationPhase
from .phases.attack import AttackPhase, reroll_dice
from .phases.heroes import ChooseHeroPhase, idle_reason
from .phases.intermission import IntermissionPhase
from .phases.over import OverPhase
from .rules_text import RULES_TOPICS, model_topics
from .sight import key_at, target_label
from .state import Difficulty, DungeonState, HeroState, LevelState
from .stats import hero
from .view import DungeonView, build_view, summary

HERO_CHOICE = UniqueChoice(option="hero", values=lambda: [(hid, hd.name) for hid, hd in content().heroes.items()],
                           resolve=hero_id)


class DungeonGame(PhasedGame[DungeonState]):
    id = "dungeon"
    name = "SDE-S Dungeon"
    min_seats = 1
    max_seats = 6
    multi_seat = True
    logs_details = True  # the monsters' reactions: compact for the table, in full in `/game log`
    state_model = DungeonState
    options = OPTIONS
    seat_options = SEAT_OPTIONS
    commands = COMMANDS
    phases = {p.name: p for p in (ChooseHeroPhase(), ActivationPhase(), AttackPhase(), IntermissionPhase(),
                                  OverPhase())}

    def phase_of(self, state: DungeonState) -> str:
        """`state.phase` names the stretch of the game; inside `heroes`, the activation and its attack tell more."""
        if state.phase != "heroes":
            return state.phase
        if state.activation is None:
            return "heroes"
        if state.attack is not None and state.attack.stage:
            return "attack"
        return "activation"

    # ---- lobby -------------------------------------------------------------------
    def check_options(self, options: dict[str, str]) -> None:
        d = options.get("dungeon")
        if d is not None and d not in dungeon_ids():
            raise IllegalAction(f"There is no dungeon called `{d}`.",
                                "Dungeons: " + ", ".join(dungeon_ids()) + ".")
        level = options.get("difficulty")
        if level not in (None, "") and level not in DIFFICULTIES:
            raise IllegalAction(f"`{level}` is not a difficulty.", "Difficulties: " + ", ".join(DIFFICULTIES) + ".")
        limit = options.get("turn_limit")
        if limit not in (None, "") and not (str(limit).isdigit() and 1 <= int(limit) <= 999):
            raise IllegalAction(f"`{limit}` is not a turn limit.",
                                "Give a number of game turns from 1 to 999, or leave it out for no limit.")

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        if len(seats) >= self.max_seats:
            raise IllegalAction("Six heroes are already in the party.", "Wait for the next game.")
        want = new.choices.get("hero")
        if want is None:
            return
        hid = hero_id(want)
        taken = HERO_CHOICE.taken(seats)
        free = HERO_CHOICE.free(seats)
        if hid is None:
            raise IllegalAction(f"There is no hero called `{want}`.", "Heroes: " + ", ".join(free) + ".")
        if hid in taken:
            raise IllegalAction(f"{content().heroes[hid].name} is already in the party.",
                                "Free: " + ", ".join(free) + ".")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        return HERO_CHOICE.free(seats) if option == "hero" else []

    # ---- setup ---------------------------------------------------------------------
    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> DungeonState:
        if not 1 <= len(seats) <= self.max_seats:
            raise IllegalAction("A dungeon party has 1 to 6 heroes.", "Join with `/game join`.")
        dungeon_id = options.get("dungeon") or next(iter(content().dungeons))
        difficulty = options.get("difficulty") or "normal"
        self.check_options({"dungeon": dungeon_id, "turn_limit": options.get("turn_limit") or "",
                            "difficulty": difficulty})
        rng = Rng(seed=seed)
        if dungeon_id == RANDOM:  # the layout follows from the seed, like the dice
            dungeon_id = random_id(rng)
        b = board(dungeon_id)
        chosen = [hero_id(s.choices["hero"]) if s.choices.get("hero") else None for s in seats]
        free = [h for h in content().heroes if h not in chosen]
        heroes: list[HeroState] = []
        for i, (seat, hid) in enumerate(zip(seats, chosen, strict=True)):
            if hid is None:
                hid = free.pop(rng.below(len(free)))
            hd = content().heroes[hid]
            x, y = b.start[i]
            heroes.append(HeroState(id=hid, player=seat.player, name=seat.name, seat=i, x=x, y=y, potions=hd.potions))
        dd = dungeon_def(dungeon_id)
        levels = [LevelState(pool=list(lv.pool)) for lv in dd.levels]
        loot = [c.id for c in content().cards.values() if c.deck == "loot"]
        treasure = [c.id for c in content().cards.values() if c.deck == "treasure"]
        rng.shuffle(loot)
        rng.shuffle(treasure)
        st = DungeonState(dungeon=dungeon_id, rng=rng, heroes=heroes, levels=levels, loot_deck=loot,
                          treasure_deck=treasure, turn_limit=int(options.get("turn_limit") or 0),
                          difficulty=cast(Difficulty, difficulty))
        lines: list[str] = []
        open_level(st, 0, lines, breather=False)
        return st

    # ---- what a player may write -----------------------------------------------------------
    def canonical(self, state: DungeonState, player: str, action: Action) -> Action:
        """Hero names for ids, a hero's square for a heal, card names for ids, a path of directions for a square."""
        st = state
        args = action.argdict
        changed = False
        if "hero" in args:
            hid = hero_id(args["hero"])
            if hid:
                changed |= hid != args["hero"]
                args["hero"] = hid
        if action.cmd in ("attack", "act") and "target" in args:
            t = args["target"]
            hid = hero_id(t)
            if hid and action.cmd == "act":
                args["target"] = hid
            elif parse_label(t):
                key = key_at(st, t)
                hero_there = next((h.id for h in st.heroes if (h.x, h.y) == parse_label(t)), None)
                if key:
                    args["target"] = target_label(st, key)
                elif hero_there and action.cmd == "act":
                    args["target"] = hero_there  # a heal aimed at the square a hero stands on
                else:
                    args["target"] = t.upper()
            changed = True
        if action.cmd in ("equip", "drop") and "card" in args:
            cid = card_id(args["card"])
            if cid is not None:
                args["card"] = cid
                changed = True
        if action.cmd == "move":
            if "to" in args:
                args["to"] = args["to"].upper()
                changed = True
            if "path" in args and st.activation is not None:
                h = hero(st, st.activation.hero)
                x, y = h.x, h.y
                for step in args["path"].replace(",", " ").split():
                    d = DIRS8.get(step.upper())
                    if d is None:
                        return action
                    x, y = x + d[0], y + d[1]
                dest = sq_label(x, y)
                if "to" in args and args["to"] != dest:
                    return action
                args = {"to": dest}
                changed = True
        if action.cmd == "reroll" and "also" in args:  # several dice at once, written in any order
            picked = reroll_dice(args)
            if picked and len(picked) == len(args["also"].replace(",", " ").split()) + 1:
                args = {"die": str(picked[0] + 1), **({"also": " ".join(str(i + 1) for i in picked[1:])}
                                                   if len(picked) > 1 else {})}
                changed = True
        if action.cmd in ("act",) and "action" in args:
            args["action"] = args["action"].lower().replace("-", "_").replace(" ", "_")
            changed = True
        return Action.of(action.cmd, **args) if changed else action

    def preview(self, state: DungeonState, player: str, action: Action) -> tuple[DungeonState, list[Event]] | None:
        """The action played on what the player may know: the platform `redact`s first; redacting again here
        (stand-in dice, decks re-dealt) keeps a direct call as safe."""
        return self.apply(self.redact(state, player, public_rng(self, state, player, action)), player, action)

    def redact(self, state: DungeonState, player: str, rng: Rng) -> DungeonState:
        """Stand-in dice, and the face-down decks in an order drawn anew from what is known: the loot deck's
        cards, the treasure deck's together with what a Boo Booty carries (sorted first, so the sample owes
        nothing to the real order)."""
        out = super().redact(state, player, rng)
        loot = sorted(out.loot_deck)
        rng.shuffle(loot)
        unseen = sorted(out.treasure_deck + out.booty_cards)
        rng.shuffle(unseen)
        out.loot_deck = loot
        out.booty_cards, out.treasure_deck = unseen[:len(out.booty_cards)], unseen[len(out.booty_cards):]
        return out

    def hidden_digest(self, state: DungeonState) -> str:
        """The face-down decks and what a Boo Booty carries: drawing or setting one aside reveals something."""
        return "|".join(",".join(part) for part in self.hidden_parts(state))

    @staticmethod
    def hidden_parts(state: DungeonState) -> tuple[tuple[str, ...], ...]:
        """What `hidden_digest` joins, as tuples: equal just when the digests are (no card id holds a separator),
        compared before and after every action without joining the names."""
        return tuple(state.loot_deck), tuple(state.treasure_deck), tuple(state.booty_cards)

    def value_label(self, state: DungeonState, player: str, command: str, option: str, value: str) -> str:
        """Attack targets in autocomplete show who stands there and the dice each attack rolls."""
        if command != "attack" or option != "target":
            return value
        ways = [self.label(state, a) for a in self.legal_actions(state, player)
                if a.cmd == "attack" and a.get("target") == value]
        return f"{value}: " + " / ".join(ways) if ways else value

    # ---- views and summary ------------------------------------------------------------------------------
    def view(self, state: DungeonState, player: str | None) -> DungeonView:
        return build_view(state, self.status(state))

    def summary(self, state: DungeonState) -> dict[str, Any]:
        return summary(state)

    def idle_reason(self, state: DungeonState, player: str) -> str:
        return idle_reason(state, player)

    def intro(self, state: DungeonState) -> str:
        """A built dungeon and a difficulty other than normal are said as the game starts."""
        return start_note(state)

    def rules_topics(self) -> dict[str, str]:
        return {**RULES_TOPICS, **model_topics()}
