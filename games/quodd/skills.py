"""A hero's skills: the face on top and the skill it shows, points, and rearranging skills on faces.

Rearranging happens in the setup, with the Q on top (the shared Q-power) and on Q or rearrange
tokens; its effect, button label, refusal and shorthand are all here.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from games.core import Action, Event
from games.core.grid import DIAGONALS, DIRS4, DIRS8
from games.core.words import says

from . import data
from .abilities.track import has
from .board import active, hero_of, is_mover
from .commands import arg
from .cube import SKILL_FACES, face_at, tumble
from .jobs import cancel_seq
from .modes.bside import face_movement, is_upgraded
from .state import Hero, QState

SKILLS_HINT = ("Everyone: put your skills on faces with `rearrange` (e.g. `rearrange back:jump`), then `done`. Your "
               "first tumble forward brings the back face up; the feet face cannot come up on the first tumble.")


def top_face(h: Hero) -> str:
    return face_at(h.head, h.front, "U")


def top_skill(h: Hero) -> str:
    f = top_face(h)
    return "q" if f == "q" else h.skills[f]


def on_top_after(h: Hero, tumbles: list[str]) -> str:
    """What a button says lands on top after the hero's cube tumbles these ways ("Dash on top", "Q on top"):
    the cube's own turning; a board element it meets on the way may turn it again (the events say so)."""
    head, front = h.head, h.front
    for d in tumbles:
        head, front = tumble(head, front, d)
    face = face_at(head, front, "U")
    if face == "q":
        return "Q on top"
    skill = h.skills.get(face, "")
    return f"{data.skills()[skill].name if skill in data.skills() else face} on top"


def base_points(h: Hero) -> int:
    return h.movement


def skill_points(h: Hero, skill: str, boost: dict[str, int] | None = None) -> int:
    """Base movement, plus the upgraded side's bonus, plus a B-side upgrade on its face, plus boosts played for
    this skill or for all,
    plus Greed Speed (crystals carried or banked) and Hunger-Boost (food cards in hand)."""
    bonus = data.skills()[skill].upgrade_bonus if is_upgraded(h, skill) else 0
    boost = boost or {}
    return (base_points(h) + bonus + face_movement(h, skill) + boost.get(skill, 0) + boost.get("all", 0)
            + ability_points(h))


def ability_points(h: Hero) -> int:
    greed = sum("crystal" in c for c in h.carrying + h.banked) if has(h, "greed-speed") else 0
    hunger = sum(data.cards()[c].kind == "food" for c in h.hand) if has(h, "hunger-boost") else 0
    return greed + hunger


def turns_freely(h: Hero, skill: str) -> bool:
    """Change Directions: a slide, diagonal slide or tumble skill may turn as it goes (typed as a path)."""
    return skill in data.skills() and data.skills()[skill].mode in ("line", "tumble") and has(h, "change-directions")


def skill_dirs(skill: str) -> list[str]:
    d = data.skills()[skill].dirs
    return list(DIRS4) if d == "orthogonal" else list(DIAGONALS) if d == "diagonal" else list(DIRS8)


# ---- rearranging ------------------------------------------------------------------------

def rearranges(h: Hero) -> list[Action]:
    """Every other layout of the five skills on the five faces (119)."""
    return list(_rearranges(tuple(h.skills[f] for f in SKILL_FACES), tuple(sorted(data.skills()))))


@lru_cache(maxsize=256)
def _rearranges(current: tuple[str, ...], skills: tuple[str, ...]) -> tuple[Action, ...]:
    """The layouts other than `current`, built once per layout (actions are frozen values)."""
    return tuple(Action.of("rearrange", **dict(zip(SKILL_FACES, perm, strict=True)))
                 for perm in permutations(skills) if perm != current)


def swaps(h: Hero, face: str) -> list[Action]:
    """The four layouts that swap `face`'s skill with one other face (the handy rearranges)."""
    out = []
    for other in SKILL_FACES:
        if other == face:
            continue
        sk = dict(h.skills)
        sk[face], sk[other] = sk[other], sk[face]
        out.append(Action.of("rearrange", **{f: sk[f] for f in SKILL_FACES}))
    return out


def rearrange(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    """Reassign skills; mid-move, a changed top skill takes over the remaining points (FAQ)."""
    m = st.m
    moving = st.phase == "move" and is_mover(st, h) and bool(m.current)  # the layout alone does not change these
    before = top_skill(h) if moving else ""
    h.skills = {f: arg(action, f) for f in SKILL_FACES}
    ev.append(Event(text=f"{says(h.name, 'rearranges')} skills: " + ", ".join(f"{f} {h.skills[f]}" for f in SKILL_FACES)
                    + "."))
    if not moving:
        return
    new = top_skill(h)
    if new in (m.current, before):  # the face on top shows what it showed: the skill in use goes on
        return
    # the points left of the shared movement range go over; the old skill's own boosts do not
    remaining = max(0, base_points(h) + m.boost.get("all", 0) - m.taken)
    cancel_seq(st, m.seq, keep=("land",))
    m.current = ""
    if new == "q":
        m.ready, m.points = ("q" if m.q_left() else ""), 0
    elif new in m.used or remaining == 0:
        m.ready, m.points = "", 0
    else:
        m.ready, m.points = new, remaining + skill_points(h, new, {new: m.boost.get(new, 0)}) - base_points(h)
        ev.append(Event(text=f"{says(h.name, 'goes')} on with {data.skills()[new].name} ({m.points} left; "
                             "boosts of the old skill stay behind)."))


def layout_owner(st: QState, player: str = "") -> Hero | None:
    """Whose skills a rearrange concerns now: the pending decision's hero, the setup player, or the mover."""
    if st.pending is not None:
        return hero_of(st, st.pending.hero)
    if st.phase == "skills":
        try:
            return hero_of(st, player)
        except KeyError:
            return None
    return active(st) if st.phase != "over" else None


def rearrange_label(st: QState, a: dict[str, str], player: str | None = None) -> str:
    """What a layout changes, short and whole: `swap back/front (Jump↔Dash)`, said for `player`'s hero when the
    caller names the button's owner, else for the hero it can be a swap for (named when several choose)."""
    if st.phase == "skills" and st.pending is None:
        owners = [h for h in st.heroes if h.player not in st.ready]
    else:
        owner = layout_owner(st)
        owners = [owner] if owner is not None else []
    mine = [h for h in owners if h.player == player]
    if mine:
        return _change(st, mine[0], a)
    fits = [h for h in owners if sum(h.skills.get(f) != a[f] for f in SKILL_FACES) == 2]
    backs = [h for h in fits if h.skills.get("back") != a["back"]]
    if len(fits) > 1 and len(backs) == 1:
        fits = backs  # the setup's buttons swap their owner's back face (`SkillsPhase.buttons`): that is whose
    texts = {_change(st, h, a) for h in fits}
    if len(texts) == 1:  # a swap for one hero, or the same swap for several (each button then says whose)
        who = f"{fits[0].name}: " if len(owners) > 1 and len(fits) == 1 else ""
        return who + texts.pop()
    if fits:  # the same layout is a swap for several heroes: each one's, by name, as much as a button holds
        first, *rest = [f"{_change(st, h, a)} for {h.name}" for h in fits]
        whole = "; ".join([first, *(r.removeprefix("swap ") for r in rest)])
        short = "swap " + ", ".join(f"{'/'.join(_changed(h, a))} for {h.name}" for h in fits)
        return next((t for t in (whole, short) if len(t) <= LABEL_MAX), short[:LABEL_MAX])
    names = {k: v.name for k, v in data.skills().items()}
    return "Skills: " + ", ".join(f"{f} {names[a[f]]}" for f in SKILL_FACES)


LABEL_MAX = 80  # Discord's button label limit


def _changed(h: Hero, a: dict[str, str]) -> list[str]:
    return [f for f in SKILL_FACES if h.skills.get(f) != a[f]]


def _change(st: QState, h: Hero, a: dict[str, str]) -> str:
    """The faces a layout changes for `h`: a swap of two faces as `swap back/front (Jump↔Dash)` (the face on top
    first in the movement, `Dash on top (swap ...)`), more as `front Dash, back Jump, ...`."""
    names = {k: v.name for k, v in data.skills().items()}
    changed = [f for f in SKILL_FACES if h.skills.get(f) != a[f]]
    if len(changed) != 2:
        return ", ".join(f"{f} {names[a[f]]}" for f in changed) or "keep these skills"
    f1, f2 = changed
    if f2 == "back" or (f2 in ("front",) and f1 != "back"):
        f1, f2 = f2, f1
    if st.phase == "move" and top_face(h) in (f1, f2):
        return f"{names[a[top_face(h)]]} on top (swap {f1}/{f2})"
    return f"swap {f1}/{f2} ({names[h.skills[f1]]}↔{names[h.skills[f2]]})"


def explain_rearrange(st: QState, player: str, a: dict[str, str]) -> str:
    try:
        h = hero_of(st, st.pending.hero if st.pending else player)
    except KeyError:
        return ""
    given = [a.get(f, "") for f in SKILL_FACES]
    if sorted(given) != sorted(data.skills()):
        return "Name all five faces (feet, front, back, left, right), each with a different skill."
    if all(h.skills[f] == a[f] for f in SKILL_FACES):
        return "That is already your layout" + ("; `done` keeps it." if st.phase == "skills" else ".")
    if st.phase == "skills" and player in st.ready:
        return "You confirmed your skills already; they are fixed until a Q-power or token lets you rearrange."
    if st.phase == "move" and st.m.ready == "q" and st.m.q_used:
        return "You used your Q-power this turn already."
    return "Rearranging needs the setup, the Q on top (Q-power), or stopping on a Q or rearrange token."


def complete_layout(h: Hero, args: dict[str, str]) -> dict[str, str]:
    """`rearrange back:jump` names some faces: the skills named move there, the others keep or fill the gaps."""
    named = {f: args[f].lower() for f in SKILL_FACES if f in args}
    if not (named and len(named) < 5 and len(set(named.values())) == len(named)):
        return {k: v.lower() for k, v in args.items()}
    rest = [s for s in (h.skills[f] for f in SKILL_FACES) if s not in named.values()]
    full = {}
    for f in SKILL_FACES:
        if f in named:
            full[f] = named[f]
        elif h.skills[f] not in named.values():
            full[f] = h.skills[f]
            rest.remove(h.skills[f])
    for f in SKILL_FACES:
        if f not in full:
            full[f] = rest.pop(0)
    return full
