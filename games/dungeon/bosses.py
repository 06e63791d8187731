"""The bosses' special moves: after the last hero's activation of a turn, each boss on the board runs the steps
of its special move (data: an effect kind and its parameters): more reactions, summons, heals, blasts."""
from __future__ import annotations

from games.core.words import plural

from . import marks
from .combat import monster_attack
from .data import Dice, SpecialStep
from .dice import NO_DICE
from .levels import maybe_advance_level, spawn_one
from .monsters import monster_act
from .sight import route, sees
from .state import DungeonState, MonsterState
from .stats import hero_attributes, hfp, mfp, monster, monster_def, monster_name


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


def special_step(st: DungeonState, m: MonsterState, step: SpecialStep, lines: list[str]) -> None:
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
            whom = monster_name(f) if f.uid != m.uid else "itself"
            lines.append(f"{md.name} heals {whom} ({n} wound{'s' if n > 1 else ''}).")
            marks.healed(st, md.name, (m.x, m.y), monster_def(f).name, (f.x, f.y), n, monster=True)
    elif step.effect == "blast":
        blast(st, m, step.range, lines, step.bonus, step.inflicts)


def blast(st: DungeonState, m: MonsterState, reach: int, lines: list[str], bonus: Dice = NO_DICE,
          inflicts: tuple[str, ...] = ()) -> None:
    """An area attack: every hero within reach and in sight, incapacitated ones included."""
    md = monster_def(m)
    hit = [h for h in st.heroes if route(st, mfp(m), hfp(h), reach) <= reach
           and sees(st, "monsters", mfp(m), set(md.attributes), hfp(h), hero_attributes(h))]
    if not hit:
        lines.append(f"{md.name}'s blast finds no one.")
        return
    lines.append(f"{md.name} blasts everyone within {plural(reach, 'square')}:")
    marks.area(st, md.name, mfp(m), reach, f"{md.name} blasts within {plural(reach, 'square')}", monster=True)
    for h in hit:
        if st.phase != "heroes":
            return
        monster_attack(st, m, h, lines, bonus, inflicts, basic=False)  # a special move, not a basic action
