"""Heroball: an action-point sports game on a hex field; reactions happen on other players' turns.

The engine is the phase table and the lobby. What each phase allows, does and says lives in
`phases/`; the rule mechanisms they share are `movement`, `attacks`, `objects`, `flights`,
`heroes` and `turns`; `rulebook` answers the questions they ask. See README.md.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import Action, Event, IllegalAction, Phase, PhasedGame, Rng, Seat, UniqueChoice
from games.core.actions import action_of
from games.core.words import says

from .commands import ANYTIME, COMMANDS, OPTIONS, REACTION_HOURS, REPLIES
from .commands import seat_options as seat_options_for
from .data import rules, topics
from .phases import Defend, Distract, Distracted, Intercept, Over, Seed, Turn
from .phases.action import turn_label
from .phases.seed import seed_rules
from .rulebook import MOVES, Rulebook
from .state import ORDER_VALUES, HeroballState, HeroState, ObjectState, default_orders
from .view import HeroballView, build_view, summary

ORDER_KEYS = ("defend", "intercept", "distract")
SHOW_ORDERS = "show"  # the argument `canonical` gives a bare `reactions`: what is set now (see `orders_reason`)
BUNDLED = rules()


class Heroball(Rulebook, PhasedGame[HeroballState]):
    id = "heroball"
    name = "Heroball"
    min_seats = 2
    max_seats = 4
    rules_version = 1
    state_model = HeroballState
    commands = COMMANDS
    options = OPTIONS
    seat_options = seat_options_for(BUNDLED)
    anytime_commands = ANYTIME
    phases: ClassVar[Mapping[str, Phase[Any]]] = {
        "seed": Seed(), "action": Turn(), "over": Over(),
        "defend": Defend(), "intercept": Intercept(), "distract": Distract(), "distracted": Distracted(),
    }

    def __init__(self) -> None:
        super().__init__(BUNDLED)  # the seat options above are built from the same bundled rules
        self._orders: dict[tuple[bool, tuple[str | None, ...]], tuple[Action, ...]] = {}  # order changes, by orders
        self.hero_choice = UniqueChoice("hero", lambda: ((h.name, h.name) for h in self.rules.heroes), self._hero_id)
        self.god_choice = UniqueChoice("god", lambda: ((g, g) for g in self.rules.playable_gods), self._god_id)

    def phase_of(self, state: HeroballState) -> str:
        """`over`, an open reaction window's kind, `seed`, or `action` (the stored phase `play`)."""
        if state.phase == "over":
            return "over"
        if state.window is not None:
            return state.window.kind
        return "seed" if state.phase == "seed" else "action"

    # ---- lobby -------------------------------------------------------------------------------
    def _hero_id(self, text: str) -> str | None:
        try:
            return self.rules.hero(text).name
        except KeyError:
            return None

    def _god_id(self, text: str) -> str | None:
        try:
            return self.rules.god(text).name
        except KeyError:
            return None

    def check_options(self, options: dict[str, str]) -> None:
        raw = options.get(REACTION_HOURS.name, "12")
        if not raw.isdigit() or not 1 <= int(raw) <= 168:
            raise IllegalAction("`reaction_hours` must be a whole number of hours from 1 to 168.",
                                "Example: `reaction_hours:12`.")

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        others = [s for s in seats if s.player != new.player]
        if len(others) >= self.max_seats:
            raise IllegalAction("Heroball seats at most 4 players.", "Watch this game or start another.")
        hero = new.choices.get("hero")
        if hero:
            name = self._hero_id(hero)
            if name is None:
                all_heroes = ", ".join(x.name for x in self.rules.heroes)
                raise IllegalAction(f"There is no hero called {hero}.", f"Heroes: {all_heroes}.")
            if name in self.hero_choice.taken(others):
                free = ", ".join(self.hero_choice.free(others))
                raise IllegalAction(f"{name} is already taken.", f"Still free: {free}.")
        god = new.choices.get("god")
        if god:
            playable = ", ".join(self.rules.playable_gods)
            try:
                g = self.rules.god(god)
            except KeyError:
                raise IllegalAction(f"There is no god called {god}.", f"Gods: {playable}.") from None
            if g.excluded:
                raise IllegalAction(g.excluded, f"Pick one of: {playable}.")
            if g.name in self.god_choice.taken(others):
                free = ", ".join(self.god_choice.free(others))
                raise IllegalAction(f"{g.name} is already someone's god.", f"Still free: {free}.")
        for key in ("defend", "intercept"):
            v = new.choices.get(key)
            if v and v not in ORDER_VALUES:
                raise IllegalAction(f"`{key}:{v}` is not a standing order.", "Use ask, always or never.")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option == "hero":
            return self.hero_choice.free(seats)
        if option == "god":
            return self.god_choice.free(seats)
        return super().seat_choices(options, seats, option)

    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> HeroballState:
        n = len(seats)
        if not self.min_seats <= n <= self.max_seats:
            raise IllegalAction("Heroball needs 2 to 4 players.", "Wait for more players to join.")
        rng = Rng(seed=seed)
        hv = self.rules.house
        heroes_taken = {self.rules.hero(s.choices["hero"]).name for s in seats if s.choices.get("hero")}
        gods_taken = {self.rules.god(s.choices["god"]).name for s in seats if s.choices.get("god")}
        corners = hv.start_corners[str(n)]
        heroes: list[HeroState] = []
        objects: dict[str, ObjectState] = {"ball": ObjectState(at=self.board.centre)}
        for i, s in enumerate(seats):
            if s.choices.get("hero"):
                hero = self.rules.hero(s.choices["hero"]).name
            else:
                hero = rng.choice([h.name for h in self.rules.heroes if h.name not in heroes_taken])
                heroes_taken.add(hero)
            if s.choices.get("god"):
                god = self.rules.god(s.choices["god"]).name
            else:
                god = rng.choice([g for g in self.rules.playable_gods if g not in gods_taken])
                gods_taken.add(god)
            orders = default_orders()
            for key in ("defend", "intercept"):
                if s.choices.get(key) in ORDER_VALUES:
                    orders[key] = s.choices[key]
            h = HeroState(player=s.player, name=s.name, hero=hero, god=god, seat=i, corner=corners[i],
                          pos=self.board.corner[corners[i]], ap=hv.start_ap, orders=orders)
            for obj in self.rules.hero(hero).objects:
                objects[obj] = ObjectState(holder=s.player)
                h.holding = obj
            heroes.append(h)
        return HeroballState(heroes=heroes, objects=objects, phase="seed", round=0, active=0, turn_no=1,
                             seeds_left=hv.seed_tokens * n, rng=rng)

    # ---- what every phase shares: standing orders, refusals, labels, buttons ----------------
    def is_seated(self, state: HeroballState, player: str) -> bool:
        return any(h.player == player for h in state.heroes)

    def legal_actions(self, state: HeroballState, player: str) -> list[Action]:
        """As `PhasedGame.legal_actions`; in the action phase (most calls) only the active player acts, which
        is known without building its status."""
        if self.phase_of(state) != "action":
            return super().legal_actions(state, player)
        if not self.is_seated(state, player):
            return []
        out = self.phases["action"].legal(self, state, player) if player == self.active(state).player else []
        return out + self.common_actions(state, player)

    def common_actions(self, state: HeroballState, player: str) -> list[Action]:
        """Standing orders (`reactions`): one or several at once, each key named set to a value other than now
        (keys in `ORDER_KEYS` order, as `canonical` writes them); distract only for Helen."""
        h = self.hero(state, player)
        helen = self.card(h, "distract") is not None
        current = tuple(h.orders.get(key) for key in ORDER_KEYS)
        found = self._orders.get((helen, current))
        if found is None:
            keys = [k for k in ORDER_KEYS if helen or k != "distract"]
            combos: list[dict[str, str]] = [{}]
            for key, now in zip(ORDER_KEYS, current, strict=True):
                if key in keys:
                    combos = [*combos, *({**c, key: v} for c in combos for v in ORDER_VALUES if v != now)]
            combos = sorted((c for c in combos if c), key=len)  # one change first: the hint lists those
            found = self._orders[(helen, current)] = tuple(action_of("reactions", **c) for c in combos)
        return list(found)

    def apply_common(self, state: HeroballState, player: str, action: Action, events: list[Event]) -> bool:
        """A standing order is the player's own plan (Helen's distract order would tell her opponents when she
        strikes), so the reply goes to them alone."""
        if action.cmd != "reactions":
            return False
        h = self.hero(state, player)
        for k, v in action.args:
            h.orders[k] = v
        events.append(Event(text=f"Your standing orders now: {self.orders_text(h)}.", kind="setting",
                            to=[player]))
        return True

    def orders_text(self, h: HeroState) -> str:
        """"defend ask, intercept never" (and distract for Helen)."""
        helen = self.card(h, "distract") is not None
        return ", ".join(f"{k} {h.orders.get(k, 'ask')}" for k in ORDER_KEYS if helen or k != "distract")

    def orders_reason(self, state: HeroballState, player: str, a: Action) -> str:
        """Why a `reactions` command is not a change; with no option at all: the orders set now."""
        h = self.hero(state, player)
        helen = self.card(h, "distract") is not None
        named = dict(a.args)
        if SHOW_ORDERS in named or not named:
            return (f"Your standing orders: {self.orders_text(h)} (`ask` waits for you, `always` reacts when you "
                    "can pay, `never` skips). Change one or several at once, e.g. "
                    "`/heroball reactions defend:always intercept:never`.")
        for k, v in named.items():
            if k == "distract" and not helen:
                return "Only Helen has Distract: your standing orders are defend and intercept."
            if k not in ORDER_KEYS:
                return f"`{k}` is not a standing order: they are {', '.join(ORDER_KEYS[:2])} and (Helen) distract."
            if v not in ORDER_VALUES:
                return f"`{v}` is not a standing order for {k}: use ask, always or never."
        return f"Your standing orders already say {', '.join(f'{k} {v}' for k, v in named.items())}."

    def explain(self, state: HeroballState, player: str, action: Action) -> str:
        a = self.canonical(state, player, action)
        if not self.is_seated(state, player):
            return "You are not seated in this game."
        phase = self.phase(state)
        if self.phase_of(state) == "over":
            return phase.explain(self, state, player, a)
        if a.cmd == "reactions":
            return self.orders_reason(state, player, a)
        to, place = a.get("to"), a.get("place")
        if to is not None and to not in self.board.labels:
            return f"{to} is not a hex on the field (columns A-M, rows 1-13)."
        if place is not None and place not in self.board.labels:
            return f"{place} is not a hex on the field."
        if state.window is None and a.cmd in REPLIES:
            return "There is nothing to react to right now: reactions come on other players' turns."
        return phase.explain(self, state, player, a)

    def label(self, state: HeroballState, action: Action, player: str | None = None) -> str:
        if action.cmd == "reactions":
            return "Orders: " + ", ".join(f"{k} {v}" for k, v in action.args)
        text = self.phase(state).label(self, state, action)
        return turn_label(self, state, action) if text is None else text

    def button_actions(self, state: HeroballState, player: str, legal: list[Action]) -> list[Action]:
        """Standing orders are a command, never a button; the phase picks among the rest (seed: none, the
        hex list is for autocomplete)."""
        legal = [a for a in legal if a.cmd not in ANYTIME]
        return self.phase(state).buttons(self, state, player, legal)

    def canonical(self, state: HeroballState, player: str, action: Action) -> Action:
        """A direction becomes the hex it points to; hexes upper case; a target by player name becomes the hero."""
        args = dict(action.args)
        try:
            h = self.hero(state, player)
        except KeyError:
            return action
        if action.cmd == "reactions":
            return self._canonical_orders(h, args)
        if "direction" in args and action.cmd in MOVES:
            t = self.board.toward(h.pos, args.pop("direction"))
            if t is None:
                return action
            args["to"] = t
        for key in ("to", "place"):
            if key in args:
                args[key] = args[key].strip().upper()
        if "target" in args:
            want = args["target"].casefold()
            for x in state.heroes:
                if want in (x.hero.casefold(), x.name.casefold(), x.player.casefold()):
                    args["target"] = x.hero
        if "obj" in args:
            args["obj"] = {"godball": "ball"}.get(args["obj"].casefold(), args["obj"].casefold())
        if "action" in args:
            args["action"] = args["action"].casefold()
        return Action(cmd=action.cmd, args=tuple(args.items()))

    def _canonical_orders(self, h: HeroState, args: dict[str, str]) -> Action:
        """Standing orders in `ORDER_KEYS` order, values in lower case, keys already so set left out when another
        changes; with no option at all the command asks what is set (`SHOW_ORDERS`, never legal: `explain`
        answers it, to the player alone and changing nothing)."""
        if not args:
            return Action(cmd="reactions", args=((SHOW_ORDERS, "yes"),))
        named = {k: v.strip().casefold() for k, v in args.items()}
        changes = {k: v for k, v in named.items() if h.orders.get(k) != v}
        if changes and all(k in ORDER_KEYS for k in named):
            named = changes
        ordered = sorted(named.items(), key=lambda kv: ORDER_KEYS.index(kv[0]) if kv[0] in ORDER_KEYS else 9)
        return Action(cmd="reactions", args=tuple(ordered))

    def preview(self, state: HeroballState, player: str, action: Action) -> tuple[HeroballState, list[Event]]:
        """Heroball has no dice after setup and no hidden information: a preview is the move itself, unsaved."""
        return self.apply(state, player, action)

    # ---- what players see -------------------------------------------------------------------
    def view(self, state: HeroballState, player: str | None) -> HeroballView:
        return build_view(self, state, self.status(state))

    def summary(self, state: HeroballState) -> dict[str, Any]:
        return summary(self, state)

    def rules_topics(self) -> dict[str, str]:
        return topics(self.rules)

    def intro(self, state: HeroballState) -> str:
        """Who plays which hero for which god (drawn at random for whoever did not choose), and the seed rules."""
        heroes = "; ".join(f"{says(h.name, 'plays')} {h.hero} for {h.god} ({self.favoured(h)})" for h in state.heroes)
        return f"Heroes: {heroes}.\n" + (seed_rules(self, state) if state.phase == "seed" else "")
