"""Phase 2, movement: the natural tumble, then the skill on top, stealing and dropping on the way.

The move commands queue jobs that `movement.run` resolves; when the queue is drained and the
movement has ended, `settle` moves the turn on to recovery. A choice the rules hand a player
mid-move is the `decide` phase (`phases/decide.py`).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from games.core import Action, Event
from games.core.grid import DIRS4, DIRS8, label, step_xy
from games.core.words import agrees, plural, possessive, says

from .. import data
from ..abilities.actions import ability_label, when_problem
from ..abilities.moving import explain_movement_ability, movement_abilities, use_movement_ability
from ..abilities.track import has
from ..board import (
    XY,
    active,
    falls_note,
    free_step,
    glides,
    hero_at,
    hero_of,
    is_pit,
    jump_landing_ok,
    occupancy,
    on_map,
    sim_step,
    step_costs,
    stepper,
    walled_in,
    xy,
)
from ..collectibles import drop, drops, explain_steal, steal, steals
from ..commands import arg
from ..cube import SKILL_FACES
from ..modes.bside import face_of, is_upgraded, wake
from ..movement import run
from ..qpowers import explain_qpower, qpower_actions, qpower_label, use_qpower
from ..skills import on_top_after, rearrange, rearranges, skill_dirs, swaps, top_face, turns_freely
from ..state import Hero, Job, QState
from ..turns import resume_round, to_recovery
from .base import Buttons, TurnPhase

DASH_PATH_CAP = 3  # longer dashes are typed as several `move` commands


@lru_cache(maxsize=1 << 12)
def _path_move(path: tuple[str, ...]) -> Action:
    """`move path:...` for a path of directions (a dash lists every path up to `DASH_PATH_CAP` steps)."""
    return Action.of("move", path=" ".join(path))


def begin(st: QState, ev: list[Event]) -> None:
    """Phase 2 begins; a hero walled in on all four sides respawns first (FAQ)."""
    st.phase = "move"
    st.last_path = []
    h = active(st)
    ev.append(Event(text=f"{h.name}: phase 2, movement."))
    st.last_mover = h.player
    if h.pos:
        st.last_path.append(h.pos)
    if h.pos is None:  # still out after a crowded respawn: come back first
        st.queue.append(Job(kind="respawn", hero=h.player, at="", prev=""))
        settle(st, ev)
        return
    if walled_in(st, h):
        ev.append(Event(text=f"{says(h.name, 'is')} walled in on all four sides and {agrees(h.name, 'respawns')}."))
        st.queue.append(Job(kind="respawn", hero=h.player, at=h.pos or "", prev=h.pos or ""))
        if not st.m.blocked_at_start:
            st.m.ended = True  # walled in during phase 1: movement ends on respawn (FAQ)
        h.pos = None
        settle(st, ev)


def settle(st: QState, ev: list[Event]) -> None:
    """Resolve the queued movement; once it is drained and the movement has ended, recovery follows."""
    if st.phase == "upkeep":  # a choice at the end of the round was answered
        resume_round(st, ev)
        return
    run(st, ev)
    if st.pending is None and not st.queue and st.phase == "move" and st.m.ended:
        to_recovery(st, ev)


def _end_of(h: Hero, steps: list[str]) -> XY | None:
    """Where a move along `steps` ends by the map alone: what a label's fall warning looks at (the legal moves
    stop at the first pit; a jump's steps are the spaces it clears and the landing)."""
    if h.pos is None or not steps:
        return None
    p = xy(h.pos)
    for d in steps:
        p = step_xy(p, d)
    return p


def _spread_paths(st: QState, h: Hero, moves: list[Action], room: int) -> list[Action]:
    """A dash's buttons: every single step, then longer paths to squares no single step reaches, one path per
    square, spread evenly around the hero: straight lines to the farthest squares first, then the squares
    between, paths that end in a fall last. Never the first few of a fixed order, nor a path that comes back
    where it began; the others are typed or picked from the menu."""
    singles = [a for a in moves if len(arg(a, "path").split()) == 1]
    if h.pos is None:
        return singles
    start = xy(h.pos)
    near = {_end_of(h, arg(a, "path").split()) for a in singles} | {start}
    ends: dict[XY, Action] = {}
    for a in sorted((a for a in moves if len(arg(a, "path").split()) > 1),
                    key=lambda a: len(set(arg(a, "path").split()))):
        end = _end_of(h, arg(a, "path").split())
        if end is not None and end not in near:
            ends.setdefault(end, a)
    x0, y0 = start

    def rank(p: XY) -> tuple[bool, int, bool]:  # no fall, farthest, a straight line
        return (is_pit(st, p), -max(abs(p[0] - x0), abs(p[1] - y0)), len(set(arg(ends[p], "path").split())) > 1)

    def bearing(p: XY) -> float:  # clockwise from north
        return math.atan2(p[0] - x0, y0 - p[1]) % math.tau

    k = max(0, room - len(singles))
    picked: list[XY] = []
    for group in sorted({rank(p) for p in ends}):
        pool = sorted((p for p in ends if rank(p) == group), key=bearing)
        want = k - len(picked)
        if want <= 0:
            break
        picked += pool if len(pool) <= want else [pool[i * len(pool) // want] for i in range(want)]
    return singles + [ends[p] for p in picked]


def point_name(st: QState, p: XY) -> str:
    return label(*p) if on_map(st, p) else "the map's edge"


class MovePhase(TurnPhase):
    name = "move"
    done_label = "Done moving"

    def waiting(self, st: QState, h: Hero) -> str:
        m = st.m
        if not m.tumbled and not m.ended:
            return f"{h.name} to make the natural tumble"
        if m.ready == "q" and m.q_left():
            return f"{h.name} to use Q-powers (rearrange skills or their own) or finish moving"
        if m.ready and m.ready != "q":
            pts = f"{m.points} point{'s' if m.points != 1 else ''}"
            return f"{h.name} to use {data.skills()[m.ready].name} ({pts}) or finish moving"
        return f"{h.name} to finish moving"

    # ---- legal actions --------------------------------------------------------------------
    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        st = state
        h = active(st)
        m = st.m
        acts = []
        if not m.ended and h.pos is not None:
            if not m.tumbled:
                occ = occupancy(st)
                tumbles = [Action.of("tumble", direction=d) for d in DIRS4 if sim_step(st, h, xy(h.pos), d, dict(occ))]
                acts += tumbles or [Action.of("done")]
            else:
                acts += self._moves(st, h)
                acts.append(Action.of("done"))
                if m.ready == "q":  # any or all of the Q-powers, each once
                    acts += ([] if m.q_used else rearranges(h)) + ([] if m.power_used else qpower_actions(st, h))
            acts += steals(st, h) + movement_abilities(st, h)
        else:
            acts.append(Action.of("done"))
        acts += drops(st, h)
        return acts

    @staticmethod
    def _moves(st: QState, h: Hero) -> list[Action]:
        m = st.m
        skill = m.ready
        if not skill or skill == "q" or h.pos is None or m.points <= 0:
            return []
        sd = data.skills()[skill]
        p = xy(h.pos)
        out: list[Action] = []
        if sd.mode == "jump":
            for d in DIRS4:
                ks = [k for k in range(1, m.points + 1) if jump_landing_ok(st, p, d, k)]
                if not ks and jump_landing_ok(st, p, d, 0):
                    ks = [0]  # a jump clears at least one space only "if possible": else a hop next door
                out += [Action.of("move", direction=d, distance=k) for k in ks]
            return out
        if sd.mode == "dash" or turns_freely(h, skill):
            dirs = DIRS8 if sd.mode == "dash" else skill_dirs(skill)

            cap = min(m.points, DASH_PATH_CAP)
            glide = glides(h)  # without Freeze-O-Tron no step is free (`free_step`)
            step = stepper(st, h)
            pits: dict[XY, bool] = {}

            def walk(pos: XY, occ: dict[XY, str], path: tuple[str, ...], spent: int) -> None:
                if path:
                    out.append(_path_move(path))
                    pit = pits.get(pos)
                    if pit is None:
                        pit = pits[pos] = is_pit(st, pos)
                    if pit:
                        return
                for d in dirs:
                    o2 = dict(occ)
                    nxt = step(pos, d, o2)
                    if nxt is None:
                        continue
                    cost = spent + (not (path and glide and free_step(st, h, pos, nxt, d, path[-1])))
                    if cost <= cap:  # a free glide only goes straight on: the walk ends
                        walk(nxt, o2, (*path, d), cost)

            walk(p, occupancy(st), (), 0)
            return out
        for d in skill_dirs(skill):
            occ = occupancy(st)
            pos, spent, k = p, 0, 0
            while True:
                nxt = sim_step(st, h, pos, d, occ)
                if nxt is None:
                    break
                spent += not (k and free_step(st, h, pos, nxt, d, d))  # Freeze-O-Tron: on ice, straight on is free
                k += 1
                if spent > m.points:
                    break
                out.append(Action.of("move", direction=d, distance=k))
                if is_pit(st, nxt):
                    break
                pos = nxt
        return out

    # ---- effect -----------------------------------------------------------------------------
    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        st, ev = state, events
        h = active(st)
        cmd = action.cmd
        if cmd == "done":
            if not st.m.ended:
                ev.append(Event(text=f"{says(h.name, 'ends')} the movement phase."))
            to_recovery(st, ev)
        elif cmd == "tumble":
            m = st.m
            m.tumbled = True
            m.seq += 1
            st.queue += [Job(kind="step", hero=h.player, dir=arg(action, "direction"), how="tumble", seq=m.seq),
                         Job(kind="land", hero=h.player, seq=m.seq), Job(kind="activate", hero=h.player, seq=m.seq)]
            ev.append(Event(text=f"{says(h.name, 'makes')} the natural tumble {action.get('direction')}."))
            settle(st, ev)
        elif cmd == "move":
            self._move(st, h, action, ev)
        elif cmd == "rearrange":  # Q on top: the shared Q-power
            rearrange(st, h, action, ev)
            st.m.q_used = True
            wake(h, "q")
            if not st.m.q_left():
                st.m.ready = ""
        elif cmd == "qpower":  # Q on top: the hero's own Q-power instead
            st.m.power_used = True
            wake(h, "q")
            if not st.m.q_left():
                st.m.ready = ""
            use_qpower(st, h, action, ev)
            settle(st, ev)  # an earthquake or a bomb moves heroes
        elif cmd == "ability":  # Wall Builder / Trench Digger on, or Teleport Skill
            use_movement_ability(st, h, action, ev)
            settle(st, ev)
        elif cmd == "steal":
            steal(st, h, arg(action, "from"), arg(action, "item"), ev, action.get("card") or "")
        elif cmd == "drop":
            drop(st, h, arg(action, "item"), arg(action, "at"), ev)

    @staticmethod
    def _move(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
        m = st.m
        skill = m.ready
        sd = data.skills()[skill]
        first_use = skill not in m.used
        if first_use:
            m.used.append(skill)
            m.taken = 0
            wake(h, face_of(h, skill))  # B-side: the ability on this face works from now on
            if is_upgraded(h, skill):
                h.explores_earned += sd.upgrade_explore
                ev.append(Event(text=f"{possessive(h.name)} upgraded {sd.name} grants an exploration "
                                     "(drawn in phase 4)."))
        m.current = skill
        m.seq += 1
        seq = m.seq
        jobs: list[Job] = []
        if "path" in action.argdict:  # a dash, or a skill that turns as it goes (Change Directions)
            path = arg(action, "path").split()
            how = {"dash": "dash", "tumble": "tumble"}.get(sd.mode, "slide")
            costs = step_costs(st, h, xy(h.pos or ""), path, occupancy(st)) or [1] * len(path)
            jobs += [Job(kind="step", hero=h.player, dir=d, how=how, seq=seq, n=1 - c)  # n=1: a free glide
                     for d, c in zip(path, costs, strict=True)]
            spent = sum(costs)
            desc = " ".join(path)
        elif sd.mode == "jump":
            over = int(arg(action, "distance"))
            spent = max(1, over)  # a hop that clears nothing still costs its point
            jobs.append(Job(kind="jump", hero=h.player, dir=arg(action, "direction"), n=over, how="jump", seq=seq))
            desc = f"{action.get('direction')} over {over}"
        else:
            far = int(arg(action, "distance"))
            how = "tumble" if sd.mode == "tumble" else "slide"
            d = arg(action, "direction")
            costs = step_costs(st, h, xy(h.pos or ""), [d] * far, occupancy(st)) or [1] * far
            jobs += [Job(kind="step", hero=h.player, dir=d, how=how, seq=seq, n=1 - c) for c in costs]
            spent = sum(costs)
            desc = f"{action.get('direction')} {far}"
        m.points -= spent
        m.ready = ""
        jobs += [Job(kind="land", hero=h.player, seq=seq), Job(kind="skill_end", hero=h.player, seq=seq)]
        if sd.mode == "tumble" and ("path" not in action.argdict or m.points <= 0):
            jobs.append(Job(kind="activate", hero=h.player, seq=seq))
        ev.append(Event(text=f"{says(h.name, 'uses')} {sd.name}: {desc}."))
        st.queue += jobs
        settle(st, ev)

    # ---- words ------------------------------------------------------------------------------
    def explain_own(self, game: Any, state: QState, player: str, action: Action) -> str:
        st = state
        a = action.argdict
        h = active(st)
        m = st.m
        if action.cmd == "qpower":
            return explain_qpower(st, h, action)
        if action.cmd == "ability":
            ab = a.get("name", "")
            why = when_problem(st, h, ab) if ab in data.abilities() else f"there is no ability `{ab}`"
            if ab in data.abilities() and data.abilities()[ab].when == "movement" and has(h, ab):
                why = explain_movement_ability(st, h, ab, a.get("at", "")) or "your movement is over"
            return why[0].upper() + why[1:] + "."
        if action.cmd == "move" and not m.tumbled:
            return "Movement always begins with the natural tumble."
        if action.cmd == "tumble" and m.tumbled:
            return "The natural tumble is done; use the skill on top (`/quodd move`)."
        if m.ended or h.pos is None:
            return "Your movement is over for this turn; `done` moves on to phase 3."
        if action.cmd == "tumble":
            d = a.get("direction", "")
            if d not in DIRS4:
                return "The natural tumble goes N, E, S or W."
            return f"{d} of {h.pos}: {self._blocker(st, h, xy(h.pos), d)}."
        if action.cmd == "move":
            return self._explain_move(st, h, a)
        if action.cmd == "steal":
            return explain_steal(st, h, a)
        return ""

    def _blocker(self, st: QState, h: Hero, p: XY, d: str) -> str:
        """Why `h` cannot move from `p` towards `d` (one clause)."""
        q = step_xy(p, d)
        if not on_map(st, q):
            return "off the map"
        lab = label(*q)
        tok = st.tokens.get(lab)
        if tok and tok.kind == "impassable_up":
            return f"{lab} holds an impassable wall"
        if tok and tok.kind == "wall":
            return f"{lab} holds a wall (only a jump gets over or onto it)"
        other = hero_at(st, q, but=h.player)
        if other is not None:
            return f"{other.name} on {lab} cannot be pushed {d}: {self._blocker(st, other, q, d)}"
        return f"{lab} is free"

    def _explain_move(self, st: QState, h: Hero, a: dict[str, str]) -> str:
        m = st.m
        if not m.ready:
            used = ", ".join(data.skills()[u].name for u in m.used) or "none"
            return f"No skill is ready: the face on top was used already this turn (used: {used}); `done` ends moving."
        if m.ready == "q":
            return "The Q is on top: rearrange your skills (Q-power) or `done`; there is no skill to move with."
        sd = data.skills()[m.ready]
        assert h.pos is not None
        if sd.mode == "dash" or turns_freely(h, m.ready) and "path" in a:
            return self._explain_dash(st, h, a)
        if "path" in a:
            return f"{sd.name} takes a direction and a distance, not a path."
        d = a.get("direction", "")
        dirs = skill_dirs(m.ready)
        if d not in dirs:
            return f"{sd.name} goes {', '.join(dirs)}."
        try:
            n = int(a.get("distance", "1"))
        except ValueError:
            return "The distance is a number."
        if n < 1 and sd.mode != "jump":
            return "The distance is at least 1."
        if n < 1:
            return f"A jump {d} from {h.pos} can clear a space, so it must (`distance:1` jumps over one)."
        costs = step_costs(st, h, xy(h.pos), [d] * n, occupancy(st)) if sd.mode != "jump" else None
        if (sum(costs) if costs is not None else n) > m.points:
            return f"{sd.name} has {m.points} point(s); {n} is too far (you never have to use them all)."
        p = xy(h.pos)
        if sd.mode == "jump":
            return f"An impassable wall {d} of {h.pos} stops the jump."
        occ = occupancy(st)
        for _ in range(n):
            nxt = sim_step(st, h, p, d, occ)
            if nxt is None:
                return f"{sd.name} is stopped {d} of {label(*p)}: {self._blocker(st, h, p, d)}."
            if is_pit(st, nxt):
                return f"{sd.name} would fall at {point_name(st, nxt)} before going {n}."
            p = nxt
        return f"{sd.name} cannot go {d} {n} from {h.pos}."

    def _explain_dash(self, st: QState, h: Hero, a: dict[str, str]) -> str:
        m = st.m
        assert h.pos is not None
        if "path" not in a:
            return 'Dash takes a path, one direction per point, e.g. `move path:"N NE"`.'
        path = a["path"].split()
        allowed = DIRS8 if m.ready == "dash" else skill_dirs(m.ready)  # Change Directions: the skill's own
        bad = [d for d in path if d not in allowed]
        if bad:
            return f"`{bad[0]}` is not a direction this skill goes ({', '.join(allowed)})."
        costs = step_costs(st, h, xy(h.pos), path, occupancy(st))
        spent = sum(costs) if costs is not None else len(path)  # Freeze-O-Tron: a glide on ice is free
        if spent > m.points:
            cost = plural(len(path), "step") if spent == len(path) else f"costs {plural(spent, 'point')}"
            return f"Dash has {plural(m.points, 'point')} left; the path {'has ' * (spent == len(path))}{cost}."
        if spent > DASH_PATH_CAP:
            return (f"Send a dash at most {DASH_PATH_CAP} steps per command; the rest of your points stay "
                    "ready for the next `move path:`.")
        occ = occupancy(st)
        pos = xy(h.pos)
        for i, d in enumerate(path):
            nxt = sim_step(st, h, pos, d, occ)
            if nxt is None:
                return f"The dash is stopped {d} of {label(*pos)}: {self._blocker(st, h, pos, d)}."
            if is_pit(st, nxt) and i < len(path) - 1:
                return f"The dash would fall at {point_name(st, nxt)} before its end."
            pos = nxt
        return "That dash path is not possible."

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        a = action.argdict
        if action.cmd == "tumble":
            h, d = active(state), a["direction"]
            to = step_xy(xy(h.pos), d) if h.pos else None
            return f"Tumble {d}{falls_note(state, to) or ' → ' + on_top_after(h, [d])}"
        if action.cmd == "move":
            ready = state.m.ready
            tumbles = ready in data.skills() and data.skills()[ready].mode == "tumble"
            jumps = ready in data.skills() and data.skills()[ready].mode == "jump"
            h = active(state)
            if "path" in a:
                name = data.skills()[ready].name if ready in data.skills() else "Dash"
                steps = a["path"].split()
                lands = f" → {on_top_after(h, steps)}" if tumbles and all(d in DIRS4 for d in steps) else ""
                return f"{name} {a['path']}{falls_note(state, _end_of(h, steps)) or lands}"
            name = data.skills()[ready].name if ready in data.skills() else "Move"
            over = "over " if ready == "jump" else ""
            lands = ""
            if tumbles and a["direction"] in DIRS4 and a["distance"].isdigit():
                lands = f" → {on_top_after(h, [a['direction']] * int(a['distance']))}"
            end = None
            if a["direction"] in DIRS8 and a["distance"].isdigit():
                k = int(a["distance"])
                end = _end_of(h, [a["direction"]] * (k + 1 if jumps else k))
            return f"{name} {a['direction']} {over}{a['distance']}{falls_note(state, end) or lands}"
        if action.cmd == "steal":
            paid = f" (discard {data.cards()[a['card']].name})" if a.get("card") in data.cards() else ""
            return f"Steal {a['item']} from {hero_of(state, a['from']).name}{paid}"
        if action.cmd == "qpower":
            return qpower_label(action, active(state))
        if action.cmd == "ability":
            return ability_label(state, action)
        return super().label(game, state, action)

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """`done`, the swaps of the face on top (Q-power), the tumbles, some moves, steals and drops."""
        b = Buttons(legal)
        h = active(state)
        key = top_face(h) if top_face(h) in SKILL_FACES else "back"
        b.add(b.of("done"))
        if b.of("rearrange"):
            b.add(swaps(h, key))
        here = xy(h.pos) if h.pos else (0, 0)

        def near(a: Action) -> int:  # a placing power's squares nearest the hero first
            at = a.get("at")
            return abs(xy(at)[0] - here[0]) + abs(xy(at)[1] - here[1]) if at else 0

        b.add(sorted(b.of("qpower"), key=near), 6)
        b.add(b.of("tumble"))
        moves = b.of("move")
        if moves and moves[0].get("path") is not None:  # dash: single steps, then a spread of longer paths
            moves = _spread_paths(state, h, moves, 14)
        b.add(moves, 14)
        b.add(b.of("steal"), 4)
        b.add([x for x in b.of("ability") if not x.get("at")], 2)  # builders; Teleport Skill: `ability at:`
        b.add(b.of("ability"), 2)
        b.add(b.of("drop"), 3)  # dropping is rare: a few buttons, the rest by `/quodd drop at:`
        return b.out

    def skip(self, game: Any, state: QState, player: str) -> Action | None:
        """A skipped movement ends it, or makes the natural tumble the rules require (away from pits if possible)."""
        legal = game.legal_actions(state, player)
        for a in legal:
            if a.cmd == "done":
                return a
        tumbles = [a for a in legal if a.cmd == "tumble"]
        h = active(state)
        if h.pos is not None:
            for a in tumbles:
                if not is_pit(state, step_xy(xy(h.pos), arg(a, "direction"))):
                    return a
        return tumbles[0] if tumbles else None
