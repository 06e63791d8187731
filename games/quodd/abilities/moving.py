"""Abilities that act during movement: Crush, Wall Builder and Trench Digger (what a moving hero does to
the squares it passes), Jump Shockwave and Spring Jump (after a jump of the jump skill), Tumble Spring
(after the tumble skill), Push Bomb (after pushing a hero), Teleport Skill (instead of the skill on top).

Each acts through a movement job of kind `ability` (`HANDLERS`); a question it asks is answered through
`RESOLVE`, like the board elements' questions.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Action, Event
from games.core.grid import label, manhattan
from games.core.words import possessive, says

from .. import data
from ..board import XY, hero_at, hero_of, is_mover, is_pit, placement_problem, squares, standable, token, xy
from ..elements import explode
from ..jobs import decide, push_front
from ..modes.bside import is_upgraded
from ..state import Hero, Job, QState, Token
from .track import has, mark, name, used

OWN = ("tumble", "slide", "dash", "jump", "skill")  # the hero's own move (movement.HOW_OWN)
BUILDERS = {"wall-builder": "wall", "trench-digger": "pit"}
AFTER_JUMP = ("jump-shockwave", "spring-jump")


def own_move(st: QState, h: Hero, job: Job) -> bool:
    return is_mover(st, h) and not job.by and job.how in OWN


def crush(st: QState, h: Hero, where: list[XY], ev: list[Event]) -> None:
    """Crush: on its own movement the hero smashes every wall it moves into, jumps over or lands on."""
    if not (has(h, "crush") and is_mover(st, h)):
        return
    for p in where:
        t = token(st, p)
        if t is not None and t.kind == "wall":
            st.tokens[label(*p)] = t.model_copy(update={"kind": "broken_wall"})  # tokens are frozen
            ev.append(Event(text=f"{says(h.name, 'crushes')} the wall on {label(*p)} (Crush)."))


def leave_behind(st: QState, h: Hero, frm: XY, job: Job, ev: list[Event]) -> None:
    """Wall Builder / Trench Digger, when switched on: the square just left gets a wall / a pit token, where
    the placement rules allow one (never on a token, a respawn point or under a hero; only walls in pits)."""
    if not own_move(st, h, job):
        return
    for ab, kind_ in BUILDERS.items():
        if used(st, ab) and has(h, ab) and not placement_problem(st, kind_, frm):
            st.tokens[label(*frm)] = Token(kind=kind_)
            ev.append(Event(text=f"{says(h.name, 'leaves')} a {kind_} on {label(*frm)} ({name(ab)})."))
            return


def after_jump(st: QState, h: Hero, job: Job) -> list[Job]:
    """The jobs that follow the landing of a jump of the jump skill: Jump Shockwave, then Spring Jump."""
    if not own_move(st, h, job) or job.how != "jump":
        return []
    return [Job(kind="ability", hero=h.player, item=a, seq=job.seq) for a in AFTER_JUMP if has(h, a)]


def after_tumble_skill(st: QState, h: Hero, job: Job) -> list[Job]:
    """Tumble Spring: at the end of the tumble skill (before the face on top acts)."""
    if st.m.current != "tumble" or not has(h, "tumble-spring") or h.pos is None:
        return []
    return [Job(kind="ability", hero=h.player, item="tumble-spring", seq=job.seq)]


def after_push(st: QState, h: Hero, job: Job) -> list[Job]:
    """Push Bomb: once the push the hero's own move made is over, it may explode."""
    if not own_move(st, h, job) or not has(h, "push-bomb"):
        return []
    return [Job(kind="ability", hero=h.player, item="push-bomb", seq=job.seq)]


def do_ability(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    p = xy(h.pos)
    if job.item == "jump-shockwave":
        ev.append(Event(text=f"{says(h.name, 'lands')} with a shockwave (Jump Shockwave)."))
        explode(st, p, ev)
    elif job.item in ("spring-jump", "tumble-spring"):
        why = placement_problem(st, "spring", p, under_hero_ok=True)
        if why:
            ev.append(Event(text=f"No spring for {h.name} ({name(job.item)}): {why}."))
            return
        st.tokens[h.pos] = Token(kind="spring")
        ev.append(Event(text=f"{says(h.name, 'places')} a spring under themselves on {h.pos} ({name(job.item)})."))
        push_front(st, [Job(kind="enter", hero=h.player, how="spring", seq=job.seq),
                        Job(kind="land", hero=h.player, seq=job.seq)])
    elif job.item == "push-bomb":
        decide(st, "push_bomb", h.player, h, ["explode", "skip"],
               f"{h.name}: set off a basic explosion around {h.pos} (Push Bomb), or skip", job=job)


def _push_bombed(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    if option == "explode" and h.pos is not None:
        ev.append(Event(text=f"{says(h.name, 'sets')} off a Push Bomb."))
        explode(st, xy(h.pos), ev)
    else:
        ev.append(Event(text=f"{says(h.name, 'keeps')} the Push Bomb for later."))


# ---- switched on or used in the movement phase (`/quodd ability`) ---------------------------------

def teleport_targets(st: QState, h: Hero) -> list[str]:
    """Teleport Skill: free squares to stand on within the ready skill's points, counted orthogonally."""
    m = st.m
    if not has(h, "teleport-skill") or m.ready in ("", "q") or m.points <= 0 or h.pos is None or m.ended:
        return []
    p = xy(h.pos)
    return [label(*q) for q in squares(st) if 1 <= manhattan(p, q) <= m.points and standable(st, q)
            and not is_pit(st, q) and hero_at(st, q) is None]


def movement_abilities(st: QState, h: Hero) -> list[Action]:
    if st.m.ended or h.pos is None:
        return []
    out = [Action.of("ability", name=ab) for ab in BUILDERS if has(h, ab) and not used(st, ab)]
    return out + [Action.of("ability", name="teleport-skill", at=t) for t in teleport_targets(st, h)]


def use_movement_ability(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    """Switch a builder on, or teleport with the ready skill's points (the caller runs the queue)."""
    ab = action.get("name") or ""
    if ab in BUILDERS:
        mark(st, ab)
        ev.append(Event(text=f"{says(h.name, 'switches')} on {name(ab)}: every square left by their own move this "
                             f"movement gets a {BUILDERS[ab]}."))
        return
    at = action.get("at") or ""
    m = st.m
    sd = data.skills()[m.ready]
    if m.ready not in m.used:
        m.used.append(m.ready)
        if is_upgraded(h, m.ready):
            h.explores_earned += sd.upgrade_explore
            ev.append(Event(text=f"{possessive(h.name)} upgraded {sd.name} grants an exploration (drawn in phase 4)."))
    ev.append(Event(text=f"{says(h.name, 'teleports')} from {h.pos} to {at} with {sd.name}'s {m.points} points "
                         "(Teleport Skill)."))
    m.seq += 1
    m.ready, m.points, m.current = "", 0, ""
    h.pos = at
    st.last_path.append(at)
    st.queue += [Job(kind="enter", hero=h.player, how="skill", seq=m.seq), Job(kind="land", hero=h.player, seq=m.seq)]


def explain_movement_ability(st: QState, h: Hero, ab: str, at: str) -> str:
    if ab in BUILDERS:
        return f"{name(ab)} is already on for this movement." if used(st, ab) else "Your movement is over."
    if ab == "teleport-skill":
        m = st.m
        if m.ready in ("", "q") or m.points <= 0:
            return "Teleport Skill uses the points of the skill on top: no skill with points is ready now."
        targets = teleport_targets(st, h)
        if at.upper() not in targets:
            return (f"Teleport Skill reaches a free square you can stand on (no pit, wall or hero) within "
                    f"{m.points} (`at:`): " + (", ".join(targets[:12]) or "none now")
                    + (" ..." if len(targets) > 12 else "") + ".")
    return ""


Handler = Callable[[QState, Job, list[Event]], None]
Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]
HANDLERS: dict[str, Handler] = {"ability": do_ability}
RESOLVE: dict[str, Resolver] = {"push_bomb": _push_bombed}
