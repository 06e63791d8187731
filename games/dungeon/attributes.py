"""Advanced attributes that change an offence roll: what the attacker, its friends nearby and the target add.

Each function names the rule it follows (SDE-S "Advanced Model Attributes"); `combat` calls `hero_offence` when a
hero attacks a monster and `monster_offence` when a monster attacks a hero. Both return extra dice colours,
flat stars and short notes for the roll's line.
"""
from __future__ import annotations

from .data import MonsterDef, content
from .sight import route, sees, target_fp
from .state import DungeonState, HeroState, MonsterState
from .stats import KIND, hfp, mfp, monster, monster_def, stat_line

AURA_RANGE = 3  # Dawn Of The Dead, Dragon Rage, Packmaster, Raise: "within 3 squares"

# the monster kinds with an attribute (per attribute asked), for the content in `_WITH_FROM` (another content object
# met starts the table afresh; the attributes asked are a handful of names)
_WITH: dict[str, frozenset[str]] = {}
_WITH_FROM: list[object] = [None]


def kinds_with(attr: str) -> frozenset[str]:
    """The monster kinds whose attributes include `attr`."""
    c = content()
    if _WITH_FROM[0] is not c:
        _WITH.clear()
        _WITH_FROM[0] = c
    found = _WITH.get(attr)
    if found is None:
        found = _WITH[attr] = frozenset(k for k, md in c.monsters.items() if attr in md.attributes)
    return found


def vulnerable_to(attrs: set[str] | tuple[str, ...]) -> set[str]:
    """`vulnerable:fire` in the data reads Vulnerable: Fire."""
    return {a.split(":", 1)[1] for a in attrs if a.startswith("vulnerable:")}


def _stealth(st: DungeonState, afp: tuple, tfp: tuple, tattrs: set[str], notes: list[str]) -> int:
    """Stealth: -1 for each square of distance beyond 3."""
    if "stealth" not in tattrs:
        return 0
    far = route(st, afp, tfp, 12) - 3
    if far > 0:
        notes.append(f"stealth -{far}")
        return -far
    return 0


def _vulnerable(tattrs: set[str], inflicts: list[str], notes: list[str]) -> int:
    """Vulnerable: +1 when the action inflicts a debuff the target is vulnerable to."""
    if vulnerable_to(tattrs) & set(inflicts):
        notes.append("vulnerable +1")
        return 1
    return 0


def hero_offence(st: DungeonState, h: HeroState, key: str, style: str, inflicts: list[str]
                 ) -> tuple[list[str], int, list[str]]:
    """A hero's offence against a monster (or the spawn point): Blood Scent (+1R), Pile-On (+1B), Virulent (+1B),
    the target's Stealth and Vulnerable."""
    if not key.startswith("m"):
        return [], 0, []
    m = monster(st, int(key[1:]))
    if m is None:
        return [], 0, []
    attrs = stat_line(h).attributes
    tattrs = set(monster_def(m).attributes)
    adjacent = route(st, hfp(h), mfp(m), 1) <= 1
    colours: list[str] = []
    notes: list[str] = []
    if "blood_scent" in attrs and style == "melee" and adjacent and m.wounds:
        colours.append("R")
        notes.append("blood scent +1R")
    if "pile_on" in attrs and style == "melee" and adjacent and "knockdown" in m.debuffs:
        colours.append("B")
        notes.append("pile-on +1B")
    if "virulent" in attrs and "poison" in m.debuffs:
        colours.append("B")
        notes.append("virulent +1B")
    stars = _stealth(st, hfp(h), target_fp(st, key), tattrs, notes) + _vulnerable(tattrs, inflicts, notes)
    return colours, stars, notes


def effective_attributes(st: DungeonState, m: MonsterState) -> set[str]:
    """A monster's attributes with what friends lend it: Packmaster gives visible Drakes within 3 the Mob."""
    md = monster_def(m)
    attrs = set(md.attributes)
    if "Drake" in md.species and "mob" not in attrs:
        for f in st.monsters:
            if f.uid != m.uid and "packmaster" in monster_def(f).attributes and _near_visible(st, f, m):
                attrs.add("mob")
                break
    return attrs


def _near_visible(st: DungeonState, src: MonsterState, dst: MonsterState, reach: int = AURA_RANGE,
                  need_sight: bool = True) -> bool:
    if route(st, mfp(src), mfp(dst), reach) > reach:
        return False
    return not need_sight or sees(st, "monsters", mfp(src), set(monster_def(src).attributes), mfp(dst),
                                  set(monster_def(dst).attributes))


def _friend_with(st: DungeonState, m: MonsterState, attr: str, reach: int, need_sight: bool,
                 itself: bool) -> bool:
    if kinds_with(attr).isdisjoint(map(KIND, st.monsters)):  # the common case: no monster here has it
        return False
    for f in st.monsters:
        if attr not in monster_def(f).attributes:
            continue
        if f.uid == m.uid:
            if itself:
                return True
            continue
        if _near_visible(st, f, m, reach, need_sight):
            return True
    return False


def monster_offence(st: DungeonState, m: MonsterState, h: HeroState, style: str, inflicts: list[str]
                    ) -> tuple[list[str], int, list[str]]:
    """A monster's offence against a hero: its own Blood Scent (+2), Pile-On (+1B), Virulent (+1B); friends'
    Savage (+1 on STR rolls), Dawn Of The Dead (+1 melee for Undead), Dragon Rage (+1 STR for Kobolds and Drakes);
    the hero's Stealth and Vulnerable."""
    md: MonsterDef = monster_def(m)
    attrs = set(md.attributes)
    stats = stat_line(h)
    adjacent = route(st, mfp(m), hfp(h), 1) <= 1
    colours: list[str] = []
    stars = 0
    notes: list[str] = []
    if "blood_scent" in attrs and style == "melee" and adjacent and h.wounds:
        stars += 2
        notes.append("blood scent +2")
    if "pile_on" in attrs and style == "melee" and adjacent and "knockdown" in h.debuffs:
        colours.append("B")
        notes.append("pile-on +1B")
    if "virulent" in attrs and "poison" in h.debuffs:
        colours.append("B")
        notes.append("virulent +1B")
    strength = style == "melee"  # the STR offence roll
    if strength and _friend_with(st, m, "savage", 1, True, itself=False):
        stars += 1
        notes.append("savage +1")
    if style == "melee" and "Undead" in md.species and _friend_with(st, m, "dawn_of_the_dead", AURA_RANGE, True,
                                                                      itself=True):
        stars += 1
        notes.append("dawn of the dead +1")
    if strength and {"Kobold", "Drake"} & set(md.species) and _friend_with(st, m, "dragon_rage", AURA_RANGE, False,
                                                                           itself=True):
        stars += 1
        notes.append("dragon rage +1")
    stars += _stealth(st, mfp(m), hfp(h), stats.attributes, notes) + _vulnerable(stats.attributes, inflicts, notes)
    return colours, stars, notes


def grabbed(st: DungeonState, side: str, fp: tuple, attrs: set[str]) -> bool:
    """Grabby: a model adjacent to, and in sight of, an opposing model with Grabby may not move."""
    if side == "heroes":
        for m in st.monsters:
            if "grabby" in monster_def(m).attributes and route(st, fp, mfp(m), 1) <= 1 and sees(
                    st, "heroes", fp, attrs, mfp(m), set(monster_def(m).attributes)):
                return True
        return False
    for h in st.heroes:
        stats = stat_line(h)
        if "grabby" in stats.attributes and h.wounds < stats.life and route(st, fp, hfp(h), 1) <= 1 and sees(
                st, "monsters", fp, attrs, hfp(h), stats.attributes):
            return True
    return False


def grabbed_by(st: DungeonState, fp: tuple, attrs: set[str], grabby: list[HeroState]) -> bool:
    """`grabbed` for a monster, given the standing heroes with Grabby (`nearest.HeroSide.grabby`)."""
    for h in grabby:
        if route(st, fp, hfp(h), 1) <= 1 and sees(st, "monsters", fp, attrs, hfp(h), stat_line(h).attributes):
            return True
    return False


def raise_undead(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    """Raise (a monster with it, at the start of its activation): visible friendly Undead within 3 that have wounds
    heal one."""
    for f in st.monsters:
        if f.wounds and "Undead" in monster_def(f).species and (f.uid == m.uid or _near_visible(st, m, f)):
            f.wounds -= 1
            lines.append(f"{monster_def(m).name} raises {monster_def(f).name}: 1 wound healed.")


def goop_cards(st: DungeonState, h: HeroState) -> list[str]:
    """Goop: a hero adjacent to, and in sight of, a monster with Goop gets nothing from the cards it carries that
    match that monster's affinity (house: in its rolls; see the README)."""
    if not h.equipment or kinds_with("goop").isdisjoint(map(KIND, st.monsters)):  # (no monster here has it)
        return []
    colours: set[str] = set()
    attrs = stat_line(h).attributes
    for m in st.monsters:
        md = monster_def(m)
        if "goop" in md.attributes and route(st, hfp(h), mfp(m), 1) <= 1 and sees(
                st, "heroes", hfp(h), attrs, mfp(m), set(md.attributes)):
            colours |= set(md.affinity)
    return [c for c in h.equipment if content().cards[c].affinity in colours]


def geared(st: DungeonState, h: HeroState, notes: list[str] | None = None) -> HeroState:
    """The hero as its rolls see it: without the cards Goop takes away (the hero itself when none)."""
    gone = goop_cards(st, h)
    if not gone:
        return h
    if notes is not None:
        notes.append("goop: no " + ", ".join(content().cards[c].name for c in gone))
    return h.model_copy(update={"equipment": [c for c in h.equipment if c not in gone]})
