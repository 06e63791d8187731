"""Reaction windows, on other players' turns: defend, intercept, Helen's distract, and the distracted player's choice.

The state keeps a compact `Window` (who is asked, about which action); each window kind is a
phase here that derives its `Pending` from it: the question, the asked player, the `pass` that a
skip vote or an expired `reaction_hours` plays. Helen's Distract lives wholly in this file: who
may distract, opening the window, her standing order, the price of carrying on.
"""
from __future__ import annotations

from games.core import Action, Event, Pending, Phase
from games.core.actions import action_of

from ..attacks import attack_kind, defend, hit
from ..commands import REACTION_HOURS, REPLIES
from ..flights import catch, catch_cost, intercept_options, run_intercept
from ..marks import distracted, settled
from ..resolve import resolve
from ..rulebook import OBJECT_NAMES, Rulebook
from ..state import HeroballState, HeroState, Window

PASS = action_of("pass")
# what Helen's Distract can interrupt: every action that costs AP on your turn
DISTRACTABLE = ("step", "run", "sprint", "push", "fumble", "throw", "drop", "hero")


def window_of(s: HeroballState) -> Window:
    if s.window is None:
        raise ValueError("no reaction window is open")
    return s.window


class Reaction(Phase[HeroballState]):
    """What every window shares: one asked player, a question, `pass` as the default."""

    def question(self, g: Rulebook, s: HeroballState, w: Window) -> str:
        raise NotImplementedError

    def pending(self, game: Rulebook, state: HeroballState) -> Pending:
        s = state
        w = window_of(s)
        who = game.hero(s, w.queue[0])
        return Pending(kind=w.kind, player=who.player, name=who.name, question=self.question(game, s, w),
                       round=s.round, turn_key=f"t{s.turn_no}:w{s.window_no}:{who.player}", default=PASS,
                       hours=float(REACTION_HOURS.default or 12), hours_option=REACTION_HOURS.name)

    def skip(self, game: Rulebook, state: HeroballState, player: str) -> Action | None:
        """A skipped reaction is a pass; only the asked player can be skipped."""
        pending = self.pending(game, state)
        return pending.default if player == pending.player else None

    def explain(self, game: Rulebook, state: HeroballState, player: str, action: Action) -> str:
        question = self.question(game, state, window_of(state))
        if action.cmd not in REPLIES:
            return f"A reaction window is open: first you {question}."
        why = self.refusal(game, state, game.hero(state, player), action)
        if why:
            return why
        if action.cmd == "pay":
            return f"Paying needs {distract_extra(game, state)} AP; you have {game.hero(state, player).ap}."
        return f"Now you {question}."

    def refusal(self, g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
        """A reason particular to this window (empty: the general one)."""
        return ""

    def label(self, game: Rulebook, state: HeroballState, action: Action) -> str | None:
        if action.cmd not in REPLIES:
            return None
        return self.answer_label(game, state, window_of(state), action)

    def answer_label(self, g: Rulebook, s: HeroballState, w: Window, a: Action) -> str:
        raise NotImplementedError

    def buttons(self, game: Rulebook, state: HeroballState, player: str, legal: list[Action]) -> list[Action]:
        """Every answer, `pass` last."""
        answers = [a for a in legal if a.cmd != "pass"][:19]
        return answers + [a for a in legal if a.cmd == "pass"]


# ---- defend ----------------------------------------------------------------------------------
class Defend(Reaction):
    name = "defend"

    def question(self, g: Rulebook, s: HeroballState, w: Window) -> str:
        actor = g.hero(s, w.actor)
        return f"defend against the {attack_kind(Action.parse(w.action))} by {actor.hero} or let it through"

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        return [action_of("react"), PASS]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s, w, h = state, window_of(state), game.hero(state, player)
        if action.cmd == "react":
            defend(game, s, h, events)
            return
        s.window = None
        events.append(Event(text=f"{game.who(h)} does not defend."))
        hit(game, s, game.hero(s, w.actor), h, Action.parse(w.action), events)

    def answer_label(self, g: Rulebook, s: HeroballState, w: Window, a: Action) -> str:
        return "Defend (1 AP)" if a.cmd == "react" else "Let it through"


# ---- intercept -------------------------------------------------------------------------------
class Intercept(Reaction):
    name = "intercept"

    def question(self, g: Rulebook, s: HeroballState, w: Window) -> str:
        asked = g.hero(s, w.queue[0])
        card = g.hero_data(asked).slot("intercept")
        verb = "catch"
        # Swat replaces the catch; on the landing hex he may also take it
        if card is not None and card.effect == "swat":
            verb = "take or swat" if asked.pos == w.target else "swat"
        return f"{verb} {OBJECT_NAMES[w.obj]} coming down on {w.target} or pass"

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        return intercept_options(game, state, game.hero(state, player), window_of(state)) + [PASS]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s, w, h = state, window_of(state), game.hero(state, player)
        if action.cmd == "pass":
            events.append(Event(text=f"{game.who(h)} lets it go."))
            w.queue.pop(0)
            run_intercept(game, s, events)
        else:
            catch(game, s, h, action, events)

    def refusal(self, g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
        if a.cmd != "react":
            return ""
        w = window_of(s)
        d = g.board.dist(h.pos, w.target)
        card = g.hero_data(h).slot("intercept")
        cost = card.cost if card else g.costs.intercept
        if d > 0 and h.ap < cost:
            return f"Catching costs {cost} AP; you have {h.ap}."
        if a.get("to") is not None:
            if card is None or card.effect not in ("swat", "predict"):
                return f"A catch needs no destination: `react` takes {OBJECT_NAMES[w.obj]} on {w.target}."
            if card.effect == "predict":
                return f"Predict moves {h.hero} 1 hex to a free hex next to {w.target}; {a.get('to')} is not one."
            return f"Swat sends {OBJECT_NAMES[w.obj]} 1-{card.range} hexes on from {w.target}, never onto a pillar."
        if card is not None and card.effect in ("swat", "predict"):
            return "Say where: `react to:HEX` (see the buttons)."
        return ""

    def answer_label(self, g: Rulebook, s: HeroballState, w: Window, a: Action) -> str:
        if a.cmd == "pass":
            return "Pass"
        h = g.hero(s, w.queue[0])
        to = a.get("to")
        card = None if w.fumbled else g.hero_data(h).slot("intercept")
        ap = catch_cost(g, s, h, w, to)
        paid = f"({ap} AP)" if ap else "(free)"
        if to is None:
            return f"Take it on {w.target} (free)" if h.pos == w.target else f"Catch at {w.target} {paid}"
        if card is not None and card.effect == "swat":
            return f"Swat to {to} {paid}"
        return f"Move to {to}, catch {paid}"


# ---- Helen's Distract ------------------------------------------------------------------------
def distracter(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> HeroState | None:
    """The Helen who may distract `h` declaring `a`: near enough, Distract face up, AP to pay, not `never`;
    with the standing order `ask` (the default) only when it can matter (`worth_asking`), so that an
    ordinary step near her does not hold the game for a reaction window."""
    if a.cmd not in DISTRACTABLE or not g.targetable(h):
        return None
    for c in s.heroes:
        card = g.card(c, "distract")
        if (c is h or card is None or "distract" in c.flipped or c.down or c.ap < card.cost
                or c.orders.get("distract") == "never" or g.board.dist(c.pos, h.pos) > card.range):
            continue
        if c.orders.get("distract", "ask") == "ask" and not worth_asking(h, a, card.extra):
            continue
        return c
    return None


def worth_asking(h: HeroState, a: Action, extra: int) -> bool:
    """House reading of the standing order `ask`: Helen is asked when a distraction can matter, that is
    when the action touches an object or another hero (push, fumble, throw, drop, a hero action with a
    target), the actor carries something, or the actor cannot pay the extra AP (the action would fail).
    A plain move of an empty-handed hero that can pay is let be; `always` distracts that too."""
    return (a.cmd in ("push", "fumble", "throw", "drop") or bool(a.get("target")) or h.holding is not None
            or h.ap < extra)


def offer_distract(g: Rulebook, s: HeroballState, h: HeroState, helen: HeroState, a: Action,
                   ev: list[Event]) -> None:
    """`h` has paid for `a`; before it happens Helen is asked (or her standing order answers)."""
    s.window_no += 1
    s.window = Window(kind="distract", action=a.text(), actor=h.player, queue=[helen.player])
    if helen.orders.get("distract", "ask") == "always":
        distract(g, s, helen, ev)
    else:
        ev.append(Event(text=f"{g.who(h)} tries to {a.cmd} near Helen; {g.who(helen)} may distract "
                             "(`/heroball reactions distract:always` or `distract:never` answers for you from now on).",
                        kind="window"))


def distract(g: Rulebook, s: HeroballState, helen: HeroState, ev: list[Event]) -> None:
    """Helen distracts (Distract turns to Study Opponent): the actor pays more or the action fails."""
    card = g.card(helen, "distract")
    w = window_of(s)
    if card is None:
        raise ValueError(f"{helen.hero} has no Distract")
    helen.ap -= card.cost
    helen.flipped.append("distract")
    actor = g.hero(s, w.actor)
    s.window_no += 1
    if actor.ap < card.extra:  # nothing to choose: the action fails at once (no window with one answer)
        s.window = None
        distracted(g, s, helen, actor, w.action, f"cannot pay {card.extra} more AP, so it fails")
        ev.append(Event(text=f"{g.who(helen)} distracts {g.who(actor)} (1 AP), who cannot pay {card.extra} more AP: "
                             f"`{w.action}` fails; the AP is lost."))
        return
    s.window = Window(kind="distracted", action=w.action, actor=actor.player, queue=[actor.player])
    distracted(g, s, helen, actor, w.action, f"{actor.name} may pay {card.extra} more AP or let it fail")
    ev.append(Event(text=f"{g.who(helen)} distracts {g.who(actor)} (1 AP): pay {card.extra} more AP "
                         "or the action fails."))


def distract_extra(g: Rulebook, s: HeroballState) -> int:
    """The extra AP a distracted action costs (Helen's card says how much)."""
    for h in s.heroes:
        c = g.card(h, "distract")
        if c is not None:
            return c.extra
    return 1


class Distract(Reaction):
    """Helen is asked whether to distract the active hero's declared action."""

    name = "distract"

    def question(self, g: Rulebook, s: HeroballState, w: Window) -> str:
        return f"distract {g.hero(s, w.actor).hero} (`{w.action}`) or let it be"

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        return [action_of("react"), PASS]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s, w, h = state, window_of(state), game.hero(state, player)
        if action.cmd == "react":
            distract(game, s, h, events)
            return
        s.window = None
        events.append(Event(text=f"{game.who(h)} does not distract."))
        resolve(game, s, game.hero(s, w.actor), Action.parse(w.action), events)

    def answer_label(self, g: Rulebook, s: HeroballState, w: Window, a: Action) -> str:
        return "Distract (1 AP)" if a.cmd == "react" else "Let it be"


class Distracted(Reaction):
    """The distracted player pays the extra AP and carries on, or lets the action fail."""

    name = "distracted"

    def question(self, g: Rulebook, s: HeroballState, w: Window) -> str:
        return f"pay {distract_extra(g, s)} more AP for `{w.action}` or let it fail"

    def legal(self, game: Rulebook, state: HeroballState, player: str) -> list[Action]:
        h = game.hero(state, player)
        return ([action_of("pay")] if h.ap >= distract_extra(game, state) else []) + [PASS]

    def apply(self, game: Rulebook, state: HeroballState, player: str, action: Action, events: list[Event]) -> None:
        s, w, h = state, window_of(state), game.hero(state, player)
        s.window = None
        declared = Action.parse(w.action)
        if action.cmd == "pay":
            extra = distract_extra(game, s)
            h.ap -= extra
            s.turn.spent_ap += extra
            events.append(Event(text=f"{game.who(h)} pays {extra} more AP and carries on."))
            settled(s, f"paid {extra} more AP and carried on")
            resolve(game, s, h, declared, events)
        else:
            events.append(Event(text=f"`{declared.text()}` by {game.who(h)} fails; the AP is lost."))
            settled(s, "let it fail (its AP is lost)")

    def answer_label(self, g: Rulebook, s: HeroballState, w: Window, a: Action) -> str:
        return f"Pay {distract_extra(g, s)} AP" if a.cmd == "pay" else "Let it fail"
