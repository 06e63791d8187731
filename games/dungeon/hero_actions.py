"""What a hero's action points buy: where a move may go, whom a heal or unique action reaches, and the
effects of `move`, `attack`, `act` and `potion`. The activation phase decides when they are legal."""
from __future__ import annotations

from collections.abc import Mapping
from itertools import accumulate, count
from operator import add, itemgetter
from typing import Any

from games.core import Action
from games.core.actions import action_of
from games.core.grid import label as sq_label

from . import attributes, cards, dice, marks
from .board import Board, Sq, board
from .combat import give_debuff_hero, start_attack, step_costs, terrain_debuff
from .data import STYLE_STAT, content
from .loot import draw_card, draw_treasure, take_card
from .moves import NEVER, SmallMoves, bits_of, mask_moves, step_classes
from .reach import Reach
from .sight import (
    enemy_keys,
    hero_can_target,
    key_at,
    route,
    sees,
    structures,
    target_fp,
    target_name,
)
from .state import Activation, DungeonState, HeroState, MonsterState
from .stats import KIND_SQUARE, SQUARE, hero, hero_attributes, hero_def, hero_stats, hfp, is_incap, stat_line

MoveOptions = dict[Sq, tuple[int, int, tuple[Sq, ...]]]  # square -> (cost, hazards crossed, path)


def move_allowance(h: HeroState, act: Activation) -> int:
    """Movement a hero may still use: what is left of a move action, plus a new one if the AP allow."""
    ma = stat_line(h).move
    if "slow" in h.debuffs:
        ma = (ma + 1) // 2
    return act.move_left + (ma if act.ap >= content().rules.ap_costs["move"] else 0)


def move_options(st: DungeonState, h: HeroState) -> MoveOptions:
    """Squares the active hero may move to now, with the path to each."""
    entry = _move_entry(st, h)
    if entry is None:
        return {}
    found: SmallMoves = entry[0].fill()
    return {sq: (c, hz, found.path(sq)) for sq, (c, hz) in found.items()}


def move_costs(st: DungeonState, h: HeroState) -> Mapping[Sq, tuple[int, int]]:
    """Squares the active hero may move to now -> (movement spent, hazards entered), without the paths (a
    shared table: read it only)."""
    entry = _move_entry(st, h)
    return {} if entry is None else entry[0].fill()


def move_actions(st: DungeonState, h: HeroState) -> list[Action]:
    """The `move` actions to the squares of `move_options`, by row then column (a shared list: read it only)."""
    entry = _move_entry(st, h)
    if entry is None:
        return []
    if entry[1] is None:
        every = 0
        for _c, _hz, mask in entry[0].ends:
            every |= mask
        entry[1] = _moves_to(board(st.dungeon), every)
    return entry[1]


# per board: the `move` action to each square number (None until first needed), the mask of the squares whose
# action is made, and each number's place row by row (y * width + x), so a search's squares are listed by row
# then column with one sort
_MOVE_TABLES: dict[str, tuple[list[Action | None], list[int], list[int]]] = {}


def _moves_to(b: Board, every: int) -> list[Action]:
    """The `move` actions to the squares of a mask of square numbers, by row then column.

    The numbers of the squares are added up from the runs of 0s between the mask's binary digits (each is the
    0s before it plus the 1s before it), all in C: no loop over the squares in Python."""
    table = _MOVE_TABLES.get(b.id)
    if table is None:
        if len(_MOVE_TABLES) > 1000:
            _MOVE_TABLES.clear()
        table = _MOVE_TABLES[b.id] = ([None] * len(b.squares), [0], [y * b.width + x for x, y in b.squares])
    acts, made, order = table
    runs = bin(every)[:1:-1].split("1")  # digit n is bit n
    runs.pop()
    numbers = list(map(add, accumulate(map(len, runs)), count()))
    if every & ~made[0]:
        for n in numbers:
            if acts[n] is None:
                acts[n] = action_of("move", to=sq_label(*b.squares[n]))
        made[0] |= every
    numbers.sort(key=order.__getitem__)
    return list(map(acts.__getitem__, numbers))  # type: ignore[arg-type]  # every square's action is made


def _move_entry(st: DungeonState, h: HeroState) -> list[Any] | None:
    """The remembered [move options (a `SmallMoves`, listed when asked: `fill`), move actions or None] of the active
    hero now; None when it may not move."""
    act = st.activation
    assert act is not None
    debuffs = h.debuffs
    if "immobile" in debuffs or "knockdown" in debuffs:
        return None
    stats = stat_line(h)
    heroes = tuple(map(SQUARE, st.heroes))
    monsters = tuple(map(KIND_SQUARE, st.monsters))  # all a monster's square and base depend on
    # only a Grabby monster holds a hero: the full check where one stands (the kinds looked up in C)
    if not attributes.kinds_with("grabby").isdisjoint(map(_KIND_OF, monsters)):
        if attributes.grabbed(st, "heroes", hfp(h), stats.attributes):
            return None
    allowance = move_allowance(h, act)
    if allowance <= 0:
        return None
    structs = structures(st)
    c = content()
    screen_range = c.rules.screen_range
    closed = tuple([i for i, lv in enumerate(st.levels) if not lv.active])  # screened spawn points
    # what the search depends on: the hero (its attributes come with kind, profile and equipment), the
    # structures, the screens, and the squares heroes and monsters hold (a monster's: its kind and square)
    key = (st.dungeon, (h.x, h.y), allowance, (h.id, h.profile, *h.equipment), structs, closed, screen_range,
           heroes, monsters)
    found = _MOVES.get(key)
    if found is not None:
        return found

    b = board(st.dungeon)
    fly = "fly" in stats.attributes
    sure = fly or "surefoot" in stats.attributes  # Fly and Surefoot pay no extra for difficult terrain
    blk, classes, ends = _hero_template(b, structs, closed, screen_range, fly, sure)
    hgt = b.height
    for x, y in heroes:  # no model's square may be ended on; a monster's may not be passed either (unless flying)
        ends |= 1 << (x * hgt + y)
    held = 0
    kinds = c.monsters
    square = 3 | 3 << hgt  # a large base's four squares (`mfp`) from its anchor: n, n + 1, n + hgt, n + hgt + 1
    for kind, x, y in monsters:
        held |= (square if kinds[kind].large else 1) << (x * hgt + y)
    ends |= held
    if not fly and held:
        blk |= held
        classes = (classes[0] & ~held, classes[1] & ~held, classes[2] & ~held, classes[3] & ~held)
    if len(_MOVES) > 512:
        _MOVES.clear()
    found = _MOVES[key] = [mask_moves(b, h.x * hgt + h.y, allowance, blk, classes, ends, fill=False), None]
    return found


_KIND_OF = itemgetter(0)  # a monster's kind from its `KIND_SQUARE` fields


_HERO_TEMPLATES: dict[tuple[object, ...], tuple[int, tuple[int, int, int, int], int]] = {}


def _hero_template(b: Board, structs: frozenset[Sq], closed: tuple[int, ...], screen_range: int, fly: bool,
                   sure: bool) -> tuple[int, tuple[int, int, int, int], int]:
    """For `mask_moves` (as bitmasks), what a hero meets whatever the models do: the squares
    it may not pass (the screens of closed spawn points; structures and chasms too unless it flies), what a step
    into each square costs (difficult terrain 2 unless it flies or is sure-footed; a hazard where the terrain
    would hurt it: lava burns fliers too, brambles spare them) and where it may not end (structures, chasms,
    screens); the models are added per search."""
    key = (b.id, structs, closed, screen_range, fly, sure)
    found = _HERO_TEMPLATES.get(key)
    if found is None:
        screened: set[Sq] = set()
        for i in closed:
            screened |= b.screen(i, screen_range)
        attrs = ("fly",) if fly else ()
        hgt = b.height
        size = b.width * hgt
        blk = bytearray(size + 1)
        stepc = step_costs(b, sure, attrs)
        ends = bytearray(size)
        for x, y in screened if fly else screened | structs | b.chasms:
            n = x * hgt + y
            blk[n] = 1
            stepc[n] = NEVER
        for x, y in structs | b.chasms | screened:
            ends[x * hgt + y] = 1
        if len(_HERO_TEMPLATES) > 1000:
            _HERO_TEMPLATES.clear()
        found = _HERO_TEMPLATES[key] = (bits_of(blk[:-1]), step_classes(stepc), bits_of(ends))
    return found


# move options (and their actions) by everything they depend on: the search is the costliest part of listing
# legal actions, and the same position is asked again when the move is applied
_MOVES: dict[tuple[object, ...], list[Any]] = {}


def adjacent_chest(st: DungeonState, h: HeroState, reach: Reach | None = None) -> int | None:
    """The level whose closed chest stands next to the hero, if any. `reach`: the hero's ranges in this state,
    when the caller has them (a chest is a structure: the hero never stands on it, so within 1 is next to it)."""
    b = board(st.dungeon)
    for i, lv in enumerate(st.levels):
        if lv.chest == "closed" and (route(st, hfp(h), (b.chests[i],), 1) == 1 if reach is None
                                     else reach.within((b.chests[i],), 1)):
            return i
    return None


def heal_reach(st: DungeonState, h: HeroState, t: HeroState, rng: int) -> bool:
    if t.id == h.id:
        return True
    if route(st, hfp(h), hfp(t), rng) > rng:
        return False
    return sees(st, "heroes", hfp(h), hero_attributes(h), hfp(t), hero_attributes(t))


def unique_targets(st: DungeonState, h: HeroState, uid: str, reach: Reach | None = None) -> list[str]:
    """The `target` values a unique action may take now ("" when it takes none). `reach`: the hero's ranges
    and sight in this state, when the caller asks about several actions."""
    ua = content().unique[uid]
    r = Reach(st, h) if reach is None else reach
    if ua.kind == "buff":  # an assist card action: friendly heroes in reach (range 0: the user only)
        friends = [t for t in st.heroes if not is_incap(t) and r.reaches_hero(t, ua.range)]
        if ua.area == "all":
            return [""] if friends else []
        return [t.id for t in friends]
    if ua.kind == "heal":
        needy = [t for t in st.heroes if r.reaches_hero(t, ua.range)
                 and (t.wounds > 0 or (ua.cure and t.debuffs))]
        if ua.area == "all":
            return [""] if needy else []
        return [t.id for t in needy]
    labels = r.labels(ua.range)
    if ua.area == "adjacent":
        return [""] if labels else []
    return labels


# ---- effects ------------------------------------------------------------------------------------
def move(st: DungeonState, h: HeroState, to: str, sq: Sq, lines: list[str]) -> None:
    act = st.activation
    assert act is not None
    stats = stat_line(h)  # read only (shared)
    costs = content().rules.ap_costs
    entry = _move_entry(st, h)
    assert entry is not None
    cost, _ = entry[0].key_of(sq)
    path = entry[0].path(sq)
    spent = ""
    if cost > act.move_left:
        act.ap -= costs["move"]
        ma = stats.move if "slow" not in h.debuffs else (stats.move + 1) // 2
        act.move_left += ma
        spent = f" ({costs['move']} AP)"
    act.move_left -= cost
    marks.moved(st, stats.name, (h.x, h.y), path or (sq,))
    h.x, h.y = sq
    lines.append(f"{stats.name} moves to {to}{spent}; {act.move_left} movement left.")
    b = board(st.dungeon)
    for s in path:  # rule (lava, brambles): entering hurts; Fly spares only difficult terrain
        hurt = terrain_debuff(b.terrain_at(s), stats.attributes)
        if hurt:
            give_debuff_hero(h, hurt, lines)


def attack(st: DungeonState, h: HeroState, style: str, target: str, lines: list[str]) -> None:
    act = st.activation
    assert act is not None
    act.ap -= content().rules.ap_costs[style]
    key = key_at(st, target)
    assert key is not None
    start_attack(st, h, style, style, STYLE_STAT[style], "0", [], [key], lines)


def potion(st: DungeonState, h: HeroState, lines: list[str]) -> None:
    act = st.activation
    assert act is not None
    rules = content().rules
    stats = hero_stats(h)
    h.potions -= 1
    act.potion_used = True
    healed = min(h.wounds, rules.potion_heals)
    h.wounds -= healed
    cured = list(h.debuffs) if rules.potion_cures_all else []
    if rules.potion_cures_all:
        h.debuffs, h.expiring = [], []
    # the debuffs are named only when there were some (a potion drunk for wounds alone cures nothing to tell)
    lines.append(f"{stats.name} drinks a potion ({h.potions} left): {healed} wound{'s' if healed != 1 else ''} healed"
                 f" (now {h.wounds}/{stats.life})" + (f", {', '.join(cured)} cured." if cured else "."))


def act(st: DungeonState, h: HeroState, what: str, target: str | None, lines: list[str]) -> None:
    """`act action:<what>`: stand, heal, brew, picklock, smash, switch or a unique action."""
    activation = st.activation
    assert activation is not None
    costs = content().rules.ap_costs
    stats = hero_stats(h)
    if what == "stand":
        activation.ap -= costs["stand"]
        h.debuffs.remove("knockdown")
        lines.append(f"{stats.name} stands up.")
    elif what == "heal":
        activation.ap -= costs["heal"]
        t = hero(st, target or "")
        heal(st, h, t, content().rules.heal_amount, False, lines)
    elif what == "brew":
        activation.ap -= costs["brew"]
        gain = 1
        if "alchemist" in stats.attributes:
            d = dice.roll_dice(st, ["B"])
            if dice.face(d[0])[0] > 0:
                gain = 2
            lines.append(f"Alchemist roll {dice.die_text(d[0])}.")
        h.potions = min(stats.potions, h.potions + gain)
        lines.append(f"{stats.name} brews a potion ({h.potions}/{stats.potions}).")
    elif what in ("picklock", "smash"):
        activation.ap -= costs[what]
        open_chest(st, h, what, lines)
    elif what == "switch":
        activation.ap -= costs["switch"]
        n = len(hero_def(h).profiles) + 1
        h.profile = (h.profile + 1) % n
        new = hero_stats(h)
        h.wounds = min(h.wounds, new.life)
        h.potions = min(h.potions, new.potions)
        lines.append(f"{stats.name} switches to {new.name}.")
    else:
        unique_action(st, h, what, target, lines)


def open_chest(st: DungeonState, h: HeroState, what: str, lines: list[str]) -> None:
    """Picklock (DEX, a treasure card) or smash (STR, a loot card) against the chest's defence."""
    i = adjacent_chest(st, h)
    assert i is not None
    rules = content().rules
    stats = hero_stats(h)
    spec = stats.dice["dex"] if what == "picklock" else stats.dice["str"]
    dspec = rules.picklock_defence if what == "picklock" else rules.smash_defence
    od = dice.roll_dice(st, spec.dice)
    ot, ok = dice.score(od, spec.stars, False)
    dd = dice.roll_dice(st, dspec.dice)
    dt, dk = dice.score(dd, dspec.stars, False)
    verb = "picks the lock" if what == "picklock" else "smashes the chest"
    text = (f"{stats.name} {verb}: {dice.roll_text(od, spec.stars, ot, ok)} vs "
            f"{dice.roll_text(dd, dspec.stars, dt, dk)}")
    if ot <= dt:
        lines.append(text + ": it holds.")
        return
    lines.append(text + ": it opens!")
    cx, cy = board(st.dungeon).chests[i]
    st.levels[i].chest = "open"
    if what == "smash":
        draw_card(st, "loot", cx, cy, lines)
        return
    cid = draw_treasure(st, h, cx, cy, lines, found=True)
    if cid is not None and content().cards[cid].booty:
        st.levels[i].chest = "booty"
        inside = take_card(st, "treasure", lines, allow_booty=False)
        st.booty_cards = [inside] if inside else []
        st.monsters.append(MonsterState(uid=st.next_uid, kind="boo_booty", x=cx, y=cy, level=i))
        st.next_uid += 1
        lines.append("Boo Booty! The chest sprouts legs and guards its treasure.")


def unique_action(st: DungeonState, h: HeroState, what: str, target: str | None, lines: list[str]) -> None:
    activation = st.activation
    assert activation is not None
    stats = hero_stats(h)
    ua = content().unique[what]
    activation.ap -= ua.ap
    card = cards.card_of_action(h, what)
    if card is not None:
        lines.append(f"{stats.name} uses {card}: {ua.name}.")
    if ua.dangerous and not cards.danger(st, h, ua, lines):
        return
    if ua.kind in ("heal", "buff"):
        targets = [t for t in st.heroes if heal_reach(st, h, t, ua.range)] if ua.area == "all" \
            else [hero(st, target or "")]
        if card is None:
            lines.append(f"{stats.name} uses {ua.name}.")
        for t in targets:
            if ua.kind == "heal" and (t.wounds or (ua.cure and t.debuffs)):
                heal(st, h, t, ua.amount, ua.cure, lines)
        if ua.buff:
            cards.buff_action(st, targets, ua, lines)
        return
    if ua.area == "adjacent":
        keys = [k for k in enemy_keys(st) if hero_can_target(st, h, k, 1)[0]]
        marks.area(st, stats.name, hfp(h), 1, f"{stats.name}: {ua.name} on everyone adjacent")
    else:
        first = key_at(st, target or "")
        assert first is not None
        keys = [first]
        if ua.area == "around_target":
            tfp = target_fp(st, first)
            keys += [k for k in enemy_keys(st) if k != first and route(st, tfp, target_fp(st, k), 1) <= 1
                     and hero_can_target(st, h, k, ua.range)[0]]
            marks.area(st, stats.name, tfp, 1, f"{stats.name}: {ua.name} around {target_name(st, first)}")
    start_attack(st, h, what, ua.style or "melee", ua.stat or "str", ua.bonus.text(), list(ua.inflicts), keys, lines)


BACK_UP = "gets back up"  # an incapacitated hero healed back to standing: one wording for a heal and a heart


def heal(st: DungeonState, h: HeroState, t: HeroState, amount: int, cure: bool, lines: list[str]) -> None:
    stats = hero_stats(h)
    was = is_incap(t)
    if "healer" in stats.attributes and t.wounds:
        d = dice.roll_dice(st, ["B"])
        star = dice.face(d[0])[0] > 0
        if star:
            amount += 1
        lines.append(f"Healer roll {dice.die_text(d[0])}: " + ("a star, 1 wound more." if star else "no star."))
    healed = min(amount, t.wounds)
    t.wounds -= healed
    cured = list(t.debuffs) if cure else []
    if cure:
        t.debuffs, t.expiring = [], []
    tname = hero_stats(t).name
    whom = "" if t.id == h.id else f" {tname}"  # a hero healing itself is named once
    marks.healed(st, stats.name, (h.x, h.y), tname, (t.x, t.y), healed)
    lines.append(f"{stats.name} heals{whom}: {healed} wound{'s' if healed != 1 else ''} removed"
                 + (f", {', '.join(cured)} cured" if cured else "")
                 + (f"; {tname} {BACK_UP}." if was and not is_incap(t) else "."))
