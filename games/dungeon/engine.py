"""SDE-S dungeon crawl: the engine the framework talks to (legal actions, apply, views)."""
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
from games.core.grid import DIRS8, parse_label
from games.core.grid import label as sq_label

from . import mechanics as mx
from .board import board, move_search
from .data import content
from .rules_text import RULES_TOPICS
from .state import Activation, DungeonState, FloorCard, HeroState, LevelState, MonsterState
from .view import DungeonView, build_view

BASIC_STYLES = ("melee", "ranged", "magic")


def _norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


class DungeonGame(Game[DungeonState]):
    id = "dungeon"
    name = "SDE-S Dungeon"
    min_seats = 1
    max_seats = 6
    multi_seat = True
    state_model = DungeonState
    options = (
        OptionSpec(name="dungeon", description="Which dungeon to play", choices=tuple(content().dungeons),
                   default=next(iter(content().dungeons))),
    )
    seat_options = (
        OptionSpec(name="hero", description="Your hero (left out: one is assigned at start)",
                   choices=tuple(h.name for h in content().heroes.values()), autocomplete=True),
    )
    commands = (
        CommandSpec(name="activate", description="Activate one of your heroes", options=(
            OptionSpec(name="hero", description="Hero to activate (may be left out when you have one left)",
                       autocomplete=True),)),
        CommandSpec(name="move", description="Move the active hero (1 AP starts a move action)", options=(
            OptionSpec(name="to", description="Square to move to", autocomplete=True),
            OptionSpec(name="path", description='Or a route of directions, e.g. "N N NE"'),)),
        CommandSpec(name="attack", description="Attack an enemy", options=(
            OptionSpec(name="target", description="Square of the enemy", required=True, autocomplete=True),
            OptionSpec(name="with", description="melee, ranged or magic", choices=BASIC_STYLES),)),
        CommandSpec(name="act", description="A unique action or heal, brew, picklock, smash, stand, switch", options=(
            OptionSpec(name="action", description="Which action", required=True, autocomplete=True),
            OptionSpec(name="target", description="Target square or hero", autocomplete=True),)),
        CommandSpec(name="potion", description="Drink a potion (once per activation)"),
        CommandSpec(name="equip", description="Equip a card lying on your hero's tile", options=(
            OptionSpec(name="card", description="Card to equip", required=True, autocomplete=True),
            OptionSpec(name="hero", description="Hero (between levels)", autocomplete=True),)),
        CommandSpec(name="drop", description="Drop an equipped card", options=(
            OptionSpec(name="card", description="Card to drop", required=True, autocomplete=True),
            OptionSpec(name="hero", description="Hero (between levels)", autocomplete=True),)),
        CommandSpec(name="reroll", description="Reroll one offence die", options=(
            OptionSpec(name="die", description="Die number", required=True, kind="int"),)),
        CommandSpec(name="keep", description="Keep the roll as it is"),
        CommandSpec(name="heart", description="Use a heart rolled on a successful attack", options=(
            OptionSpec(name="use", description="heal, cure, potion or none", required=True,
                       choices=("heal", "cure", "potion", "none")),
            OptionSpec(name="hero", description="Hero who benefits", autocomplete=True),
            OptionSpec(name="debuff", description="Debuff to remove (cure)", autocomplete=True),)),
        CommandSpec(name="end", description="End the active hero's activation"),
        CommandSpec(name="ready", description="Done equipping between levels"),
        CommandSpec(name="preview", description="Picture what a move or action would do; nothing changes", options=(
            OptionSpec(name="action", description='The action to try, e.g. "move to:C4"', required=True, autocomplete=True),)),
    )

    # ---- lobby -------------------------------------------------------------------
    def check_options(self, options: dict[str, str]) -> None:
        d = options.get("dungeon")
        if d is not None and d not in content().dungeons:
            raise IllegalAction(f"There is no dungeon called `{d}`.", "Dungeons: " + ", ".join(content().dungeons) + ".")

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        if len(seats) >= self.max_seats:
            raise IllegalAction("Six heroes are already in the party.", "Wait for the next game.")
        want = new.choices.get("hero")
        if want is None:
            return
        hid = self._hero_id(want)
        taken = {self._hero_id(s.choices["hero"]) for s in seats if s.choices.get("hero")}
        free = [hd.name for h, hd in content().heroes.items() if h not in taken]
        if hid is None:
            raise IllegalAction(f"There is no hero called `{want}`.", "Heroes: " + ", ".join(free) + ".")
        if hid in taken:
            raise IllegalAction(f"{content().heroes[hid].name} is already in the party.", "Free: " + ", ".join(free) + ".")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option != "hero":
            return []
        taken = {self._hero_id(s.choices["hero"]) for s in seats if s.choices.get("hero")}
        return [hd.name for h, hd in content().heroes.items() if h not in taken]

    @staticmethod
    def _hero_id(text: str) -> str | None:
        key = _norm(text)
        for hid, hd in content().heroes.items():
            if key in (hid, _norm(hd.name)):
                return hid
        return None

    # ---- setup ---------------------------------------------------------------------
    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> DungeonState:
        if not 1 <= len(seats) <= self.max_seats:
            raise IllegalAction("A dungeon party has 1 to 6 heroes.", "Join with `/game join`.")
        dungeon_id = options.get("dungeon") or next(iter(content().dungeons))
        self.check_options({"dungeon": dungeon_id})
        rng = Rng(seed=seed)
        b = board(dungeon_id)
        chosen = [self._hero_id(s.choices["hero"]) if s.choices.get("hero") else None for s in seats]
        free = [h for h in content().heroes if h not in chosen]
        heroes: list[HeroState] = []
        for i, (seat, hid) in enumerate(zip(seats, chosen, strict=True)):
            if hid is None:
                hid = free.pop(rng.below(len(free)))
            hd = content().heroes[hid]
            x, y = b.start[i]
            heroes.append(HeroState(id=hid, player=seat.player, name=seat.name, seat=i, x=x, y=y, potions=hd.potions))
        dd = content().dungeons[dungeon_id]
        levels = [LevelState(pool=list(lv.pool)) for lv in dd.levels]
        loot = [c.id for c in content().cards.values() if c.deck == "loot"]
        treasure = [c.id for c in content().cards.values() if c.deck == "treasure"]
        rng.shuffle(loot)
        rng.shuffle(treasure)
        st = DungeonState(dungeon=dungeon_id, rng=rng, heroes=heroes, levels=levels, loot_deck=loot, treasure_deck=treasure)
        lines: list[str] = []
        mx.open_level(st, 0, lines, breather=False)
        return st

    # ---- status --------------------------------------------------------------------------
    def status(self, state: DungeonState) -> Status:
        if state.phase == "over":
            win = state.result == "victory"
            return Status(phase="over", round=state.turn, round_name="turn", finished=True, turn_key=f"over-{state.turn}",
                          result=Result(winners=sorted({h.player for h in state.heroes}) if win else [],
                                        text=state.result_text))
        names = {h.player: h.name for h in state.heroes}
        if state.phase == "intermission":
            todo = [p for p in dict.fromkeys(h.player for h in state.heroes) if p not in state.ready]
            return Status(phase="intermission", round=state.turn, round_name="turn", to_act=todo,
                          turn_key=f"t{state.turn}-l{state.level}-break",
                          waiting_for=", ".join(names[p] for p in todo) + " to equip, drop and `ready`")
        key = f"t{state.turn}-a{state.activations}-" + ("acting" if state.activation is not None else "choosing")
        if state.activation is not None:
            h = mx.hero(state, state.activation.hero)
            hname = mx.hero_stats(h).name
            if state.attack and state.attack.stage == "reroll":
                wait = f"{h.name} ({hname}) to reroll or keep"
            elif state.attack and state.attack.stage == "hearts":
                wait = f"{h.name} ({hname}) to use {state.attack.hearts_left} heart(s)"
            else:
                wait = f"{h.name} to act with {hname} ({state.activation.ap} AP left)"
            return Status(phase="activation", round=state.turn, round_name="turn", to_act=[h.player], turn_key=key, waiting_for=wait)
        todo = list(dict.fromkeys(h.player for h in mx.heroes_waiting(state)))
        return Status(phase="heroes", round=state.turn, round_name="turn", to_act=todo, turn_key=key,
                      waiting_for=", ".join(names[p] for p in todo) + " to activate a hero")

    # ---- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: DungeonState, player: str) -> list[Action]:
        st = state
        if st.phase == "over":
            return []
        if st.phase == "intermission":
            if player in st.ready or player not in {h.player for h in st.heroes}:
                return []
            out = []
            for h in st.heroes:
                if h.player != player:
                    continue
                for fc in st.floor:
                    if self._can_carry(h, fc.card):
                        out.append(Action.of("equip", card=fc.card, hero=h.id))
                for cid in h.equipment:
                    out.append(Action.of("drop", card=cid, hero=h.id))
            out.append(Action.of("ready"))
            return _dedupe(out)
        if st.activation is None:
            return [Action.of("activate", hero=h.id) for h in mx.heroes_waiting(st) if h.player == player]
        h = mx.hero(st, st.activation.hero)
        if h.player != player:
            return []
        if st.attack is not None and st.attack.stage == "reroll":
            out = [Action.of("reroll", die=str(i + 1)) for i, d in enumerate(st.attack.offence) if not d.rerolled]
            return out + [Action.of("keep")]
        if st.attack is not None and st.attack.stage == "hearts":
            return self._heart_options(st, h)
        return self._activation_actions(st, h)

    def _heart_options(self, st: DungeonState, me: HeroState) -> list[Action]:
        out = []
        for h in st.heroes:
            if h.wounds > 0:
                out.append(Action.of("heart", use="heal", hero=h.id))
        for h in st.heroes:
            for d in h.debuffs:
                out.append(Action.of("heart", use="cure", hero=h.id, debuff=d))
        if me.potions < mx.hero_stats(me).potions:
            out.append(Action.of("heart", use="potion", hero=me.id))
        out.append(Action.of("heart", use="none"))
        return out

    def _activation_actions(self, st: DungeonState, h: HeroState) -> list[Action]:
        act = st.activation
        assert act is not None
        stats = mx.hero_stats(h)
        costs = content().rules.ap_costs
        out: list[Action] = []
        if mx.is_incap(h):
            return [Action.of("end")]
        if "knockdown" in h.debuffs:
            if act.ap >= costs["stand"]:
                out.append(Action.of("act", action="stand"))
            return out + [Action.of("end")]
        for style, rng in stats.attacks.items():
            if act.ap < costs[style]:
                continue
            for key in mx.enemy_keys(st):
                if mx.hero_can_target(st, h, key, rng)[0]:
                    out.append(Action.of("attack", target=self._target_label(st, key), **{"with": style}))
        if "ice" not in h.debuffs:
            for uid in stats.unique:
                ua = content().unique[uid]
                if act.ap < ua.ap:
                    continue
                out += [Action.of("act", action=uid, **({"target": t} if t else {})) for t in self._unique_targets(st, h, uid)]
        if act.ap >= costs["heal"]:
            for t in st.heroes:
                if t.id != h.id and t.wounds > 0 and self._heal_reach(st, h, t, content().rules.heal_range):
                    out.append(Action.of("act", action="heal", target=t.id))
        if act.ap >= costs["brew"] and h.potions < stats.potions:
            out.append(Action.of("act", action="brew"))
        if self._adjacent_chest(st, h) is not None:
            if act.ap >= costs["picklock"]:
                out.append(Action.of("act", action="picklock"))
            if act.ap >= costs["smash"]:
                out.append(Action.of("act", action="smash"))
        if mx.hero_def(h).profiles and act.ap >= costs["switch"]:
            out.append(Action.of("act", action="switch"))
        if h.potions > 0 and not act.potion_used and (h.wounds > 0 or h.debuffs):
            out.append(Action.of("potion"))
        if act.ap >= costs["equip"]:
            tile = board(st.dungeon).tile_of((h.x, h.y))
            for fc in st.floor:
                if board(st.dungeon).tile_of((fc.x, fc.y)) == tile and self._can_carry(h, fc.card):
                    out.append(Action.of("equip", card=fc.card))
        for cid in h.equipment:
            if self._can_drop(h, cid):
                out.append(Action.of("drop", card=cid))
        out.append(Action.of("end"))
        # moves last: the common choices come first wherever the list is shown (hints, buttons)
        for sq in sorted(self._move_options(st, h), key=lambda s: (s[1], s[0])):
            out.append(Action.of("move", to=sq_label(*sq)))
        return _dedupe(out)

    # ---- helpers for legality -----------------------------------------------------------------
    def _can_carry(self, h: HeroState, cid: str) -> bool:
        rules = content().rules
        card = content().cards[cid]
        if len(h.equipment) >= rules.max_equipment:
            return False
        if card.deck in ("treasure", "boss"):
            held = sum(1 for c in h.equipment if content().cards[c].deck in ("treasure", "boss"))
            if held >= rules.max_treasure:
                return False
        return True

    def _can_drop(self, h: HeroState, cid: str) -> bool:
        """A card whose life bonus keeps the hero standing may not be dropped."""
        trial = h.model_copy(deep=True)
        trial.equipment.remove(cid)
        return trial.wounds < mx.hero_stats(trial).life

    def _adjacent_chest(self, st: DungeonState, h: HeroState) -> int | None:
        b = board(st.dungeon)
        for i, lv in enumerate(st.levels):
            if lv.chest == "closed" and mx.route(st, mx.hfp(h), (b.chests[i],), 1) == 1:
                return i
        return None

    def _heal_reach(self, st: DungeonState, h: HeroState, t: HeroState, rng: int) -> bool:
        if t.id == h.id:
            return True
        if mx.route(st, mx.hfp(h), mx.hfp(t), rng) > rng:
            return False
        return mx.sees(st, "heroes", mx.hfp(h), mx.hero_stats(h).attributes, mx.hfp(t), mx.hero_stats(t).attributes)

    def _unique_targets(self, st: DungeonState, h: HeroState, uid: str) -> list[str]:
        ua = content().unique[uid]
        if ua.kind == "heal":
            needy = [t for t in st.heroes if self._heal_reach(st, h, t, ua.range)
                     and (t.wounds > 0 or (ua.cure and t.debuffs))]
            if ua.area == "all":
                return [""] if needy else []
            return [t.id for t in needy]
        keys = [k for k in mx.enemy_keys(st) if mx.hero_can_target(st, h, k, ua.range)[0]]
        if ua.area == "adjacent":
            return [""] if keys else []
        return [self._target_label(st, k) for k in keys]

    def _target_label(self, st: DungeonState, key: str) -> str:
        if key == "spawn":
            return sq_label(*board(st.dungeon).spawns[st.level])
        m = mx.monster(st, int(key[1:]))
        assert m is not None
        return sq_label(m.x, m.y)

    def _key_at(self, st: DungeonState, text: str) -> str | None:
        sq = parse_label(text)
        if sq is None:
            return None
        if st.levels[st.level].active and not st.levels[st.level].destroyed and sq == board(st.dungeon).spawns[st.level]:
            return "spawn"
        for m in st.monsters:
            if sq in mx.mfp(m):
                return f"m{m.uid}"
        return None

    def _move_options(self, st: DungeonState, h: HeroState) -> dict:
        act = st.activation
        assert act is not None
        stats = mx.hero_stats(h)
        if "immobile" in h.debuffs or "knockdown" in h.debuffs:
            return {}
        ma = stats.move
        if "slow" in h.debuffs:
            ma = (ma + 1) // 2
        allowance = act.move_left + (ma if act.ap >= content().rules.ap_costs["move"] else 0)
        if allowance <= 0:
            return {}
        b = board(st.dungeon)
        structs = mx.structures(st)
        occ = mx.occupancy(st)
        screened: set = set()
        for i, lv in enumerate(st.levels):
            if not lv.active:
                screened |= b.screen(i, content().rules.screen_range)
        fly = "fly" in stats.attributes

        def passable(s):
            if not b.inside(s) or s in screened:
                return False
            if not fly and (s in structs or s in b.chasms):
                return False
            ref = occ.get(s)
            return fly or not (ref and ref.startswith("m:"))

        def can_end(s):
            return s not in structs and s not in b.chasms and s not in occ and s not in screened

        def cost_of(s):
            return 2 if not fly and b.terrain_at(s) in ("difficult", "brambles") else 1

        def hazard_of(s):
            return 0 if fly else (1 if b.terrain_at(s) in mx.HAZARDS else 0)

        return move_search(b, (h.x, h.y), False, allowance, passable=passable, can_end=can_end,
                           cost_of=cost_of, hazard_of=hazard_of)

    # ---- canonical / explain / label --------------------------------------------------------------
    def canonical(self, state: DungeonState, player: str, action: Action) -> Action:
        st = state
        args = action.argdict
        changed = False
        for k in ("hero",):
            if k in args and self._hero_id(args[k]):
                hid = self._hero_id(args[k])
                changed |= hid != args[k]
                args[k] = hid  # type: ignore[assignment]
        if action.cmd in ("attack", "act") and "target" in args:
            t = args["target"]
            hid = self._hero_id(t)
            if hid and action.cmd == "act":
                args["target"] = hid
            elif parse_label(t):
                key = self._key_at(st, t)
                hero_there = next((h.id for h in st.heroes if (h.x, h.y) == parse_label(t)), None)
                if key:
                    args["target"] = self._target_label(st, key)
                elif hero_there and action.cmd == "act":
                    args["target"] = hero_there  # a heal aimed at the square a hero stands on
                else:
                    args["target"] = t.upper()
            changed = True
        if action.cmd in ("equip", "drop") and "card" in args:
            want = _norm(args["card"])
            for cid, card in content().cards.items():
                if want in (_norm(cid), _norm(card.name)):
                    args["card"] = cid
                    changed = True
                    break
        if action.cmd == "move":
            if "to" in args:
                args["to"] = args["to"].upper()
                changed = True
            if "path" in args and st.activation is not None:
                h = mx.hero(st, st.activation.hero)
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
        if action.cmd in ("act",) and "action" in args:
            args["action"] = args["action"].lower().replace("-", "_").replace(" ", "_")
            changed = True
        return Action.of(action.cmd, **args) if changed else action

    def explain(self, state: DungeonState, player: str, action: Action) -> str:
        st = state
        if st.phase == "intermission":
            return "Between levels you may only equip, drop or `ready`."
        if st.activation is None:
            if action.cmd == "activate":
                hid = self._hero_id(action.get("hero", "") or "")
                if hid is None:
                    return "There is no such hero in the party."
                h = next((x for x in st.heroes if x.id == hid), None)
                if h is None:
                    return f"{content().heroes[hid].name} is not in the party."
                if h.player != player:
                    return f"{mx.hero_stats(h).name} belongs to {h.name}."
                if mx.is_incap(h):
                    return f"{mx.hero_stats(h).name} is incapacitated and cannot activate."
                if h.activated:
                    return f"{mx.hero_stats(h).name} has already activated this turn."
            return "First activate a hero with `activate hero:`."
        h = mx.hero(st, st.activation.hero)
        stats = mx.hero_stats(h)
        if st.attack is not None and st.attack.stage:
            return f"Finish the attack first: {'reroll or keep' if st.attack.stage == 'reroll' else 'use the hearts'}."
        if action.cmd == "activate":
            return f"{stats.name} is still acting: `end` that activation first."
        if action.cmd == "ready":
            return "`ready` is for the break between levels."
        if action.cmd == "drop" and action.get("card") in h.equipment:
            return f"Without {content().cards[action.get('card', '')].name} {stats.name} could not stay standing."
        if action.cmd == "drop":
            return f"{stats.name} does not carry that card."
        if action.cmd in ("reroll", "keep"):
            return "There is no roll waiting for a reroll."
        if action.cmd == "heart":
            return "There are no hearts to use: they come only with a successful attack."
        if "knockdown" in h.debuffs and action.cmd not in ("end",):
            return f"{stats.name} is knocked down and must stand up first (`act action:stand`)."
        if action.cmd == "move":
            to = action.get("to", "")
            sq = parse_label(to or "")
            b = board(st.dungeon)
            if sq is None or not b.inside(sq):
                return f"`{to}` is not a square of this dungeon."
            if "immobile" in h.debuffs:
                return f"{stats.name} is immobile this activation."
            occ = mx.occupancy(st)
            if sq in occ:
                ref = occ[sq]
                if ref == f"h:{h.id}":
                    return f"{stats.name} already stands on {to}."
                if ref.startswith("h:"):
                    who = mx.hero(st, ref[2:])
                    return f"{to} is taken by {mx.hero_stats(who).name}; end your move on an empty square."
                m = mx.monster(st, int(ref[2:]))
                return f"{to} is held by {mx.monster_def(m).name if m else 'a monster'}; attack it or go around."
            if sq in mx.structures(st):
                return f"{to} is a structure."
            if sq in b.chasms:
                return f"{to} is a chasm."
            for i, lv in enumerate(st.levels):
                if not lv.active and sq in b.screen(i, content().rules.screen_range):
                    return f"{to} is inside the screen of a spawn point that has not opened yet."
            if st.activation.ap < 1 and st.activation.move_left == 0:
                return "No AP left for a move action."
            return f"{to} is out of reach this move (walls, enemies and difficult terrain count)."
        if action.cmd == "attack":
            t = action.get("target", "") or ""
            key = self._key_at(st, t)
            if key is None:
                return f"There is no enemy at {t}."
            style = action.get("with")
            if style and style not in stats.attacks:
                return f"{stats.name} has no {style} attack."
            rng = stats.attacks.get(style or "", max(stats.attacks.values(), default=1))
            ok, why = mx.hero_can_target(st, h, key, rng)
            if not ok:
                return why
            return "Not enough AP for that attack."
        if action.cmd == "potion":
            if h.potions == 0:
                return f"{stats.name} has no potions."
            if st.activation.potion_used:
                return "Only one potion per activation."
            return f"{stats.name} has nothing a potion would mend."
        if action.cmd == "equip":
            want = _norm(action.get("card", "") or "")
            cid = next((c for c, card in content().cards.items() if want in (_norm(c), _norm(card.name))), None)
            if cid is None:
                return f"There is no card called `{action.get('card', '')}`."
            name = content().cards[cid].name
            tile = board(st.dungeon).tile_of((h.x, h.y))
            if not any(f.card == cid and board(st.dungeon).tile_of((f.x, f.y)) == tile for f in st.floor):
                return f"{name} is not lying on {stats.name}'s tile (loot is picked up on the tile where it dropped)."
            if not self._can_carry(h, cid):
                return f"{stats.name} carries all they can (4 cards, at most 1 treasure): drop one first."
            return f"Equipping costs {content().rules.ap_costs['equip']} AP; {st.activation.ap} left."
        if action.cmd == "act":
            what = action.get("action", "") or ""
            costs = content().rules.ap_costs
            ua = content().unique.get(what)
            if ua is not None:
                if what not in stats.unique:
                    return f"{stats.name} does not have {ua.name}."
                if "ice" in h.debuffs:
                    return f"{stats.name} is iced: no unique actions."
                if st.activation.ap < ua.ap:
                    return f"{ua.name} costs {ua.ap} AP; {st.activation.ap} left."
                key = self._key_at(st, action.get("target", "") or "")
                if ua.kind == "attack" and key is not None:
                    ok, why = mx.hero_can_target(st, h, key, ua.range)
                    if not ok:
                        return why
                return f"No valid target for {ua.name} in range and sight."
            if what in costs and st.activation.ap < costs[what]:
                return f"{what} costs {costs[what]} AP; {st.activation.ap} left."
            if what in ("picklock", "smash"):
                return "There is no closed chest next to this hero."
            if what == "heal":
                t = next((x for x in st.heroes if x.id == self._hero_id(action.get("target", "") or "")), None)
                if t is not None and t.id == h.id:
                    return f"{stats.name} cannot heal themself this way; drink a potion instead."
                if t is not None and t.wounds == 0:
                    return f"{mx.hero_stats(t).name} has no wounds to heal."
                if t is not None:
                    return f"{mx.hero_stats(t).name} must be next to {stats.name} and in sight to be healed."
                return "Heal a wounded hero next to you (in sight), not yourself."
            if what == "brew":
                return f"{stats.name} already carries all the potions they can."
            return f"`{what}` is not an action {stats.name} can take now."
        return ""

    # ---- buttons and skips ----------------------------------------------------------------------------
    def button_actions(self, state: DungeonState, player: str, legal: list[Action]) -> list[Action]:
        """The choices of the moment: decisions, attacks, actions, a few useful moves, and `end`."""
        if len(legal) <= 20:
            return legal
        st = state
        if st.phase == "intermission":
            ready = [a for a in legal if a.cmd == "ready"]
            return [a for a in legal if a.cmd == "equip"][:19] + ready
        if st.activation is None or (st.attack is not None and st.attack.stage):
            return legal[:20]
        h = mx.hero(st, st.activation.hero)
        end = [a for a in legal if a.cmd == "end"]
        rest = [a for a in legal if a.cmd in ("attack", "act", "potion", "equip")]
        picked = rest[:19 - min(6, sum(1 for a in legal if a.cmd == "move"))]
        room = min(6, 19 - len(picked))
        moves = self._useful_moves(st, h, [a for a in legal if a.cmd == "move"])[:room]
        return picked + moves + end

    def _useful_moves(self, st: DungeonState, h: HeroState, moves: list[Action]) -> list[Action]:
        """Moves worth a button: into reach of the nearest enemy (or next to a closed chest), cheapest first."""
        if not moves:
            return []
        stats = mx.hero_stats(h)
        rng = max(stats.attacks.values(), default=1)
        opts = self._move_options(st, h)
        foes = [mx.target_fp(st, k) for k in mx.enemy_keys(st)]
        chests = [(board(st.dungeon).chests[i],) for i, lv in enumerate(st.levels) if lv.chest == "closed"]
        scored = []
        for a in moves:
            sq = parse_label(a.get("to", "") or "")
            if sq is None or sq not in opts:
                continue
            fp = (sq,)
            best = 999
            for tfp in foes:
                d = mx.route(st, fp, tfp, rng + 1)
                if d <= rng:
                    best = min(best, d)
            near_chest = any(mx.route(st, fp, c, 1) == 1 for c in chests)
            if best == 999 and not near_chest:
                continue
            # melee fighters want to be next to an enemy, shooters in range but not next to one
            fits = (best <= 1) if rng <= 1 else (1 < best <= rng)
            scored.append((opts[sq][0] > st.activation.move_left if st.activation else True,
                           0 if fits else 1, opts[sq][0], sq[1], sq[0], a))
        scored.sort(key=lambda t: t[:5])
        if scored:
            return [t[5] for t in scored]
        # nothing in reach: the moves that close in most on the nearest enemy or closed chest
        goals = foes + chests
        if not goals:
            return []
        dist = board(st.dungeon).route_distances([s for g in goals for s in g], mx.structures(st), 40)
        ranked = []
        for a in moves:
            sq = parse_label(a.get("to", "") or "")
            if sq is not None and sq in opts:
                ranked.append((dist.get(sq, 999), opts[sq][0], sq[1], sq[0], a))
        ranked.sort(key=lambda t: t[:4])
        return [t[4] for t in ranked]

    def preview(self, state: DungeonState, player: str, action: Action) -> tuple[DungeonState, list[Event]] | None:
        """The action played on a copy whose dice come from a stand-in generator (the real future rolls stay secret)."""
        trial = state.model_copy(deep=True)
        trial.rng = Rng(seed=state.rng.seed ^ 0x9E3779B1)  # never the game's own seed
        return self.apply(trial, player, action)

    def skip_action(self, state: DungeonState, player: str) -> Action | None:
        """A skipped player keeps the roll, lets hearts go, ends the activation, or starts their next hero."""
        legal = self.legal_actions(state, player)
        for want in (Action.of("keep"), Action.of("heart", use="none"), Action.of("end"), Action.of("ready")):
            if want in legal:
                return want
        return next((a for a in legal if a.cmd == "activate"), None)

    def value_label(self, state: DungeonState, player: str, command: str, option: str, value: str) -> str:
        """Attack targets in autocomplete show who stands there and the dice each attack rolls."""
        if command != "attack" or option != "target":
            return value
        ways = [self.label(state, a) for a in self.legal_actions(state, player)
                if a.cmd == "attack" and a.get("target") == value]
        return f"{value}: " + " / ".join(ways) if ways else value

    def label(self, state: DungeonState, action: Action) -> str:
        st = state
        a = action.argdict
        if action.cmd == "activate":
            return f"Activate {content().heroes[a['hero']].name}"
        if action.cmd == "move" and st.activation is not None:
            sq = parse_label(a["to"])
            opts = self._move_options(st, mx.hero(st, st.activation.hero))
            extra = " (1 AP)" if sq in opts and opts[sq][0] > st.activation.move_left else ""
            return f"Move {a['to']}{extra}"
        if action.cmd == "attack":
            key = self._key_at(st, a["target"])
            if key and st.activation is not None:
                h = mx.hero(st, st.activation.hero)
                dice = mx.hero_stats(h).dice[mx.STYLE_STAT[a["with"]]]
                return f"{a['with'].title()} {mx.target_name(st, key)} ({dice.text()})"
        if action.cmd == "act":
            uid = a["action"]
            basic = {"heal": "Heal", "brew": "Brew a potion", "picklock": "Pick the lock", "smash": "Smash the chest",
                     "stand": "Stand up", "switch": "Switch form"}
            name = content().unique[uid].name if uid in content().unique else basic.get(uid, uid.title())
            t = a.get("target", "")
            if t in content().heroes:
                t = content().heroes[t].name
            elif t and st.activation is not None:
                key = self._key_at(st, t)
                t = mx.target_name(st, key) if key else t
            return f"{name} {t}".strip()
        if action.cmd in ("equip", "drop"):
            who = f"{content().heroes[a['hero']].name}: " if a.get("hero") in content().heroes else ""
            return f"{who}{action.cmd} {content().cards[a['card']].name}" if who else \
                f"{action.cmd.title()} {content().cards[a['card']].name}"
        if action.cmd == "heart":
            who = content().heroes[a["hero"]].name if a.get("hero") in content().heroes else ""
            return {"heal": f"Heal {who}", "cure": f"Cure {a.get('debuff', '')} ({who})",
                    "potion": "Gain a potion", "none": "Skip heart"}[a["use"]]
        if action.cmd == "reroll" and st.attack is not None:
            i = int(a["die"]) - 1
            if 0 <= i < len(st.attack.offence):
                return f"Reroll die {a['die']} ({mx.die_text(st.attack.offence[i])})"
        fixed = {"end": "End activation", "keep": "Keep the roll", "potion": "Drink a potion", "ready": "Ready"}
        return fixed.get(action.cmd, action.text())

    # ---- apply --------------------------------------------------------------------------------------
    def apply(self, state: DungeonState, player: str, action: Action) -> tuple[DungeonState, list[Event]]:
        st = state.model_copy(deep=True)
        lines: list[str] = []
        rolled_before = st.rng.counter
        cmd, a = action.cmd, action.argdict
        costs = content().rules.ap_costs
        if cmd == "ready":
            st.ready.append(player)
            lines.append(f"{self._pname(st, player)} is ready.")
            if all(p in st.ready for p in {h.player for h in st.heroes}):
                st.phase = "heroes"
                st.ready = []
                mx.new_turn(st, lines)
            return st, self._events(st, lines, rolled_before)
        if cmd in ("equip", "drop") and st.phase == "intermission":
            h = mx.hero(st, a["hero"])
            self._equip_or_drop(st, h, cmd, a["card"], lines, free=True)
            return st, self._events(st, lines, rolled_before)
        if cmd == "activate":
            h = mx.hero(st, a["hero"])
            stats = mx.hero_stats(h)
            ap = stats.ap
            if "poison" in h.debuffs:
                ap = max(1, ap - 1)
            st.activation = Activation(hero=h.id, ap=ap)
            st.activations += 1
            h.expiring = [d for d in h.debuffs if d != "knockdown"]
            lines.append(f"{h.name} activates {stats.name} ({ap} AP).")
            return st, self._events(st, lines, rolled_before)
        act = st.activation
        assert act is not None
        h = mx.hero(st, act.hero)
        stats = mx.hero_stats(h)
        if cmd == "reroll":
            mx.reroll(st, int(a["die"]) - 1, lines)
        elif cmd == "keep":
            lines.append(f"{stats.name} keeps the roll.")
            mx.keep_roll(st, lines)
        elif cmd == "heart":
            mx.use_heart(st, a["use"], a.get("hero", ""), a.get("debuff", ""), lines)
        elif cmd == "move":
            sq = parse_label(a["to"])
            opts = self._move_options(st, h)
            cost, _, path = opts[sq]
            spent = ""
            if cost > act.move_left:
                act.ap -= costs["move"]
                ma = stats.move if "slow" not in h.debuffs else (stats.move + 1) // 2
                act.move_left += ma
                spent = f" ({costs['move']} AP)"
            act.move_left -= cost
            h.x, h.y = sq
            lines.append(f"{stats.name} moves to {a['to']}{spent}; {act.move_left} movement left.")
            b = board(st.dungeon)
            for s in path:
                if b.terrain_at(s) in mx.HAZARDS:
                    mx.give_debuff_hero(h, mx.HAZARDS[b.terrain_at(s)], lines)
        elif cmd == "attack":
            style = a["with"]
            act.ap -= costs[style]
            key = self._key_at(st, a["target"])
            mx.start_attack(st, h, style, style, mx.STYLE_STAT[style], "0", [], [key], lines)
        elif cmd == "act":
            self._apply_act(st, h, a["action"], a.get("target"), lines)
        elif cmd == "potion":
            rules = content().rules
            h.potions -= 1
            act.potion_used = True
            healed = min(h.wounds, rules.potion_heals)
            h.wounds -= healed
            if rules.potion_cures_all:
                h.debuffs, h.expiring = [], []
            lines.append(f"{stats.name} drinks a potion ({h.potions} left): {healed} wound{'s' if healed != 1 else ''} healed"
                         f" (now {h.wounds}/{stats.life})" + (", debuffs gone." if rules.potion_cures_all else "."))
        elif cmd in ("equip", "drop"):
            self._equip_or_drop(st, h, cmd, a["card"], lines, free=False)
        elif cmd == "end":
            self._finish_activation(st, h, lines)
            return st, self._events(st, lines, rolled_before)
        # after an action: a fallen active hero ends the activation; a clear level opens the next one
        if st.phase == "heroes" and st.attack is None:
            if mx.maybe_advance_level(st, lines):
                return st, self._events(st, lines, rolled_before)
            if st.activation is not None and mx.is_incap(h):
                self._finish_activation(st, h, lines)
        return st, self._events(st, lines, rolled_before)

    def _apply_act(self, st: DungeonState, h: HeroState, what: str, target: str | None, lines: list[str]) -> None:
        act = st.activation
        assert act is not None
        costs = content().rules.ap_costs
        stats = mx.hero_stats(h)
        if what == "stand":
            act.ap -= costs["stand"]
            h.debuffs.remove("knockdown")
            lines.append(f"{stats.name} stands up.")
        elif what == "heal":
            act.ap -= costs["heal"]
            t = mx.hero(st, target or "")
            self._heal(st, h, t, content().rules.heal_amount, False, lines)
        elif what == "brew":
            act.ap -= costs["brew"]
            gain = 1
            if "alchemist" in stats.attributes:
                d = mx.roll_dice(st, ["B"])
                if mx.face(d[0])[0] > 0:
                    gain = 2
                lines.append(f"Alchemist roll {mx.die_text(d[0])}.")
            h.potions = min(stats.potions, h.potions + gain)
            lines.append(f"{stats.name} brews a potion ({h.potions}/{stats.potions}).")
        elif what in ("picklock", "smash"):
            act.ap -= costs[what]
            i = self._adjacent_chest(st, h)
            assert i is not None
            rules = content().rules
            spec = stats.dice["dex"] if what == "picklock" else stats.dice["str"]
            dspec = rules.picklock_defence if what == "picklock" else rules.smash_defence
            od = mx.roll_dice(st, spec.dice)
            ot, ok = mx.score(od, spec.stars, False)
            dd = mx.roll_dice(st, dspec.dice)
            dt, dk = mx.score(dd, dspec.stars, False)
            verb = "picks the lock" if what == "picklock" else "smashes the chest"
            text = f"{stats.name} {verb}: {mx.roll_text(od, spec.stars, ot, ok)} vs {mx.roll_text(dd, dspec.stars, dt, dk)}"
            if ot <= dt:
                lines.append(text + ": it holds.")
                return
            lines.append(text + ": it opens!")
            cx, cy = board(st.dungeon).chests[i]
            st.levels[i].chest = "open"
            if what == "smash":
                mx.draw_card(st, "loot", cx, cy, lines)
                return
            cid = mx.draw_card(st, "treasure", cx, cy, lines)
            if cid is not None and content().cards[cid].booty:
                st.levels[i].chest = "booty"
                inside = mx.take_card(st, "treasure", lines, allow_booty=False)
                st.booty_cards = [inside] if inside else []
                st.monsters.append(MonsterState(uid=st.next_uid, kind="boo_booty", x=cx, y=cy, level=i))
                st.next_uid += 1
                lines.append("Boo Booty! The chest sprouts legs and guards its treasure.")
        elif what == "switch":
            act.ap -= costs["switch"]
            n = len(mx.hero_def(h).profiles) + 1
            h.profile = (h.profile + 1) % n
            new = mx.hero_stats(h)
            h.wounds = min(h.wounds, new.life)
            h.potions = min(h.potions, new.potions)
            lines.append(f"{stats.name} switches to {new.name}.")
        else:
            ua = content().unique[what]
            act.ap -= ua.ap
            if ua.kind == "heal":
                targets = [t for t in st.heroes if self._heal_reach(st, h, t, ua.range)] if ua.area == "all" \
                    else [mx.hero(st, target or "")]
                lines.append(f"{stats.name} uses {ua.name}.")
                for t in targets:
                    if t.wounds or (ua.cure and t.debuffs):
                        self._heal(st, h, t, ua.amount, ua.cure, lines)
                return
            if ua.area == "adjacent":
                keys = [k for k in mx.enemy_keys(st) if mx.hero_can_target(st, h, k, 1)[0]]
            else:
                first = self._key_at(st, target or "")
                assert first is not None
                keys = [first]
                if ua.area == "around_target":
                    tfp = mx.target_fp(st, first)
                    keys += [k for k in mx.enemy_keys(st) if k != first and mx.route(st, tfp, mx.target_fp(st, k), 1) <= 1
                             and mx.hero_can_target(st, h, k, ua.range)[0]]
            mx.start_attack(st, h, what, ua.style or "melee", ua.stat or "str", ua.bonus.text(), list(ua.inflicts), keys, lines)

    def _heal(self, st: DungeonState, h: HeroState, t: HeroState, amount: int, cure: bool, lines: list[str]) -> None:
        stats = mx.hero_stats(h)
        was = mx.is_incap(t)
        if "healer" in stats.attributes and t.wounds:
            d = mx.roll_dice(st, ["B"])
            if mx.face(d[0])[0] > 0:
                amount += 1
            lines.append(f"Healer roll {mx.die_text(d[0])}.")
        healed = min(amount, t.wounds)
        t.wounds -= healed
        if cure:
            t.debuffs, t.expiring = [], []
        tname = mx.hero_stats(t).name
        lines.append(f"{stats.name} heals {tname}: {healed} wound{'s' if healed != 1 else ''} removed"
                     + (", debuffs cured" if cure else "") + (f"; {tname} is back on their feet." if was and not mx.is_incap(t) else "."))

    def _equip_or_drop(self, st: DungeonState, h: HeroState, cmd: str, cid: str, lines: list[str], free: bool) -> None:
        name = content().cards[cid].name
        hname = mx.hero_stats(h).name
        if cmd == "equip":
            idx = next(i for i, f in enumerate(st.floor) if f.card == cid)
            st.floor.pop(idx)
            h.equipment.append(cid)
            if not free:
                st.activation.ap -= content().rules.ap_costs["equip"]  # type: ignore[union-attr]
            lines.append(f"{hname} equips {name}.")
            immune = mx.hero_stats(h).immune
            gone = [d for d in h.debuffs if mx.immune_to(immune, d)]
            if gone:  # a new immunity removes a debuff already suffered at once
                h.debuffs = [d for d in h.debuffs if d not in gone]
                h.expiring = [d for d in h.expiring if d not in gone]
                lines.append(f"{name} frees {hname} of {', '.join(gone)}.")
        else:
            h.equipment.remove(cid)
            st.floor.append(FloorCard(card=cid, x=h.x, y=h.y))
            h.potions = min(h.potions, mx.hero_stats(h).potions)
            if not free:
                st.activation.ap -= content().rules.ap_costs["drop"]  # type: ignore[union-attr]
            lines.append(f"{hname} drops {name} at {sq_label(h.x, h.y)}.")

    def _finish_activation(self, st: DungeonState, h: HeroState, lines: list[str]) -> None:
        stats = mx.hero_stats(h)
        if not mx.is_incap(h) and h.wounds and mx.adjacent_visible_terrain(st, mx.hfp(h), "goddess"):
            h.wounds -= 1
            lines.append(f"The goddess mends 1 of {stats.name}'s wounds.")
        h.debuffs = [d for d in h.debuffs if d not in h.expiring]
        h.expiring = []
        h.activated = True
        st.activation = None
        st.attack = None
        mx.monsters_react(st, lines, lead=f"{stats.name}'s activation ends. ")
        if st.phase != "heroes":
            return
        mx.spawn_one(st, st.level, lines)
        if not mx.heroes_waiting(st):
            mx.boss_special(st, lines)
            if st.phase == "heroes":
                mx.new_turn(st, lines)

    def _events(self, st: DungeonState, lines: list[str], rolled_before: int) -> list[Event]:
        if not lines:
            return []
        rolled = st.rng.counter != rolled_before
        kind = "monsters" if any("monsters react" in ln for ln in lines) else "info"
        return [Event(text="\n".join(lines), kind=kind, irreversible=rolled)]

    @staticmethod
    def _pname(st: DungeonState, player: str) -> str:
        return next((h.name for h in st.heroes if h.player == player), player)

    # ---- views and summary ------------------------------------------------------------------------------
    def view(self, state: DungeonState, player: str | None) -> DungeonView:
        return build_view(state, self.status(state))

    def summary(self, state: DungeonState) -> dict[str, Any]:
        st = state
        players = []
        for h in st.heroes:
            stats = mx.hero_stats(h)
            ap_left = st.activation.ap if st.activation and st.activation.hero == h.id else (0 if h.activated or mx.is_incap(h) else stats.ap)
            players.append({
                "name": h.name, "player": h.player, "hero": stats.name, "position": sq_label(h.x, h.y),
                "wounds": h.wounds, "life": stats.life, "potions": h.potions, "ap_left": ap_left,
                "debuffs": list(h.debuffs), "incapacitated": mx.is_incap(h),
                "equipment": [content().cards[c].name for c in h.equipment],
            })
        return {
            "level": st.level + 1,
            "turn": st.turn,
            "result": st.result,
            "players": players,
            "monsters": [{"kind": mx.monster_def(m).name, "position": sq_label(m.x, m.y), "wounds": m.wounds}
                         for m in st.monsters],
        }

    def rules_topics(self) -> dict[str, str]:
        return dict(RULES_TOPICS)


def _dedupe(actions: list[Action]) -> list[Action]:
    return list(dict.fromkeys(actions))
