"""Movement resolution: a queue of small jobs (a step, a jump, entering a square, landing).

Board elements act on every step in the rulebook's priority order; when the rules give a
player a choice, the queue stops with a Decision and resumes after `choose`.
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import DIRS4, DIRS8, label

from . import content
from .board import (
    ACTIVE,
    REVEAL,
    XY,
    can_enter,
    current_dir,
    hero_at,
    hero_of,
    is_drop,
    is_pit,
    is_wall,
    jump_landing_ok,
    kind,
    manhattan,
    occupancy,
    on_map,
    point,
    point_text,
    safe_spot,
    squares,
    standable,
    step,
    token,
    xy,
)
from .cube import face_at, spin, tumble
from .state import Decision, Hero, Job, QState

HOW_OWN = ("tumble", "slide", "dash", "jump", "skill")


def name(st: QState, player: str) -> str:
    return hero_of(st, player).name


def active(st: QState) -> Hero:
    return st.heroes[st.turn]


def top_face(h: Hero) -> str:
    return face_at(h.head, h.front, "U")


def top_skill(h: Hero) -> str:
    f = top_face(h)
    return "q" if f == "q" else h.skills[f]


def base_points(h: Hero) -> int:
    return h.movement


def skill_points(h: Hero, skill: str, boost: dict[str, int] | None = None) -> int:
    """Base movement, plus the upgraded side's bonus, plus boosts played for this skill or for all."""
    bonus = content.skills()[skill].upgrade_bonus if skill in h.upgraded else 0
    boost = boost or {}
    return base_points(h) + bonus + boost.get(skill, 0) + boost.get("all", 0)


def is_mover(st: QState, h: Hero) -> bool:
    return st.phase == "move" and active(st).player == h.player


def push_front(st: QState, jobs: list[Job]) -> None:
    st.queue[0:0] = jobs


def decide(st: QState, kind_: str, player: str, h: Hero, options: list[str], prompt: str,
           job: Job | None = None, allow_rearrange: bool = False) -> None:
    st.pending = Decision(kind=kind_, player=player, hero=h.player, options=options, prompt=prompt,
                          job=job, allow_rearrange=allow_rearrange)


def cancel_seq(st: QState, seq: int, *, keep: tuple[str, ...] = ("land", "skill_end", "activate")) -> None:
    if seq:
        st.queue = [j for j in st.queue if j.seq != seq or j.kind in keep]


def end_movement(st: QState, ev: list[Event], why: str) -> None:
    m = st.m
    if m.ended:
        return
    m.ended = True
    m.ready = ""
    m.points = 0
    cancel_seq(st, m.seq, keep=("land",))
    ev.append(Event(text=f"{active(st).name}'s movement ends ({why})."))


# ---------------------------------------------------------------- the job loop

def run(st: QState, ev: list[Event]) -> None:
    guard = content.house().chain_guard
    n = 0
    while st.pending is None and st.queue and st.phase != "over":
        n += 1
        if n > guard:
            st.queue.clear()
            ev.append(Event(text="The currents swirl in a circle; everything comes to rest."))
            if st.phase == "move":
                end_movement(st, ev, "caught in a loop")
            break
        job = st.queue.pop(0)
        HANDLERS[job.kind](st, job, ev)
        check_win(st, ev)
    if st.pending is None and not st.queue and st.phase == "move" and st.m.ended:
        from .turns import to_recovery

        to_recovery(st, ev)


def _move_hero(st: QState, h: Hero, to: XY, ev: list[Event], mover_path: bool = True) -> None:
    h.pos = label(*to) if on_map(st, to) else None
    if mover_path and is_mover(st, h) and h.pos:
        st.last_path.append(h.pos)


def _push_chain(st: QState, other: Hero, d: str, by: str, ev: list[Event], out: list[Job]) -> None:
    """Push `other` one space towards `d`, pushing whoever stands beyond first."""
    assert other.pos is not None
    frm = xy(other.pos)
    to = step(frm, d)
    nxt = hero_at(st, to, but=other.player)
    if nxt is not None:
        _push_chain(st, nxt, d, by, ev, out)
    ev.append(Event(text=f"{other.name} is pushed {d} {'to ' + label(*to) if on_map(st, to) else 'off the map'}."))
    if on_map(st, to):
        other.pos = label(*to)
        out.append(Job(kind="enter", hero=other.player, how="push", by=by))
        out.append(Job(kind="land", hero=other.player, by=by))
    else:
        other.pos = None
        out.append(Job(kind="fall", hero=other.player, at=point_text(to), prev=label(*frm), by=by))


def do_step(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    frm = xy(h.pos)
    d = job.dir
    if not can_enter(st, h, frm, d):
        ev.append(Event(text=f"{h.name} is blocked going {d} from {h.pos}."))
        cancel_seq(st, job.seq)
        return
    to = step(frm, d)
    jobs: list[Job] = []
    other = hero_at(st, to, but=h.player)
    if other is not None:
        _push_chain(st, other, d, job.by or h.player, ev, jobs)
    if job.how == "tumble":
        h.head, h.front = tumble(h.head, h.front, d)
    if job.seq and job.seq == st.m.seq and job.how in HOW_OWN and is_mover(st, h):
        st.m.taken += 1
    _move_hero(st, h, to, ev)
    verb = {"tumble": "tumbles", "current": "is carried by the current", "push": "is pushed"}.get(job.how, "moves")
    where = f"to {h.pos}" if h.pos else "off the map"
    if job.how != "push":
        ev.append(Event(text=f"{h.name} {verb} {d} {where}."))
    if h.pos is None:
        jobs.append(Job(kind="fall", hero=h.player, at=point_text(to), prev=label(*frm), by=job.by))
    else:
        jobs.append(Job(kind="enter", hero=h.player, how=job.how, by=job.by, seq=job.seq))
    push_front(st, jobs)


def do_jump(st: QState, job: Job, ev: list[Event]) -> None:
    """Jump over `n` spaces: only the landing square counts; walls may be landed on."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    frm = xy(h.pos)
    d = job.dir
    if not jump_landing_ok(st, frm, d, job.n):
        ev.append(Event(text=f"{h.name} cannot jump {d}: an impassable wall is in the way."))
        cancel_seq(st, job.seq)
        return
    to = step(frm, d, job.n + 1)
    other = hero_at(st, to, but=h.player)
    if other is not None:
        dirs = [x for x in DIRS8 if can_enter(st, other, to, x)]
        decider = job.by or h.player
        if not dirs:
            spots = [label(*step(to, x)) for x in DIRS8 if on_map(st, step(to, x))
                     and kind(st, step(to, x)) != "impassable_up" and hero_at(st, step(to, x)) is None]
            if not spots:
                ev.append(Event(text=f"{h.name} cannot land on {other.name}, who cannot move; the jump fails."))
                return
            decide(st, "land_beside", other.player, h, spots,
                   f"{other.name} cannot be moved: {other.name}, choose where {h.name} lands", job=job)
            return
        if len(dirs) == 1:
            _land_on_hero(st, job, dirs[0], ev)
            return
        decide(st, "push_dir", decider, h, dirs,
               f"{name(st, decider)}: choose where {h.name} pushes {other.name} from {label(*to)}", job=job)
        return
    _finish_jump(st, job, to, ev)


def _finish_jump(st: QState, job: Job, to: XY, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    assert h.pos is not None
    frm = xy(h.pos)
    if job.seq and job.seq == st.m.seq and is_mover(st, h) and job.how == "jump":
        st.m.taken += max(1, job.n)
    _move_hero(st, h, to, ev)
    ev.append(Event(text=f"{h.name} jumps {job.dir} over {job.n} {'to ' + h.pos if h.pos else 'off the map'}"
                    + (" (on top of a wall)." if h.pos and is_wall(st, to) else ".")))
    if h.pos is None:
        push_front(st, [Job(kind="fall", hero=h.player, at=point_text(to), prev=label(*frm), by=job.by)])
    else:
        push_front(st, [Job(kind="enter", hero=h.player, how=job.how, by=job.by, seq=job.seq)])


def _land_on_hero(st: QState, job: Job, d: str, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    assert h.pos is not None
    to = step(xy(h.pos), job.dir, job.n + 1)
    other = hero_at(st, to, but=h.player)
    assert other is not None
    jobs: list[Job] = []
    ev.append(Event(text=f"{h.name} lands on {other.name}."))
    _push_chain(st, other, d, job.by or h.player, ev, jobs)
    _finish_jump(st, job, to, ev)
    st.queue[1:1] = jobs  # after the jumper's own landing job


def do_enter(st: QState, job: Job, ev: list[Event]) -> None:
    """Board elements of the square a hero just entered (token first; an active token covers the print)."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    p = xy(h.pos)
    decider = job.by or h.player
    own = is_mover(st, h) and not job.by and job.how not in ("push", "explosion")
    if is_pit(st, p):
        push_front(st, [Job(kind="fall", hero=h.player, at=h.pos, prev=job.prev or h.pos, by=job.by)])
        return
    t = token(st, p)
    k = t.kind if t else ""
    if t is not None and k == "rally" and st.mode in ("race", "solo") and t.number == h.progress + 1:
        h.progress += 1
        ev.append(Event(text=f"{h.name} reaches rally marker {t.number}."))
        if h.progress == len(st.rally):
            h.finished_round = st.round
    if t is not None and k in ("switch", "switch_colour"):
        flip_group(st, t.group, ev)
    if k in ("q", "rearrange") and own and not st.m.ended:
        what = "use Q-powers (rearrange skills)" if k == "q" else "rearrange skills"
        decide(st, "token", h.player, h, ["skip"], f"{h.name} may {what} at {h.pos}: rearrange or skip",
               job=job, allow_rearrange=True)
        return
    if k in ("spring", "super_spring"):
        over = 1 if k == "spring" else 2
        dirs = [d for d in DIRS4 if jump_landing_ok(st, p, d, over)]
        if not dirs:
            ev.append(Event(text=f"The {k.replace('_', ' ')} at {h.pos} cannot throw {h.name} anywhere."))
        elif len(dirs) == 1:
            push_front(st, [Job(kind="jump", hero=h.player, dir=dirs[0], n=over, how="spring", by=job.by)])
        else:
            decide(st, "spring", decider, h, dirs,
                   f"{name(st, decider)}: choose where the {k.replace('_', ' ')} throws {h.name}",
                   job=Job(kind="jump", hero=h.player, n=over, how="spring", by=job.by))
        return
    if k in ("teleporter", "super_teleporter"):
        teleport(st, h, p, k, decider, job, ev)
        return
    if k == "tunnel" and own and job.how != "tunnel" and not st.m.ended:
        others = [lab for lab, tk in st.tokens.items() if tk.kind == "tunnel" and lab != h.pos]
        if others:
            decide(st, "tunnel", h.player, h, others + ["stay"], f"{h.name} may enter the tunnel: pick an exit or stay")
        return
    if k in ACTIVE:
        return
    cur = current_dir(st, p)
    if cur:
        push_front(st, [Job(kind="step", hero=h.player, dir=cur, how="current", by=job.by)])
        return
    f = st.rows[p[1]][p[0]]
    if f == "@":
        decide(st, "spin", decider, h, ["cw", "ccw"],
               f"{name(st, decider)}: spin {'your hero' if decider == h.player else h.name} on the whirlpool "
               "clockwise (cw) or counter-clockwise (ccw)")
        return
    if f == "w" and job.how != "link":
        letter = st.links[h.pos]
        ends = [lab for lab, le in st.links.items() if le == letter and lab != h.pos]
        if len(ends) == 1:
            link_to(st, h, ends[0], job, ev)
        elif ends:
            decide(st, "link", decider, h, ends, f"{name(st, decider)}: choose the water connection {letter} {h.name} surfaces at",
                   job=job)
        return


def link_to(st: QState, h: Hero, dest: str, job: Job, ev: list[Event]) -> None:
    ev.append(Event(text=f"{h.name} rides the water connection from {h.pos} to {dest}."))
    surface(st, h, dest, Job(kind="surface", hero=h.player, at=dest, how="link", by=job.by, seq=job.seq), ev)


def _follow_up(job: Job) -> list[Job]:
    """What comes after surfacing: a water connection lets the move go on, a tunnel is a landing."""
    if job.how == "tunnel":
        return [Job(kind="enter", hero=job.hero, how="tunnel"), Job(kind="land", hero=job.hero)]
    return [Job(kind="enter", hero=job.hero, how=job.how, by=job.by, seq=job.seq)]


def _arrive(st: QState, h: Hero, dest: str, job: Job, pushed: list[Job]) -> None:
    h.pos = dest
    if is_mover(st, h):
        st.last_path.append(dest)
    push_front(st, _follow_up(job) + pushed)  # the arriving hero first, then whoever it pushed


def surface(st: QState, h: Hero, dest: str, job: Job, ev: list[Event]) -> None:
    """Come up at `dest` (a tunnel exit or water connection). A hero standing there is pushed one space
    in a direction the mover picks, as when a jump lands on them; if they cannot move at all, their
    controller picks the space next to it where the arriving hero comes up."""
    to = xy(dest)
    other = hero_at(st, to, but=h.player)
    if other is None:
        _arrive(st, h, dest, job, [])
        return
    occ = {q: pid for q, pid in occupancy(st).items() if pid != h.player}
    dirs = [d for d in DIRS8 if can_enter(st, other, to, d, occ=occ)]
    decider = job.by or h.player
    if len(dirs) == 1:
        _surface_push(st, h, other, dirs[0], job, ev)
    elif dirs:
        decide(st, "surface_push", decider, h, dirs,
               f"{name(st, decider)}: {h.name} comes up under {other.name} at {dest}; choose where {other.name} is pushed",
               job=job)
    else:
        spots = [label(*step(to, d)) for d in DIRS8 if on_map(st, step(to, d))
                 and kind(st, step(to, d)) != "impassable_up" and hero_at(st, step(to, d), but=h.player) is None]
        if not spots:
            ev.append(Event(text=f"{h.name} cannot come up under {other.name} at {dest} and stays at {h.pos}."))
            return
        decide(st, "surface_beside", other.player, h, spots,
               f"{other.name} cannot be moved: {other.name}, choose where {h.name} comes up next to {dest}", job=job)


def _surface_push(st: QState, h: Hero, other: Hero, d: str, job: Job, ev: list[Event]) -> None:
    ev.append(Event(text=f"{h.name} comes up under {other.name} at {job.at}."))
    h.pos = None  # already on the way: the push never runs into the arriving hero's old square
    pushed: list[Job] = []
    _push_chain(st, other, d, job.by or h.player, ev, pushed)
    _arrive(st, h, job.at, job, pushed)


def teleport(st: QState, h: Hero, p: XY, k: str, decider: str, job: Job, ev: list[Event]) -> None:
    own = is_mover(st, h) and not job.by
    if k == "teleporter":
        roll = st.rng.d(6)
        broken, reach, shown = roll == 6, roll, "Q" if roll == 6 else str(roll)
    else:
        a, b = st.rng.d(6), st.rng.d(6)
        broken, reach, shown = a == b, a + b, f"{a}+{b}"
    who = name(st, decider)
    if broken:
        ev.append(Event(text=f"{who} rolls {shown} for the {k.replace('_', ' ')} at {h.pos}: it explodes!", irreversible=True))
        del st.tokens[label(*p)]
        explode(st, p, ev)
        if own:
            end_movement(st, ev, "teleporter destroyed")
        return
    dests = [label(*q) for q in squares(st) if 1 <= manhattan(p, q) <= reach and standable(st, q)
             and hero_at(st, q) is None]
    ev.append(Event(text=f"{who} rolls {shown} for the {k.replace('_', ' ')} at {h.pos}.", irreversible=True))
    if own:
        end_movement(st, ev, "teleporter")
    if not dests:
        return
    decide(st, "teleport", decider, h, dests, f"{who}: choose where {h.name} teleports (up to {reach} space{'s' if reach != 1 else ''})", job=job)


def explode(st: QState, c: XY, ev: list[Event]) -> None:
    """Basic explosion: walls in radius 1 break, common tokens vanish, heroes jump 1 away."""
    kinds = content.token_kinds()
    jobs: list[Job] = []
    for d in DIRS8:
        q = step(c, d)
        if not on_map(st, q):
            continue
        lab = label(*q)
        t = st.tokens.get(lab)
        if t and t.kind == "wall":
            t.kind = "broken_wall"
        elif t and not kinds[t.kind].scenario:
            del st.tokens[lab]
        other = hero_at(st, q)
        if other is not None:
            jobs.append(Job(kind="jump", hero=other.player, dir=d, n=1, how="explosion", by=active(st).player))
    ev.append(Event(text=f"An explosion at {label(*c)} breaks walls and scatters tokens around it."))
    push_front(st, jobs)


def flip_group(st: QState, group: str, ev: list[Event]) -> None:
    flips = {"trap_door": "trap_door_open", "trap_door_open": "trap_door",
             "impassable_up": "impassable_down", "impassable_down": "impassable_up"}
    jobs: list[Job] = []
    for lab, t in st.tokens.items():
        if t.group == group and t.kind in flips:
            t.kind = flips[t.kind]
            if t.kind == "trap_door_open":
                lost = st.ground.pop(lab, [])
                if lost:
                    ev.append(Event(text=f"{', '.join(lost)} at {lab} fall through the trap door and are lost."))
                victim = hero_at(st, xy(lab))
                if victim is not None:
                    jobs.append(Job(kind="fall", hero=victim.player, at=lab, prev=lab))
    ev.append(Event(text=f"Switch: the {group} trap doors and walls flip."))
    push_front(st, jobs)


def do_land(st: QState, job: Job, ev: list[Event]) -> None:
    """What happens where a hero comes to rest: secrets, reveal tokens, pick-ups, deliveries."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    p = xy(h.pos)
    t = token(st, p)
    if t and t.kind == "secret" and not t.hidden:  # a preview never learns what a secret is
        ev.append(Event(text=f"{h.name} would reveal the secret token at {h.pos} here."))
        return
    if t and t.kind == "secret":
        t.kind, t.hidden = t.hidden, ""
        ev.append(Event(text=f"{h.name} reveals a secret token at {h.pos}: {content.token_kinds()[t.kind].name}.",
                        irreversible=True))
        push_front(st, [Job(kind="enter", hero=h.player, how="secret", by=job.by, seq=job.seq),
                        Job(kind="land", hero=h.player, by=job.by)])
        return
    if t and t.kind in REVEAL:
        del st.tokens[h.pos]
        h.revealed.append(t.kind)
        if t.kind == "explore":
            h.explores_earned += 1
        ev.append(Event(text=f"{h.name} takes the {t.kind} token at {h.pos} (recorded until cards arrive)."))
    here = st.ground.get(h.pos)
    while here and len(h.carrying) < st.carry_limit:
        item = here.pop(0)
        h.carrying.append(item)
        ev.append(Event(text=f"{h.name} picks up a {item.replace('-', ' ')} at {h.pos}."))
    if h.pos in st.ground and not st.ground[h.pos]:
        del st.ground[h.pos]
    if st.mode == "heist" and is_drop(st, p) and h.carrying:
        ev.append(Event(text=f"{h.name} delivers {len(h.carrying)} at the drop zone {h.pos}."))
        h.banked.extend(h.carrying)
        h.carrying.clear()


def do_fall(st: QState, job: Job, ev: list[Event]) -> None:
    """Into a pit (or off the map): drop what you carry next to it, then respawn Q-up."""
    h = hero_of(st, job.hero)
    at = point(job.at)
    h.pos = None
    ev.append(Event(text=f"{h.name} falls into {'a pit at ' + job.at if on_map(st, at) else 'the void'}."))
    if is_mover(st, h) and not st.m.ended:
        end_movement(st, ev, "fell")
    jobs = [Job(kind="drop_fallen", hero=h.player, at=job.at, item=it) for it in h.carrying]
    h.carrying = []
    jobs.append(Job(kind="respawn", hero=h.player, at=job.at, prev=job.prev))
    push_front(st, jobs)


def do_drop_fallen(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    at = point(job.at)
    spots = [label(*step(at, d)) for d in DIRS8 if safe_spot(st, step(at, d))]
    if not spots:
        ev.append(Event(text=f"The {job.item.replace('-', ' ')} {h.name} carried is lost: no safe spot beside the pit."))
        return
    if len(spots) == 1:
        put_down(st, job.item, spots[0], ev)
        return
    decide(st, "drop", h.player, h, spots, f"{h.name}: choose a safe spot for the {job.item.replace('-', ' ')}", job=job)


def put_down(st: QState, item: str, lab: str, ev: list[Event]) -> None:
    st.ground.setdefault(lab, []).append(item)
    ev.append(Event(text=f"A {item.replace('-', ' ')} lands on {lab}."))


def respawn_points(st: QState, h: Hero, at: XY, prev: str) -> list[str]:
    """Nearest safe respawn points; in races never one ahead of where you were."""
    safe = [q for q in squares(st) if st.rows[q[1]][q[0]] == "R"
            and any(on_map(st, step(q, d)) and not is_pit(st, step(q, d)) for d in DIRS4)]
    if st.mode in ("race", "solo") and prev and h.progress < len(st.rally):
        goal = xy(st.rally[str(h.progress + 1)])
        limit = manhattan(xy(prev), goal)
        behind = [q for q in safe if manhattan(q, goal) >= limit]
        safe = behind or safe
    if not safe:
        return []
    best = min(manhattan(q, at) for q in safe)
    return [label(*q) for q in safe if manhattan(q, at) == best]


def do_respawn(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    at = point(job.at) if job.at else (xy(h.pos) if h.pos else (xy(st.rally[str(h.progress + 1)])
                                                               if str(h.progress + 1) in st.rally else (0, 0)))
    pts = respawn_points(st, h, at, job.prev)
    if not pts:
        ev.append(Event(text=f"{h.name} finds no safe respawn point and stays out this turn."))
        return
    if len(pts) > 1:
        decide(st, "respawn", h.player, h, pts, f"{h.name}: choose the respawn point", job=job)
        return
    place_respawn(st, h, pts[0], job, ev)


def place_respawn(st: QState, h: Hero, lab: str, job: Job, ev: list[Event]) -> None:
    if hero_at(st, xy(lab), but=h.player) is not None:
        spots = [label(*step(xy(lab), d)) for d in DIRS8 if standable(st, step(xy(lab), d))
                 and not is_pit(st, step(xy(lab), d)) and hero_at(st, step(xy(lab), d)) is None]
        if not spots:
            ev.append(Event(text=f"{h.name} finds the respawn point {lab} crowded and stays out this turn."))
            return
        if len(spots) == 1:
            lab = spots[0]
        else:
            decide(st, "respawn_beside", h.player, h, spots,
                   f"{h.name}: the respawn point {lab} is taken; choose a space next to it", job=job)
            return
    h.pos = lab
    h.head, h.front = "U", h.home_front
    ev.append(Event(text=f"{h.name} respawns Q-up at {lab}."))


def do_skill_end(st: QState, job: Job, ev: list[Event]) -> None:
    m = st.m
    if job.seq != m.seq or m.ended:
        return
    if m.current == "dash" and m.points > 0 and hero_of(st, job.hero).pos is not None:
        m.ready = "dash"
    else:
        m.ready = ""
        m.points = 0
    m.current = ""


def do_activate(st: QState, job: Job, ev: list[Event]) -> None:
    """After a tumble: the face now on top decides the skill (or Q-powers)."""
    m = st.m
    h = hero_of(st, job.hero)
    if m.ended or h.pos is None:
        return
    sk = top_skill(h)
    if sk == "q":
        m.ready, m.points = ("q", 0) if not m.q_used else ("", 0)
        ev.append(Event(text=f"{h.name} has the Q on top: Q-powers."))
    elif sk in m.used:
        m.ready, m.points = "", 0
        ev.append(Event(text=f"{h.name} has {content.skills()[sk].name} on top, already used this turn."))
    else:
        m.ready, m.points = sk, skill_points(h, sk, m.boost)
        ev.append(Event(text=f"{h.name} has {content.skills()[sk].name} on top: {m.points} point{'s' if m.points != 1 else ''}."))


def check_win(st: QState, ev: list[Event]) -> None:
    if st.phase == "over":
        return
    for h in st.heroes:
        if st.mode == "race" and h.progress >= len(st.rally) > 0:
            finish(st, [h.player], f"{h.name} reaches the last rally marker in round {st.round} and wins!", ev)
            return
        if st.mode == "heist" and len(h.banked) >= st.target:
            finish(st, [h.player], f"{h.name} banks {len(h.banked)} crystals and wins the heist!", ev)
            return
    if st.mode == "solo" and all(h.progress >= len(st.rally) > 0 for h in st.heroes):
        who = " and ".join(h.name for h in st.heroes)
        finish(st, [h.player for h in st.heroes], f"{who} beat the clock in round {st.round}!", ev)


def finish(st: QState, winners: list[str], text: str, ev: list[Event]) -> None:
    st.phase = "over"
    st.winners = winners
    st.result_text = text
    st.queue.clear()
    st.pending = None
    ev.append(Event(text=text, kind="result"))


HANDLERS = {
    "step": do_step, "jump": do_jump, "enter": do_enter, "land": do_land, "fall": do_fall,
    "drop_fallen": do_drop_fallen, "respawn": do_respawn, "skill_end": do_skill_end, "activate": do_activate,
}


def answer(st: QState, option: str, ev: list[Event]) -> None:
    """Resolve the pending decision with `option`, then resume the queue."""
    d = st.pending
    assert d is not None
    st.pending = None
    h = hero_of(st, d.hero)
    job = d.job if d.job is not None else Job(kind="none", hero=h.player)
    if d.kind == "spin":
        h.head, h.front = spin(h.head, h.front, option == "cw")
        ev.append(Event(text=f"{h.name} spins {'clockwise' if option == 'cw' else 'counter-clockwise'} on the whirlpool."))
    elif d.kind == "spring":
        push_front(st, [job.model_copy(update={"dir": option})])
    elif d.kind == "teleport":
        ev.append(Event(text=f"{h.name} teleports to {option}."))
        h.pos = option
        if is_mover(st, h):
            st.last_path.append(option)
        push_front(st, [Job(kind="enter", hero=h.player, how="teleport", by=job.by),
                        Job(kind="land", hero=h.player, by=job.by)])
    elif d.kind == "tunnel":
        if option != "stay":
            ev.append(Event(text=f"{h.name} goes through the tunnel to {option}."))
            end_movement(st, ev, "tunnel")
            surface(st, h, option, Job(kind="surface", hero=h.player, at=option, how="tunnel"), ev)
        else:
            ev.append(Event(text=f"{h.name} stays out of the tunnel."))
    elif d.kind == "link":
        link_to(st, h, option, job, ev)
    elif d.kind == "push_dir":
        _land_on_hero(st, job, option, ev)
    elif d.kind == "land_beside":
        to = xy(option)
        _finish_jump(st, job, to, ev)
    elif d.kind == "surface_push":
        _surface_push(st, h, hero_at(st, xy(job.at), but=h.player), option, job, ev)  # type: ignore[arg-type]
    elif d.kind == "surface_beside":
        ev.append(Event(text=f"{h.name} comes up at {option}, next to {job.at}."))
        _arrive(st, h, option, job, [])
    elif d.kind == "drop":
        put_down(st, job.item, option, ev)
    elif d.kind == "respawn":
        place_respawn(st, h, option, job, ev)
    elif d.kind == "respawn_beside":
        h.pos = option
        h.head, h.front = "U", h.home_front
        ev.append(Event(text=f"{h.name} respawns Q-up at {option}, next to the taken respawn point."))
    elif d.kind == "token":
        ev.append(Event(text=f"{h.name} leaves the skills as they are."))
    run(st, ev)
