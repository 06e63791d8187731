"""Heroball: an action-point sports game on a hex field; reactions happen on other players' turns."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import (
    Action,
    CommandSpec,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
    Result,
    Rng,
    Seat,
    Status,
)

from .board import Board, board
from .data import Hero, Rules, rules
from .state import (
    ORDER_VALUES,
    HeroballState,
    HeroballView,
    HeroState,
    HeroView,
    ObjectState,
    ObjectView,
    TurnState,
    Window,
    default_orders,
)

MOVES = ("step", "run", "sprint")
DISTRACTABLE = ("step", "run", "sprint", "push", "fumble", "throw", "drop", "hero")
ORDER_KEYS = ("defend", "intercept", "distract")
OBJECT_NAMES = {"ball": "the Godball", "pole": "the pole"}
ATTACK_VERBS = {"push": "push", "force fumble": "force a fumble from", "knock down": "knock down"}

_HEX = OptionSpec(name="to", description="destination hex, e.g. C4", autocomplete=True)
_DIR = OptionSpec(name="direction", description="or a direction: N NE SE S SW NW", choices=("N", "NE", "SE", "S", "SW", "NW"))
_TARGET = OptionSpec(name="target", description="the hero you act on", autocomplete=True)
_PLACE = OptionSpec(name="place", description="hex where a fumbled object or displaced hero goes", autocomplete=True)
_OBJ = OptionSpec(name="obj", description="object: ball or pole", choices=("ball", "pole"), autocomplete=True)
_ORDER = ("ask", "always", "never")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _move_cmd(name: str, what: str, extra: tuple[OptionSpec, ...] = ()) -> CommandSpec:
    return CommandSpec(name=name, description=what, options=(_HEX, _DIR, *extra))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(name="seed", description="Place one of your favoured terrain tokens (setup)", options=(_HEX,)),
    _move_cmd("step", "Step 1 hex (or stand up when knocked down)"),
    _move_cmd("run", "Run 1 hex (after your step)"),
    _move_cmd("sprint", "Sprint 1 hex (after your run)", (_TARGET, _PLACE)),
    CommandSpec(name="push", description="Push an adjacent opponent 1 hex away from you", options=(_TARGET, _HEX)),
    CommandSpec(name="fumble", description="Force an adjacent opponent to fumble; you place the object", options=(_TARGET, _HEX)),
    CommandSpec(name="throw", description="Throw an object up to 2 hexes", options=(_OBJ, _HEX)),
    CommandSpec(name="drop", description="Drop what you hold into your hex or an adjacent one", options=(_HEX,)),
    CommandSpec(name="hold", description="Pick up an object in your hex", options=(_OBJ,)),
    CommandSpec(name="hero", description="Use one of your hero's own actions", options=(
        OptionSpec(name="action", description="which hero action", required=True, autocomplete=True),
        _TARGET, _HEX, _PLACE)),
    CommandSpec(name="react", description="React now: defend, intercept, catch, distract", options=(_HEX,)),
    CommandSpec(name="pass", description="Do not react (or let a distracted action fail)"),
    CommandSpec(name="pay", description="Pay the extra AP Helen's distraction demands"),
    CommandSpec(name="reactions", description="Standing orders: react automatically or never", options=(
        OptionSpec(name="defend", description="ask | always | never", choices=_ORDER),
        OptionSpec(name="intercept", description="ask | always | never", choices=_ORDER),
        OptionSpec(name="distract", description="ask | always | never (Helen)", choices=_ORDER),
    )),
    CommandSpec(name="end", description="End your turn"),
)


class Heroball(Game[HeroballState]):
    id = "heroball"
    name = "Heroball"
    min_seats = 2
    max_seats = 4
    rules_version = 1
    state_model = HeroballState
    commands = COMMANDS
    options = (OptionSpec(name="reaction_hours", kind="int", default="12",
                          description="Hours a reaction window waits before it counts as a pass (default 12)"),)
    # Commands that are player settings, legal for every seated player at any time.
    anytime_commands: tuple[str, ...] = ("reactions",)

    def __init__(self, data: Rules | None = None) -> None:
        self.R = data or rules()
        hv = self.R.house
        self.B: Board = board(hv.board_radius, hv.pillar_distance)
        self.C = hv.cost
        self.seat_options = (
            OptionSpec(name="hero", description="your hero", choices=tuple(h.name for h in self.R.heroes), autocomplete=True),
            # every god is a choice so that Hermes reaches check_seat and is refused with the rule's reason
            OptionSpec(name="god", description="your god (gives your favoured terrain)", choices=tuple(g.name for g in self.R.gods), autocomplete=True),
            OptionSpec(name="defend", description="standing order for defending", choices=_ORDER),
            OptionSpec(name="intercept", description="standing order for intercepting", choices=_ORDER),
        )

    # ================================================================ lobby
    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        others = [s for s in seats if s.player != new.player]
        if len(others) >= self.max_seats:
            raise IllegalAction("Heroball seats at most 4 players.", "Watch this game or start another.")
        hero = new.choices.get("hero")
        if hero:
            try:
                h = self.R.hero(hero)
            except KeyError:
                raise IllegalAction(f"There is no hero called {hero}.", "Heroes: " + ", ".join(x.name for x in self.R.heroes) + ".") from None
            if any(s.choices.get("hero", "").casefold() == h.name.casefold() for s in others):
                free = self.seat_choices(options, others, "hero")
                raise IllegalAction(f"{h.name} is already taken.", "Still free: " + ", ".join(free) + ".")
        god = new.choices.get("god")
        if god:
            try:
                g = self.R.god(god)
            except KeyError:
                raise IllegalAction(f"There is no god called {god}.", "Gods: " + ", ".join(self.R.playable_gods) + ".") from None
            if g.excluded:
                raise IllegalAction(g.excluded, "Pick one of: " + ", ".join(self.R.playable_gods) + ".")
            if any(s.choices.get("god", "").casefold() == g.name.casefold() for s in others):
                free = self.seat_choices(options, others, "god")
                raise IllegalAction(f"{g.name} is already someone's god.", "Still free: " + ", ".join(free) + ".")
        for key in ("defend", "intercept"):
            v = new.choices.get(key)
            if v and v not in ORDER_VALUES:
                raise IllegalAction(f"`{key}:{v}` is not a standing order.", "Use ask, always or never.")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option == "hero":
            taken = {s.choices.get("hero", "").casefold() for s in seats}
            return [h.name for h in self.R.heroes if h.name.casefold() not in taken]
        if option == "god":
            taken = {s.choices.get("god", "").casefold() for s in seats}
            return [g for g in self.R.playable_gods if g.casefold() not in taken]
        return super().seat_choices(options, seats, option)

    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> HeroballState:
        n = len(seats)
        if not self.min_seats <= n <= self.max_seats:
            raise IllegalAction("Heroball needs 2 to 4 players.", "Wait for more players to join.")
        rng = Rng(seed=seed)
        hv = self.R.house
        heroes_taken = {self.R.hero(s.choices["hero"]).name for s in seats if s.choices.get("hero")}
        gods_taken = {self.R.god(s.choices["god"]).name for s in seats if s.choices.get("god")}
        corners = hv.start_corners[str(n)]
        heroes: list[HeroState] = []
        objects: dict[str, ObjectState] = {"ball": ObjectState(at=self.B.centre)}
        for i, s in enumerate(seats):
            if s.choices.get("hero"):
                hero = self.R.hero(s.choices["hero"]).name
            else:
                hero = rng.choice([h.name for h in self.R.heroes if h.name not in heroes_taken])
                heroes_taken.add(hero)
            if s.choices.get("god"):
                god = self.R.god(s.choices["god"]).name
            else:
                god = rng.choice([g for g in self.R.playable_gods if g not in gods_taken])
                gods_taken.add(god)
            orders = default_orders()
            for key in ("defend", "intercept"):
                if s.choices.get(key) in ORDER_VALUES:
                    orders[key] = s.choices[key]
            h = HeroState(player=s.player, name=s.name, hero=hero, god=god, seat=i, corner=corners[i],
                          pos=self.B.corner[corners[i]], ap=hv.start_ap, orders=orders)
            for obj in self.R.hero(hero).objects:
                objects[obj] = ObjectState(holder=s.player)
                h.holding = obj
            heroes.append(h)
        return HeroballState(heroes=heroes, objects=objects, phase="seed", round=0, active=0, turn_no=1,
                             seeds_left=hv.seed_tokens * n, rng=rng)

    # ================================================================ helpers
    def _hero(self, s: HeroballState, player: str) -> HeroState:
        for h in s.heroes:
            if h.player == player:
                return h
        raise KeyError(player)

    def _card(self, h: HeroState, effect: str):
        return self.R.hero(h.hero).card(effect)

    def _data(self, h: HeroState) -> Hero:
        return self.R.hero(h.hero)

    def _favoured(self, h: HeroState) -> str:
        return self.R.god(h.god).terrain

    def _at(self, s: HeroballState, label: str) -> HeroState | None:
        for h in s.heroes:
            if h.pos == label:
                return h
        return None

    def _free(self, s: HeroballState, label: str | None) -> bool:
        """On the board, not a pillar, no hero."""
        return label is not None and label not in self.B.pillars and self._at(s, label) is None

    def _tile_hex(self, s: HeroballState, label: str) -> bool:
        """Hexes that carry a tile (pillar, centre post, a goal tile) or already a terrain token."""
        return label in self.B.pillars or label == self.B.centre or label in self._goal_owner(s) or label in s.terrain

    def _goal_owner(self, s: HeroballState) -> dict[str, str]:
        out: dict[str, str] = {}
        for h in s.heroes:
            for g in self.B.goal(h.corner):
                out[g] = h.player
        return out

    def _active(self, s: HeroballState) -> HeroState:
        return s.heroes[s.active]

    def _targetable(self, h: HeroState) -> bool:
        """Achilles' Invulnerable side: opponents' actions cannot target him."""
        return not (self._card(h, "invulnerable") and "invulnerable" not in h.flipped)

    def _can_defend(self, h: HeroState) -> bool:
        # Achilles' Defend slot holds Invulnerable/Vulnerable: he never defends.
        return self._card(h, "invulnerable") is None and h.ap >= self._defend_cost(h)

    def _defend_cost(self, h: HeroState) -> int:
        c = self._card(h, "mirror_shield")
        return c.cost if c else self.C.defend

    def _hex_cost(self, s: HeroballState, h: HeroState, dest: str, fly: bool = False) -> int:
        t = s.terrain.get(dest)
        if t is None or fly:
            return 0
        return self.C.favoured if t == self._favoured(h) else self.C.terrain

    def _predict_move_cost(self, s: HeroballState, h: HeroState, dest: str) -> int:
        """Predict's hex cost: terrain, plus Calypso's song when the move goes away from her."""
        return max(0, self._hex_cost(s, h, dest) + self._sing_extra(s, h, dest))

    def _sing_extra(self, s: HeroballState, h: HeroState, dest: str) -> int:
        extra = 0
        for c in s.heroes:
            card = self._card(c, "sing")
            if c is h or card is None or "sing" not in c.field:
                continue
            d0 = self.B.dist(h.pos, c.pos)
            if d0 <= card.range and self.B.dist(dest, c.pos) > d0:
                extra += card.extra
        return extra

    def _move_cost(self, s: HeroballState, h: HeroState, base: int, dest: str) -> int:
        fly = s.turn.fly and h is self._active(s)
        return max(0, base + self._hex_cost(s, h, dest, fly) + self._sing_extra(s, h, dest))

    def _next_move(self, h: HeroState) -> str | None:
        for k in MOVES:
            if k not in h.spent:
                return k
        return None

    def _sprint_card(self, h: HeroState):
        """The card on the sprint slot, unless Pegasus' Feed side covers it."""
        c = self._data(h).slot("sprint")
        if c and c.effect == "sprint_knockdown" and "fly" in h.flipped:
            return None
        return c

    def _obj_hex(self, s: HeroballState, obj: str) -> str:
        o = s.objects[obj]
        return o.at if o.holder is None else self._hero(s, o.holder).pos  # type: ignore[return-value]

    def _name(self, s: HeroballState, player: str) -> str:
        return self._hero(s, player).name

    def _who(self, h: HeroState) -> str:
        """How events name a hero on the board: "Gorgo (ann)"."""
        return f"{h.hero} ({h.name})"

    def skip_action(self, state: HeroballState, player: str) -> Action | None:
        """A skipped turn: `end` in the action phase, `pass` in a reaction window; a skipped seed turn puts the
        token on the free hex farthest from every hero (lowest label on ties), so setup never gets stuck."""
        legal = self.legal_actions(state, player)
        if state.phase == "seed" and state.window is None:
            seeds = [a for a in legal if a.cmd == "seed"]
            if not seeds:
                return None
            return max(seeds, key=lambda a: (min(self.B.dist(a.get("to"), h.pos) for h in state.heroes),  # type: ignore[arg-type]
                                             -self.B.labels.index(a.get("to"))))  # type: ignore[arg-type]
        return super().skip_action(state, player)

    def preview(self, state: HeroballState, player: str, action: Action) -> tuple[HeroballState, list[Event]]:
        """Heroball has no dice after setup and no hidden information: a preview is the move itself, unsaved."""
        return self.apply(state, player, action)

    # ================================================================ status
    def timeout(self, state: HeroballState, options: dict[str, str]) -> tuple[float, Action] | None:
        """A reaction window waits `reaction_hours` (house default 12); expiry counts as a pass."""
        if state.window is None:
            return None
        return float(options.get("reaction_hours", "12")), Action.of("pass")

    def check_options(self, options: dict[str, str]) -> None:
        raw = options.get("reaction_hours", "12")
        if not raw.isdigit() or not 1 <= int(raw) <= 168:
            raise IllegalAction("`reaction_hours` must be a whole number of hours from 1 to 168.",
                                "Example: `reaction_hours:12`.")

    def status(self, state: HeroballState) -> Status:
        s = state
        if s.phase == "over":
            return Status(phase="over", round=s.round, finished=True, result=self._result(s), turn_key=f"t{s.turn_no}:over")
        act = self._active(s)
        if s.window is not None:
            w = s.window
            who = self._hero(s, w.queue[0])
            return Status(phase=w.kind, round=s.round, to_act=[who.player], waiting_for=f"{who.name} to {self._window_question(s, w)}",
                          turn_key=f"t{s.turn_no}:w{s.window_no}:{who.player}")
        if s.phase == "seed":
            return Status(phase="seed", round=s.round, to_act=[act.player], waiting_for=f"{act.name} to place seed terrain",
                          turn_key=f"t{s.turn_no}:{act.player}")
        return Status(phase="action", round=s.round, to_act=[act.player], waiting_for=f"{act.name} to act",
                      turn_key=f"t{s.turn_no}:w{s.window_no}:{act.player}")

    def _window_question(self, s: HeroballState, w: Window) -> str:
        """What the asked player decides in a reaction window, in words."""
        actor = self._hero(s, w.actor) if w.actor else None
        if w.kind == "defend":
            kind = self._attack_kind(Action.parse(w.action))
            return f"defend against the {kind} by {actor.hero} or let it through"  # type: ignore[union-attr]
        if w.kind == "intercept":
            asked = self._hero(s, w.queue[0])
            card = self._data(asked).slot("intercept")
            verb = "catch"
            if card is not None and card.effect == "swat":  # Swat replaces the catch; on the landing hex he may also take it
                verb = "take or swat" if asked.pos == w.target else "swat"
            return f"{verb} {OBJECT_NAMES[w.obj]} coming down on {w.target} or pass"
        if w.kind == "distract":
            return f"distract {actor.hero} (`{w.action}`) or let it be"  # type: ignore[union-attr]
        return f"pay {self._distract_extra(s)} more AP for `{w.action}` or let it fail"

    def _result(self, s: HeroballState) -> Result:
        top = max(h.score for h in s.heroes)
        winners = [h for h in s.heroes if h.score == top]
        names = " and ".join(h.name for h in winners)
        text = f"{names} {'win' if len(winners) > 1 else 'wins'} with {top} point{'s' if top != 1 else ''}."
        if len(winners) > 1:
            text += " Victory is shared."
        text += " Final scores: " + ", ".join(f"{h.name} {h.score}" for h in s.heroes) + "."
        return Result(winners=[h.player for h in winners], text=text, scores={h.player: h.score for h in s.heroes})

    # ================================================================ legal actions
    def legal_actions(self, state: HeroballState, player: str) -> list[Action]:
        s = state
        seated = any(h.player == player for h in s.heroes)
        if not seated:
            return []
        out: list[Action] = []
        if s.phase != "over" and player in self.status(s).to_act:
            out = self._turn_actions(s, player)
        if s.phase != "over":
            h = self._hero(s, player)
            for key in ORDER_KEYS:
                if key == "distract" and self._card(h, "distract") is None:
                    continue
                out += [Action.of("reactions", **{key: v}) for v in ORDER_VALUES if v != h.orders.get(key)]
        return out

    def _turn_actions(self, s: HeroballState, player: str) -> list[Action]:
        if s.window is not None:
            return self._window_actions(s, player)
        h = self._hero(s, player)
        if s.phase == "seed":
            return [Action.of("seed", to=lab) for lab in self.B.labels if not self._tile_hex(s, lab) and self._at(s, lab) is None]
        out: list[Action] = []
        if h.down:
            if "step" not in h.spent and h.ap >= self.C.step:
                out.append(Action.of("step"))
            out.append(Action.of("end"))
            return out
        out += self._move_actions(s, h)
        out += self._attack_actions(s, h)
        out += self._object_actions(s, h)
        out += self._hero_actions(s, h)
        out.append(Action.of("end"))
        return out

    def _move_actions(self, s: HeroballState, h: HeroState) -> list[Action]:
        kind = self._next_move(h)
        if kind is None:
            return []
        base = getattr(self.C, kind)
        card = self._sprint_card(h) if kind == "sprint" else None
        if card is not None:
            base = card.cost if card.effect in ("sprint_knockdown",) else base
        out = []
        for dest in self.B.neighbors(h.pos):
            if not self._free(s, dest) or self._move_cost(s, h, base, dest) > h.ap:
                continue
            if card is not None and card.effect == "sprint_knockdown":
                out += self._trample_options(s, h, dest)
            else:
                out.append(Action.of(kind, to=dest))
        return out

    def _trample_options(self, s: HeroballState, h: HeroState, dest: str) -> list[Action]:
        victims = [v for v in (self._at(s, n) for n in self.B.neighbors(dest)) if v is not None and v is not h and not v.down and self._targetable(v)]
        if not victims:
            return [Action.of("sprint", to=dest)]
        out = []
        for v in victims:
            places = self._fumble_places(s, v, moved=(h.pos, dest)) if v.holding else []
            if places:
                out += [Action.of("sprint", to=dest, target=v.hero, place=p) for p in places]
            else:
                out.append(Action.of("sprint", to=dest, target=v.hero))
        return out

    def _fumble_places(self, s: HeroballState, v: HeroState, moved: tuple[str, str] | None = None) -> list[str]:
        out = []
        for n in self.B.neighbors(v.pos):
            if n in self.B.pillars:
                continue
            occ = self._at(s, n)
            if moved is not None:
                if n == moved[1]:
                    continue
                if n == moved[0]:
                    occ = None
            if occ is None:
                out.append(n)
        return out

    def _opponents_adjacent(self, s: HeroballState, h: HeroState) -> list[HeroState]:
        return [v for v in (self._at(s, n) for n in self.B.neighbors(h.pos)) if v is not None and v is not h and self._targetable(v)]

    def _push_dests(self, s: HeroballState, h: HeroState, v: HeroState) -> list[str]:
        return [n for n in self.B.neighbors(v.pos) if self.B.dist(n, h.pos) == 2 and self._free(s, n)]

    def _attack_actions(self, s: HeroballState, h: HeroState) -> list[Action]:
        out = []
        for v in self._opponents_adjacent(s, h):
            if h.ap >= self.C.push:
                out += [Action.of("push", target=v.hero, to=d) for d in self._push_dests(s, h, v)]
            if h.ap >= self.C.fumble and v.holding:
                out += [Action.of("fumble", target=v.hero, to=d) for d in self._fumble_places(s, v)]
        return out

    def _throw_targets(self, s: HeroballState, center: str, rng: int, exclude: str | None = None) -> list[str]:
        return [t for t in self.B.within(center, 1, rng) if t not in self.B.pillars and t != exclude]

    def _object_actions(self, s: HeroballState, h: HeroState) -> list[Action]:
        out = []
        kick = self._card(h, "kick")
        if kick is not None:
            if h.ap >= kick.cost:
                for obj, o in s.objects.items():
                    if o.holder is None and o.at is not None and self.B.dist(o.at, h.pos) <= kick.reach:
                        out += [Action.of("throw", obj=obj, to=t) for t in self._throw_targets(s, h.pos, kick.range, exclude=o.at)]
        elif h.holding and h.ap >= self.C.throw:
            out += [Action.of("throw", obj=h.holding, to=t) for t in self._throw_targets(s, h.pos, self.R.house.throw_range)]
        if h.holding and h.ap >= self.C.drop:
            out += [Action.of("drop", to=t) for t in (h.pos, *self.B.neighbors(h.pos)) if t not in self.B.pillars]
        if h.holding is None:
            out += [Action.of("hold", obj=obj) for obj, o in s.objects.items() if o.holder is None and o.at == h.pos]
        return out

    def _hero_actions(self, s: HeroballState, h: HeroState) -> list[Action]:
        out: list[Action] = []
        unique_spent = "unique" in h.spent
        for card in self._data(h).cards:
            e = card.effect
            if e == "knockdown_adjacent" and not unique_spent and h.ap >= card.cost:
                for v in self._opponents_adjacent(s, h):
                    if v.down:
                        continue
                    places = self._fumble_places(s, v) if v.holding else []
                    if places:
                        out += [Action.of("hero", action="pummel", target=v.hero, place=p) for p in places]
                    else:
                        out.append(Action.of("hero", action="pummel", target=v.hero))
            elif e == "sing" and not unique_spent and "sing" not in h.field and h.ap >= card.cost:
                out.append(Action.of("hero", action="sing"))
            elif e == "shift_terrain" and s.turn.shift_ready and s.terrain.get(h.pos) == self._favoured(h) and h.ap >= card.cost:
                for t in self.B.neighbors(h.pos):
                    if self._tile_hex(s, t):
                        continue
                    occupant = self._at(s, t)
                    loose = [o for o, st in s.objects.items() if st.holder is None and st.at == t]
                    if occupant is None and not loose:
                        out.append(Action.of("hero", action="shift", to=t))
                    else:
                        out += [Action.of("hero", action="shift", to=t, place=p) for p in self.B.neighbors(t) if self._free(s, p)]
            elif e == "fly" and "fly" not in h.flipped and not s.turn.fly:
                out.append(Action.of("hero", action="fly"))
            elif e == "redecorate" and h.ap >= card.cost:
                if h.tile is None:
                    out += [Action.of("hero", action="redecorate", to=n) for n in self.B.neighbors(h.pos) if n in s.terrain]
                else:
                    out += [Action.of("hero", action="set", to=t) for t in self.B.labels if not self._tile_hex(s, t) and self._at(s, t) is None]
            elif e == "distract" and "distract" in h.flipped and h.ap >= card.cost:
                out.append(Action.of("hero", action="study"))
            elif e == "pole_vault" and s.turn.vault_ready and h.holding == "pole":
                for t in self.B.within(h.pos, 1, card.range):
                    if not self._free(s, t):
                        continue
                    if self.B.dist(t, h.pos) == 2 and not any(m not in self.B.pillars for m in self.B.neighbors(h.pos) if self.B.dist(m, t) == 1):
                        continue
                    if card.cost + self._sing_extra(s, h, t) > h.ap:  # Calypso's song also holds back a vault
                        continue
                    out.append(Action.of("hero", action="vault", to=t))
            elif e == "sandals" and not unique_spent:
                for d in ("N", "NE", "SE", "S", "SW", "NW"):
                    mid, t = self.B.toward(h.pos, d, 1), self.B.toward(h.pos, d, 2)
                    if mid is None or t is None or mid in self.B.pillars or not self._free(s, t):
                        continue
                    if self._move_cost(s, h, card.cost, t) <= h.ap:
                        out.append(Action.of("hero", action="sandals", to=t))
        return out

    def _window_actions(self, s: HeroballState, player: str) -> list[Action]:
        w = s.window
        assert w is not None
        h = self._hero(s, player)
        if w.kind == "distracted":
            card_extra = self._distract_extra(s)
            return ([Action.of("pay")] if h.ap >= card_extra else []) + [Action.of("pass")]
        if w.kind == "intercept":
            return self._intercept_options(s, h, w) + [Action.of("pass")]
        return [Action.of("react"), Action.of("pass")]

    def _distract_extra(self, s: HeroballState) -> int:
        for h in s.heroes:
            c = self._card(h, "distract")
            if c is not None:
                return c.extra
        return 1

    def _intercept_options(self, s: HeroballState, h: HeroState, w: Window) -> list[Action]:
        d = self.B.dist(h.pos, w.target)
        card = self._data(h).slot("intercept")
        eff = card.effect if card else None
        cost = card.cost if card else self.C.intercept
        out: list[Action] = []
        if d == 0:
            out.append(Action.of("react"))  # the object enters your hex: hold it at no cost
        if eff == "swat":
            if d <= 1 and h.ap >= cost:
                out += [Action.of("react", to=t) for t in self._throw_targets(s, w.target, card.range, exclude=w.target)]  # type: ignore[union-attr]
        elif eff == "long_intercept":
            if 1 <= d <= card.range and h.ap >= cost:  # type: ignore[union-attr]
                out.append(Action.of("react"))
        elif eff == "predict":
            if d == 1 and h.ap >= cost:
                out.append(Action.of("react"))
            elif 2 <= d <= card.range:  # type: ignore[union-attr]
                for y in self.B.neighbors(h.pos):
                    if self._free(s, y) and self.B.dist(y, w.target) <= 1 and h.ap >= cost + self._predict_move_cost(s, h, y):
                        out.append(Action.of("react", to=y))
        elif d == 1 and h.ap >= cost:
            out.append(Action.of("react"))
        return out

    # ================================================================ apply
    def apply(self, state: HeroballState, player: str, action: Action) -> tuple[HeroballState, list[Event]]:
        s = state.model_copy(deep=True)
        ev: list[Event] = []
        if action.cmd == "reactions":
            h = self._hero(s, player)
            for k, v in action.args:
                h.orders[k] = v
            ev.append(Event(text=f"{h.name} sets standing orders: " + ", ".join(f"{k} {v}" for k, v in action.args) + ".", kind="setting"))
            return s, ev
        if s.window is not None:
            self._answer(s, player, action, ev)
        elif s.phase == "seed":
            self._seed(s, player, action, ev)
        else:
            self._act(s, player, action, ev)
        return s, ev

    def _seed(self, s: HeroballState, player: str, action: Action, ev: list[Event]) -> None:
        h = self._hero(s, player)
        to = action.get("to")
        assert to is not None
        s.terrain[to] = self._favoured(h)
        ev.append(Event(text=f"{h.name} seeds {self._favoured(h)} terrain on {to}."))
        s.seeds_left -= 1
        s.turn_no += 1
        s.active = (s.active + 1) % len(s.heroes)
        if s.seeds_left == 0:
            s.phase = "play"
            s.round = 1
            s.active = 0
            ev.append(Event(text="Seed terrain is down. Round 1 begins.", kind="round"))
            self._start_turn(s, ev)

    def _cost(self, s: HeroballState, h: HeroState, a: Action) -> int:
        cmd = a.cmd
        if cmd in MOVES:
            if a.get("to") is None:
                return self.C.step  # standing up
            base = getattr(self.C, cmd)
            card = self._sprint_card(h) if cmd == "sprint" else None
            if card is not None and card.effect == "sprint_knockdown":
                base = card.cost
            return self._move_cost(s, h, base, a.get("to"))  # type: ignore[arg-type]
        if cmd in ("push", "fumble", "drop"):
            return getattr(self.C, cmd)
        if cmd == "throw":
            kick = self._card(h, "kick")
            return kick.cost if kick else self.C.throw
        if cmd == "hero":
            act = a.get("action")
            card = self._card(h, {"pummel": "knockdown_adjacent", "sing": "sing", "shift": "shift_terrain", "fly": "fly",
                                  "redecorate": "redecorate", "set": "redecorate", "study": "distract",
                                  "vault": "pole_vault", "sandals": "sandals"}[act])  # type: ignore[index]
            assert card is not None
            if act == "sandals":
                return self._move_cost(s, h, card.cost, a.get("to"))  # type: ignore[arg-type]
            if act == "vault":
                return card.cost + self._sing_extra(s, h, a.get("to"))  # type: ignore[arg-type]
            return card.cost
        return 0

    def _act(self, s: HeroballState, player: str, a: Action, ev: list[Event]) -> None:
        h = self._hero(s, player)
        if a.cmd == "end":
            self._end_turn(s, ev)
            return
        if not (a.cmd == "hero" and a.get("action") == "vault"):
            s.turn.vault_ready = False
        if a.cmd == "hold":
            obj = a.get("obj")
            assert obj is not None
            h.holding = obj
            s.objects[obj] = ObjectState(holder=h.player)
            ev.append(Event(text=f"{self._who(h)} picks up {OBJECT_NAMES[obj]}."))
            return
        cost = self._cost(s, h, a)
        h.ap -= cost
        s.turn.spent_ap += cost
        helen = self._distracter(s, h, a)
        if helen is not None:
            order = helen.orders.get("distract", "ask")
            s.window_no += 1
            s.window = Window(kind="distract", action=a.text(), actor=h.player, queue=[helen.player])
            if order == "always":
                self._distract(s, helen, ev)
            else:
                ev.append(Event(text=f"{self._who(h)} tries to {a.cmd} near Helen; {self._who(helen)} may distract.", kind="window"))
            return
        self._resolve(s, h, a, ev)

    def _distracter(self, s: HeroballState, h: HeroState, a: Action) -> HeroState | None:
        if a.cmd not in DISTRACTABLE or not self._targetable(h):
            return None
        for c in s.heroes:
            card = self._card(c, "distract")
            if (c is h or card is None or "distract" in c.flipped or c.down or c.ap < card.cost
                    or c.orders.get("distract") == "never" or self.B.dist(c.pos, h.pos) > card.range):
                continue
            return c
        return None

    def _distract(self, s: HeroballState, helen: HeroState, ev: list[Event]) -> None:
        card = self._card(helen, "distract")
        assert card is not None and s.window is not None
        helen.ap -= card.cost
        helen.flipped.append("distract")
        actor = self._hero(s, s.window.actor)
        s.window_no += 1
        s.window = Window(kind="distracted", action=s.window.action, actor=actor.player, queue=[actor.player])
        ev.append(Event(text=f"{self._who(helen)} distracts {self._who(actor)} (1 AP): pay {card.extra} more AP or the action fails."))

    # ---- resolving a declared action -----------------------------------------------------
    def _resolve(self, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
        cmd = a.cmd
        if cmd in MOVES:
            to = a.get("to")
            if to is None:
                h.down = False
                h.spent.append("step")
                ev.append(Event(text=f"{self._who(h)} stands up (step)."))
                return
            self._move(s, h, to, ev, verb=cmd)
            h.spent.append(cmd)
            if self._goal_check(s, ev, mover=h.player):
                return
            card = self._sprint_card(h) if cmd == "sprint" else None
            if card is not None and card.effect == "shift_terrain":
                s.turn.shift_ready = True
            if cmd in ("run", "sprint") and h.holding == "pole" and self._card(h, "pole_vault"):
                s.turn.vault_ready = True
            if card is not None and card.effect == "sprint_knockdown" and a.get("target"):
                self._attack(s, h, a, ev)
            return
        if cmd in ("push", "fumble"):
            self._attack(s, h, a, ev)
            return
        if cmd == "throw":
            obj = a.get("obj")
            to = a.get("to")
            assert obj and to
            origin = h.pos
            if h.holding == obj:
                h.holding = None
            s.objects[obj] = ObjectState(at=to)
            verb = "kicks" if self._card(h, "kick") else "throws"
            ev.append(Event(text=f"{self._who(h)} {verb} {OBJECT_NAMES[obj]} to {to}."))
            self._launch(s, obj, to, h.player, origin, ev)
            return
        if cmd == "drop":
            obj, to = h.holding, a.get("to")
            assert obj and to
            h.holding = None
            s.objects[obj] = ObjectState(at=to)
            ev.append(Event(text=f"{self._who(h)} drops {OBJECT_NAMES[obj]} on {to}."))
            self._launch(s, obj, to, h.player, h.pos, ev)
            return
        if cmd == "hero":
            self._hero_action(s, h, a, ev)

    def _move(self, s: HeroballState, h: HeroState, to: str, ev: list[Event], verb: str) -> None:
        start = h.pos
        h.pos = to
        if h is self._active(s):
            if not s.turn.trail:
                s.turn.trail.append(start)
            s.turn.trail.append(to)
        ev.append(Event(text=f"{self._who(h)} {verb}s {start} → {to}." if verb in MOVES else f"{self._who(h)} {verb} {start} → {to}."))

    def _hero_action(self, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
        act = a.get("action")
        to = a.get("to")
        if act == "pummel":
            self._attack(s, h, a, ev)
        elif act == "sing":
            h.field.append("sing")
            ev.append(Event(text=f"{self._who(h)} sings: heroes within 2 hexes pay 1 more AP to move away from her until her next turn."))
        elif act == "shift":
            assert to is not None
            kind = s.terrain.pop(h.pos)
            s.terrain[to] = kind
            ev.append(Event(text=f"{self._who(h)} shifts the {kind} from {h.pos} to {to}."))
            place = a.get("place")
            if place:
                occ = self._at(s, to)
                if occ is not None:
                    occ.pos = place
                    ev.append(Event(text=f"{self._who(occ)} is moved aside to {place}."))
                for o, st in s.objects.items():
                    if st.holder is None and st.at == to:
                        st.at = place
                        ev.append(Event(text=f"{_cap(OBJECT_NAMES[o])} is moved aside to {place}."))
                self._goal_check(s, ev, mover=None)
        elif act == "fly":
            s.turn.fly = True
            h.flipped.append("fly")
            ev.append(Event(text=f"{self._who(h)} takes wing: terrain costs nothing this turn (Fly turns to Feed)."))
        elif act == "redecorate":
            assert to is not None
            h.tile = s.terrain.pop(to)
            h.flipped.append("redecorate")
            ev.append(Event(text=f"{self._who(h)} lifts the {h.tile} terrain off {to}."))
        elif act == "set":
            assert to is not None and h.tile is not None
            s.terrain[to] = h.tile
            ev.append(Event(text=f"{self._who(h)} sets the {h.tile} terrain down on {to}."))
            h.tile = None
            h.flipped.remove("redecorate")
        elif act == "study":
            h.flipped.remove("distract")
            ev.append(Event(text=f"{self._who(h)} studies her opponents: Distract is ready again."))
        elif act == "vault":
            assert to is not None
            start = h.pos
            h.holding = None
            s.objects["pole"] = ObjectState(at=start)
            self._move(s, h, to, ev, verb="vaults")
            s.turn.vault_ready = False
            self._launch(s, "pole", start, h.player, start, ev)
        elif act == "sandals":
            assert to is not None
            h.spent.append("unique")
            self._move(s, h, to, ev, verb="flies")
            self._goal_check(s, ev, mover=h.player)

    # ---- attacks and defence ---------------------------------------------------------------
    def _attack(self, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
        target = a.get("target")
        v = next(x for x in s.heroes if x.hero == target)
        kind = self._attack_kind(a)
        if self._can_defend(v) and v.orders.get("defend") != "never":
            s.window_no += 1
            s.window = Window(kind="defend", action=a.text(), actor=h.player, queue=[v.player])
            if v.orders.get("defend") == "always":
                self._defend(s, v, ev)
            else:
                ev.append(Event(text=f"{self._who(h)} tries to {ATTACK_VERBS[kind]} {self._who(v)}; {v.name} may defend.",
                                kind="window"))
            return
        self._hit(s, h, v, a, ev)

    def _attack_kind(self, a: Action) -> str:
        if a.cmd == "push":
            return "push"
        if a.cmd == "fumble":
            return "force fumble"
        return "knock down"

    def _defend(self, s: HeroballState, v: HeroState, ev: list[Event]) -> None:
        w = s.window
        assert w is not None
        s.window = None
        a = Action.parse(w.action)
        attacker = self._hero(s, w.actor)
        v.ap -= self._defend_cost(v)
        ev.append(Event(text=f"{self._who(v)} defends: the {self._attack_kind(a)} by {self._who(attacker)} fails."))
        if self._card(v, "mirror_shield") and a.cmd == "push":
            d = self.B.direction(v.pos, attacker.pos)
            dest = self.B.toward(attacker.pos, d) if d else None
            if self._free(s, dest):
                self._move(s, attacker, dest, ev, verb="is thrown back")  # type: ignore[arg-type]
                self._goal_check(s, ev, mover=None)

    def _hit(self, s: HeroballState, h: HeroState, v: HeroState, a: Action, ev: list[Event]) -> None:
        if a.cmd == "push":
            to = a.get("to")
            start = v.pos
            v.pos = to  # type: ignore[assignment]
            ev.append(Event(text=f"{self._who(h)} pushes {self._who(v)} {start} → {to}."))
            self._goal_check(s, ev, mover=None)
            return
        if a.cmd == "fumble":
            self._fumble(s, v, a.get("to"), ev, by=h)  # type: ignore[arg-type]
            return
        v.down = True
        if a.cmd == "sprint":
            ev.append(Event(text=f"{self._who(h)} tramples {self._who(v)}: knocked down."))
        else:
            ev.append(Event(text=f"{self._who(h)} knocks {self._who(v)} down."))
        if v.holding:
            place = a.get("place")
            if place:
                self._fumble(s, v, place, ev, by=h)
            else:
                ev.append(Event(text=f"There is no free hex beside {self._who(v)}: {OBJECT_NAMES[v.holding]} stays put."))

    def _fumble(self, s: HeroballState, v: HeroState, to: str, ev: list[Event], by: HeroState) -> None:
        obj = v.holding
        assert obj is not None
        v.holding = None
        s.objects[obj] = ObjectState(at=to)
        ev.append(Event(text=f"{self._who(v)} fumbles {OBJECT_NAMES[obj]}; {self._who(by)} places it on {to}."))
        self._launch(s, obj, to, v.player, v.pos, ev)

    # ---- objects in flight and intercepts ----------------------------------------------------
    def _launch(self, s: HeroballState, obj: str, target: str, thrower: str, origin: str, ev: list[Event]) -> None:
        act = self._active(s)
        n = len(s.heroes)
        w = Window(kind="intercept", obj=obj, target=target, origin=origin, actor=thrower)
        if origin != target:
            s.turn.flights.append(f"{origin}>{target}")
        cands = []
        for c in s.heroes:
            if c.player in (thrower, act.player) or c.down:
                continue
            opts = self._intercept_options(s, c, w)
            if not opts:
                continue
            d = self.B.dist(c.pos, target)
            tier = 0 if d == 0 else (2 if all(o.get("to") for o in opts) and self._card(c, "predict") else 1)
            cands.append(((tier, self.B.dist(c.pos, origin), (c.seat - act.seat) % n), c.player))
        w.queue = [p for _, p in sorted(cands)]
        s.window_no += 1
        s.window = w
        self._run_intercept(s, ev)

    def _run_intercept(self, s: HeroballState, ev: list[Event]) -> None:
        w = s.window
        assert w is not None and w.kind == "intercept"
        while w.queue:
            c = self._hero(s, w.queue[0])
            opts = self._intercept_options(s, c, w)
            order = c.orders.get("intercept", "ask")
            if not opts or order == "never":
                w.queue.pop(0)
                continue
            if order == "always":
                plain = [o for o in opts if o.get("to") is None]
                pick = plain[0] if plain else (opts[0] if len(opts) == 1 else None)
                if pick is not None:
                    self._catch(s, c, pick, ev)
                    return
            ev.append(Event(text=f"{_cap(OBJECT_NAMES[w.obj])} is coming down on {w.target}: {self._who(c)} may react.", kind="window"))
            return
        s.window = None
        self._land(s, w, ev)

    def _land(self, s: HeroballState, w: Window, ev: list[Event]) -> None:
        self._goal_check(s, ev, mover=None)

    def _catch(self, s: HeroballState, c: HeroState, a: Action, ev: list[Event]) -> None:
        w = s.window
        assert w is not None
        s.window = None
        d = self.B.dist(c.pos, w.target)
        card = self._data(c).slot("intercept")
        cost = card.cost if card else self.C.intercept
        to = a.get("to")
        if card is not None and card.effect == "swat" and to is not None:
            c.ap -= cost
            ev.append(Event(text=f"{self._who(c)} swats {OBJECT_NAMES[w.obj]} on to {to} (1 AP)."))
            s.objects[w.obj] = ObjectState(at=to)
            self._launch(s, w.obj, to, c.player, c.pos, ev)
            return
        if to is not None:  # Gorgo's Predict: move 1 hex, then catch
            c.ap -= cost + self._predict_move_cost(s, c, to)
            start = c.pos
            c.pos = to
            ev.append(Event(text=f"{self._who(c)} reads the play and moves {start} → {to}."))
        elif d > 0:
            c.ap -= cost
        if c.holding:
            prev = c.holding
            s.objects[prev] = ObjectState(at=c.pos)
            ev.append(Event(text=f"{self._who(c)} lets {OBJECT_NAMES[prev]} fall on {c.pos}."))
        c.holding = w.obj
        s.objects[w.obj] = ObjectState(holder=c.player)
        verb = "catches" if d > 0 or to else "takes"
        ev.append(Event(text=f"{self._who(c)} {verb} {OBJECT_NAMES[w.obj]}" + (" (1 AP)." if d > 0 or to else " as it lands in their hex.")))
        self._goal_check(s, ev, mover=None)

    def _answer(self, s: HeroballState, player: str, a: Action, ev: list[Event]) -> None:
        w = s.window
        assert w is not None
        h = self._hero(s, player)
        if w.kind == "intercept":
            if a.cmd == "pass":
                ev.append(Event(text=f"{self._who(h)} lets it go."))
                w.queue.pop(0)
                self._run_intercept(s, ev)
            else:
                self._catch(s, h, a, ev)
            return
        if w.kind == "defend":
            if a.cmd == "react":
                self._defend(s, h, ev)
            else:
                s.window = None
                attacker = self._hero(s, w.actor)
                ev.append(Event(text=f"{self._who(h)} does not defend."))
                self._hit(s, attacker, h, Action.parse(w.action), ev)
            return
        if w.kind == "distract":
            if a.cmd == "react":
                self._distract(s, h, ev)
            else:
                s.window = None
                ev.append(Event(text=f"{self._who(h)} does not distract."))
                actor = self._hero(s, w.actor)
                self._resolve(s, actor, Action.parse(w.action), ev)
            return
        # distracted: the acting player pays or the action fails
        s.window = None
        act = Action.parse(w.action)
        if a.cmd == "pay":
            extra = self._distract_extra(s)
            h.ap -= extra
            s.turn.spent_ap += extra
            ev.append(Event(text=f"{self._who(h)} pays {extra} more AP and carries on."))
            self._resolve(s, h, act, ev)
        else:
            ev.append(Event(text=f"`{act.text()}` by {self._who(h)} fails; the AP is lost."))

    # ---- scoring and turns ---------------------------------------------------------------------
    def _goal_check(self, s: HeroballState, ev: list[Event], mover: str | None) -> bool:
        if s.phase != "play":
            return False
        w = s.window
        if w is not None and w.kind == "intercept" and w.obj == "ball":
            return False
        ball = s.objects["ball"]
        where = self._obj_hex(s, "ball")
        owner = self._goal_owner(s).get(where)
        if owner is None:
            return False
        hv = self.R.house
        o = self._hero(s, owner)
        if ball.holder == owner and mover == owner:
            pts = hv.goal_points_carried
            ev.append(Event(text=f"GOAL! {self._who(o)} runs the Godball into their goal on {where}: {pts} points.", kind="goal"))
        else:
            pts = hv.goal_points_other
            ev.append(Event(text=f"GOAL! The Godball reaches the goal of {self._who(o)} on {where}: "
                                 f"{pts} point{'s' if pts != 1 else ''} for {o.name}.", kind="goal"))
        o.score += pts
        if ball.holder:
            self._hero(s, ball.holder).holding = None
        s.objects["ball"] = ObjectState(at=self.B.centre)
        ev.append(Event(text=f"The Godball returns to the centre post ({self.B.centre}).", kind="goal"))
        s.window = None
        self._end_turn(s, ev)
        return True

    def _end_turn(self, s: HeroballState, ev: list[Event]) -> None:
        h = self._active(s)
        hv = self.R.house
        if s.turn.spent_ap == 0:
            gain = min(hv.max_ap, h.ap + hv.rest_ap) - h.ap
            h.ap += gain
            if gain:
                ev.append(Event(text=f"{self._who(h)} rests (+{gain} AP, now {h.ap})."))
            else:
                ev.append(Event(text=f"{self._who(h)} rests, but the AP track is full ({h.ap})."))
            if "fly" in h.flipped and s.terrain.get(h.pos) == "astral-turf":
                h.flipped.remove("fly")
                ev.append(Event(text=f"{self._who(h)} feeds on the Astral-Turf: Fly is back."))
        s.last_trail = list(s.turn.trail)
        s.last_flights = list(s.turn.flights)
        s.active = (s.active + 1) % len(s.heroes)
        if s.active == 0:
            s.round += 1
            if s.round > hv.rounds:
                s.round = hv.rounds
                s.phase = "over"
                s.window = None
                s.turn_no += 1
                ev.append(Event(text=f"The game is over. {self._result(s).text}", kind="result"))
                return
            ev.append(Event(text=f"Round {s.round} begins.", kind="round"))
        self._start_turn(s, ev)

    def _start_turn(self, s: HeroballState, ev: list[Event]) -> None:
        hv = self.R.house
        s.turn_no += 1
        s.turn = TurnState()
        h = self._active(s)
        h.ap = min(hv.max_ap, h.ap + hv.refresh_ap)
        for x in s.heroes:
            x.spent = []
        if self._card(h, "invulnerable"):
            if "invulnerable" in h.flipped:
                h.flipped.remove("invulnerable")
            else:
                h.flipped.append("invulnerable")
        if "sing" in h.field:
            h.field.remove("sing")
            h.spent.append("unique")
        side = ""
        if self._card(h, "invulnerable"):
            side = " Achilles is " + ("Vulnerable." if "invulnerable" in h.flipped else "Invulnerable.")
        ev.append(Event(text=f"{h.name}'s turn ({h.hero}, {h.ap} AP).{side}", kind="turn"))

    # ================================================================ views and helpers
    def _card_states(self, h: HeroState) -> list[str]:
        out = []
        for c in self._data(h).cards:
            label = f"{c.slot}: {c.name}"
            if c.flip and c.id in h.flipped:
                label = f"{c.slot}: {c.flip.capitalize()} (flipped)"
            if c.id in h.field:
                label += " [in field]"
            if c.id == "redecorate" and h.tile:
                label += f" [holds {h.tile}]"
            out.append(label)
        return out

    def view(self, state: HeroballState, player: str | None) -> HeroballView:
        s = state
        st = self.status(s)
        hv = self.R.house
        heroes = [HeroView(player=h.player, name=h.name, hero=h.hero, god=h.god, terrain=self._favoured(h), seat=h.seat,
                           pos=h.pos, ap=h.ap, max_ap=hv.max_ap, score=h.score, down=h.down, holding=h.holding,
                           spent=list(h.spent), cards=self._card_states(h), goal=self.B.goal(h.corner), orders=dict(h.orders),
                           active=(i == s.active and s.phase != "over")) for i, h in enumerate(s.heroes)]
        w = s.window
        objects = [ObjectView(id=k, at=o.at, holder=o.holder, in_flight=bool(w and w.kind == "intercept" and w.obj == k))
                   for k, o in s.objects.items()]
        now = bool(s.turn.trail or s.turn.flights)
        trail = s.turn.trail if now else s.last_trail
        flights = [tuple(f.split(">")) for f in (s.turn.flights if now else s.last_flights)]
        return HeroballView(radius=hv.board_radius, pillar_distance=hv.pillar_distance, round=s.round, rounds=hv.rounds,
                            phase=st.phase, waiting_for=st.waiting_for, heroes=heroes, objects=objects,
                            terrain=dict(s.terrain), trail=list(trail), flights=flights, finished=st.finished,
                            result=st.result.text if st.result else "")

    def summary(self, state: HeroballState) -> dict[str, Any]:
        s = state
        ball = s.objects["ball"]
        return {
            "round": s.round,
            "ball": ball.at if ball.holder is None else self._name(s, ball.holder),
            "players": [{"name": h.name, "hero": h.hero, "god": h.god, "position": h.pos, "ap": h.ap, "score": h.score,
                         "holding": h.holding, "knocked_down": h.down} for h in s.heroes],
        }

    def canonical(self, state: HeroballState, player: str, action: Action) -> Action:
        args = dict(action.args)
        try:
            h = self._hero(state, player)
        except KeyError:
            return action
        if "direction" in args and action.cmd in MOVES:
            t = self.B.toward(h.pos, args.pop("direction"))
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
        return Action(cmd=action.cmd, args=args)

    # ---- why not: the reasons behind the common mistakes ----------------------------------
    def explain(self, state: HeroballState, player: str, action: Action) -> str:
        s = state
        a = self.canonical(s, player, action)
        try:
            h = self._hero(s, player)
        except KeyError:
            return "You are not seated in this game."
        if s.phase == "over":
            return "The game is over."
        if a.cmd == "reactions":
            return "Standing orders are ask, always or never, and must differ from what is set now."
        to = a.get("to")
        if to is not None and to not in self.B.labels:
            return f"{to} is not a hex on the field (columns A-M, rows 1-13)."
        place = a.get("place")
        if place is not None and place not in self.B.labels:
            return f"{place} is not a hex on the field."
        if s.window is not None:
            return self._explain_window(s, h, a)
        if a.cmd in ("react", "pass", "pay"):
            return "There is nothing to react to right now: reactions come on other players' turns."
        if s.phase == "seed":
            return self._explain_seed(s, h, a)
        if a.cmd == "seed":
            return "Seed terrain is placed before round 1 only."
        if h.down and a.cmd not in ("step", "end"):
            return f"{h.hero} is knocked down: `step` (no destination) to stand up first."
        if a.cmd in MOVES:
            return self._explain_move(s, h, a)
        if a.cmd in ("push", "fumble"):
            return self._explain_attack(s, h, a)
        if a.cmd in ("throw", "drop", "hold"):
            return self._explain_object(s, h, a)
        if a.cmd == "hero":
            return self._explain_hero(s, h, a)
        return ""

    def _explain_window(self, s: HeroballState, h: HeroState, a: Action) -> str:
        w = s.window
        assert w is not None
        question = self._window_question(s, w)
        if a.cmd not in ("react", "pass", "pay"):
            return f"A reaction window is open: first you {question}."
        if w.kind == "intercept" and a.cmd == "react":
            d = self.B.dist(h.pos, w.target)
            card = self._data(h).slot("intercept")
            cost = card.cost if card else self.C.intercept
            if d > 0 and h.ap < cost:
                return f"Catching costs {cost} AP; you have {h.ap}."
            if a.get("to") is not None:
                if card is None or card.effect not in ("swat", "predict"):
                    return f"A catch needs no destination: `react` takes {OBJECT_NAMES[w.obj]} on {w.target}."
                if card.effect == "predict":
                    return f"Predict moves {h.hero} 1 hex to a free hex next to {w.target}; {a.get('to')} is not one."
                return f"Swat sends {OBJECT_NAMES[w.obj]} 1-{card.range} hexes on from {w.target}, never onto a pillar."
            if card is not None and card.effect in ("swat", "predict"):
                return "Say where: `react to:HEX` (see the buttons)."
        if a.cmd == "pay":
            return f"Paying needs {self._distract_extra(s)} AP; you have {h.ap}."
        return f"Now you {question}."

    def _explain_seed(self, s: HeroballState, h: HeroState, a: Action) -> str:
        if a.cmd != "seed":
            return "Setup first: place your seed terrain with `seed to:HEX`."
        to = a.get("to")
        if to is None:
            return "Say where: `seed to:HEX`."
        if to in self.B.pillars:
            return f"{to} holds a Pillar of Heaven; seed terrain goes on an empty hex."
        if to == self.B.centre:
            return f"{to} is the centre post; seed terrain goes on an empty hex."
        owner = self._goal_owner(s).get(to)
        if owner is not None:
            return f"{to} is part of {self._name(s, owner)}'s goal tile; seed terrain goes on an empty hex."
        if to in s.terrain:
            return f"{to} already has {s.terrain[to]} terrain."
        occ = self._at(s, to)
        if occ is not None:
            return f"{self._who(occ)} stands on {to}; seed terrain never goes under a hero."
        return ""

    def _explain_move(self, s: HeroballState, h: HeroState, a: Action) -> str:
        to = a.get("to")
        if h.down:
            if to is not None:
                return "You are knocked down: a plain `step` stands you up; it does not move you."
            if a.cmd != "step":
                return "You are knocked down: `step` (no destination) stands you up."
            if "step" in h.spent:
                return "Your step is spent this turn: you can stand up on your next turn."
            return f"Standing up costs {self.C.step} AP; you have {h.ap}."
        nxt = self._next_move(h)
        if a.cmd != nxt:
            if a.cmd in h.spent:
                return f"You have already used your {a.cmd} this turn (each move once per turn)."
            if nxt is None:
                return "All your movement actions are spent this turn."
            return f"You must {nxt} before you can {a.cmd} (step, then run, then sprint)."
        if to is None:
            return "Say where: `to:HEX` or `direction:`."
        if self.B.dist(h.pos, to) != 1:
            return f"{to} is not next to {h.hero} ({h.pos}); each move goes 1 hex."
        if to in self.B.pillars:
            return f"{to} holds a Pillar of Heaven; nobody can enter it."
        occ = self._at(s, to)
        if occ is not None:
            return f"{to} is occupied by {self._who(occ)}."
        base = getattr(self.C, a.cmd)
        card = self._sprint_card(h) if a.cmd == "sprint" else None
        if card is not None and card.effect == "sprint_knockdown":
            base = card.cost
            if a.get("target"):
                v = next((x for x in s.heroes if x.hero == a.get("target")), None)
                if v is None or v is h or self.B.dist(v.pos, to) != 1:
                    return f"Trample knocks down a hero next to {to}; {a.get('target')} is not there."
                if v.down:
                    return f"{v.hero} is already knocked down."
                if not self._targetable(v):
                    return "Achilles is Invulnerable right now: opponents' actions cannot target him."
        cost = self._move_cost(s, h, base, to)
        if cost > h.ap:
            parts = self._cost_parts(s, h, base, to)
            detail = f" ({parts})" if "," in parts else ""
            return f"{_cap(a.cmd)} to {to} costs {cost} AP{detail}; you have {h.ap}."
        return ""

    def _cost_parts(self, s: HeroballState, h: HeroState, base: int, dest: str) -> str:
        parts = [f"{base} for the move"]
        fly = s.turn.fly and h is self._active(s)
        t = s.terrain.get(dest)
        if t is not None and not fly:
            parts.append(f"{self._hex_cost(s, h, dest):+d} for {t}")
        sing = self._sing_extra(s, h, dest)
        if sing:
            parts.append(f"+{sing} for moving away from Calypso's song")
        return ", ".join(parts)

    def _target_reason(self, s: HeroballState, h: HeroState, a: Action) -> tuple[HeroState | None, str]:
        target = a.get("target")
        if target is None:
            return None, "Name the hero: `target:` (a hero or a player)."
        v = next((x for x in s.heroes if x.hero == target), None)
        if v is None:
            return None, f"No hero called {target} plays here."
        if v is h:
            return None, "You cannot target yourself."
        if not self._targetable(v):
            return None, "Achilles is Invulnerable right now: opponents' actions cannot target him."
        if self.B.dist(v.pos, h.pos) != 1:
            return None, f"{v.hero} ({v.pos}) is not next to {h.hero} ({h.pos})."
        return v, ""

    def _explain_attack(self, s: HeroballState, h: HeroState, a: Action) -> str:
        v, why = self._target_reason(s, h, a)
        if v is None:
            return why
        cost = getattr(self.C, a.cmd)
        if h.ap < cost:
            return f"{_cap(a.cmd)} costs {cost} AP; you have {h.ap}."
        to = a.get("to")
        if a.cmd == "fumble":
            if not v.holding:
                return f"{v.hero} holds nothing to fumble."
            if to is not None and to not in self._fumble_places(s, v):
                return f"The fumbled object goes on a free hex next to {v.hero} ({v.pos}); {to} is not one."
            return ""
        if to is not None:
            if self.B.dist(to, h.pos) != 2 or self.B.dist(to, v.pos) != 1:
                return f"A push moves {v.hero} 1 hex away from you; {to} is not such a hex."
            if not self._free(s, to):
                occ = self._at(s, to)
                return f"{to} is blocked by {self._who(occ)}." if occ else f"{to} holds a Pillar of Heaven."
        if not self._push_dests(s, h, v):
            return f"There is no free hex behind {v.hero} to push them into."
        return ""

    def _explain_object(self, s: HeroballState, h: HeroState, a: Action) -> str:
        to = a.get("to")
        obj = a.get("obj")
        if a.cmd == "hold":
            if h.holding:
                return f"You already hold {OBJECT_NAMES[h.holding]}: drop it first."
            here = [o for o, st in s.objects.items() if st.holder is None and st.at == h.pos]
            if obj is not None and obj in s.objects and obj not in here:
                o = s.objects[obj]
                where = f"held by {self._who(self._hero(s, o.holder))}" if o.holder else f"on {o.at}"
                return f"{_cap(OBJECT_NAMES[obj])} is {where}, not in your hex ({h.pos})."
            return f"There is nothing loose in your hex ({h.pos}) to hold."
        kick = self._card(h, "kick") if a.cmd == "throw" else None
        if kick is not None:
            if h.ap < kick.cost:
                return f"Kick costs {kick.cost} AP; you have {h.ap}."
            loose = [o for o, st in s.objects.items() if st.holder is None and st.at is not None
                     and self.B.dist(st.at, h.pos) <= kick.reach]
            if not loose:
                return "Kick needs a loose object in or next to your hex (Pegasus kicks, he does not throw what he holds)."
            if obj is not None and obj not in loose:
                return f"{_cap(OBJECT_NAMES.get(obj, obj))} is not loose in or next to your hex."
            if to is not None:
                if to in self.B.pillars:
                    return f"{to} holds a Pillar of Heaven; objects cannot land there."
                if self.B.dist(to, h.pos) > kick.range:
                    return f"{to} is more than {kick.range} hexes from you."
            return ""
        if not h.holding:
            return f"You hold nothing to {a.cmd}."
        if obj is not None and obj != h.holding:
            return f"You hold {OBJECT_NAMES[h.holding]}, not {OBJECT_NAMES.get(obj, obj)}."
        cost = getattr(self.C, a.cmd)
        if h.ap < cost:
            return f"{_cap(a.cmd)} costs {cost} AP; you have {h.ap}."
        if to is not None:
            if to in self.B.pillars:
                return f"{to} holds a Pillar of Heaven; objects cannot land there."
            if a.cmd == "throw":
                if to == h.pos:
                    return "A throw leaves your hex; to let go here use `drop`."
                if self.B.dist(to, h.pos) > self.R.house.throw_range:
                    return f"{to} is more than {self.R.house.throw_range} hexes away; throw at most {self.R.house.throw_range}."
            elif self.B.dist(to, h.pos) > 1:
                return f"A drop goes into your hex ({h.pos}) or next to it; {to} is too far (throw instead)."
        return ""

    HERO_WORDS = {"pummel": "knockdown_adjacent", "sing": "sing", "shift": "shift_terrain", "fly": "fly",
                  "redecorate": "redecorate", "set": "redecorate", "study": "distract", "vault": "pole_vault",
                  "sandals": "sandals"}

    def _hero_words(self, h: HeroState) -> list[str]:
        effects = {c.effect for c in self._data(h).cards}
        return [w for w, e in self.HERO_WORDS.items() if e in effects]

    def _explain_hero(self, s: HeroballState, h: HeroState, a: Action) -> str:
        act = a.get("action")
        words = self._hero_words(h)
        if act is None or act not in words:
            have = ", ".join(f"`{w}`" for w in words) or "none (their cards change other slots)"
            return f"{h.hero}'s hero actions: {have}."
        card = self._card(h, self.HERO_WORDS[act])
        assert card is not None
        if card.slot == "unique" and "unique" in h.spent and act not in ("set", "study", "vault", "fly"):
            return f"{card.name} is spent until your next turn."
        if act == "fly":
            if "fly" in h.flipped:
                return "Fly shows its Feed side: rest (spend no AP) on Astral-Turf to turn it back."
            return "Fly is already active this turn."
        if act == "sing" and "sing" in h.field:
            return "Sing is already in the field until your next turn."
        if act == "study":
            if "distract" not in h.flipped:
                return "Study Opponent is only there after Distract was used."
            return f"Study Opponent costs {card.cost} AP; you have {h.ap}."
        if act == "vault":
            if h.holding != "pole":
                return "Pole Vault needs Achilles to hold the pole."
            if not s.turn.vault_ready:
                return "Pole Vault comes right after a run or sprint, before any other action."
            to = a.get("to")
            if to is not None:
                if not self._free(s, to):
                    return f"{to} is blocked: Achilles must land on a free hex."
                if self.B.dist(to, h.pos) > card.range:
                    return f"{to} is more than {card.range} hexes away."
                cost = card.cost + self._sing_extra(s, h, to)
                if cost > h.ap:
                    return f"Vaulting away from Calypso's song costs {cost} AP; you have {h.ap}."
            return ""
        if act == "shift":
            if not s.turn.shift_ready:
                return "Shifting Land comes after you sprint this turn."
            if s.terrain.get(h.pos) != self._favoured(h):
                return f"Shifting Land needs you to stand on your favoured terrain ({self._favoured(h)})."
            to = a.get("to")
            if to is not None and (self.B.dist(to, h.pos) != 1 or self._tile_hex(s, to)):
                return f"The terrain slides 1 hex onto a bare hex without a tile; {to} is not one."
        if act in ("redecorate", "set"):
            if act == "redecorate" and h.tile is not None:
                return f"Redecorate already holds {h.tile}: use `hero action:set to:HEX` to put it down."
            if act == "set" and h.tile is None:
                return "There is no terrain on Redecorate yet: lift an adjacent one first (`hero action:redecorate`)."
            to = a.get("to")
            if act == "redecorate" and to is not None and (to not in s.terrain or self.B.dist(to, h.pos) != 1):
                return f"Redecorate lifts terrain from a hex next to you; {to} has none or is not adjacent."
            if act == "set" and to is not None and (self._tile_hex(s, to) or self._at(s, to) is not None):
                return f"{to} is not a free bare hex."
        if act == "pummel":
            v, why = self._target_reason(s, h, a)
            if v is None:
                return why
            if v.down:
                return f"{v.hero} is already knocked down."
        if act == "sandals":
            to = a.get("to")
            if to is not None and (self.B.direction(h.pos, to) is None or self.B.dist(h.pos, to) != 2):
                return "Winged Sandals fly exactly 2 hexes in a straight line."
            if to is not None and not self._free(s, to):
                return f"{to} is not a free hex to land on."
            if to is not None:
                cost = self._move_cost(s, h, card.cost, to)
                if cost > h.ap:
                    return f"That flight costs {cost} AP; you have {h.ap}."
        if card.cost > h.ap:
            return f"{card.name} costs {card.cost} AP; you have {h.ap}."
        return ""

    # ---- buttons ---------------------------------------------------------------------------------
    def label(self, state: HeroballState, action: Action) -> str:
        a = action
        s = state
        w = s.window
        if w is not None and a.cmd in ("react", "pass", "pay"):
            return self._window_label(s, w, a)
        if a.cmd == "end":
            return "End turn"
        if a.cmd == "step" and a.get("to") is None:
            return "Stand up"
        if a.cmd == "hold":
            return f"Pick up {OBJECT_NAMES.get(a.get('obj') or '', 'it').removeprefix('the ')}"
        if a.cmd == "reactions":
            return "Orders: " + ", ".join(f"{k} {v}" for k, v in a.args)
        verb = a.cmd.capitalize()
        if a.cmd == "throw" and s.phase == "play" and self._card(self._active(s), "kick"):
            verb = "Kick"
        if self._scores(s, a):
            return f"{verb} → {a.get('to')} (goal!)"
        bits = [verb]
        if a.get("action"):
            bits = [a.get("action").capitalize()]  # type: ignore[union-attr]
        if a.cmd == "throw" and a.get("obj") == "pole":
            bits.append("pole")
        if a.get("target"):
            bits.append(a.get("target"))  # type: ignore[arg-type]
        if a.get("to"):
            bits.append("→ " + a.get("to"))  # type: ignore[operator]
        if a.get("place"):
            bits.append("(object → " + a.get("place") + ")")  # type: ignore[operator]
        return " ".join(bits)

    def _scores(self, s: HeroballState, a: Action) -> bool:
        """A move carrying the Godball, or a throw of it, into one of the active player's own goal hexes."""
        if s.phase != "play" or s.window is not None or a.get("to") is None or a.get("target"):
            return False
        h = self._active(s)
        if a.get("to") not in self.B.goal(h.corner):
            return False
        return ((a.cmd in MOVES or a.cmd == "drop") and h.holding == "ball") or (a.cmd == "throw" and a.get("obj") == "ball")

    def _window_label(self, s: HeroballState, w: Window, a: Action) -> str:
        if w.kind == "defend":
            return "Defend (1 AP)" if a.cmd == "react" else "Let it through"
        if w.kind == "distract":
            return "Distract (1 AP)" if a.cmd == "react" else "Let it be"
        if w.kind == "distracted":
            return f"Pay {self._distract_extra(s)} AP" if a.cmd == "pay" else "Let it fail"
        if a.cmd == "pass":
            return "Pass"
        h = self._hero(s, w.queue[0])
        to = a.get("to")
        card = self._data(h).slot("intercept")
        if to is None:
            return f"Take it on {w.target} (free)" if h.pos == w.target else f"Catch at {w.target}"
        if card is not None and card.effect == "swat":
            return f"Swat to {to}"
        return f"Move to {to}, catch"

    def button_actions(self, state: HeroballState, player: str, legal: list[Action]) -> list[Action]:
        """Window: every answer, `pass` last. Turn: moves, pick-ups, simple hero actions, then pushes,
        knockdowns, drops, fumbles and throws when the whole group fits; always `End turn`.
        Seed: none (the hex list is for autocomplete)."""
        legal = [a for a in legal if a.cmd != "reactions"]
        if state.window is not None:
            answers = [a for a in legal if a.cmd != "pass"][:19]
            return answers + [a for a in legal if a.cmd == "pass"]
        if state.phase == "seed":
            return legal if len(legal) <= 20 else []
        end = [a for a in legal if a.cmd == "end"]
        groups: list[list[Action]] = [
            [a for a in legal if self._scores(state, a)],
            [a for a in legal if a.cmd in MOVES and not a.get("place")],
            [a for a in legal if a.cmd == "hold"],
            [a for a in legal if a.cmd == "hero" and not a.get("to") and not a.get("place") and not a.get("target")],
            [a for a in legal if a.cmd == "hero" and a.get("action") in ("vault", "sandals", "redecorate")],
            [a for a in legal if a.cmd == "hero" and a.get("action") == "shift" and not a.get("place")],
            [a for a in legal if a.cmd == "push"],
            [a for a in legal if a.cmd == "hero" and a.get("target")],
            [a for a in legal if a.cmd == "drop"],
            [a for a in legal if a.cmd == "fumble"],
            [a for a in legal if a.cmd == "throw"],
        ]
        out: list[Action] = []
        for g in groups:
            g = [a for a in g if a not in out]
            if g and len(out) + len(g) <= 20 - len(end):
                out += g
        return out + end

    def rules_topics(self) -> dict[str, str]:
        from .rules_text import topics

        return topics(self.R)
