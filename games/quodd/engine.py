"""Quodd Heroes: the Game object (setup, legal actions, apply, status, view, summary)."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Any

from pydantic import BaseModel

from games.core import (
    Action,
    CommandSpec,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
    Result,
    Rng,
    Seat,
    Status,
)
from games.core.grid import DIAGONALS, DIRS4, DIRS8, chebyshev, label, parse_label

from . import content
from .board import (
    center_facing,
    hero_at,
    hero_of,
    is_pit,
    jump_landing_ok,
    occupancy,
    on_map,
    safe_spot,
    sim_step,
    step,
    xy,
)
from .cube import SKILL_FACES, facing
from .rules import active, base_points, cancel_seq, is_mover, run, skill_points, top_face, top_skill
from .rules import answer as answer_decision
from .state import Hero, Job, QState, Token
from .turns import end_turn, placement_order, start_turn, to_explore, to_move, to_recovery
from .view import build_view, rules_text

PHASE_NAMES = {
    "place": "setup: placing heroes", "skills": "setup: assigning skills", "power": "phase 1: power-up",
    "move": "phase 2: movement", "recovery": "phase 3: recovery", "explore": "phase 4: exploration", "over": "game over",
}
DASH_PATH_CAP = 3  # longer dashes are typed as several `move` commands
SKILL_ARGS = ("feet", "front", "back", "left", "right")


def _arg(action: Action, key: str) -> str:
    """An argument the legal set guarantees is there."""
    value = action.get(key)
    assert value is not None, (action, key)
    return value


def point_name(st: QState, p: tuple[int, int]) -> str:
    return label(*p) if on_map(st, p) else "the map's edge"


def _skill_dirs(skill: str) -> list[str]:
    d = content.skills()[skill].dirs
    return list(DIRS4) if d == "orthogonal" else list(DIAGONALS) if d == "diagonal" else list(DIRS8)


class QuoddHeroes(Game[QState]):
    id = "quodd"
    name = "Quodd Heroes"
    min_seats = 1
    max_seats = 6
    rules_version = 1
    state_model = QState
    options = (
        OptionSpec(name="scenario", description="Which scenario to play", choices=tuple(sorted(content.scenarios())),
                   default="tutorial"),
    )
    seat_options = (
        OptionSpec(name="hero", description="Your hero (assigned at random if left out)",
                   choices=tuple(h.id for h in content.heroes().values())),
    )
    commands = (
        CommandSpec(name="tumble", description="Natural tumble: roll your hero one space",
                    options=(OptionSpec(name="direction", description="N, E, S or W", required=True,
                                        choices=("N", "E", "S", "W")),)),
        CommandSpec(name="move", description="Use the skill on top: a direction and distance, or a dash path", options=(
            OptionSpec(name="direction", description="Direction of a slide, diagonal slide, tumble or jump",
                       choices=tuple(DIRS8)),
            OptionSpec(name="distance", description="How far (jump: spaces jumped over)", kind="int", autocomplete=True),
            OptionSpec(name="path", description='Dash: one direction per point, e.g. "N NE" (up to 3 per command)',
                       autocomplete=True),
        )),
        CommandSpec(name="choose", description="Answer the pending decision", options=(
            OptionSpec(name="option", description="What you choose", required=True, autocomplete=True),)),
        CommandSpec(name="steal", description="Take a collectible from an adjacent hero", options=(
            OptionSpec(name="from", description="The hero's player", required=True, autocomplete=True),
            OptionSpec(name="item", description="Which collectible", autocomplete=True),
        )),
        CommandSpec(name="drop", description="Put a carried collectible on an adjacent space", options=(
            OptionSpec(name="item", description="Which collectible", autocomplete=True),
            OptionSpec(name="at", description="Adjacent square, e.g. C4", required=True, autocomplete=True),
        )),
        CommandSpec(name="rearrange", description="Assign skills to faces (setup, Q-power, tokens)", options=tuple(
            OptionSpec(name=f, description=f"Skill on the {f} face", choices=tuple(content.skills()))
            for f in SKILL_ARGS)),
        CommandSpec(name="done", description="Finish this phase (or the setup of your skills)"),
        CommandSpec(name="preview", description="Only you see where a tumble or move would take you; nothing changes",
                    options=(OptionSpec(name="action", description='The move to try, e.g. "tumble direction:E"',
                                        required=True, autocomplete=True),)),
    )

    # ---- lobby -------------------------------------------------------------
    def _scenario(self, options: dict[str, str]) -> content.ScenarioDef:
        sid = (options.get("scenario") or "tutorial").lower()
        found = content.scenarios().get(sid)
        if found is None:
            raise IllegalAction(f"There is no Quodd scenario `{sid}`.",
                                "Scenarios: " + ", ".join(sorted(content.scenarios())) + ".")
        return found

    def check_options(self, options: dict[str, str]) -> None:
        self._scenario(options)

    @staticmethod
    def _hero_id(text: str) -> str | None:
        t = text.strip().casefold()
        for h in content.heroes().values():
            if t in (h.id, h.name.casefold(), h.name.split()[0].casefold()):
                return h.id
        return None

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        sc = self._scenario(options)
        seats = [s for s in seats if s.player != new.player]  # re-joining replaces your own seat
        if len(seats) >= sc.max_players:
            raise IllegalAction(f"{sc.name} seats at most {sc.max_players}.", "Watch this one, or start another game.")
        want = new.choices.get("hero")
        if want:
            hid = self._hero_id(want)
            free = self.seat_choices(options, seats, "hero")
            if hid is None:
                raise IllegalAction(f"There is no hero called `{want}`.", "Heroes: " + ", ".join(free) + ".")
            if hid not in free:
                raise IllegalAction(f"{content.heroes()[hid].name} is taken.", "Free heroes: " + ", ".join(free) + ".")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option != "hero":
            return super().seat_choices(options, seats, option)
        taken = {self._hero_id(s.choices.get("hero", "")) for s in seats}
        return [h for h in content.heroes() if h not in taken]

    # ---- setup -------------------------------------------------------------
    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> QState:
        sc = self._scenario(options)
        if not sc.min_players <= len(seats) <= sc.max_players:
            raise IllegalAction(f"{sc.name} is for {sc.min_players}-{sc.max_players} players.",
                                "Pick another scenario with `/game new`.")
        layout = content.check_scenario(sc)
        rng = Rng(seed=seed)
        hv = content.house()
        chosen = [self._hero_id(s.choices.get("hero", "")) for s in seats]
        free = [h for h in content.heroes() if h not in chosen]
        heroes: list[Hero] = []
        for i, (seat, hid) in enumerate(zip(seats, chosen, strict=True)):
            if hid is None:
                hid = free.pop(rng.below(len(free)))
            hd = content.heroes()[hid]
            heroes.append(Hero(player=seat.player, name=seat.name, hero=hid, seat=i, skills=dict(hd.default_skills),
                               movement=hv.base_movement, explore=hv.base_explore))
        tokens: dict[str, Token] = {}
        ground: dict[str, list[str]] = {}
        rally: dict[str, str] = {}
        pool = list(sc.secret_pool)
        rng.shuffle(pool)
        for t in sc.tokens:
            lab = t.at.upper()
            if t.kind == "crystal":
                ground.setdefault(lab, []).append(f"{t.colour or 'plain'}-crystal")
                continue
            tok = Token(kind=t.kind, group=t.group, number=t.number)
            if t.kind == "secret":
                tok.hidden = pool.pop()
            if t.kind == "rally":
                rally[str(t.number)] = lab
            tokens[lab] = tok
        first = rng.below(len(heroes))
        st = QState(
            scenario=sc.id, mode=sc.mode, round_limit=sc.round_limit, target=sc.target,
            carry_limit=sc.carry_limit or hv.carry_limit, pass_coin=sc.pass_coin,
            start_facing=sc.facing or "", width=layout.width, height=layout.height,
            rows=layout.rows, links=layout.links, board_of=layout.board_of, tokens=tokens, ground=ground,
            rally=rally, heroes=heroes, first=first, turn=first, rng=rng,
            placing=placement_order(len(heroes), first),
        )
        self._ask_placement(st)
        return st

    @staticmethod
    def _ask_placement(st: QState) -> None:
        from .rules import decide

        h = st.heroes[st.placing[0]]
        free = [label(x, y) for y in range(st.height) for x in range(st.width)
                if st.rows[y][x] == "s" and hero_at(st, (x, y)) is None]
        decide(st, "place", h.player, h, free, f"{h.name}: choose a start space for {content.heroes()[h.hero].name}")

    # ---- legal actions -----------------------------------------------------
    @staticmethod
    def _rearranges(h: Hero) -> list[Action]:
        current = tuple(h.skills[f] for f in SKILL_FACES)
        out = []
        for perm in permutations(sorted(content.skills())):
            if perm != current:
                out.append(Action.of("rearrange", **dict(zip(SKILL_FACES, perm, strict=True))))
        return out

    def _moves(self, st: QState, h: Hero) -> list[Action]:
        m = st.m
        skill = m.ready
        if not skill or skill == "q" or h.pos is None or m.points <= 0:
            return []
        sd = content.skills()[skill]
        p = xy(h.pos)
        out: list[Action] = []
        if sd.mode == "jump":
            for d in DIRS4:
                ks = [k for k in range(1, m.points + 1) if jump_landing_ok(st, p, d, k)]
                if not ks and jump_landing_ok(st, p, d, 0):
                    ks = [0]  # a jump clears at least one space only "if possible": else a hop next door
                out += [Action.of("move", direction=d, distance=k) for k in ks]
            return out
        if sd.mode == "dash":
            occ0 = occupancy(st)

            def walk(pos, occ, path):
                if path:
                    out.append(Action.of("move", path=" ".join(path)))
                if len(path) >= min(m.points, DASH_PATH_CAP) or (path and is_pit(st, pos)):
                    return
                for d in DIRS8:
                    o2 = dict(occ)
                    nxt = sim_step(st, h, pos, d, o2)
                    if nxt is not None:
                        walk(nxt, o2, path + [d])

            walk(p, occ0, [])
            return out
        for d in _skill_dirs(skill):
            occ = occupancy(st)
            pos = p
            for k in range(1, m.points + 1):
                nxt = sim_step(st, h, pos, d, occ)
                if nxt is None:
                    break
                out.append(Action.of("move", direction=d, distance=k))
                if is_pit(st, nxt):
                    break
                pos = nxt
        return out

    def _steals(self, st: QState, h: Hero) -> list[Action]:
        if h.pos is None or len(h.carrying) >= st.carry_limit:
            return []
        out = []
        for o in st.heroes:
            if o.player == h.player or o.pos is None or o.player in st.m.stolen_from:
                continue
            if chebyshev(xy(o.pos), xy(h.pos)) == 1:
                for item in sorted(set(o.carrying)):
                    out.append(Action.of("steal", **{"from": o.player, "item": item}))
        return out

    @staticmethod
    def _drops(st: QState, h: Hero) -> list[Action]:
        if h.pos is None:
            return []
        p = xy(h.pos)
        out = []
        for item in sorted(set(h.carrying)):
            for d in DIRS8:
                q = step(p, d)
                if safe_spot(st, q):
                    out.append(Action.of("drop", item=item, at=label(*q)))
        return out

    def legal_actions(self, state: QState, player: str) -> list[Action]:
        st = state
        if st.phase == "over":
            return []
        if st.pending is not None:
            if st.pending.player != player:
                return []
            acts = [Action.of("choose", option=o) for o in st.pending.options]
            if st.pending.allow_rearrange:
                acts += self._rearranges(hero_of(st, st.pending.hero))
            return acts
        if st.phase == "skills":
            if player in st.ready or not any(h.player == player for h in st.heroes):
                return []
            return [Action.of("done")] + self._rearranges(hero_of(st, player))  # buttons: the common choice first
        h = active(st)
        if player != h.player:
            return []
        if st.phase in ("power", "recovery", "explore"):
            return [Action.of("done")] + self._drops(st, h)
        # movement phase, at rest
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
                if m.ready == "q" and not m.q_used:
                    acts += self._rearranges(h)
            acts += self._steals(st, h)
        else:
            acts.append(Action.of("done"))
        acts += self._drops(st, h)
        return acts

    # ---- apply -------------------------------------------------------------
    def apply(self, state: QState, player: str, action: Action) -> tuple[QState, list[Event]]:
        st = state.model_copy(deep=True)
        ev: list[Event] = []
        cmd = action.cmd
        if st.pending is not None:
            if cmd == "rearrange":
                h = hero_of(st, st.pending.hero)
                st.pending = None
                self._rearrange(st, h, action, ev)
                run(st, ev)
            elif st.pending.kind == "place":
                self._place(st, _arg(action, "option"), ev)
            else:
                answer_decision(st, _arg(action, "option"), ev)
            return st, ev
        if st.phase == "skills":
            h = hero_of(st, player)
            if cmd == "rearrange":
                self._rearrange(st, h, action, ev)
            else:
                st.ready.append(player)
                ev.append(Event(text=f"{h.name} is ready."))
                if len(st.ready) == len(st.heroes):
                    ev.append(Event(text="Every hero is ready. Let the tumbling begin!"))
                    start_turn(st, st.first, ev)
            return st, ev
        h = active(st)
        if cmd == "done":
            if st.phase == "power":
                to_move(st, ev)
            elif st.phase == "move":
                if not st.m.ended:
                    ev.append(Event(text=f"{h.name} ends the movement phase."))
                to_recovery(st, ev)
            elif st.phase == "recovery":
                to_explore(st, ev)
            elif st.phase == "explore":
                end_turn(st, ev)
        elif cmd == "tumble":
            m = st.m
            m.tumbled = True
            m.seq += 1
            st.queue += [Job(kind="step", hero=h.player, dir=_arg(action, "direction"), how="tumble", seq=m.seq),
                         Job(kind="land", hero=h.player, seq=m.seq), Job(kind="activate", hero=h.player, seq=m.seq)]
            ev.append(Event(text=f"{h.name} makes the natural tumble {action.get('direction')}."))
            run(st, ev)
        elif cmd == "move":
            self._move(st, h, action, ev)
        elif cmd == "rearrange":  # Q on top: the shared Q-power
            self._rearrange(st, h, action, ev)
            st.m.q_used = True
            st.m.ready = ""
        elif cmd == "steal":
            victim = hero_of(st, _arg(action, "from"))
            item = _arg(action, "item")
            victim.carrying.remove(item)
            h.carrying.append(item)
            st.m.stolen_from.append(victim.player)
            ev.append(Event(text=f"{h.name} steals a {item.replace('-', ' ')} from {victim.name}."))
        elif cmd == "drop":
            item = _arg(action, "item")
            h.carrying.remove(item)
            st.ground.setdefault(_arg(action, "at"), []).append(item)
            ev.append(Event(text=f"{h.name} drops a {item.replace('-', ' ')} on {action.get('at')}."))
        return st, ev

    def _place(self, st: QState, lab: str, ev: list[Event]) -> None:
        h = st.heroes[st.placing.pop(0)]
        st.pending = None
        h.pos = lab
        h.home_front = st.start_facing or center_facing(st, xy(lab))
        h.head, h.front = "U", h.home_front
        ev.append(Event(text=f"{h.name} places {content.heroes()[h.hero].name} on {lab}, Q up, facing {h.front}."))
        if st.placing:
            self._ask_placement(st)
        else:
            st.phase = "skills"
            ev.append(Event(text="Everyone: put your skills on faces with `rearrange` (e.g. `rearrange back:jump`), "
                                 "then `done`. Your first tumble forward brings the back face up; the feet face "
                                 "cannot come up on the first tumble."))

    def _rearrange(self, st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
        """Reassign skills; mid-move, a changed top skill takes over the remaining points (FAQ)."""
        before = top_skill(h)
        h.skills = {f: _arg(action, f) for f in SKILL_FACES}
        ev.append(Event(text=f"{h.name} rearranges skills: " + ", ".join(f"{f} {h.skills[f]}" for f in SKILL_FACES) + "."))
        m = st.m
        if st.phase != "move" or not is_mover(st, h) or not m.current:
            return
        new = top_skill(h)
        if new in (m.current, before):  # the face on top shows what it showed: the skill in use goes on
            return
        # the points left of the shared movement range go over; the old skill's own boosts do not
        remaining = max(0, base_points(h) + m.boost.get("all", 0) - m.taken)
        cancel_seq(st, m.seq, keep=("land",))
        m.current = ""
        if new == "q":
            m.ready, m.points = ("" if m.q_used else "q"), 0
        elif new in m.used or remaining == 0:
            m.ready, m.points = "", 0
        else:
            m.ready, m.points = new, remaining + skill_points(h, new, {new: m.boost.get(new, 0)}) - base_points(h)
            ev.append(Event(text=f"{h.name} goes on with {content.skills()[new].name} ({m.points} left; "
                                 "boosts of the old skill stay behind)."))

    def _move(self, st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
        m = st.m
        skill = m.ready
        sd = content.skills()[skill]
        first_use = skill not in m.used
        if first_use:
            m.used.append(skill)
            m.taken = 0
            if skill in h.upgraded:
                h.explores_earned += sd.upgrade_explore
                ev.append(Event(text=f"{h.name}'s upgraded {sd.name} grants an exploration (recorded)."))
        m.current = skill
        m.seq += 1
        seq = m.seq
        jobs: list[Job] = []
        if sd.mode == "dash":
            path = _arg(action, "path").split()
            jobs += [Job(kind="step", hero=h.player, dir=d, how="dash", seq=seq) for d in path]
            spent = len(path)
            desc = " ".join(path)
        elif sd.mode == "jump":
            over = int(_arg(action, "distance"))
            spent = max(1, over)  # a hop that clears nothing still costs its point
            jobs.append(Job(kind="jump", hero=h.player, dir=_arg(action, "direction"), n=over, how="jump", seq=seq))
            desc = f"{action.get('direction')} over {over}"
        else:
            spent = int(_arg(action, "distance"))
            how = "tumble" if sd.mode == "tumble" else "slide"
            jobs += [Job(kind="step", hero=h.player, dir=_arg(action, "direction"), how=how, seq=seq) for _ in range(spent)]
            desc = f"{action.get('direction')} {spent}"
        m.points -= spent
        m.ready = ""
        jobs += [Job(kind="land", hero=h.player, seq=seq), Job(kind="skill_end", hero=h.player, seq=seq)]
        if sd.mode == "tumble":
            jobs.append(Job(kind="activate", hero=h.player, seq=seq))
        ev.append(Event(text=f"{h.name} uses {sd.name}: {desc}."))
        st.queue += jobs
        run(st, ev)

    # ---- status / view -----------------------------------------------------
    def status(self, state: QState) -> Status:
        st = state
        if st.phase == "over":
            scores = {h.player: (len(h.banked) if st.mode == "heist" else h.progress) for h in st.heroes}
            return Status(phase="over", round=st.round, finished=True, turn_key=f"over-{st.turn_no}",
                          result=Result(winners=list(st.winners), text=st.result_text, scores=scores))
        if st.pending is not None:
            d = st.pending
            key = f"place-{len(st.placing)}" if d.kind == "place" else f"r{st.round}t{st.turn_no}"
            if d.kind != "place" and st.phase != "skills" and d.player != active(st).player:
                key += f"-{d.player}"
            return Status(phase=PHASE_NAMES[st.phase], round=st.round, to_act=[d.player], turn_key=key,
                          waiting_for=d.prompt)
        if st.phase == "skills":
            waiting = [h for h in st.heroes if h.player not in st.ready]
            return Status(phase=PHASE_NAMES["skills"], round=st.round, to_act=[h.player for h in waiting],
                          turn_key="skills", waiting_for=", ".join(h.name for h in waiting)
                          + " to assign skills to faces (`rearrange`, or `done` to keep them)")
        h = active(st)
        return Status(phase=PHASE_NAMES[st.phase], round=st.round, to_act=[h.player], turn_key=f"r{st.round}t{st.turn_no}",
                      waiting_for=self._waiting(st, h))

    def _waiting(self, st: QState, h: Hero) -> str:
        if st.phase == "move":
            m = st.m
            if not m.tumbled and not m.ended:
                return f"{h.name} to make the natural tumble"
            if m.ready == "q" and not m.q_used:
                return f"{h.name} to use Q-powers (rearrange) or finish moving"
            if m.ready and m.ready != "q":
                pts = f"{m.points} point{'s' if m.points != 1 else ''}"
                return f"{h.name} to use {content.skills()[m.ready].name} ({pts}) or finish moving"
            return f"{h.name} to finish moving"
        return {
            "power": f"{h.name} to end phase 1, power-up (no cards yet: `done` starts the movement)",
            "recovery": f"{h.name} to end phase 3, recovery (nothing to recover yet: `done`)",
            "explore": f"{h.name} to end phase 4, exploration (recorded for now: `done` ends the turn)",
        }.get(st.phase, f"{h.name} to continue with `done`")

    def view(self, state: QState, player: str | None) -> BaseModel:
        status = self.status(state)
        return build_view(state, status.waiting_for, status.to_act)

    def summary(self, state: QState) -> dict[str, Any]:
        st = state
        players = []
        for h in st.heroes:
            players.append({
                "name": h.name, "hero": content.heroes()[h.hero].name, "position": h.pos or "",
                "top_face": top_face(h), "top_skill": top_skill(h), "facing": facing(h.head, h.front),
                "collectibles": list(h.carrying), "banked": list(h.banked),
                "objective": self._objective(st, h),
            })
        return {"round": st.round, "first_player": st.heroes[st.first].name, "scenario": st.scenario,
                "players": players}

    @staticmethod
    def _objective(st: QState, h: Hero) -> str:
        if st.mode == "heist":
            return f"{len(h.banked)}/{st.target} crystals banked"
        return f"{h.progress}/{len(st.rally)} rally markers"

    # ---- helpers for the bot -------------------------------------------------
    def canonical(self, state: QState, player: str, action: Action) -> Action:
        st = state
        args = dict(action.args)
        up = {"direction", "at"}
        for k in list(args):
            if k in up:
                args[k] = args[k].upper()
        if action.cmd == "move" and "path" in args:
            args["path"] = " ".join(args["path"].upper().replace(",", " ").split())
        if action.cmd == "choose" and "option" in args:
            o = args["option"]
            if st.pending and o.upper() in [x.upper() for x in st.pending.options]:
                args["option"] = next(x for x in st.pending.options if x.upper() == o.upper())
        if action.cmd == "steal" and "from" in args:
            f = args["from"].casefold().lstrip("@")
            for h in st.heroes:
                if f in (h.player.casefold(), h.name.casefold()):
                    args["from"] = h.player
        if action.cmd == "rearrange":
            try:
                h = hero_of(st, st.pending.hero if st.pending else player)
            except KeyError:
                return action
            named = {f: args[f].lower() for f in SKILL_FACES if f in args}
            if named and len(named) < 5 and len(set(named.values())) == len(named):
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
                args = full
            else:
                args = {k: v.lower() for k, v in args.items()}
        return Action.of(action.cmd, **args)

    def explain(self, state: QState, player: str, action: Action) -> str:
        st = state
        a = action.argdict
        if st.pending is not None:
            if action.cmd == "choose":
                return f"`{a.get('option', '')}` is not one of the choices: {st.pending.prompt}."
            if action.cmd == "rearrange" and not st.pending.allow_rearrange:
                return f"Rearranging is not offered here; first answer: {st.pending.prompt}."
            if action.cmd != "rearrange":
                return f"First answer: {st.pending.prompt}."
        if action.cmd == "choose":
            return "There is no open question to answer right now."
        if action.cmd == "rearrange":
            return self._explain_rearrange(st, player, a)
        if st.phase != "move" and action.cmd in ("tumble", "move", "steal"):
            return f"That belongs to the movement phase; now it is {PHASE_NAMES[st.phase]}."
        if action.cmd == "drop":
            return self._explain_drop(st, player, a)
        if st.phase == "move":
            h = active(st)
            m = st.m
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
                return self._explain_steal(st, h, a)
        return ""

    def _blocker(self, st: QState, h: Hero, p: tuple[int, int], d: str) -> str:
        """Why `h` cannot move from `p` towards `d` (one clause)."""
        q = step(p, d)
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
            used = ", ".join(content.skills()[u].name for u in m.used) or "none"
            return f"No skill is ready: the face on top was used already this turn (used: {used}); `done` ends moving."
        if m.ready == "q":
            return "The Q is on top: rearrange your skills (Q-power) or `done`; there is no skill to move with."
        sd = content.skills()[m.ready]
        assert h.pos is not None
        if sd.mode == "dash":
            if "path" not in a:
                return 'Dash takes a path, one direction per point, e.g. `move path:"N NE"`.'
            path = a["path"].split()
            bad = [d for d in path if d not in DIRS8]
            if bad:
                return f"`{bad[0]}` is not a direction (N, NE, E, SE, S, SW, W, NW)."
            if len(path) > m.points:
                return f"Dash has {m.points} point(s) left; the path has {len(path)} steps."
            if len(path) > DASH_PATH_CAP:
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
        if "path" in a:
            return f"{sd.name} takes a direction and a distance, not a path."
        d = a.get("direction", "")
        dirs = _skill_dirs(m.ready)
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
        if n > m.points:
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

    def _explain_steal(self, st: QState, h: Hero, a: dict[str, str]) -> str:
        f = a.get("from", "")
        victim = next((o for o in st.heroes if o.player == f), None)
        if victim is None or victim.player == h.player:
            return "Name another player's hero to steal from."
        if len(h.carrying) >= st.carry_limit:
            return f"You already carry {len(h.carrying)}, the most you may carry."
        if victim.player in st.m.stolen_from:
            return f"You stole from {victim.name} already this turn (once per hero per turn)."
        if victim.pos is None or h.pos is None or chebyshev(xy(victim.pos), xy(h.pos)) != 1:
            return f"{victim.name} is not right next to you (diagonals count)."
        if not victim.carrying:
            return f"{victim.name} carries nothing to steal" + (" (banked crystals are locked)." if victim.banked else ".")
        return f"{victim.name} does not carry a {a.get('item', '?').replace('-', ' ')}."

    def _explain_drop(self, st: QState, player: str, a: dict[str, str]) -> str:
        try:
            h = hero_of(st, player)
        except KeyError:
            return ""
        item = a.get("item", "")
        if not h.carrying:
            return "You carry nothing to drop."
        if item and item not in h.carrying:
            return f"You do not carry a {item.replace('-', ' ')}."
        at = parse_label(a.get("at", ""))
        if at is None or h.pos is None or chebyshev(at, xy(h.pos)) != 1:
            return "Drop onto a space right next to you (diagonals count)."
        return f"{label(*at)} is not a safe free space (no pit, wall, hero or other collectible)."

    def _explain_rearrange(self, st: QState, player: str, a: dict[str, str]) -> str:
        try:
            h = hero_of(st, st.pending.hero if st.pending else player)
        except KeyError:
            return ""
        given = [a.get(f, "") for f in SKILL_FACES]
        if sorted(given) != sorted(content.skills()):
            return "Name all five faces (feet, front, back, left, right), each with a different skill."
        if all(h.skills[f] == a[f] for f in SKILL_FACES):
            return "That is already your layout" + ("; `done` keeps it." if st.phase == "skills" else ".")
        if st.phase == "skills" and player in st.ready:
            return "You confirmed your skills already; they are fixed until a Q-power or token lets you rearrange."
        if st.phase == "move" and st.m.ready == "q" and st.m.q_used:
            return "You used your Q-power this turn already."
        return "Rearranging needs the setup, the Q on top (Q-power), or stopping on a Q or rearrange token."

    def label(self, state: QState, action: Action) -> str:
        a = action.argdict
        c = action.cmd
        if c == "tumble":
            return f"Tumble {a['direction']}"
        if c == "move":
            if "path" in a:
                return f"Dash {a['path']}"
            name = content.skills()[state.m.ready].name if state.m.ready in content.skills() else "Move"
            over = "over " if state.m.ready == "jump" else ""
            return f"{name} {a['direction']} {over}{a['distance']}"
        if c == "choose":
            o = a["option"]
            return {"cw": "Spin ↻", "ccw": "Spin ↺", "skip": "Skip", "stay": "Stay"}.get(o, o)
        if c == "steal":
            return f"Steal {a['item']} from {hero_of(state, a['from']).name}"
        if c == "drop":
            return f"Drop {a['item']} on {a['at']}"
        if c == "rearrange":
            return self._rearrange_label(state, a)
        if c == "done":
            if state.phase == "skills" and state.pending is None:
                return "Keep these skills"
            return {"power": "Done: to movement", "move": "Done moving", "recovery": "Done: to exploration",
                    "explore": "End turn"}.get(state.phase, "Done")
        return action.text()

    @staticmethod
    def _layout_owner(st: QState, player: str = "") -> Hero | None:
        """Whose skills a rearrange concerns now: the pending decision's hero, the setup player, or the mover."""
        if st.pending is not None:
            return hero_of(st, st.pending.hero)
        if st.phase == "skills":
            try:
                return hero_of(st, player)
            except KeyError:
                return None
        return active(st) if st.phase != "over" else None

    def _rearrange_label(self, st: QState, a: dict[str, str]) -> str:
        """`Back: Jump <-> Slide` for a swap of two faces (whose: the only hero it can be a swap for)."""
        names = {k: v.name for k, v in content.skills().items()}
        if st.phase == "skills" and st.pending is None:
            owners = [h for h in st.heroes if h.player not in st.ready]
        else:
            owner = self._layout_owner(st)
            owners = [owner] if owner is not None else []
        fits = [h for h in owners if sum(h.skills.get(f) != a[f] for f in SKILL_FACES) == 2]
        if len(fits) == 1:
            h = fits[0]
            f1, f2 = [f for f in SKILL_FACES if h.skills.get(f) != a[f]]
            if f2 == "back" or (f2 in ("front",) and f1 != "back"):
                f1, f2 = f2, f1
            who = f"{h.name}: " if len(owners) > 1 else ""
            if st.phase == "move" and top_face(h) in (f1, f2):
                t = top_face(h)
                return f"{names[a[t]]} on top (swap {f1}/{f2})"
            return f"{who}{f1} {names[a[f1]]}, {f2} {names[a[f2]]}"
        return "Skills: " + ", ".join(f"{f} {names[a[f]]}" for f in SKILL_FACES)

    @staticmethod
    def _swaps(h: Hero, face: str) -> list[Action]:
        """The four layouts that swap `face`'s skill with one other face (the handy rearranges)."""
        out = []
        for other in SKILL_FACES:
            if other == face:
                continue
            sk = dict(h.skills)
            sk[face], sk[other] = sk[other], sk[face]
            out.append(Action.of("rearrange", **{f: sk[f] for f in SKILL_FACES}))
        return out

    def button_actions(self, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """The common choices of the moment, at most 20: never the 119 skill layouts or a hundred dash paths."""
        st = state
        if not legal:
            return []
        cap = 20
        by_cmd: dict[str, list[Action]] = {}
        for a in legal:
            by_cmd.setdefault(a.cmd, []).append(a)
        legal_set = set(legal)
        out: list[Action] = []

        def add(items: list[Action], limit: int = cap) -> None:
            for a in items:
                if len(out) >= cap or limit <= 0:
                    return
                if a in legal_set and a not in out:
                    out.append(a)
                    limit -= 1

        rearr = by_cmd.get("rearrange", [])
        h = self._layout_owner(st, player)
        # a rearrange is useful as a swap: in setup of the face that comes up on a forward tumble (back),
        # mid-move of the face on top (the remaining points go to the new skill), else of the back face
        key = "back"
        if h is not None and st.phase == "move" and top_face(h) in SKILL_FACES:
            key = top_face(h)
        swaps = self._swaps(h, key) if (h is not None and rearr) else []
        if st.pending is not None:
            chooses = by_cmd.get("choose", [])
            quiet = [a for a in chooses if a.get("option") in ("skip", "stay")]
            add(chooses if len(chooses) <= cap - len(swaps) else quiet)
            add(swaps)
            return out
        add(by_cmd.get("done", []))
        if st.phase == "skills":  # everyone still choosing shares the 20 buttons
            waiting = max(1, sum(1 for x in st.heroes if x.player not in st.ready))
            add(swaps, max(0, cap // waiting - 1))
        else:
            add(swaps)
        add(by_cmd.get("tumble", []))
        moves = by_cmd.get("move", [])
        if moves and moves[0].get("path") is not None:  # dash: single steps, then two-step paths
            moves = sorted(moves, key=lambda a: len(_arg(a, "path").split()))
        add(moves, 14)
        add(by_cmd.get("steal", []), 4)
        add(by_cmd.get("drop", []), 3)  # dropping is rare: a few buttons, the rest by `/quodd drop at:`
        return out

    def timeout(self, state: QState, options: dict[str, str]) -> tuple[float, Action] | None:
        """A choice the rules hand to a player who is not taking their turn (where the hero they pushed
        respawns, where a hero lands on their rooted one) waits `decision_hours` (house), then takes the
        quiet or first option, so the mover is not held up for a whole turn deadline."""
        st = state
        if st.pending is None or st.phase in ("place", "skills", "over") or st.pending.player == active(st).player:
            return None
        act = self.skip_action(st, st.pending.player)
        return (float(content.house().decision_hours), act) if act is not None else None

    def skip_action(self, state: QState, player: str) -> Action | None:
        """A skipped player keeps their layout / ends the phase; a pending choice takes its quiet (or first)
        option; a skipped movement makes the natural tumble the rules require (away from pits if possible)."""
        legal = self.legal_actions(state, player)
        for a in legal:
            if a.cmd == "done":
                return a
        chooses = [a for a in legal if a.cmd == "choose"]
        for a in chooses:
            if a.get("option") in ("skip", "stay"):
                return a
        if chooses:
            return chooses[0]
        # the movement phase must begin with the natural tumble: a safe one if there is one
        tumbles = [a for a in legal if a.cmd == "tumble"]
        h = active(state) if state.phase == "move" else None
        if h is not None and h.pos is not None:
            for a in tumbles:
                if not is_pit(state, step(xy(h.pos), _arg(a, "direction"))):
                    return a
        return tumbles[0] if tumbles else None

    def rules_topics(self) -> dict[str, str]:
        return rules_text()

    def preview(self, state: QState, player: str, action: Action) -> tuple[QState, list[Event]]:
        """Apply `action` to a copy with stand-in dice, so a preview never tells the real rolls."""
        from games.core.play import resolve

        trial = state.model_copy(deep=True)
        trial.rng = Rng(seed=(state.rng.seed * 7919 + state.rng.counter + 12345) & ((1 << 63) - 1))
        for t in trial.tokens.values():
            t.hidden = ""  # what a secret token hides stays hidden in a preview
        act = resolve(self, trial, player, action)
        new, ev = self.apply(trial, player, act)
        if any(e.irreversible for e in ev):
            ev.append(Event(text="(Preview: dice here are stand-ins, not the real roll.)"))
        return new, ev
