"""The mechanisms of the dungeon crawl: stats, dice, sight and range, attacks, the monsters' AI.

Functions here mutate the state copy they are given (the engine copies first) and append
short sentences to a list of lines; the engine turns those into events.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.core.grid import label as sq_label

from .board import Board, Sq, board, footprint, move_search
from .data import DEBUFFS, RANKS, STYLE_STAT, Card, Dice, HeroDef, MonsterDef, content
from .state import AttackCtx, Die, DungeonState, FloorCard, HeroState, MonsterState

HUNTERS = {
    "beast_hunter": {"Beast", "Bug", "Chimera"},
    "dragon_spite": {"Draconic"},
    "holy": {"Undead", "Demon", "Nether"},
    "natures_bane": {"Elemental", "Kodama"},
    "flesh_bane": {"Fair Sapient"},
}
HAZARDS = {"lava": "fire", "brambles": "poison"}
_EXPECT = {"B": 4 / 6, "R": 9 / 6, "G": 11 / 6}
COLOUR_NAME = {"B": "blue", "R": "red", "G": "green"}
NO_DICE = Dice()


def C():
    return content()


def B(st: DungeonState) -> Board:
    return board(st.dungeon)


# ---- stats -----------------------------------------------------------------
@dataclass
class Stats:
    name: str
    move: int
    ap: int
    dice: dict[str, Dice]
    life: int
    potions: int
    attacks: dict[str, int]
    attributes: set[str]
    immune: set[str]
    unique: tuple[str, ...]
    species: set[str] = field(default_factory=set)


def card_bonus(card: Card, hero: HeroDef):
    if card.affinity and card.affinity_bonus and card.affinity in hero.affinity:
        return card.affinity_bonus
    return card.bonus


def hero_def(h: HeroState) -> HeroDef:
    return C().heroes[h.id]


def hero_stats(h: HeroState) -> Stats:
    """Stat line of the hero's current profile with every equipment bonus stacked on."""
    hd = hero_def(h)
    dice = {"str": hd.str, "arm": hd.arm, "will": hd.will, "dex": hd.dex}
    move, attacks, attrs, unique, name = hd.move, dict(hd.attacks), set(hd.attributes), hd.unique, hd.name
    if h.profile:
        p = hd.profiles[h.profile - 1]
        name = p.name
        move = p.move if p.move is not None else move
        for s in dice:
            v = getattr(p, s)
            if v is not None:
                dice[s] = v
        if p.attacks is not None:
            attacks = dict(p.attacks)
        if p.attributes is not None:
            attrs = set(p.attributes)
        if p.unique is not None:
            unique = p.unique
    ap, life, potions, immune = hd.ap, hd.life, hd.potions, set(hd.immune)
    for cid in h.equipment:
        card = C().cards[cid]
        b = card_bonus(card, hd)
        for s in dice:
            dice[s] = dice[s] + getattr(b, s)
        move += b.move
        ap += b.ap
        life += b.life
        potions += b.potions
        attrs |= set(card.attributes)
        immune |= set(card.immune)
    return Stats(name, move, ap, dice, life, potions, attacks, attrs, immune, unique, {hd.species})


def monster_def(m: MonsterState) -> MonsterDef:
    return C().monsters[m.kind]


def is_incap(h: HeroState) -> bool:
    return h.wounds >= hero_stats(h).life


def hero(st: DungeonState, hid: str) -> HeroState:
    for h in st.heroes:
        if h.id == hid:
            return h
    raise KeyError(hid)


def monster(st: DungeonState, uid: int) -> MonsterState | None:
    for m in st.monsters:
        if m.uid == uid:
            return m
    return None


def mfp(m: MonsterState) -> tuple[Sq, ...]:
    return footprint(m.x, m.y, monster_def(m).large)


def hfp(h: HeroState) -> tuple[Sq, ...]:
    return ((h.x, h.y),)


def monster_name(m: MonsterState) -> str:
    return f"{monster_def(m).name} ({sq_label(m.x, m.y)})"


def immune_to(immune: set[str] | tuple[str, ...], debuff: str) -> bool:
    return "all" in immune or debuff in immune


# ---- the board right now ----------------------------------------------------
def dyn_structures(st: DungeonState) -> frozenset[Sq]:
    b = B(st)
    out = {b.spawns[i] for i, lv in enumerate(st.levels) if not lv.destroyed}
    out |= {b.chests[i] for i, lv in enumerate(st.levels) if lv.chest == "closed"}
    return frozenset(out)


def structures(st: DungeonState) -> frozenset[Sq]:
    return B(st).static_structures | dyn_structures(st)


def sight_structures(st: DungeonState, small_pair: bool) -> frozenset[Sq]:
    """Structures that stop sight: closed chests only when both ends are small."""
    b = B(st)
    out = set(b.static_structures) | {b.spawns[i] for i, lv in enumerate(st.levels) if not lv.destroyed}
    if small_pair:
        out |= {b.chests[i] for i, lv in enumerate(st.levels) if lv.chest == "closed"}
    return frozenset(out)


def occupancy(st: DungeonState) -> dict[Sq, str]:
    occ: dict[Sq, str] = {}
    for h in st.heroes:
        occ[(h.x, h.y)] = f"h:{h.id}"
    for m in st.monsters:
        for s in mfp(m):
            occ[s] = f"m:{m.uid}"
    return occ


def model_attrs(st: DungeonState, ref: str) -> set[str]:
    if ref.startswith("h:"):
        return hero_stats(hero(st, ref[2:])).attributes
    if ref.startswith("m:"):
        m = monster(st, int(ref[2:]))
        return set(monster_def(m).attributes) if m else set()
    return set()


def sees(st: DungeonState, side: str, src: tuple[Sq, ...], src_attrs: set[str], dst: tuple[Sq, ...], dst_attrs: set[str]) -> bool:
    """Line of sight for a model of `side` ("heroes"/"monsters") to a square set.

    Walls always block (ghosts excepted); structures and opposing models block unless one
    end flies; small opposing models block only when both ends are small; incapacitated
    heroes never block.
    """
    fly = "fly" in src_attrs or "fly" in dst_attrs
    both_small = "small" in src_attrs and "small" in dst_attrs
    blockers: set[Sq] = set()
    if not fly:
        blockers |= sight_structures(st, both_small)
        if side == "heroes":
            for m in st.monsters:
                if "small" in monster_def(m).attributes and not both_small:
                    continue
                blockers.update(mfp(m))
        else:
            for h in st.heroes:
                if is_incap(h):
                    continue
                if "small" in hero_stats(h).attributes and not both_small:
                    continue
                blockers.add((h.x, h.y))
    return B(st).sight(src, dst, frozenset(blockers), ignore_walls="ghost" in src_attrs)


def route(st: DungeonState, src: tuple[Sq, ...], dst: tuple[Sq, ...], limit: int = 99) -> int:
    """Range by the shortest route (around walls and structures, ignoring models)."""
    if set(src) & set(dst):
        return 0
    dist = B(st).route_distances(src, structures(st), limit)
    found = [dist[s] for s in dst if s in dist]
    return min(found) if found else 999


# ---- dice ---------------------------------------------------------------------
def face(d: Die) -> tuple[int, int]:
    stars, heart = C().rules.dice[d.colour][d.face]
    return stars, heart


def roll_dice(st: DungeonState, colours: tuple[str, ...] | list[str]) -> list[Die]:
    return [Die(colour=c, face=st.rng.below(6)) for c in colours]


def die_text(d: Die) -> str:
    stars, heart = face(d)
    shown = "♥" if heart else (str(stars) if stars else "-")
    return f"{d.colour}{shown}"


def score(dice: list[Die], stars: int, discard_highest: bool, hearts_as_star: bool = False) -> tuple[int, list[int]]:
    """Total of a roll and the indices of the dice that count (hex/bane discard the highest)."""
    values = []
    for d in dice:
        s, heart = face(d)
        values.append(s + (1 if heart and hearts_as_star else 0))
    kept = list(range(len(dice)))
    if discard_highest and kept:
        top = max(kept, key=lambda i: (values[i], -i))
        kept.remove(top)
    return sum(values[i] for i in kept) + stars, kept


def roll_text(dice: list[Die], stars: int, total: int, kept: list[int]) -> str:
    parts = [die_text(d) + ("" if i in kept else "(x)") for i, d in enumerate(dice)]
    if stars:
        parts.append(f"{stars:+d}")
    return (" ".join(parts) if parts else "0") + f" = {total}"


def expected(d: Dice) -> float:
    return sum(_EXPECT[c] for c in d.dice) + d.stars


# ---- modifiers -------------------------------------------------------------------
def adjacent_visible_terrain(st: DungeonState, fp: tuple[Sq, ...], kind: str) -> bool:
    b = B(st)
    for s in fp:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                t = (s[0] + dx, s[1] + dy)
                if t != s and b.inside(t) and b.terrain_at(t) == kind and route(st, fp, (t,), 1) == 1:
                    return True
    return False


def aura_bonus(st: DungeonState, side: str, roll: str, fp: tuple[Sq, ...]) -> int:
    lv = st.levels[st.level]
    if not lv.active or lv.destroyed:
        return 0
    aura = C().dungeons[st.dungeon].levels[st.level].aura
    if aura.side != side or aura.roll != roll:
        return 0
    squares = B(st).aura(st.level, C().rules.aura_range)
    return aura.bonus if any(s in squares for s in fp) else 0


def adjacent_enemies(st: DungeonState, side: str, fp: tuple[Sq, ...], attrs: set[str]) -> int:
    """Visible adjacent enemies (for Stalwart)."""
    n = 0
    if side == "heroes":
        for m in st.monsters:
            if route(st, fp, mfp(m), 1) <= 1 and sees(st, "heroes", fp, attrs, mfp(m), set(monster_def(m).attributes)):
                n += 1
    else:
        for h in st.heroes:
            if not is_incap(h) and route(st, fp, hfp(h), 1) <= 1 and sees(st, "monsters", fp, attrs, hfp(h), hero_stats(h).attributes):
                n += 1
    return n


def mob_bonus(st: DungeonState, attacker: MonsterState, target_fp: tuple[Sq, ...], target_attrs: set[str]) -> int:
    n = 0
    for m in st.monsters:
        if m.uid == attacker.uid or "mob" not in monster_def(m).attributes:
            continue
        if route(st, mfp(m), target_fp, 1) <= 1 and sees(st, "heroes", target_fp, target_attrs, mfp(m), set(monster_def(m).attributes)):
            n += 1
    return min(n, 3)


# ---- attacks by heroes ---------------------------------------------------------------
def target_fp(st: DungeonState, key: str) -> tuple[Sq, ...]:
    if key == "spawn":
        return (B(st).spawns[st.level],)
    m = monster(st, int(key[1:]))
    return mfp(m) if m else ()


def target_name(st: DungeonState, key: str) -> str:
    if key == "spawn":
        return f"the spawn point ({sq_label(*B(st).spawns[st.level])})"
    m = monster(st, int(key[1:]))
    return monster_name(m) if m else "a vanished monster"


def target_attrs(st: DungeonState, key: str) -> set[str]:
    if key == "spawn":
        return set()
    m = monster(st, int(key[1:]))
    return set(monster_def(m).attributes) if m else set()


def enemy_keys(st: DungeonState) -> list[str]:
    keys = [f"m{m.uid}" for m in st.monsters]
    lv = st.levels[st.level]
    if lv.active and not lv.destroyed:
        keys.append("spawn")
    return keys


def hero_can_target(st: DungeonState, h: HeroState, key: str, rng: int) -> tuple[bool, str]:
    """Can the hero aim an offence action of range `rng` at this enemy? (ok, reason if not)"""
    fp = target_fp(st, key)
    if not fp:
        return False, "There is no enemy there."
    d = route(st, hfp(h), fp, rng + 1)
    if d > rng:
        far = "more than " + str(rng + 1) if d > rng + 1 else str(d)
        name = target_name(st, key)
        return False, f"{name[0].upper()}{name[1:]} is {far} squares away; the range is {rng}."
    if not sees(st, "heroes", hfp(h), hero_stats(h).attributes, fp, target_attrs(st, key)):
        return False, (f"{hero_stats(h).name} has no line of sight to {target_name(st, key)} "
                       "(walls, structures and monsters in between block it).")
    return True, ""


def start_attack(st: DungeonState, h: HeroState, action: str, style: str, stat: str, bonus: str,
                 inflicts: list[str], targets: list[str], lines: list[str]) -> None:
    st.attack = AttackCtx(hero=h.id, action=action, style=style, stat=stat, bonus=bonus,
                          inflicts=inflicts, targets=list(targets))
    advance_attack(st, lines)


def _reroll_budget(st: DungeonState, h: HeroState, ctx: AttackCtx) -> int:
    stats = hero_stats(h)
    friendly = 0
    if "feint" in stats.attributes and ctx.style == "melee":
        friendly += 1
    species: set[str] = set()
    if ctx.target.startswith("m"):
        m = monster(st, int(ctx.target[1:]))
        if m:
            species = set(monster_def(m).species)
    for attr, kinds in HUNTERS.items():
        if attr in stats.attributes and species & kinds:
            friendly += 1
    enemy = 1 if "jinx" in target_attrs(st, ctx.target) else 0
    return max(0, min(friendly - enemy, len(ctx.offence)))


def advance_attack(st: DungeonState, lines: list[str]) -> None:
    """Run the attack until it needs the hero (reroll or hearts) or is done."""
    ctx = st.attack
    while ctx is not None and st.phase == "heroes":
        if ctx.stage:
            return
        if not ctx.target:
            while ctx.targets and not target_fp(st, ctx.targets[0]):
                ctx.targets.pop(0)
            if not ctx.targets:
                st.attack = None
                return
            ctx.target = ctx.targets.pop(0)
            h = hero(st, ctx.hero)
            stats = hero_stats(h)
            pool = stats.dice[ctx.stat] + Dice.parse(ctx.bonus)
            ctx.offence = roll_dice(st, pool.dice)
            ctx.rerolls_left = _reroll_budget(st, h, ctx)
            if ctx.rerolls_left:
                lines.append(f"{stats.name} rolls {' '.join(f'[{i + 1}] ' + die_text(d) for i, d in enumerate(ctx.offence))} "
                             f"against {target_name(st, ctx.target)} and may reroll {ctx.rerolls_left} die.")
                ctx.stage = "reroll"
                return
        resolve_hero_attack(st, lines)
        ctx = st.attack


def reroll(st: DungeonState, index: int, lines: list[str]) -> None:
    ctx = st.attack
    assert ctx is not None
    d = ctx.offence[index]
    before = die_text(d)
    d.face = roll_dice(st, [d.colour])[0].face
    d.rerolled = True
    ctx.rerolls_left -= 1
    lines.append(f"Reroll of die {index + 1}: {before} -> {die_text(d)}.")
    if ctx.rerolls_left <= 0 or all(x.rerolled for x in ctx.offence):
        ctx.stage = ""
        resolve_hero_attack(st, lines)
        advance_attack(st, lines)


def keep_roll(st: DungeonState, lines: list[str]) -> None:
    ctx = st.attack
    assert ctx is not None
    ctx.stage = ""
    ctx.rerolls_left = 0
    resolve_hero_attack(st, lines)
    advance_attack(st, lines)


def resolve_hero_attack(st: DungeonState, lines: list[str]) -> None:
    ctx = st.attack
    assert ctx is not None
    h = hero(st, ctx.hero)
    stats = hero_stats(h)
    key = ctx.target
    tattrs = target_attrs(st, key)
    stars = Dice.parse(ctx.bonus).stars + stats.dice[ctx.stat].stars
    notes = []
    if "small" in tattrs:
        stars -= 1
        notes.append("small target -1")
    a = aura_bonus(st, "heroes", "offence", hfp(h))
    if a:
        stars += a
        notes.append(f"aura {a:+d}")
    if adjacent_visible_terrain(st, hfp(h), "champion"):
        stars += 1
        notes.append("champion +1")
    off_total, kept = score(ctx.offence, stars, "hex" in h.debuffs)
    # defence
    if key == "spawn":
        sp = C().rules.spawn_point
        ddice: list[Die] = roll_dice(st, sp.armour.dice)
        dstars = sp.armour.stars
        def_total, dkept = score(ddice, dstars, False)
        m = None
    else:
        m = monster(st, int(key[1:]))
        assert m is not None
        ddice, dstars, dnotes = monster_defence_pool(st, m, ctx.style, "heroes")
        md = monster_def(m)
        def_total, dkept = score(ddice, dstars, "bane" in m.debuffs, "enhanced_defences" in md.attributes)
        notes += dnotes
    what = C().unique[ctx.action].name if ctx.action in C().unique else f"{ctx.action} attack"
    text = (f"{stats.name} ({what}) rolls {roll_text(ctx.offence, stars, off_total, kept)} vs "
            f"{target_name(st, key)} {roll_text(ddice, dstars, def_total, dkept)}")
    if notes:
        text += f" [{', '.join(notes)}]"
    ctx.target = ""
    if off_total > def_total:
        lines.append(text + ": hit.")
        hearts = sum(1 for i in kept if face(ctx.offence[i])[1])
        inflicts = list(ctx.inflicts)
        if ctx.action in ("melee", "ranged", "magic"):
            inflicts += [a for a in stats.attributes if a in DEBUFFS]
        if key == "spawn":
            wound_spawn(st, st.level, 1, lines)
        else:
            assert m is not None
            for dname in inflicts:
                give_debuff_monster(m, dname, lines)
            wound_monster(st, m, 1, lines)
        if hearts and st.phase == "heroes":
            ctx.hearts_left = hearts
            ctx.stage = "hearts"
            lines.append(f"{stats.name} rolled {hearts} heart{'s' if hearts > 1 else ''} to use.")
    else:
        tie = " (a tie goes to the defender)" if off_total == def_total else ""
        lines.append(text + f": no effect{tie}.")
        if m is not None and ctx.style == "melee" and "backlash" in monster_def(m).attributes:
            lines.append(f"{monster_def(m).name}'s backlash strikes back.")
            wound_hero(st, h, 1, lines)


def monster_defence_pool(st: DungeonState, m: MonsterState, style: str, attacker_side: str) -> tuple[list[Die], int, list[str]]:
    md = monster_def(m)
    stat = "will" if style == "magic" else "arm"
    spec = getattr(md, stat)
    if stat == "arm" and "dodge" in md.attributes:
        spec = md.dex
    colours = list(spec.dice) + list(C().rules.level_bonus[min(m.level, len(C().rules.level_bonus) - 1)])
    stars = spec.stars
    notes = []
    a = aura_bonus(st, "monsters", "defence", mfp(m))
    if a:
        stars += a
        notes.append(f"aura {a:+d}")
    if adjacent_visible_terrain(st, mfp(m), "sentinel"):
        stars += 1
        notes.append("sentinel +1")
    return roll_dice(st, colours), stars, notes


def use_heart(st: DungeonState, use: str, target: str, debuff: str, lines: list[str]) -> None:
    ctx = st.attack
    assert ctx is not None
    me = hero(st, ctx.hero)
    if use == "heal":
        t = hero(st, target)
        was = is_incap(t)
        t.wounds = max(0, t.wounds - 1)
        lines.append(f"A heart heals 1 wound on {hero_stats(t).name}" + (" who gets back up." if was and not is_incap(t) else "."))
    elif use == "cure":
        t = hero(st, target)
        if debuff in t.debuffs:
            t.debuffs.remove(debuff)
        if debuff in t.expiring:
            t.expiring.remove(debuff)
        lines.append(f"A heart removes {debuff} from {hero_stats(t).name}.")
    elif use == "potion":
        t = hero(st, target)
        t.potions = min(hero_stats(t).potions, t.potions + 1)
        lines.append(f"A heart becomes a potion for {hero_stats(t).name}.")
    else:
        lines.append(f"{hero_stats(me).name} lets a heart go unused.")
    ctx.hearts_left -= 1
    if ctx.hearts_left <= 0:
        ctx.stage = ""
        advance_attack(st, lines)


# ---- wounds, debuffs and destruction ---------------------------------------------------
def give_debuff_hero(h: HeroState, d: str, lines: list[str]) -> None:
    if immune_to(hero_stats(h).immune, d) or d in h.debuffs:
        return
    h.debuffs.append(d)
    lines.append(f"{hero_stats(h).name} suffers {d}.")


def give_debuff_monster(m: MonsterState, d: str, lines: list[str]) -> None:
    md = monster_def(m)
    if immune_to(md.immune, d) or d in m.debuffs:
        return
    m.debuffs.append(d)
    lines.append(f"{md.name} suffers {d}.")


def wound_hero(st: DungeonState, h: HeroState, n: int, lines: list[str]) -> None:
    if st.phase == "over":
        return
    was = is_incap(h)
    h.wounds += n
    stats = hero_stats(h)
    lines.append(f"{stats.name} takes {n} wound{'s' if n > 1 else ''} ({min(h.wounds, stats.life)}/{stats.life}).")
    if was or not is_incap(h):
        return
    if "nine_lives" in stats.attributes and h.nine_lives_ready:
        h.nine_lives_ready = False
        dice = roll_dice(st, ["R"])
        got, _ = score(dice, 0, False)
        h.wounds = max(0, h.wounds - got)
        lines.append(f"Nine lives: {stats.name} rolls {die_text(dice[0])}" + (
            f" and shakes off {got} wound{'s' if got > 1 else ''}." if got else " and falls anyway."))
        if not is_incap(h):
            return
    lines.append(f"{stats.name} is incapacitated!")
    if st.activation is not None and st.activation.hero == h.id:
        st.activation.ap = 0
        st.activation.move_left = 0
    if all(is_incap(x) for x in st.heroes):
        st.phase = "over"
        st.result = "defeat"
        st.result_text = "Every hero is incapacitated: the Dark Consul wins."
        st.attack = None
        lines.append(st.result_text)


def wound_monster(st: DungeonState, m: MonsterState, n: int, lines: list[str]) -> None:
    md = monster_def(m)
    m.wounds += n
    if m.wounds < md.life:
        lines.append(f"{md.name} takes {n} wound ({m.wounds}/{md.life}).")
        return
    destroy_monster(st, m, lines)


def destroy_monster(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    md = monster_def(m)
    st.monsters = [x for x in st.monsters if x.uid != m.uid]
    lines.append(f"{md.name} is destroyed.")
    lv = st.levels[m.level] if 0 <= m.level < len(st.levels) else None
    # loot
    if md.guardian:
        draw_card(st, "treasure", m.x, m.y, lines, allow_booty=False)
        for cid in st.booty_cards:
            st.floor.append(FloorCard(card=cid, x=m.x, y=m.y))
        st.booty_cards = []
    elif md.rank == "boss":
        for cid in md.boss_cards:
            if cid not in st.treasure_deck:
                st.treasure_deck.append(cid)
        st.rng.shuffle(st.treasure_deck)
        lines.append(f"{md.name}'s own treasure is shuffled into the treasure deck.")
        draw_card(st, "treasure", m.x, m.y, lines, allow_booty=False)
        if lv is not None:
            lv.boss_defeated = True
    elif md.rank == "elite":
        draw_card(st, "loot", m.x, m.y, lines)
    else:
        d = roll_dice(st, ["B"])
        if face(d[0])[0] > 0:
            lines.append(f"Loot roll {die_text(d[0])}: it drops loot.")
            draw_card(st, "loot", m.x, m.y, lines)
    # back to the pool
    if lv is not None and not lv.destroyed and not md.guardian:
        if md.rank == "minion" or (md.rank == "elite" and not lv.boss_defeated):
            lv.pool.append(m.kind)


def take_card(st: DungeonState, deck: str, lines: list[str], allow_booty: bool = True) -> str | None:
    """Top card of a deck; a Boo Booty card where none may appear is set aside."""
    cards = st.loot_deck if deck == "loot" else st.treasure_deck
    while cards:
        cid = cards.pop(0)
        if C().cards[cid].booty and not allow_booty:
            lines.append("A Boo Booty card turns up and is set aside.")
            continue
        return cid
    lines.append(f"The {deck} deck is empty.")
    return None


def draw_card(st: DungeonState, deck: str, x: int, y: int, lines: list[str], allow_booty: bool = True) -> str | None:
    """Draw a card onto the floor at (x, y); a Boo Booty card is returned unplaced."""
    cid = take_card(st, deck, lines, allow_booty)
    if cid is None or C().cards[cid].booty:
        return cid
    st.floor.append(FloorCard(card=cid, x=x, y=y))
    lines.append(f"{C().cards[cid].name} drops at {sq_label(x, y)}.")
    return cid


def wound_spawn(st: DungeonState, level: int, n: int, lines: list[str]) -> None:
    lv = st.levels[level]
    life = C().rules.spawn_point.life
    lv.spawn_wounds += n
    if lv.spawn_wounds < life:
        lines.append(f"The spawn point takes {n} wound ({lv.spawn_wounds}/{life}).")
        return
    lv.destroyed = True
    lv.pool = []
    lines.append("The spawn point is destroyed; its pool is discarded.")


def level_cleared(st: DungeonState) -> bool:
    lv = st.levels[st.level]
    if not lv.destroyed:
        return False
    return not any(m.level == st.level and not monster_def(m).guardian for m in st.monsters)


def maybe_advance_level(st: DungeonState, lines: list[str]) -> bool:
    """If the level is clear, open the next one (or win). True if something changed."""
    if st.phase != "heroes" or st.attack is not None or not level_cleared(st):
        return False
    if st.level + 1 >= len(st.levels):
        st.phase = "over"
        st.result = "victory"
        st.result_text = "All four spawn points are destroyed: the heroes win!"
        lines.append(st.result_text)
        st.activation = None
        return True
    lines.append(f"Level {st.level + 1} is clear!")
    open_level(st, st.level + 1, lines, breather=True)
    return True


def open_level(st: DungeonState, level: int, lines: list[str], breather: bool) -> None:
    st.level = level
    lv = st.levels[level]
    lv.active = True
    lv.chest = "closed"
    name = C().dungeons[st.dungeon].levels[level].name
    lines.append(f"Level {level + 1}, {name}: its spawn point opens and a chest appears.")
    st.monsters = [m for m in st.monsters if not monster_def(m).guardian]
    st.booty_cards = []
    if breather:
        for h in st.heroes:
            stats = hero_stats(h)
            h.wounds = 0
            h.debuffs = []
            h.expiring = []
            h.potions = stats.potions
            h.nine_lives_ready = True
        lines.append("The heroes catch their breath: wounds, debuffs and potions are restored. Equip and drop freely, then `ready`.")
        st.phase = "intermission"
        st.ready = []
        st.activation = None
        st.attack = None
    n = max(C().rules.opening_spawn_min, len(st.heroes))
    for _ in range(n):
        if not spawn_one(st, level, lines):
            break


# ---- spawning --------------------------------------------------------------------------
def can_stand(st: DungeonState, fp: tuple[Sq, ...], occ: dict[Sq, str], me: str = "") -> bool:
    b = B(st)
    structs = structures(st)
    for s in fp:
        if not b.inside(s) or s in structs or s in b.chasms:
            return False
        if s in occ and occ[s] != me:
            return False
    return True


def spawn_one(st: DungeonState, level: int, lines: list[str], kind: str = "",
              source: tuple[Sq, ...] = ()) -> bool:
    """Place the pool's next monster (or a new one of `kind`) as close to the spawn point (or to
    the `source` squares, a summoning boss) as possible, in its sight and out of danger if it can be."""
    lv = st.levels[level]
    from_pool = not kind
    if from_pool and (lv.destroyed or not lv.pool):
        return False
    kind = kind or lv.pool[0]
    md = C().monsters[kind]
    b = B(st)
    srcs = tuple(source) or (b.spawns[level],)
    occ = occupancy(st)
    dist = b.route_distances(list(srcs), structures(st) | set(srcs), 14)
    danger = set()
    for h in st.heroes:
        if not is_incap(h):
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    danger.add((h.x + dx, h.y + dy))
    cands = []
    for sq, d in dist.items():
        if d == 0 or sq in srcs:
            continue
        fp = footprint(sq[0], sq[1], md.large)
        if md.large and b.internal_walls(*sq):
            continue
        if not can_stand(st, fp, occ):
            continue
        if not b.sight(srcs, fp, sight_structures(st, False)):
            continue
        dd = min(dist.get(s, 99) for s in fp)
        cands.append((any(s in danger for s in fp), dd, sq[1], sq[0]))
    if not cands:
        lines.append(f"No room for {md.name} to spawn.")
        return False
    cands.sort()
    _, _, y, x = cands[0]
    if from_pool:
        lv.pool.pop(0)
    m = MonsterState(uid=st.next_uid, kind=kind, x=x, y=y, level=level)
    st.next_uid += 1
    st.monsters.append(m)
    lines.append(f"{md.name} {'spawns' if from_pool else 'is summoned'} at {sq_label(x, y)}.")
    return True


# ---- monsters react -----------------------------------------------------------------------
def visible_heroes(st: DungeonState, m: MonsterState) -> list[tuple[int, int, HeroState]]:
    attrs = set(monster_def(m).attributes)
    out = []
    for h in st.heroes:
        if is_incap(h):
            continue
        if sees(st, "monsters", mfp(m), attrs, hfp(h), hero_stats(h).attributes):
            out.append((route(st, mfp(m), hfp(h)), h.seat, h))
    out.sort(key=lambda t: (t[0], t[1]))
    return out


def choose_target(st: DungeonState, m: MonsterState) -> HeroState | None:
    vis = visible_heroes(st, m)
    if vis:
        return vis[0][2]
    best = None
    for h in st.heroes:
        if is_incap(h):
            continue
        d = route(st, mfp(m), hfp(h))
        if best is None or (d, h.seat) < best[0]:
            best = ((d, h.seat), h)
    return best[1] if best else None


def monster_in_reach(st: DungeonState, m: MonsterState, fp: tuple[Sq, ...], h: HeroState) -> bool:
    md = monster_def(m)
    if min(max(abs(s[0] - h.x), abs(s[1] - h.y)) for s in fp) > md.attack.range:
        return False  # a route is never shorter than the king-move distance
    if route(st, fp, hfp(h), md.attack.range) > md.attack.range:
        return False
    return sees(st, "monsters", fp, set(md.attributes), hfp(h), hero_stats(h).attributes)


def monsters_react(st: DungeonState, lines: list[str], lead: str = "") -> None:
    """Every monster takes one action, closest to a visible hero first; equal distances are drawn by lot.

    `lead` starts the block's first line ("Ruby's activation ends. "); the lines that follow are in
    the order the monsters acted, so the draw is on record."""
    keyed = []
    order = list(st.monsters)
    st.rng.shuffle(order)  # the seeded draw that settles ties
    for pos, m in enumerate(order):
        vis = visible_heroes(st, m)
        keyed.append((vis[0][0] if vis else 999, pos, m.uid))
    keyed.sort()
    dists = [k[0] for k in keyed if k[0] < 999]
    tie = " (equally close ones in a drawn order)" if len(dists) != len(set(dists)) else ""
    lines.append(f"{lead}The monsters react, closest first{tie}:" if keyed else f"{lead}No monster is on the board.")
    for _, _, uid in keyed:
        if st.phase != "heroes":
            return
        m = monster(st, uid)
        if m is None:
            continue
        monster_act(st, m, lines)
        if maybe_advance_level(st, lines):
            return


def monster_act(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    md = monster_def(m)
    if "knockdown" in m.debuffs:
        m.debuffs.remove("knockdown")
        lines.append(f"{monster_name(m)} stands up.")
        return
    if md.behaviour == "cowardly":
        flee(st, m, lines)
        return
    if md.behaviour == "support":
        for f in st.monsters:
            if f.uid == m.uid or f.wounds == 0:
                continue
            if route(st, mfp(m), mfp(f), md.support_range) <= md.support_range and sees(
                    st, "monsters", mfp(m), set(md.attributes), mfp(f), set(monster_def(f).attributes)):
                f.wounds -= 1
                lines.append(f"{monster_name(m)} heals {monster_name(f)} (1 wound).")
                return
    target = choose_target(st, m)
    if target is None:
        return
    if monster_in_reach(st, m, mfp(m), target):
        if md.keep_range and crowded(st, mfp(m), md.keep_range) and step_back(st, m, target, lines):
            return
        monster_attack(st, m, target, lines)
        return
    move_monster(st, m, target, lines)


def crowded(st: DungeonState, fp: tuple[Sq, ...], reach: int) -> bool:
    """Is a standing hero within `reach` squares of these squares (a shooter wants room)?"""
    return any(not is_incap(h) and route(st, fp, hfp(h), reach) <= reach for h in st.heroes)


def step_back(st: DungeonState, m: MonsterState, target: HeroState, lines: list[str]) -> bool:
    """Keeping range: move to the cheapest square with no hero too close that still has the target
    in attack range and sight. False (and nothing moves) when there is no such square."""
    md = monster_def(m)
    best = None
    for sq, (cost, haz, _) in monster_move_options(st, m).items():
        fp = footprint(sq[0], sq[1], md.large)
        if crowded(st, fp, md.keep_range) or not monster_in_reach(st, m, fp, target):
            continue
        key = (haz, cost, sq[1], sq[0])
        if best is None or key < best[0]:
            best = (key, sq)
    if best is None:
        return False
    sq = best[1]
    lines.append(f"{monster_def(m).name} keeps its distance:")
    place_monster(st, m, sq, monster_move_options(st, m)[sq][2], lines)
    return True


def monster_move_options(st: DungeonState, m: MonsterState) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    md = monster_def(m)
    allowance = md.move
    if "slow" in m.debuffs:
        allowance = (allowance + 1) // 2
    if allowance <= 0 or "immobile" in m.debuffs:
        return {}
    b = B(st)
    fly = "fly" in md.attributes
    structs = structures(st)
    occ = occupancy(st)
    me = f"m:{m.uid}"
    rank = RANKS[md.rank]

    def passable(s: Sq) -> bool:
        if not b.inside(s):
            return False
        if not fly and (s in structs or s in b.chasms):
            return False
        ref = occ.get(s)
        if ref and ref.startswith("h:") and not fly and not is_incap(hero(st, ref[2:])):
            return False
        return True

    def can_end(s: Sq) -> bool:
        if s in structs or s in b.chasms:
            return False
        ref = occ.get(s)
        if ref is None or ref == me:
            return True
        if md.large and ref.startswith("m:"):  # push-back: a larger, higher-ranked friendly model may displace
            other = monster(st, int(ref[2:]))
            return other is not None and not monster_def(other).large and RANKS[monster_def(other).rank] < rank
        return False

    def cost_of(s: Sq) -> int:
        return 2 if not fly and b.terrain_at(s) in ("difficult", "brambles") else 1

    def hazard_of(s: Sq) -> int:
        return 0 if fly else (1 if b.terrain_at(s) in HAZARDS else 0)

    opts = move_search(b, (m.x, m.y), md.large, allowance, passable=passable, can_end=can_end,
                       cost_of=cost_of, hazard_of=hazard_of, ignore_walls="ghost" in md.attributes)
    if md.large:  # push-back needs a free square of the last step for every small friend displaced
        opts = {sq: v for sq, v in opts.items() if len(pushed_by(st, m, sq)) <= len(push_spots(st, m, sq, v[2]))}
    return opts


def push_spots(st: DungeonState, m: MonsterState, dest: Sq, path: tuple[Sq, ...]) -> list[Sq]:
    """Squares a large monster left with its last step onto `dest` that no other model holds."""
    prev = path[-2] if len(path) >= 2 else (m.x, m.y)
    occ = occupancy(st)
    new_fp = footprint(dest[0], dest[1], True)
    return [s for s in footprint(prev[0], prev[1], True)
            if s not in new_fp and occ.get(s, f"m:{m.uid}") == f"m:{m.uid}"]


def pushed_by(st: DungeonState, m: MonsterState, dest: Sq) -> list[MonsterState]:
    """Small friendly models a large monster ending on `dest` pushes back (rule: large bases)."""
    new_fp = set(footprint(dest[0], dest[1], True))
    return [o for o in st.monsters if o.uid != m.uid and (o.x, o.y) in new_fp]


def move_monster(st: DungeonState, m: MonsterState, target: HeroState, lines: list[str]) -> None:
    md = monster_def(m)
    opts = monster_move_options(st, m)
    if not opts:
        lines.append(f"{monster_name(m)} holds its ground.")
        return
    in_reach = []
    for sq, (cost, haz, _) in opts.items():
        fp = footprint(sq[0], sq[1], md.large)
        if monster_in_reach(st, m, fp, target):
            close = bool(md.keep_range) and crowded(st, fp, md.keep_range)
            in_reach.append((close, cost, haz, sq[1], sq[0]))
    if in_reach:
        in_reach.sort()
        dest = (in_reach[0][4], in_reach[0][3])
    else:
        tdist = B(st).route_distances(hfp(target), structures(st), 99)
        field = large_field(st, m, tdist) if md.large else {}

        def away(a: Sq) -> int:
            # a 2x2 base may not fit where a small model's route goes: it measures in base positions
            if field:
                return field.get(a, 999)
            return min(tdist.get(s, 999) for s in footprint(a[0], a[1], md.large))

        here = away((m.x, m.y))
        ranked = sorted((away(sq), cost, haz, sq[1], sq[0]) for sq, (cost, haz, _) in opts.items())
        if not ranked or ranked[0][0] >= here:
            lines.append(f"{monster_name(m)} finds no way closer.")
            return
        dest = (ranked[0][4], ranked[0][3])
    place_monster(st, m, dest, opts[dest][2], lines)


def large_field(st: DungeonState, m: MonsterState, tdist: dict[Sq, int]) -> dict[Sq, int]:
    """Steps from each base position of a large monster to the nearest one within attack range of the
    target (by route, models ignored): so it heads for gaps it fits through."""
    md = monster_def(m)
    b = B(st)
    fly, ghost = "fly" in md.attributes, "ghost" in md.attributes
    blocked = set() if fly else set(structures(st)) | set(b.chasms)

    def fits(a: Sq) -> bool:
        fp = footprint(a[0], a[1], True)
        return all(b.inside(s) and s not in blocked for s in fp) and (ghost or not b.internal_walls(*a))

    anchors = [(x, y) for y in range(b.height - 1) for x in range(b.width - 1) if fits((x, y))]
    goal = [a for a in anchors if min(tdist.get(s, 999) for s in footprint(a[0], a[1], True)) <= md.attack.range]
    field = {a: 0 for a in goal}
    queue = list(goal)
    ok = set(anchors)
    i = 0
    while i < len(queue):
        cur = queue[i]
        i += 1
        cur_fp = footprint(cur[0], cur[1], True)
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            nxt = (cur[0] + d[0], cur[1] + d[1])
            if nxt in field or nxt not in ok:
                continue
            if not ghost and any((s, d) not in b.step_set for s in cur_fp):
                continue
            if d[0] and d[1] and blocked:
                new_fp = footprint(nxt[0], nxt[1], True)
                sides = {q for s in cur_fp for q in ((s[0] + d[0], s[1]), (s[0], s[1] + d[1]))}
                if any(q in blocked for q in sides if q not in cur_fp and q not in new_fp):
                    continue
            field[nxt] = field[cur] + 1
            queue.append(nxt)
    return field


def place_monster(st: DungeonState, m: MonsterState, dest: Sq, path: tuple[Sq, ...], lines: list[str]) -> None:
    md = monster_def(m)
    start = monster_name(m)
    free = push_spots(st, m, dest, path) if md.large else []  # worked out before the move
    m.x, m.y = dest
    lines.append(f"{start} moves to {sq_label(*dest)}.")
    if md.large:  # push smaller friends back into the squares the last step left
        for other in pushed_by(st, m, dest):
            # each pushed model goes to the nearest square the large model's last step left
            spot = min(free, key=lambda s: (max(abs(s[0] - other.x), abs(s[1] - other.y)), s[1], s[0]))
            free.remove(spot)
            lines.append(f"{md.name} pushes {monster_def(other).name} back from {sq_label(other.x, other.y)} to {sq_label(*spot)}.")
            other.x, other.y = spot
    if "fly" not in md.attributes:
        b = B(st)
        for anchor in path:
            for s in footprint(anchor[0], anchor[1], md.large):
                if b.terrain_at(s) in HAZARDS:
                    give_debuff_monster(m, HAZARDS[b.terrain_at(s)], lines)


def flee(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    opts = monster_move_options(st, m)
    alive = [h for h in st.heroes if not is_incap(h)]
    if not opts or not alive:
        lines.append(f"{monster_name(m)} cowers.")
        return

    def gap(fp: tuple[Sq, ...]) -> int:
        return min(route(st, fp, hfp(h)) for h in alive)

    here = gap(mfp(m))
    md = monster_def(m)
    best = max(opts, key=lambda sq: (gap(footprint(sq[0], sq[1], md.large)), -opts[sq][0], -sq[1], -sq[0]))
    if gap(footprint(best[0], best[1], md.large)) <= here:
        lines.append(f"{monster_name(m)} cowers.")
        return
    place_monster(st, m, best, opts[best][2], lines)


def monster_attack(st: DungeonState, m: MonsterState, h: HeroState, lines: list[str], bonus: Dice = NO_DICE,
                   inflicts: tuple[str, ...] = ()) -> None:
    md = monster_def(m)
    style = md.attack.style
    spec = getattr(md, STYLE_STAT[style]) + bonus
    stats = hero_stats(h)
    colours = list(spec.dice) + list(C().rules.level_bonus[min(m.level, len(C().rules.level_bonus) - 1)])
    stars = spec.stars
    notes = []
    if style == "melee" and "mob" in md.attributes:
        extra = mob_bonus(st, m, hfp(h), stats.attributes)
        if extra:
            colours += ["B"] * extra
            notes.append(f"mob +{extra}B")
    for attr, kinds in HUNTERS.items():
        if attr in md.attributes and stats.species & kinds:
            stars += 1
            notes.append(f"{attr} +1")
    if "small" in stats.attributes:
        stars -= 1
        notes.append("small target -1")
    a = aura_bonus(st, "monsters", "offence", mfp(m))
    if a:
        stars += a
        notes.append(f"aura {a:+d}")
    if adjacent_visible_terrain(st, mfp(m), "champion"):
        stars += 1
        notes.append("champion +1")
    odice = roll_dice(st, colours)
    off_total, okept = score(odice, stars, "hex" in m.debuffs)
    # hero defence
    dstat = "will" if style == "magic" else "arm"
    dspec = stats.dice[dstat]
    if dstat == "arm" and "dodge" in stats.attributes and expected(stats.dice["dex"]) > expected(dspec):
        dspec = stats.dice["dex"]
        dstat = "dex"
        notes.append("dodge")
    dcolours = list(dspec.dice)
    dstars = dspec.stars
    if "stalwart" in stats.attributes and dstat == "arm":  # stalwart's dice are ARM dice
        n = min(3, adjacent_enemies(st, "heroes", hfp(h), stats.attributes))
        if n:
            dcolours += ["B"] * n
            notes.append(f"stalwart +{n}B")
    if "feint" in md.attributes and style == "melee":
        dstars -= 1
        notes.append("feint -1")
    a = aura_bonus(st, "heroes", "defence", hfp(h))
    if a:
        dstars += a
        notes.append(f"aura {a:+d}")
    if adjacent_visible_terrain(st, hfp(h), "sentinel"):
        dstars += 1
        notes.append("sentinel +1")
    ddice = roll_dice(st, dcolours)
    def_total, dkept = score(ddice, dstars, "bane" in h.debuffs, "enhanced_defences" in stats.attributes)
    text = (f"{monster_name(m)} attacks {stats.name}: {roll_text(odice, stars, off_total, okept)} vs "
            f"{roll_text(ddice, dstars, def_total, dkept)}")
    if notes:
        text += f" [{', '.join(notes)}]"
    after: list[str] = []  # what the attack did, told on the same line
    if off_total > def_total:
        for dname in dict.fromkeys([a for a in md.attributes if a in DEBUFFS] + list(inflicts)):
            give_debuff_hero(h, dname, after)
        wound_hero(st, h, 1, after)
        lines.append(" ".join([text + ": hit."] + after))
    else:
        if style == "melee" and "backlash" in stats.attributes:
            after.append(f"{stats.name}'s backlash strikes back:")
            wound_monster(st, m, 1, after)
        lines.append(" ".join([text + ": blocked."] + after))


# ---- turn flow ---------------------------------------------------------------------------------
def boss_special(st: DungeonState, lines: list[str]) -> None:
    """Each boss on the board runs the steps of its special move (data: effect kind + parameters).

    Debuffs bite here too: poison (-1 AP, at least 1) costs the last step, ice (no unique
    actions) leaves only the plain reactions.
    """
    for m in list(st.monsters):
        md = monster_def(m)
        if md.rank != "boss" or not md.special:
            continue
        steps = list(md.special)
        notes = []
        if "poison" in m.debuffs and len(steps) > 1:
            steps = steps[:-1]
            notes.append("poison costs it a step")
        if "ice" in m.debuffs:
            steps = [x for x in steps if x.effect == "react"]
            notes.append("ice leaves only plain reactions")
        lines.append(f"{md.name}'s special move" + (f" ({'; '.join(notes)})" if notes else "") + ":")
        for step in steps:
            if st.phase != "heroes" or monster(st, m.uid) is None:
                return
            special_step(st, m, step, lines)
            if maybe_advance_level(st, lines):
                return


def special_step(st: DungeonState, m: MonsterState, step, lines: list[str]) -> None:
    md = monster_def(m)
    if step.effect == "react":
        for _ in range(step.amount):
            if st.phase == "heroes" and monster(st, m.uid) is not None:
                monster_act(st, m, lines)
    elif step.effect == "summon":
        source = mfp(m) if step.near == "self" else ()
        for _ in range(step.amount):
            spawn_one(st, m.level, lines, kind=step.kind, source=source)
    elif step.effect == "heal":
        if step.targets == "self":
            healed = [m] if m.wounds else []
        else:
            healed = [f for f in st.monsters if f.wounds and (f.uid == m.uid or (
                route(st, mfp(m), mfp(f), step.range) <= step.range
                and sees(st, "monsters", mfp(m), set(md.attributes), mfp(f), set(monster_def(f).attributes))))]
        if not healed:
            lines.append(f"{md.name} has no wounds to mend.")
        for f in healed:
            n = min(step.amount, f.wounds)
            f.wounds -= n
            lines.append(f"{md.name} heals {monster_name(f) if f.uid != m.uid else 'itself'} ({n} wound{'s' if n > 1 else ''}).")
    elif step.effect == "blast":
        blast(st, m, step.range, lines, step.bonus, step.inflicts)


def blast(st: DungeonState, m: MonsterState, reach: int, lines: list[str], bonus: Dice = NO_DICE,
          inflicts: tuple[str, ...] = ()) -> None:
    """An area attack: every hero within reach and in sight, incapacitated ones included."""
    md = monster_def(m)
    hit = [h for h in st.heroes if route(st, mfp(m), hfp(h), reach) <= reach
           and sees(st, "monsters", mfp(m), set(md.attributes), hfp(h), hero_stats(h).attributes)]
    if not hit:
        lines.append(f"{md.name}'s blast finds no one.")
        return
    lines.append(f"{md.name} blasts everyone within {reach} squares:")
    for h in hit:
        if st.phase != "heroes":
            return
        monster_attack(st, m, h, lines, bonus, inflicts)


def new_turn(st: DungeonState, lines: list[str]) -> None:
    st.turn += 1
    if st.turn > C().rules.max_turns:
        st.phase = "over"
        st.result = "defeat"
        st.result_text = f"The heroes ran out of time: after {C().rules.max_turns} turns the Dark Consul's army breaks out."
        lines.append(st.result_text)
        return
    lines.append(f"Turn {st.turn} begins.")
    for h in st.heroes:
        h.activated = False
        if is_incap(h):
            continue
        if "fire" in h.debuffs:
            lines.append(f"{hero_stats(h).name} burns.")
            wound_hero(st, h, 1, lines)
        if st.phase == "over":
            return
        # tough works whether or not the model also burns (a burnt-out hero is past healing)
        if "tough" in hero_stats(h).attributes and h.wounds and not is_incap(h):
            h.wounds -= 1
            lines.append(f"{hero_stats(h).name} is tough and heals 1 wound.")
    for m in list(st.monsters):
        md = monster_def(m)
        burning = "fire" in m.debuffs
        m.debuffs = []
        if burning:
            lines.append(f"{md.name} burns.")
            wound_monster(st, m, 1, lines)
            if monster(st, m.uid) is None:
                continue
        if "tough" in md.attributes and m.wounds:
            m.wounds -= 1
    maybe_advance_level(st, lines)


def heroes_waiting(st: DungeonState) -> list[HeroState]:
    return [h for h in st.heroes if not h.activated and not is_incap(h)]
