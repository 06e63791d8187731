"""A choice the rules hand a player in the middle of a movement (the stored `Decision`): which way a
whirlpool spins, where a spring throws, where a pushed hero goes, which teleport square, tunnel exit,
water connection or respawn point; and the rearrange a Q or rearrange token offers.

The question is asked where the rule is (`elements`, `falls`, `movement`) and answered there through
`movement.answer`; this phase is how it reads at the table: the `Pending`, the answers, their labels
and buttons, the refusals, and what expiry or a skip plays.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.core import Action, Event
from games.core.grid import DIRS8, step_xy

from .. import data
from ..board import active, center_facing, falls_note, hero_at, hero_of, kind, xy
from ..collectibles import steal_label
from ..commands import arg
from ..cube import SKILL_FACES
from ..movement import answer
from ..qpowers import qpower_actions, qpower_label, use_qpower
from ..skills import rearrange, rearranges, swaps, top_face
from ..state import QState
from ..upgrades import token_action, upgrade_label
from .base import Asked, Buttons, QuoddPhase, asked, explain_answer
from .move import settle

CHOICE_LABELS = {"cw": "Spin ↻", "ccw": "Spin ↺", "skip": "Skip", "stay": "Stay",
                 "explode": "Explode (Push Bomb)",
                 "clockwise": "Turn ↻", "counter-clockwise": "Turn ↺", "keep": "Keep the roll", "reroll": "Roll again"}


SHEEP_QUESTIONS = ("sheep_facing", "sheep_pickup")
FACING_LABELS = {"N": "Face N ↑", "E": "Face E →", "S": "Face S ↓", "W": "Face W ←"}


class DecidePhase(QuoddPhase):
    name = "decide"

    def pending(self, game: Any, state: QState) -> Asked:
        """A player who is not moving (the pushed hero's owner, the hero landed on) answers within
        `decision_hours` (house) or the quiet or first option is taken, so the mover is not held up."""
        d = state.pending
        assert d is not None
        key = f"r{state.round}t{state.turn_no}"
        off_turn = d.player != active(state).player
        if off_turn:
            key += f"-{d.player}"
        if d.kind in SHEEP_QUESTIONS:  # asked at the setup or the upkeep, on nobody's turn: a deadline always
            key += f"-{d.kind}-{d.job.at if d.job else ''}"
            off_turn = True
        out = asked(state, key, float(data.house().decision_hours) if off_turn else None)
        if d.kind == "sheep_facing" and d.job is not None:  # on a deadline: towards the middle, as heroes face
            out = replace(out, kind="setup: the flock's facing",
                          default=Action.of("choose", option=center_facing(state, xy(d.job.at))))
        return out

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        d = state.pending
        assert d is not None
        acts = [Action.of("choose", option=o) for o in d.options]
        if d.allow_rearrange:
            h = hero_of(state, d.hero)
            acts += rearranges(h)
            if h.pos is not None and kind(state, xy(h.pos)) == "q":  # a Q token: the hero's own Q-power too
                acts += qpower_actions(state, h)
        return acts

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        assert state.pending is not None
        if action.cmd == "rearrange":
            h = hero_of(state, state.pending.hero)
            state.pending = None
            rearrange(state, h, action, events)
        elif action.cmd == "qpower":  # on a Q token: the move goes on after the power
            h = hero_of(state, state.pending.hero)
            state.pending = None
            use_qpower(state, h, action, events)
        else:
            answer(state, arg(action, "option"), events)
        settle(state, events)

    def explain(self, game: Any, state: QState, player: str, action: Action) -> str:
        why = explain_answer(state, action)
        return why if why is not None else super().explain(game, state, player, action)

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        if action.cmd == "choose":
            o = arg(action, "option")
            if state.pending is not None and state.pending.kind == "upgrade_token":
                return upgrade_label(state, hero_of(state, state.pending.hero), token_action(o))
            if state.pending is not None and state.pending.kind == "sheep_facing":
                return FACING_LABELS.get(o, o)
            if state.pending is not None and state.pending.kind == "cannon_dir":
                return "Point " + FACING_LABELS.get(o, o).removeprefix("Face ")
            if state.pending is not None and state.pending.kind == "sheep_pickup":
                return "Pick up the sheep" if o == "pick_up" else "Leave it"
            pend = state.pending
            h = hero_of(state, pend.hero) if pend is not None else None
            here = xy(h.pos) if h is not None and h.pos else None
            if pend is not None and here is not None and o in DIRS8 and pend.job is not None:
                if pend.kind == "spring":  # thrown over `n` spaces: the landing is one further
                    return f"Spring {o}{falls_note(state, step_xy(here, o, pend.job.n + 1))}"
                if pend.kind == "push_dir":  # the jumper lands on a hero and pushes it one space
                    to = step_xy(here, pend.job.dir, pend.job.n + 1)
                    other = hero_at(state, to, but=h.player) if h is not None else None
                    who = other.name if other is not None else "them"
                    return f"Push {who} {o}{falls_note(state, step_xy(to, o))}"
            if pend is not None and pend.kind == "getaway" and o != "skip":
                return f"Dash {o} (Getaway){falls_note(state, step_xy(here, o) if here else None)}"
            if state.pending is not None and state.pending.kind == "steal" and ":" in o:
                return steal_label(state, o)
            return CHOICE_LABELS.get(o, o)
        if action.cmd == "qpower":
            return qpower_label(action, hero_of(state, state.pending.hero) if state.pending else None)
        return super().label(game, state, action)

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """The answers (only the quiet ones when there are too many), then the swaps of the face on top."""
        assert state.pending is not None
        b = Buttons(legal)
        h = hero_of(state, state.pending.hero)
        key = top_face(h) if state.phase == "move" and top_face(h) in SKILL_FACES else "back"
        handy = swaps(h, key) if b.of("rearrange") else []
        chooses = b.of("choose")
        quiet = [a for a in chooses if a.get("option") in ("skip", "stay")]
        b.add(chooses if len(chooses) <= 20 - len(handy) else quiet)
        b.add(handy)
        b.add(b.of("qpower"), 6)
        return b.out

    def skip(self, game: Any, state: QState, player: str) -> Action | None:
        if state.pending is None or player != state.pending.player:
            return None
        return super().skip(game, state, player)
