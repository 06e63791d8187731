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
        """Scoring moves first (the most points first), then moves, pick-ups, simple hero actions, then pushes,
        knockdowns, drops, fumbles and throws when the whole group fits; always `End turn`."""
        end = [a for a in legal if a.cmd == "end"]
        hero = [a for a in legal if a.cmd == "hero"]
        groups: list[list[Action]] = [
            sorted((a for a in legal if scores(game, state, a)), key=lambda a: -goal_points(game, state, a)),
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


def ball_dest(g: Rulebook, s: HeroballState, a: Action) -> tuple[str, bool] | None:
    """Where the active player's action puts the Godball if nobody catches or defends, and whether the active
    hero carries it in: a move, Winged Sandals or a Pole Vault by its holder; a throw, kick or drop of it; a
    push of its holder; a fumble, Pummel or Trample of its holder (`place`); Shifting Land moving it aside."""
    if s.phase != "play" or s.window is not None:
        return None
    h = g.active(s)
    ball = s.objects["ball"]
    to, place, target = a.get("to"), a.get("place"), a.get("target")
    word = a.get("action") if a.cmd == "hero" else None
    if to is not None and (a.cmd in MOVES or word in ("sandals", "vault")) and ball.holder == h.player:
        return to, True
    holder = g.hero(s, ball.holder) if ball.holder else None
    victim = holder is not None and holder.hero == target
    if a.cmd == "throw" and a.get("obj") == "ball" and to is not None:
        return to, False
    if a.cmd == "drop" and ball.holder == h.player and to is not None:
        return to, False
    if a.cmd == "push" and victim and to is not None:
        return to, False
    if a.cmd == "fumble" and victim and to is not None:
        return to, False
    if victim and place is not None and (a.cmd == "sprint" or word == "pummel"):
        return place, False
    if word == "shift" and to is not None and place is not None:
        if (holder is not None and holder.pos == to) or (ball.holder is None and ball.at == to):
            return place, False
    return None


def goal_points(g: Rulebook, s: HeroballState, a: Action) -> int:
    """The points the action scores for the active player if nothing stops it (2 carried in, 1 any other way),
    0 when the Godball does not reach their goal."""
    found = ball_dest(g, s, a)
    if found is None:
        return 0
    dest, carried = found
    h = g.active(s)
    if g.goal_owner(s).get(dest) != h.player:
        return 0
    hv = g.rules.house
    return hv.goal_points_carried if carried else hv.goal_points_other


def scores(g: Rulebook, s: HeroballState, a: Action) -> bool:
    """A move carrying the Godball, or any other action that sends it, into one of the active player's own goals."""
    return goal_points(g, s, a) > 0


# hero-action words whose button reads better spelled out
HERO_LABELS = {"study": "Study Opponent", "vault": "Pole Vault", "shift": "Shift terrain", "set": "Set terrain"}


def turn_label(g: Rulebook, s: HeroballState, a: Action) -> str:
    """A button label: the verb, where it goes and what it costs ("Run → G6 (1 AP)", "Pummel Calypso (1 AP)",
    "Throw → B3 (goal! +1, 1 AP)", "Run → F2 (free)")."""
    if a.cmd == "end":
        return "End turn"
    if a.cmd == "hold":
        return f"Pick up {OBJECT_NAMES.get(a.get('obj') or '', 'it').removeprefix('the ')}"
    cost_text = ap_cost(g, s, a)
    if a.cmd == "step" and a.get("to") is None:
        return "Stand up" + _paren(cost_text)
    verb = a.cmd.capitalize()
    if a.cmd == "throw" and s.phase == "play" and g.card(g.active(s), "kick"):
        verb = "Kick"
    word, target, to, place = a.get("action"), a.get("target"), a.get("to"), a.get("place")
    bits = [HERO_LABELS.get(word, word.capitalize()) if word else verb]
    if a.cmd == "throw" and a.get("obj") == "pole":
        bits.append("pole")
    if target:
        bits.append(target)
    if to:
        bits.append("→ " + to)
    if place:
        bits.append("(object → " + place + ")")
    if word == "fly":  # ignoring every hex cost also drops the favoured terrain's -1
        cost_text += "; all terrain +0, favoured too"
    points = goal_points(g, s, a)
    if points:
        cost_text = f"goal! +{points}" + (", " + cost_text if cost_text else "")
    return " ".join(bits) + _paren(cost_text)


def _paren(text: str) -> str:
    return f" ({text})" if text else ""


def ap_cost(g: Rulebook, s: HeroballState, a: Action) -> str:
    """What the action costs the active hero, for its button: "2 AP", or "free" for a move or hero action
    that costs nothing here (favoured terrain, Fly); nothing outside the turn."""
    if s.phase != "play" or a.cmd not in (*MOVES, "push", "fumble", "throw", "drop", "hero"):
        return ""
    ap = cost(g, s, g.active(s), a)
    return f"{ap} AP" if ap > 0 else "free"
