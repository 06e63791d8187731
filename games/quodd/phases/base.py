"""What every Quodd phase shares: the phase names, the turn status, refusals of actions of other phases,
labels of the common actions, the button budget, and a stored `Decision` read as a `Pending`."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core import Action, Event, Pending, Phase, Status

from ..abilities.actions import ability_actions, ability_label, explain_ability, use_ability
from ..board import active, hero_of
from ..cards import card_actions, card_label, explain_card, has_card_action, play_card
from ..collectibles import drop, drops, explain_drop
from ..commands import arg
from ..modes.coop import explain_give, give, give_actions, give_label
from ..movement import run
from ..skills import explain_rearrange, rearrange_label
from ..state import Hero, QState

PHASE_NAMES = {
    "place": "setup: placing heroes", "skills": "setup: assigning skills", "power": "phase 1: power-up",
    "move": "phase 2: movement", "recovery": "phase 3: recovery", "explore": "phase 4: exploration",
    "upgrade": "end of round: upgrades", "upkeep": "end of round: upkeep and world event", "over": "game over",
}
BUTTON_CAP = 20


@dataclass(frozen=True)
class Asked(Pending):
    """A stored `Decision` as a `Pending`: its prompt is a whole sentence that names who decides."""

    @property
    def waiting_for(self) -> str:
        return self.question


def asked(st: QState, turn_key: str, hours: float | None = None) -> Asked:
    """The pending decision of `st`; expiry or a skip takes its quiet answer (skip, stay) or else the first."""
    d = st.pending
    assert d is not None
    options = tuple(Action.of("choose", option=o) for o in d.options)
    quiet = [a for a in options if a.get("option") in ("skip", "stay")]
    default = quiet[0] if quiet else options[0] if options else None
    return Asked(kind=PHASE_NAMES[st.phase], player=d.player, name=hero_of(st, d.player).name, question=d.prompt,
                 round=st.round, turn_key=turn_key, options=options, default=default, hours=hours,
                 extra={"decision": d.kind})


def explain_answer(st: QState, action: Action) -> str | None:
    """While a decision waits, everything but its answers (and a rearrange it offers) is refused."""
    d = st.pending
    assert d is not None
    if action.cmd == "choose":
        return f"`{action.get('option', '')}` is not one of the choices: {d.prompt}."
    if action.cmd == "rearrange" and not d.allow_rearrange:
        return f"Rearranging is not offered here; first answer: {d.prompt}."
    if action.cmd != "rearrange":
        return f"First answer: {d.prompt}."
    return None


class Buttons:
    """The common choices of the moment, at most 20, added in order of use."""

    def __init__(self, legal: list[Action]) -> None:
        self.legal = set(legal)
        self.by_cmd: dict[str, list[Action]] = {}
        for a in legal:
            self.by_cmd.setdefault(a.cmd, []).append(a)
        self.out: list[Action] = []

    def of(self, cmd: str) -> list[Action]:
        return self.by_cmd.get(cmd, [])

    def add(self, items: Iterable[Action], limit: int = BUTTON_CAP) -> None:
        for a in items:
            if len(self.out) >= BUTTON_CAP or limit <= 0:
                return
            if a in self.legal and a not in self.out:
                self.out.append(a)
                limit -= 1


def _one_each(acts: list[Action]) -> list[Action]:
    """The first legal use of each ability (its cheapest card, its first target)."""
    seen: dict[str, Action] = {}
    for a in acts:
        seen.setdefault(a.get("name") or "", a)
    return list(seen.values())


class QuoddPhase(Phase[QState]):
    """A Quodd phase: refusals and labels of the actions every phase knows about."""

    done_label: ClassVar[str] = "Done"

    def explain(self, game: Any, state: QState, player: str, action: Action) -> str:
        a = action.argdict
        if action.cmd == "choose":
            return "There is no open question to answer right now."
        if action.cmd == "rearrange":
            return explain_rearrange(state, player, a)
        if action.cmd == "drop":
            return explain_drop(state, player, a)
        if action.cmd in ("play", "use", "impulse"):
            return explain_card(state, player, action)
        if action.cmd == "ability" and state.phase != "move":
            try:
                return explain_ability(state, hero_of(state, player), action)
            except KeyError:
                return "Only seated players have upgrade abilities."
        if action.cmd == "give":
            return explain_give(state, player, action)
        if action.cmd in ("draw", "discard") and state.phase != "explore":
            return f"Cards are drawn and discarded in phase 4, exploration; now it is {PHASE_NAMES[state.phase]}."
        return self.explain_own(game, state, player, action)

    def label_for(self, game: Any, state: QState, action: Action, player: str) -> str | None:
        """The label of `player`'s own button, where heroes act at once and one action means something else for
        each (`QuoddHeroes.label(player=)`); None: the label every player's button shares."""
        if action.cmd == "rearrange":
            return rearrange_label(state, action.argdict, player)
        return None

    def explain_own(self, game: Any, state: QState, player: str, action: Action) -> str:
        if action.cmd in ("tumble", "move", "steal"):
            return f"That belongs to the movement phase; now it is {PHASE_NAMES[state.phase]}."
        return ""

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        a = action.argdict
        if action.cmd == "drop":
            return f"Drop {a['item']} on {a['at']}"
        if action.cmd == "rearrange":
            return rearrange_label(state, a)
        if action.cmd == "done":
            return self.done_label
        if action.cmd == "ability":
            return ability_label(state, action)
        if action.cmd == "give":
            return give_label(state, action)
        return card_label(action)


class TurnPhase(QuoddPhase):
    """A phase of the active hero's turn: only they act."""

    def status(self, game: Any, state: QState) -> Status:
        h = active(state)
        return Status(phase=PHASE_NAMES[state.phase], round=state.round, to_act=[h.player],
                      turn_key=f"r{state.round}t{state.turn_no}", waiting_for=self.waiting(state, h))

    def waiting(self, st: QState, h: Hero) -> str:
        return f"{h.name} to continue with `done`"


class QuietPhase(TurnPhase):
    """Phases 1 and 3: play cards from your hand, use an item or pet in play, drop something, `done`."""

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        h = active(state)
        return ([Action.of("done")] + card_actions(state, h) + ability_actions(state, h) + drops(state, h)
                + give_actions(state, h))

    def only_done(self, game: Any, state: QState) -> bool:
        """Whether the active player's `legal` is `done` alone, found without listing every card target (asked
        after every action by `phases.passing`; tests/quodd/test_quodd_speed_paths.py holds it to `legal`)."""
        h = active(state)
        return not (drops(state, h) or ability_actions(state, h) or has_card_action(state, h))

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        if action.cmd in ("play", "use"):
            play_card(state, player, action, events)
        elif action.cmd == "drop":
            drop(state, active(state), arg(action, "item"), arg(action, "at"), events)
        elif action.cmd == "ability":
            use_ability(state, active(state), action, events)
        elif action.cmd == "give":
            give(state, active(state), action, events)
        else:
            self.done(state, events)
        if state.queue or state.beams:  # heroes an ability or an Underdog token moves; beams a card changed
            run(state, events)

    def done(self, st: QState, ev: list[Event]) -> None:
        raise NotImplementedError

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        b = Buttons(legal)
        b.add(b.of("done"))
        b.add(b.of("use"), 4)
        b.add([a for a in b.of("play") if not a.get("at")], 8)
        b.add(b.of("play"), 8)  # more targets: `/quodd play card: at:` with autocomplete
        b.add(_one_each(b.of("ability")), 4)  # one button per ability; other targets: `/quodd ability name:`
        b.add(b.of("give"), 3)  # co-op and teams: a few cards to pass; the rest by `/quodd give card: hero:`
        b.add(b.of("drop"), 3)  # dropping is rare: a few buttons, the rest by `/quodd drop at:`
        return b.out
