"""A hero's activation: the AP actions (move, attack, act, potion, equip, drop) until `end`."""
from __future__ import annotations

from typing import Any

from games.core import Action, Status
from games.core.actions import action_of
from games.core.grid import label as sq_label
from games.core.grid import parse_label

from .. import cards, loot
from .. import hero_actions as ha
from ..attributes import grabbed
from ..board import board
from ..combat import defence_dice_text
from ..data import STYLE_STAT, card_id, content, hero_id
from ..reach import Reach
from ..sight import (
    enemy_keys,
    hero_can_target,
    key_at,
    occupancy,
    route,
    sees,
    structures,
    target_attrs,
    target_fp,
    target_name,
)
from ..state import DungeonState, HeroState
from ..stats import hero, hero_def, hero_stats, hfp, is_incap, monster, monster_def, stat_line
from ..turns import end_activation, settle
from .base import DungeonPhase, activation_key, active_hero, dedupe, remembered_status

BASIC_ACTS = {"heal": "Heal", "brew": "Brew a potion", "picklock": "Pick the lock", "smash": "Smash the chest",
              "stand": "Stand up", "switch": "Switch form"}


class ActivationPhase(DungeonPhase):
    name = "activation"
    skips = (Action.of("end"),)

    def status(self, game: Any, state: DungeonState) -> Status:
        assert state.activation is not None
        h = active_hero(state)
        name, ap = stat_line(h).name, state.activation.ap
        return remembered_status(
            ("activation", h.player, h.name, name, ap, state.turn, state.activations),
            lambda: Status(phase="activation", round=state.turn, round_name="turn", to_act=[h.player],
                           turn_key=activation_key(state), waiting_for=f"{h.name} to act with {name} ({ap} AP left)"))

    # ---- legal actions --------------------------------------------------------------------------
    def legal(self, game: Any, state: DungeonState, player: str) -> list[Action]:
        h = active_hero(state)
        if h.player != player:
            return []
        return legal_actions(state, h)

    # ---- effects ----------------------------------------------------------------------------------
    def act(self, game: Any, st: DungeonState, player: str, action: Action, lines: list[str]) -> None:
        cmd, a = action.cmd, action.argdict
        activation = st.activation
        assert activation is not None
        h = active_hero(st)
        if cmd == "move":
            sq = parse_label(a["to"])
            assert sq is not None
            ha.move(st, h, a["to"], sq, lines)
        elif cmd == "attack":
            ha.attack(st, h, a["with"], a["target"], lines)
        elif cmd == "act":
            ha.act(st, h, a["action"], a.get("target"), lines)
        elif cmd == "potion":
            ha.potion(st, h, lines)
        elif cmd == "equip":
            loot.equip(st, h, a["card"], lines)
            activation.ap -= content().rules.ap_costs["equip"]
        elif cmd == "drop":
            loot.drop(st, h, a["card"], lines)
            activation.ap -= content().rules.ap_costs["drop"]
        elif cmd == "end":
            end_activation(st, h, lines)
            return
        settle(st, h, lines)

    # ---- words -------------------------------------------------------------------------------------
    def explain(self, game: Any, state: DungeonState, player: str, action: Action) -> str:
        return explain(state, action)

    def label(self, game: Any, state: DungeonState, action: Action) -> str | None:
        st, a = state, action.argdict
        if action.cmd == "move":
            assert st.activation is not None
            sq = parse_label(a["to"])
            opts = ha.move_costs(st, active_hero(st))
            extra = " (1 AP)" if sq is not None and sq in opts and opts[sq][0] > st.activation.move_left else ""
            return f"Move {a['to']}{extra}"
        if action.cmd == "attack":
            key = key_at(st, a["target"])
            if key:
                dice = hero_stats(active_hero(st)).dice[STYLE_STAT[a["with"]]]
                versus = defence_text(st, key, a["with"])
                return f"{a['with'].title()} {target_name(st, key)}: {dice.text()} vs {versus}"
        if action.cmd == "act":
            return _act_label(st, a)
        if action.cmd in ("equip", "drop"):
            return f"{action.cmd.title()} {content().cards[a['card']].name}"
        return {"end": "End activation", "potion": "Drink a potion"}.get(action.cmd)

    def buttons(self, game: Any, state: DungeonState, player: str, legal: list[Action]) -> list[Action]:
        """The choices of the moment: attacks, actions, a few useful moves, and `end`."""
        if len(legal) <= 20:
            return legal
        h = active_hero(state)
        end = [a for a in legal if a.cmd == "end"]
        rest = [a for a in legal if a.cmd in ("attack", "act", "potion", "equip")]
        picked = rest[:19 - min(6, sum(1 for a in legal if a.cmd == "move"))]
        room = min(6, 19 - len(picked))
        moves = useful_moves(state, h, [a for a in legal if a.cmd == "move"])[:room]
        return picked + moves + end


def _act_label(st: DungeonState, a: dict[str, str]) -> str:
    """An `act` button: the action and its target, then what it costs in AP and, for a roll against a defence,
    the dice as an attack's button says them ("Twin Strike Gouger (G3) (2 AP, 3B vs 2B)")."""
    c = content()
    h = active_hero(st)
    uid = a["action"]
    ua = c.unique.get(uid)
    name = ua.name if ua is not None else BASIC_ACTS.get(uid, uid.title())
    t, key = a.get("target", ""), None
    if t in c.heroes:
        t = c.heroes[t].name
    elif t:
        key = key_at(st, t)
        t = target_name(st, key) if key else t
    notes: list[str] = []
    if ua is not None:
        notes.append(f"{ua.ap} AP")
        if ua.kind == "attack" and ua.stat is not None and ua.style is not None:
            dice = hero_stats(h).dice[ua.stat] + ua.bonus
            versus = defence_text(st, key, ua.style) if key else "each target's defence"
            notes.append(f"{dice.text()} vs {versus}")
        if ua.dangerous:
            notes.append("dangerous")
        card = cards.card_of_action(h, uid)
        if card is not None:  # a card action: which card it comes from
            notes.insert(0, card)
        if ua.kind == "buff" and ua.range == 0:
            t = ""  # the user only: no name needed
    else:
        costs = c.rules.ap_costs
        if uid in costs:
            notes.append(f"{costs[uid]} AP")
        if uid in ("picklock", "smash"):  # DEX against the lock, STR against the chest
            stats = hero_stats(h)
            mine, theirs = ((stats.dice["dex"], c.rules.picklock_defence) if uid == "picklock"
                            else (stats.dice["str"], c.rules.smash_defence))
            notes.append(f"{mine.text()} vs {theirs.text()}")
    return f"{name} {t}".strip() + (f" ({', '.join(notes)})" if notes else "")


_END = action_of("end")
_STAND = action_of("act", action="stand")
_BREW = action_of("act", action="brew")
_PICKLOCK = action_of("act", action="picklock")
_SMASH = action_of("act", action="smash")
_SWITCH = action_of("act", action="switch")
_POTION = action_of("potion")


def legal_actions(st: DungeonState, h: HeroState) -> list[Action]:
    act = st.activation
    assert act is not None
    if is_incap(h):
        return [_END]
    c = content()
    costs = c.rules.ap_costs
    ap = act.ap
    if "knockdown" in h.debuffs:
        return [_STAND, _END] if ap >= costs["stand"] else [_END]
    stats = stat_line(h)
    out: list[Action] = []
    reach = Reach(st, h)  # the hero's ranges and sight of each enemy and hero, asked once for every action
    for style, rng in stats.attacks.items():
        if ap >= costs[style]:
            out += [action_of("attack", target=t, **{"with": style}) for t in reach.labels(rng)]
    if "ice" not in h.debuffs:
        for uid in stats.unique:
            if ap >= c.unique[uid].ap:
                out += [action_of("act", action=uid, target=t) if t else action_of("act", action=uid)
                        for t in ha.unique_targets(st, h, uid, reach)]
    if ap >= costs["heal"]:
        heal_range = c.rules.heal_range
        for t in st.heroes:
            if t.wounds > 0 and t.id != h.id and reach.reaches_hero(t, heal_range):
                out.append(action_of("act", action="heal", target=t.id))
    if ap >= costs["brew"] and h.potions < stats.potions:
        out.append(_BREW)
    if ha.adjacent_chest(st, h, reach) is not None:
        if ap >= costs["picklock"]:
            out.append(_PICKLOCK)
        if ap >= costs["smash"]:
            out.append(_SMASH)
    if ap >= costs["switch"] and hero_def(h).profiles:
        out.append(_SWITCH)
    spent = ap <= 0  # rule (AP): once the AP are used up the hero may do nothing else, free actions included
    if not spent and h.potions > 0 and not act.potion_used and (h.wounds > 0 or h.debuffs):
        out.append(_POTION)
    if st.floor and ap >= costs["equip"]:
        b = board(st.dungeon)
        tile = b.tile_of((h.x, h.y))
        for fc in st.floor:
            if b.tile_of((fc.x, fc.y)) == tile and loot.can_carry(h, fc.card):
                out.append(action_of("equip", card=fc.card))
    if not spent:
        out += [action_of("drop", card=cid) for cid in h.equipment if loot.can_drop(h, cid)]
    out.append(_END)
    # moves last: the common choices come first wherever the list is shown (hints, buttons); they are distinct
    # and of their own command, so only the others need deduplicating
    return dedupe(out) + ha.move_actions(st, h)


def explain(st: DungeonState, action: Action) -> str:
    """Why an action the active hero's player tried is not legal now."""
    act = st.activation
    assert act is not None
    h = active_hero(st)
    stats = hero_stats(h)
    if action.cmd == "activate":
        return f"{stats.name} is still acting: `end` that activation first."
    if action.cmd == "ready":
        return "`ready` is for the break between levels."
    free_act = action.cmd == "potion" or (action.cmd == "drop" and action.get("card") in h.equipment)
    if free_act and act.ap <= 0:
        return f"{stats.name} has used up every AP: nothing else this activation (even free actions); `end` it."
    if action.cmd == "drop" and action.get("card") in h.equipment:
        return f"Without {content().cards[action.get('card', '') or ''].name} {stats.name} could not stay standing."
    if action.cmd == "drop":
        return f"{stats.name} does not carry that card."
    if action.cmd in ("reroll", "keep"):
        return "There is no roll waiting for a reroll."
    if action.cmd == "heart":
        return "There are no hearts to use: they come only with a successful attack."
    if "knockdown" in h.debuffs and action.cmd not in ("end",):
        return f"{stats.name} is knocked down and must stand up first (`act action:stand`)."
    if action.cmd == "move":
        return _explain_move(st, h, action.get("to", "") or "")
    if action.cmd == "attack":
        t = action.get("target", "") or ""
        key = key_at(st, t)
        if key is None:
            return f"There is no enemy at {t}."
        style = action.get("with")
        if style and style not in stats.attacks:
            return f"{stats.name} has no {style} attack."
        rng = stats.attacks.get(style or "", max(stats.attacks.values(), default=1))
        ok, why = hero_can_target(st, h, key, rng)
        if not ok:
            return why
        return "Not enough AP for that attack."
    if action.cmd == "potion":
        if h.potions == 0:
            return f"{stats.name} has no potions."
        if act.potion_used:
            return "Only one potion per activation."
        return f"{stats.name} has nothing a potion would mend."
    if action.cmd == "equip":
        cid = card_id(action.get("card", "") or "")
        if cid is None:
            return f"There is no card called `{action.get('card', '')}`."
        name = content().cards[cid].name
        tile = board(st.dungeon).tile_of((h.x, h.y))
        if not any(f.card == cid and board(st.dungeon).tile_of((f.x, f.y)) == tile for f in st.floor):
            return f"{name} is not lying on {stats.name}'s tile (loot is picked up on the tile where it dropped)."
        if not loot.can_carry(h, cid):
            return f"{stats.name} carries all they can (4 cards, at most 1 treasure): drop one first."
        return f"Equipping costs {content().rules.ap_costs['equip']} AP; {act.ap} left."
    if action.cmd == "act":
        return _explain_act(st, h, action)
    return ""


def _explain_move(st: DungeonState, h: HeroState, to: str) -> str:
    act = st.activation
    assert act is not None
    stats = hero_stats(h)
    sq = parse_label(to)
    b = board(st.dungeon)
    if sq is None or not b.inside(sq):
        return f"`{to}` is not a square of this dungeon."
    if "immobile" in h.debuffs:
        return f"{stats.name} is immobile this activation."
    if grabbed(st, "heroes", hfp(h), stats.attributes):
        return f"{stats.name} is held by a grabby monster next to them: no moving while it stands there in sight."
    occ = occupancy(st)
    if sq in occ:
        ref = occ[sq]
        if ref == f"h:{h.id}":
            return f"{stats.name} already stands on {to}."
        if ref.startswith("h:"):
            who = hero(st, ref[2:])
            return f"{to} is taken by {hero_stats(who).name}; end your move on an empty square."
        m = monster(st, int(ref[2:]))
        return f"{to} is held by {monster_def(m).name if m else 'a monster'}; attack it or go around."
    if sq in structures(st):
        return f"{to} is a structure."
    if sq in b.chasms:
        return f"{to} is a chasm."
    reach = content().rules.screen_range
    for i, lv in enumerate(st.levels):
        if not lv.active and sq in b.screen(i, reach):
            return (f"{to} is inside the screen of the spawn point at {sq_label(*b.spawns[i])}, which has not opened "
                    f"yet: no hero may come within {reach} squares of it in its sight until it opens.")
    if act.ap < 1 and act.move_left == 0:
        return "No AP left for a move action."
    return f"{to} is out of reach this move (walls, enemies and difficult terrain count)."


def _explain_act(st: DungeonState, h: HeroState, action: Action) -> str:
    act = st.activation
    assert act is not None
    stats = hero_stats(h)
    what = action.get("action", "") or ""
    costs = content().rules.ap_costs
    ua = content().unique.get(what)
    if ua is not None:
        card = cards.action_card(what)
        if what not in stats.unique:
            if card is not None:
                return f"{ua.name} is an action of the card {card}; {stats.name} does not carry that card."
            return f"{stats.name} does not have {ua.name}."
        if "ice" in h.debuffs:
            return f"{stats.name} is iced: no unique actions" + (" (card actions included)." if card else ".")
        if act.ap < ua.ap:
            return f"{ua.name} costs {ua.ap} AP; {act.ap} left."
        if ua.kind == "buff":
            if ua.range == 0:
                return f"{ua.name} works only on {stats.name} themself (`act action:{what}`)."
            return f"{ua.name} reaches a standing hero within {ua.range} square{'s' if ua.range > 1 else ''}, in sight."
        key = key_at(st, action.get("target", "") or "")
        if ua.kind == "attack" and key is not None:
            ok, why = hero_can_target(st, h, key, ua.range)
            if not ok:
                return why
        return f"No valid target for {ua.name} in range and sight."
    if what in costs and act.ap < costs[what]:
        return f"{what} costs {costs[what]} AP; {act.ap} left."
    if what in ("picklock", "smash"):
        return "There is no closed chest next to this hero."
    if what == "heal":
        t = next((x for x in st.heroes if x.id == hero_id(action.get("target", "") or "")), None)
        if t is not None and t.id == h.id:
            return f"{stats.name} cannot heal themself this way; drink a potion instead."
        if t is not None and t.wounds == 0:
            return f"{hero_stats(t).name} has no wounds to heal."
        if t is not None:
            return f"{hero_stats(t).name} must be next to {stats.name} and in sight to be healed."
        return "Heal a wounded hero next to you (in sight), not yourself."
    if what == "brew":
        return f"{stats.name} already carries all the potions they can."
    return f"`{what}` is not an action {stats.name} can take now."


def useful_moves(st: DungeonState, h: HeroState, moves: list[Action]) -> list[Action]:
    """Moves worth a button (a few out of dozens), in this order:

    1. after a partial move, what is left of it (no AP spent): the free squares that close in most on the nearest
       enemy or closed chest, the farthest first;
    2. squares from which an enemy can be attacked (in range and in sight; a melee fighter next to it, a shooter in
       range but not next to it first), cheapest first;
    3. squares next to a closed chest;
    4. the squares that close in most on the nearest enemy or closed chest (by route, however far)."""
    if not moves:
        return []
    stats = hero_stats(h)
    rng = max(stats.attacks.values(), default=1)
    opts = ha.move_costs(st, h)
    left = st.activation.move_left if st.activation else 0
    foes = [(target_fp(st, k), target_attrs(st, k)) for k in enemy_keys(st)]
    chests = [(board(st.dungeon).chests[i],) for i, lv in enumerate(st.levels) if lv.chest == "closed"]
    goals = [fp for fp, _ in foes] + chests
    dist = board(st.dungeon).route_distances([s for g in goals for s in g], structures(st)) if goals else {}
    squares = [(a, sq) for a in moves if (sq := parse_label(a.get("to", "") or "")) is not None and sq in opts]
    free, attack, chest = [], [], []
    for a, sq in squares:
        cost = opts[sq][0]
        far = dist.get(sq, 999)
        if 0 < left and cost <= left:
            free.append((far, -cost, sq[1], sq[0], a))
        reach = [d for fp, attrs in foes if (d := route(st, (sq,), fp, rng + 1)) <= rng
                 and sees(st, "heroes", (sq,), stats.attributes, fp, attrs)]
        if reach:
            best = min(reach)
            fits = (best <= 1) if rng <= 1 else (1 < best <= rng)  # melee next to it, shooters not
            attack.append((cost > left, 0 if fits else 1, cost, sq[1], sq[0], a))
        if any(route(st, (sq,), c, 1) == 1 for c in chests):
            chest.append((cost > left, cost, sq[1], sq[0], a))
    closing = sorted((dist.get(sq, 999), opts[sq][0], sq[1], sq[0], a) for a, sq in squares if sq in dist)
    out: list[Action] = []
    for tier, n in ((sorted(free, key=lambda t: t[:4]), 3), (sorted(attack, key=lambda t: t[:5]), 6),
                    (sorted(chest, key=lambda t: t[:4]), 6), (closing, 6)):
        picked = [t[-1] for t in tier if t[-1] not in out][:n]
        out += picked
    return out


def defence_text(st: DungeonState, key: str, style: str) -> str:
    """The dice a target defends with against an attack of `style` ("2B", "1B1S"), as a button says it."""
    return defence_dice_text(st, key, style)
