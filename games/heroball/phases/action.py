"""The active player's turn: move, attack, throw/drop/hold, hero actions, and `end`.

Each action is paid when declared; Helen may then interrupt it (phases/reaction.py), otherwise
it is carried out at once (resolve.py). The rule modules hold the detail: movement.py,
attacks.py, objects.py, heroes.py.
"""
from __future__ import annotations

from games.core import Action, Event, Phase, Status
from games.core.actions import action_of

from ..attacks import attack_actions, explain_attack
from ..heroes import explain_hero, hero_actions
from ..movement import explain_move, move_actions
from ..objects import OBJECT_COMMANDS, explain_object, hold, object_actions
from ..resolve import cost, resolve
from ..rulebook import MOVES, OBJECT_NAMES, Rulebook
from ..state import HeroballState, HeroState
from ..turns import end_turn
from .reaction import distracter, offer_distract

MAX_BUTTONS = 20
END = action_of("end")


class Turn(Phase[HeroballState]):
    name = "action"

    def status(self, game: Rulebook, state: HeroballState) -> Status:
        act = game.active(state)
        return Status(phase="action", round=state.round, to_act=[act.player], waiting_for=f"{act.name} to act",
                      turn_key=f"t{state.turn_no}:w{state.window_no}:{act.player}")

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        s, h = state, game.hero(state, player)
        out: list[Action] = []
        if h.down:
            if "step" not in h.spent and h.ap >= game.costs.step:
                out.append(action_of("step"))
            return [*out, END]
        out += move_actions(game, s, h)
        out += attack_actions(game, s, h)
        out += object_actions(game, s, h)
        out += hero_actions(game, s, h)
        out.append(END)
        return out

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s, a, h = state, action, game.hero(state, player)
        if a.cmd == "end":
            end_turn(game, s, events)
            return
        self._act(game, s, h, a, events)
        if s.phase == "play" and game.active(s) is h:  # what is left, after every action of the turn
            events.append(Event(text=f"{h.hero}: {h.ap} AP left.", kind="ap"))

    def _act(self, game: Rulebook, s: HeroballState, h: HeroState, a: Action, events: list[Event]) -> None:
        if not (a.cmd == "hero" and a.get("action") == "vault"):
            s.turn.vault_ready = False
        if a.cmd == "hold":
            hold(game, s, h, a, events)
            return
        paid = cost(game, s, h, a)
        h.ap -= paid
        s.turn.spent_ap += paid
        helen = distracter(game, s, h, a)
        if helen is not None:
            offer_distract(game, s, h, helen, a, events)
            return
        resolve(game, s, h, a, events)

    def explain(self, game: Rulebook, state: HeroballState, player: str, action: Action) -> str:
        s, a, h = state, action, game.hero(state, player)
        if a.cmd == "seed":
            return "Seed terrain is placed before round 1 only."
        if h.down and a.cmd not in ("step", "end"):
            return f"{h.hero} is knocked down: `step` (no destination) to stand up first."
        if a.cmd in MOVES:
            return explain_move(game, s, h, a)
        if a.cmd in ("push", "fumble"):
            return explain_attack(game, s, h, a)
        if a.cmd in OBJECT_COMMANDS:
            return explain_object(game, s, h, a)
        if a.cmd == "hero":
            return explain_hero(game, s, h, a)
        return ""

    def label(self, game: Rulebook, state: HeroballState, action: Action) -> str | None:
        return turn_label(game, state, action)

    def buttons(self, game: Rulebook, state: HeroballState, player: str, legal: list[Action]) -> list[Action]:
        """Moves, pick-ups, simple hero actions, then pushes, knockdowns, drops, fumbles and throws when
        the whole group fits; always `End turn`."""
        end = [a for a in legal if a.cmd == "end"]
        hero = [a for a in legal if a.cmd == "hero"]
        groups: list[list[Action]] = [
            [a for a in legal if scores(game, state, a)],
            [a for a in legal if a.cmd in MOVES and not a.get("place")],
            [a for a in legal if a.cmd == "hold"],
            [a for a in hero if not a.get("to") and not a.get("place") and not a.get("target")],
            [a for a in hero if a.get("action") in ("vault", "sandals", "redecorate")],
            [a for a in hero if a.get("action") == "shift" and not a.get("place")],
            [a for a in legal if a.cmd == "push"],
            [a for a in hero if a.get("target")],
            [a for a in legal if a.cmd == "drop"],
            [a for a in legal if a.cmd == "fumble"],
            [a for a in legal if a.cmd == "throw"],
        ]
        out: list[Action] = []
        for group in groups:
            fresh = [a for a in group if a not in out]
            if fresh and len(out) + len(fresh) <= MAX_BUTTONS - len(end):
                out += fresh
        return out + end


def scores(g: Rulebook, s: HeroballState, a: Action) -> bool:
    """A move carrying the Godball, or a throw of it, into one of the active player's own goal hexes."""
    to = a.get("to")
    if s.phase != "play" or s.window is not None or to is None or a.get("target"):
        return False
    h = g.active(s)
    if to not in g.board.goal(h.corner):
        return False
    carried = (a.cmd in MOVES or a.cmd == "drop") and h.holding == "ball"
    return carried or (a.cmd == "throw" and a.get("obj") == "ball")


def turn_label(g: Rulebook, s: HeroballState, a: Action) -> str:
    """A button label: the verb and where it goes ("Run → G6", "Pummel Calypso", "Throw → B3 (goal!)")."""
    if a.cmd == "end":
        return "End turn"
    if a.cmd == "step" and a.get("to") is None:
        return "Stand up"
    if a.cmd == "hold":
        return f"Pick up {OBJECT_NAMES.get(a.get('obj') or '', 'it').removeprefix('the ')}"
    verb = a.cmd.capitalize()
    if a.cmd == "throw" and s.phase == "play" and g.card(g.active(s), "kick"):
        verb = "Kick"
    to = a.get("to")
    if scores(g, s, a):
        cost_text = ap_cost(g, s, a).strip(" ()")
        return f"{verb} → {to} (goal!{', ' + cost_text if cost_text else ''})"
    word, target, place = a.get("action"), a.get("target"), a.get("place")
    bits = [word.capitalize() if word else verb]
    if a.cmd == "throw" and a.get("obj") == "pole":
        bits.append("pole")
    if target:
        bits.append(target)
    if to:
        bits.append("→ " + to)
    if place:
        bits.append("(object → " + place + ")")
    return " ".join(bits) + ap_cost(g, s, a)


def ap_cost(g: Rulebook, s: HeroballState, a: Action) -> str:
    """What the action costs the active hero, for its button: " (2 AP)"; nothing for a free one."""
    if s.phase != "play" or a.cmd not in (*MOVES, "push", "fumble", "throw", "drop", "hero"):
        return ""
    ap = cost(g, s, g.active(s), a)
    return f" ({ap} AP)" if ap > 0 else ""
