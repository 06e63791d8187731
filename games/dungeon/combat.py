"""Combat: the modifiers of a roll, a hero's attack, a monster's attack, wounds, debuffs and destruction.

Functions here mutate the state copy they are given (the engine copies first) and append
short sentences to a list of lines; the phases turn those into events. Every die is rolled
through `dice.roll_dice`.
"""
from __future__ import annotations

from games.core.grid import label as sq_label

from . import attributes, dice, marks
from .board import SLOW_TERRAIN, Board, Sq, board, footprint
from .data import DEBUFFS, STYLE_STAT, Dice, content
from .loot import monster_drops
from .maps import dungeon_def
from .moves import _K
from .sight import route, sees, structures, target_attrs, target_fp, target_name
from .state import AttackCtx, Die, DungeonState, HeroState, MonsterState
from .stats import (
    UID_KIND_SQUARE,
    Stats,
    hero,
    hero_attributes,
    hfp,
    immune_to,
    is_incap,
    mfp,
    monster,
    monster_def,
    monster_name,
    stat_line,
)

HUNTERS = {
    "beast_hunter": {"Beast", "Bug", "Chimera"},
    "dragon_spite": {"Draconic"},
    "holy": {"Undead", "Demon", "Nether"},
    "natures_bane": {"Elemental", "Kodama"},
    "flesh_bane": {"Fair Sapient"},
}


# ---- modifiers -------------------------------------------------------------------
def adjacent_visible_terrain(st: DungeonState, fp: tuple[Sq, ...], kind: str) -> bool:
    """Is a square of terrain `kind` next to the footprint (one step away by route)? Asked of the board's few
    squares of that kind (a champion, a sentinel) rather than of every neighbour."""
    b = board(st.dungeon)
    for t in b.terrain_squares(frozenset((kind,))):
        for s in fp:
            if t != s and abs(t[0] - s[0]) <= 1 and abs(t[1] - s[1]) <= 1 and route(st, fp, (t,), 1) == 1:
                return True
    return False


DIFFICULTY_STARS = {"explorer": -1, "normal": 0, "veteran": 1}  # house: stars on monsters' offence rolls


def aura_bonus(st: DungeonState, side: str, roll: str, fp: tuple[Sq, ...]) -> int:
    lv = st.levels[st.level]
    if not lv.active or lv.destroyed:
        return 0
    aura = dungeon_def(st.dungeon).levels[st.level].aura
    if aura.side != side or aura.roll != roll:
        return 0
    squares = board(st.dungeon).aura(st.level, content().rules.aura_range)
    return aura.bonus if any(s in squares for s in fp) else 0


def ground_bonus(st: DungeonState, side: str, roll: str, fp: tuple[Sq, ...], notes: list[str]) -> int:
    """Stars the ground gives a roll: the level's aura, and a champion (offence) or sentinel (defence) next to it."""
    stars = 0
    a = aura_bonus(st, side, roll, fp)
    if a:
        stars += a
        notes.append(f"aura {a:+d}")
    if side == "monsters" and roll == "offence" and st.difficulty != "normal":  # house difficulty option
        bonus = DIFFICULTY_STARS[st.difficulty]
        stars += bonus
        notes.append(f"{st.difficulty} {bonus:+d}")
    statue = "champion" if roll == "offence" else "sentinel"
    if adjacent_visible_terrain(st, fp, statue):
        stars += 1
        notes.append(f"{statue} +1")
    return stars


def adjacent_enemies(st: DungeonState, side: str, fp: tuple[Sq, ...], attrs: set[str]) -> int:
    """Visible adjacent enemies (for Stalwart)."""
    n = 0
    if side == "heroes":
        for m in st.monsters:
            if route(st, fp, mfp(m), 1) <= 1 and sees(st, "heroes", fp, attrs, mfp(m), set(monster_def(m).attributes)):
                n += 1
    else:
        for h in st.heroes:
            if not is_incap(h) and route(st, fp, hfp(h), 1) <= 1 and sees(
                    st, "monsters", fp, attrs, hfp(h), hero_attributes(h)):
                n += 1
    return n


def mob_bonus(st: DungeonState, attacker: MonsterState, target_fp: tuple[Sq, ...], target_attrs: set[str]) -> int:
    """Mob: +1B for each other visible monster with Mob next to the target (three at most). Asked of the
    monsters next to it first (the tests are the same whatever their order: none changes the state)."""
    n = 0
    near = {(x + dx, y + dy) for x, y in target_fp for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    uid, kinds = attacker.uid, content().monsters
    for m, (muid, kind, x, y) in zip(st.monsters, map(UID_KIND_SQUARE, st.monsters), strict=True):
        if muid == uid:
            continue
        fp = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)) if kinds[kind].large else ((x, y),)  # `mfp`
        if near.isdisjoint(fp):
            continue  # a route of one step reaches only the squares around the target
        if "mob" not in attributes.effective_attributes(st, m):
            continue
        if route(st, fp, target_fp, 1) <= 1 and sees(
                st, "heroes", target_fp, target_attrs, fp, set(monster_def(m).attributes)):
            n += 1
    return min(n, 3)


def level_dice(m: MonsterState) -> list[str]:
    """The extra dice a monster rolls on deeper levels (house reading of "+1 dice")."""
    bonus = content().rules.level_bonus
    return list(bonus[min(m.level, len(bonus) - 1)])


# ---- attacks by heroes ---------------------------------------------------------------
def start_attack(st: DungeonState, h: HeroState, action: str, style: str, stat: str, bonus: str,
                 inflicts: list[str], targets: list[str], lines: list[str]) -> None:
    st.attack = AttackCtx(hero=h.id, action=action, style=style, stat=stat, bonus=bonus,
                          inflicts=inflicts, targets=list(targets))
    advance_attack(st, lines)


def _reroll_budget(st: DungeonState, h: HeroState, ctx: AttackCtx) -> int:
    stats = stat_line(h)
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


def reroll_prompt(st: DungeonState, ctx: AttackCtx) -> str:
    """The roll waiting for a reroll, die by die, with what decides it: the total so far against the dice the
    target will defend with (the attack hits only on more than the defence rolls)."""
    stats, stars = hero_offence_stars(st, ctx, [])
    total, kept = dice.score(ctx.offence, stars, "hex" in hero(st, ctx.hero).debuffs)
    shown = " ".join(f"[{i + 1}] " + dice.die_text(d) for i, d in enumerate(ctx.offence))
    flat = f" {stars:+d}" if stars else ""
    n = ctx.rerolls_left
    return (f"{stats.name} rolls {shown}{flat} = {total} against {target_name(st, ctx.target)}, who defends with "
            f"{defence_dice_text(st, ctx.target, ctx.style)} (a hit needs more than the defence roll); "
            f"{stats.name} may reroll {n} {'die' if n == 1 else 'dice'} or keep the roll.")


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
            h = attributes.geared(st, hero(st, ctx.hero))  # Goop: cards of its colour do nothing
            stats = stat_line(h)
            pool = stats.dice[ctx.stat] + Dice.parse(ctx.bonus)
            extra, _, _ = attributes.hero_offence(st, h, ctx.target, ctx.style, ctx.inflicts)
            ctx.offence = dice.roll_dice(st, list(pool.dice) + extra)
            ctx.rerolls_left = _reroll_budget(st, h, ctx)
            if ctx.rerolls_left:
                lines.append(reroll_prompt(st, ctx))
                ctx.stage = "reroll"
                return
        resolve_hero_attack(st, lines)
        ctx = st.attack


def hero_offence_stars(st: DungeonState, ctx: AttackCtx, notes: list[str]) -> tuple[Stats, int]:
    """The attacking hero's stat line as the roll sees it (Goop: cards of its colour do nothing) and the flat
    stars its offence against `ctx.target` adds to the dice: the stat's and the action's, a small target, the
    attributes riding on the roll, the ground. Pure: the reroll prompt asks it too."""
    h = hero(st, ctx.hero)
    stats = stat_line(attributes.geared(st, h, notes))
    stars = Dice.parse(ctx.bonus).stars + stats.dice[ctx.stat].stars
    if "small" in target_attrs(st, ctx.target):
        stars -= 1
        notes.append("small target -1")
    _, astars, anotes = attributes.hero_offence(st, h, ctx.target, ctx.style, ctx.inflicts)
    notes += anotes
    return stats, stars + astars + ground_bonus(st, "heroes", "offence", hfp(h), notes)


def defence_dice_text(st: DungeonState, key: str, style: str) -> str:
    """The dice and stars a target defends with against an attack of `style` ("2B", "1B1S"), before the roll."""
    if key == "spawn":
        return content().rules.spawn_point.armour.text()
    m = monster(st, int(key[1:]))
    if m is None:
        return "?"
    colours, stars, _ = monster_defence_dice(st, m, style)
    return Dice(dice=tuple(colours), stars=stars).text() if colours or stars else "no defence"


def resolve_hero_attack(st: DungeonState, lines: list[str]) -> None:
    """Score the rolled offence against the target's defence; a hit wounds and may leave hearts to use."""
    ctx = st.attack
    assert ctx is not None
    notes: list[str] = []
    h = hero(st, ctx.hero)
    stats, stars = hero_offence_stars(st, ctx, notes)
    key = ctx.target
    off_total, kept = dice.score(ctx.offence, stars, "hex" in h.debuffs)
    # defence
    m: MonsterState | None
    if key == "spawn":
        sp = content().rules.spawn_point
        ddice: list[Die] = dice.roll_dice(st, sp.armour.dice)
        dstars = sp.armour.stars
        def_total, dkept = dice.score(ddice, dstars, False)
        m = None
    else:
        m = monster(st, int(key[1:]))
        assert m is not None
        ddice, dstars, dnotes = monster_defence_pool(st, m, ctx.style)
        md = monster_def(m)
        def_total, dkept = dice.score(ddice, dstars, "bane" in m.debuffs, "enhanced_defences" in md.attributes)
        notes += dnotes
    what = content().unique[ctx.action].name if ctx.action in content().unique else f"{ctx.action} attack"
    text = (f"{stats.name} ({what}) rolls {dice.roll_text(ctx.offence, stars, off_total, kept)} vs "
            f"{target_name(st, key)} {dice.roll_text(ddice, dstars, def_total, dkept)}")
    if notes:
        text += f" [{', '.join(notes)}]"
    ctx.target = ""
    marks.attacked(st, stats.name, (h.x, h.y), target_name(st, key), (m.x, m.y) if m is not None
                   else board(st.dungeon).spawns[st.level], off_total > def_total)
    if off_total > def_total:
        lines.append(text + ": hit.")
        hearts = sum(1 for i in kept if dice.face(ctx.offence[i])[1])
        inflicts = list(ctx.inflicts)
        if ctx.action in ("melee", "ranged", "magic"):
            inflicts += [a for a in stats.attributes if a in DEBUFFS]
        if key == "spawn":
            wound_spawn(st, st.level, 1, lines)
        else:
            assert m is not None
            if m.wounds + 1 < monster_def(m).life:  # a monster this wound destroys suffers no debuff to tell of
                for dname in inflicts:
                    give_debuff_monster(m, dname, lines)
            wound_monster(st, m, 1, lines)
        ua = content().unique.get(ctx.action)
        if ua is not None and ua.buff:  # a card action's buff icon: a hit bestows it on the user
            give_buff(h, ua.buff, ua.name, lines)
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
        if m is not None and "sidestep" in monster_def(m).attributes and ctx.style in ("melee", "ranged", "magic"):
            sidestep(st, m, h, lines)


def monster_defence_pool(st: DungeonState, m: MonsterState, style: str) -> tuple[list[Die], int, list[str]]:
    colours, stars, notes = monster_defence_dice(st, m, style)
    return dice.roll_dice(st, colours), stars, notes


def monster_defence_dice(st: DungeonState, m: MonsterState, style: str) -> tuple[list[str], int, list[str]]:
    """The dice (colours) and stars a monster defends with against an attack of `style`, before the roll."""
    md = monster_def(m)
    stat = "will" if style == "magic" else "arm"
    spec = getattr(md, stat)
    if stat == "arm" and "dodge" in md.attributes:
        spec = md.dex
    colours = list(spec.dice) + level_dice(m)
    notes: list[str] = []
    if m.charge and stat == "arm" and spec is md.arm:  # Static Charge: +1B ARM per point
        colours += ["B"] * m.charge
        notes.append(f"static charge +{m.charge}B")
    stars = spec.stars + ground_bonus(st, "monsters", "defence", mfp(m), notes)
    return colours, stars, notes


# ---- attacks by monsters ---------------------------------------------------------------
def monster_attack(st: DungeonState, m: MonsterState, h: HeroState, lines: list[str], bonus: Dice = dice.NO_DICE,
                   inflicts: tuple[str, ...] = (), basic: bool = True) -> None:
    """A monster's offence against a hero. `basic`: one of the three basic offence actions, the only ones its
    debuff attributes (fire, poison, ...) ride on; a special move (`basic=False`) inflicts only its own `inflicts`."""
    md = monster_def(m)
    style = md.attack.style
    spec = _offence(m.kind, STYLE_STAT[style]) if bonus is dice.NO_DICE else getattr(md, STYLE_STAT[style]) + bonus
    notes: list[str] = []
    stats = stat_line(attributes.geared(st, h, notes))  # Goop: cards of its colour do nothing
    colours = list(spec.dice) + level_dice(m)
    stars = spec.stars
    if style == "melee" and "mob" in attributes.effective_attributes(st, m):
        extra = mob_bonus(st, m, hfp(h), stats.attributes)
        if extra:
            colours += ["B"] * extra
            notes.append(f"mob +{extra}B")
    if m.charge and STYLE_STAT[style] == "str":  # Static Charge: +1B STR per point
        colours += ["B"] * m.charge
        notes.append(f"static charge +{m.charge}B")
    riding = [a for a in md.attributes if a in DEBUFFS] if basic else []
    more, astars, anotes = attributes.monster_offence(st, m, h, style, riding + list(inflicts))
    colours += more
    stars += astars
    notes += anotes
    for attr, kinds in HUNTERS.items():
        if attr in md.attributes and stats.species & kinds:
            stars += 1
            notes.append(f"{attr} +1")
    if "small" in stats.attributes:
        stars -= 1
        notes.append("small target -1")
    stars += ground_bonus(st, "monsters", "offence", mfp(m), notes)
    odice = dice.roll_dice(st, colours, kept=False)
    off_total, okept = dice.score(odice, stars, "hex" in m.debuffs)
    # hero defence
    dstat = "will" if style == "magic" else "arm"
    dspec = stats.dice[dstat]
    if dstat == "arm" and "dodge" in stats.attributes and dice.expected(stats.dice["dex"]) > dice.expected(dspec):
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
    dstars += ground_bonus(st, "heroes", "defence", hfp(h), notes)
    ddice = dice.roll_dice(st, dcolours, kept=False)
    def_total, dkept = dice.score(ddice, dstars, "bane" in h.debuffs, "enhanced_defences" in stats.attributes)
    text = (f"{monster_name(m)} attacks {stats.name}: {dice.roll_text(odice, stars, off_total, okept)} vs "
            f"{dice.roll_text(ddice, dstars, def_total, dkept)}")
    if notes:
        text += f" [{', '.join(notes)}]"
    after: list[str] = []  # what the attack did, told on the same line
    marks.attacked(st, md.name, (m.x, m.y), stats.name, (h.x, h.y), off_total > def_total, monster=True)
    if off_total > def_total:
        for dname in dict.fromkeys(riding + list(inflicts)):
            give_debuff_hero(h, dname, after)
        wound_hero(st, h, 1, after)
        lines.append(" ".join([text + ": hit."] + after))
    else:
        if style == "melee" and "backlash" in stats.attributes:
            after.append(f"{stats.name}'s backlash strikes back:")
            wound_monster(st, m, 1, after)
        lines.append(" ".join([text + ": blocked."] + after))


_OFFENCE: dict[tuple[str, str], Dice] = {}


def _offence(kind: str, stat: str) -> Dice:
    """A monster kind's dice for an offence stat with no bonus (`+ NO_DICE`: the dice in colour order), once."""
    found = _OFFENCE.get((kind, stat))
    if found is None:
        found = _OFFENCE[(kind, stat)] = getattr(content().monsters[kind], stat) + dice.NO_DICE
    return found


# ---- wounds, debuffs and destruction ---------------------------------------------------
def terrain_debuff(terrain: str, attrs: set[str] | tuple[str, ...]) -> str | None:
    """The debuff a model gains entering this terrain: lava burns everyone, fliers included (Fly spares only
    difficult terrain); brambles poison, except a flier (not affected by difficult terrain at all)."""
    if terrain == "lava":
        return "fire"
    if terrain == "brambles" and "fly" not in attrs:
        return "poison"
    return None


def step_costs(b: Board, sure: bool, attrs: set[str] | tuple[str, ...]) -> list[int]:
    """What entering each square costs a move search (by square number x * height + y): `_K` a step, twice that
    on difficult terrain unless the model is sure-footed, and one more where the terrain hurts it (a hazard)."""
    hgt = b.height
    stepc = [_K] * (b.width * hgt)
    if not sure:
        for x, y in b.terrain_squares(SLOW_TERRAIN):
            stepc[x * hgt + y] = 2 * _K
    for x, y in b.terrain_squares(frozenset({"lava", "brambles"})):
        if terrain_debuff(b.terrain_at((x, y)), attrs):
            stepc[x * hgt + y] += 1
    return stepc



def give_debuff_hero(h: HeroState, d: str, lines: list[str]) -> None:
    if immune_to(stat_line(h).immune | set(h.buffs), d) or d in h.debuffs:  # a buff's immunity counts too
        return
    h.debuffs.append(d)
    lines.append(f"{stat_line(h).name} suffers {d}.")


def give_buff(h: HeroState, immune: tuple[str, ...], source: str, lines: list[str]) -> None:
    """A buff (2nd-edition cards): immunities until the end of the hero's next activation; a debuff it covers
    goes at once (rule: gaining an immunity removes that debuff)."""
    name = stat_line(h).name
    h.buffs = list(dict.fromkeys(h.buffs + list(immune)))
    h.buffs_expiring = [b for b in h.buffs_expiring if b not in immune]
    lines.append(f"{name} gains a buff from {source}: immune to {', '.join(immune)}.")
    gone = [d for d in h.debuffs if immune_to(set(h.buffs), d)]
    if gone:
        h.debuffs = [d for d in h.debuffs if d not in gone]
        h.expiring = [d for d in h.expiring if d not in gone]
        lines.append(f"The buff frees {name} of {', '.join(gone)}.")


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
    stats = stat_line(h)
    lines.append(f"{stats.name} takes {n} wound{'s' if n > 1 else ''} ({min(h.wounds, stats.life)}/{stats.life}).")
    if was or not is_incap(h):
        return
    if "nine_lives" in stats.attributes and h.nine_lives_ready:
        h.nine_lives_ready = False
        rolled = dice.roll_dice(st, ["R"])
        got, _ = dice.score(rolled, 0, False)
        h.wounds = max(0, h.wounds - got)
        lines.append(f"Nine lives: {stats.name} rolls {dice.die_text(rolled[0])}" + (
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
        if "static_charge" in md.attributes and m.charge < 3:  # Static Charge: a point per wounding, up to 3
            m.charge += 1
            lines.append(f"{md.name} builds static charge ({m.charge}).")
        return
    destroy_monster(st, m, lines)


def destroy_monster(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    md = monster_def(m)
    if "gross" in md.attributes and st.phase == "heroes":  # Gross: its Gross action before it is removed
        gross_action(st, m, lines)
    st.monsters = [x for x in st.monsters if x.uid != m.uid]
    lines.append(f"{md.name} is destroyed.")
    if "forced_shift" in md.attributes and md.shift_to:
        forced_shift(st, m, lines)
        return
    lv = st.levels[m.level] if 0 <= m.level < len(st.levels) else None
    monster_drops(st, m, lv, lines)
    # back to the pool
    if lv is not None and not lv.destroyed and not md.guardian:
        if md.rank == "minion" or (md.rank == "elite" and not lv.boss_defeated):
            lv.pool.append(m.kind)


def wound_spawn(st: DungeonState, level: int, n: int, lines: list[str]) -> None:
    lv = st.levels[level]
    life = content().rules.spawn_point.life
    lv.spawn_wounds += n
    if lv.spawn_wounds < life:
        lines.append(f"The spawn point takes {n} wound ({lv.spawn_wounds}/{life}).")
        return
    lv.destroyed = True
    lv.pool = []
    lines.append("The spawn point is destroyed; its pool is discarded.")


def gross_action(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    """Gross (house action): as it falls it splatters every adjacent hero in its sight, an attack that poisons."""
    md = monster_def(m)
    for h in st.heroes:
        if st.phase != "heroes":
            return
        if not is_incap(h) and route(st, mfp(m), hfp(h), 1) <= 1 and sees(
                st, "monsters", mfp(m), set(md.attributes), hfp(h), hero_attributes(h)):
            lines.append(f"{md.name} bursts (gross):")
            monster_attack(st, m, h, lines, inflicts=("poison",), basic=False)


def forced_shift(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    """Forced Shift: the destroyed model becomes its other form where it stood; with no room there it comes out of
    the spawn point next (the front of its level's pool). It drops nothing and goes back to no pool."""
    new_def = content().monsters[monster_def(m).shift_to]
    fp = footprint(m.x, m.y, new_def.large)
    b = board(st.dungeon)
    taken = {s for x in st.monsters for s in mfp(x)} | {(h.x, h.y) for h in st.heroes}
    blocked = set(b.static_structures) | set(b.chasms)
    if all(b.inside(s) and s not in taken and s not in blocked for s in fp) and not (
            new_def.large and b.internal_walls(m.x, m.y)):
        st.monsters.append(MonsterState(uid=st.next_uid, kind=new_def.id, x=m.x, y=m.y, level=m.level))
        st.next_uid += 1
        lines.append(f"It shifts into {new_def.name} at {sq_label(m.x, m.y)}.")
        return
    if 0 <= m.level < len(st.levels) and not st.levels[m.level].destroyed:
        st.levels[m.level].pool.insert(0, new_def.id)
        lines.append(f"It shifts into {new_def.name}, who comes out of the spawn point next.")


def sidestep(st: DungeonState, m: MonsterState, attacker: HeroState, lines: list[str]) -> None:
    """Sidestep: after a successful defence a small monster that may move steps one free square (house: the open
    square farthest from its attacker, walls and diagonals obeyed)."""
    md = monster_def(m)
    if md.large or md.move <= 0 or {"immobile", "knockdown"} & set(m.debuffs) or attributes.grabbed(
            st, "monsters", mfp(m), set(md.attributes)):
        return
    b = board(st.dungeon)
    taken = {s for x in st.monsters for s in mfp(x)} | {(h.x, h.y) for h in st.heroes}
    blocked = set(structures(st)) | set(b.chasms)
    best = None
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            to = (m.x + dx, m.y + dy)
            if (dx or dy) and ((m.x, m.y), (dx, dy)) in b.step_set and b.inside(to) and to not in taken \
                    and to not in blocked:
                if dx and dy and ((m.x + dx, m.y) in blocked | taken or (m.x, m.y + dy) in blocked | taken):
                    continue
                key = (-route(st, (to,), hfp(attacker), 20), to[1], to[0])
                if best is None or key < best[0]:
                    best = (key, to)
    if best is not None:
        m.x, m.y = best[1]
        lines.append(f"{md.name} sidesteps to {sq_label(*best[1])}.")
