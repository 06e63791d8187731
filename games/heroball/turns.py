"""Turns, goals and the trail: moving a hero token, scoring the Godball, ending and starting turns."""
from __future__ import annotations

from games.core import Event, Result
from games.core.words import possessive, says

from .marks import moved, scored
from .rulebook import MOVES, Rulebook
from .state import HeroballState, HeroState, ObjectState, TurnState


def move(g: Rulebook, s: HeroballState, h: HeroState, to: str, ev: list[Event], verb: str) -> None:
    """Put `h` on `to`; the active hero's moves are drawn on the board as this turn's trail."""
    start = h.pos
    h.pos = to
    if h is g.active(s):
        if not s.turn.trail:
            s.turn.trail.append(start)
        s.turn.trail.append(to)
    moved(g, s, h, start, to, verb)
    text = f"{g.who(h)} {verb}s {start} → {to}." if verb in MOVES else f"{g.who(h)} {verb} {start} → {to}."
    ev.append(Event(text=text))


def goal_check(g: Rulebook, s: HeroballState, ev: list[Event], mover: str | None) -> bool:
    """Score the Godball if it lies (or is held) in a goal; a goal ends the active player's turn."""
    if s.phase != "play":
        return False
    w = s.window
    if w is not None and w.kind == "intercept" and w.obj == "ball":
        return False
    ball = s.objects["ball"]
    where = g.obj_hex(s, "ball")
    owner = g.goal_owner(s).get(where) if where is not None else None
    if owner is None:
        return False
    hv = g.rules.house
    o = g.hero(s, owner)
    if ball.holder == owner and mover == owner:
        pts = hv.goal_points_carried
        ev.append(Event(text=f"GOAL! {g.who(o)} runs the Godball into their goal on {where}: {pts} points.",
                        kind="goal"))
    else:
        pts = hv.goal_points_other
        ev.append(Event(text=f"GOAL! The Godball reaches the goal of {g.who(o)} on {where}: "
                             f"{pts} point{'s' if pts != 1 else ''} for {o.name}.", kind="goal"))
    o.score += pts
    scored(g, s, o, where or "", pts)
    if ball.holder:
        g.hero(s, ball.holder).holding = None
    s.objects["ball"] = ObjectState(at=g.board.centre)
    ev.append(Event(text=f"The Godball returns to the centre post ({g.board.centre}).", kind="goal"))
    s.window = None
    end_turn(g, s, ev)
    return True


def end_turn(g: Rulebook, s: HeroballState, ev: list[Event]) -> None:
    """Rest if nothing was spent, pass the turn on; after the last round the game is over."""
    h = g.active(s)
    hv = g.rules.house
    if s.turn.spent_ap == 0:
        gain = min(hv.max_ap, h.ap + hv.rest_ap) - h.ap
        h.ap += gain
        if gain:
            ev.append(Event(text=f"{g.who(h)} rests (+{gain} AP, now {h.ap})."))
        else:
            ev.append(Event(text=f"{g.who(h)} rests, but the AP track is full ({h.ap})."))
        if "fly" in h.flipped and s.terrain.get(h.pos) == "astral-turf":
            h.flipped.remove("fly")
            ev.append(Event(text=f"{g.who(h)} feeds on the Astral-Turf: Fly is back."))
    s.last_trail = list(s.turn.trail)
    s.last_flights = list(s.turn.flights)
    s.active = (s.active + 1) % len(s.heroes)
    if s.active == 0:
        s.round += 1
        if s.round > hv.rounds:
            s.round = hv.rounds
            s.phase = "over"
            s.window = None
            s.turn_no += 1
            # the bot's status line says "Game over: " and the result; the event only says why it ended
            ev.append(Event(text=f"Round {hv.rounds} is over: that was the last round.", kind="result"))
            return
        ev.append(Event(text=f"Round {s.round} begins.", kind="round"))
    start_turn(g, s, ev)


def start_turn(g: Rulebook, s: HeroballState, ev: list[Event]) -> None:
    """Refresh the active hero, clear every spent token, turn Achilles over, take Sing back."""
    hv = g.rules.house
    s.turn_no += 1
    s.turn = TurnState()
    h = g.active(s)
    h.ap = min(hv.max_ap, h.ap + hv.refresh_ap)
    for x in s.heroes:
        x.spent = []
    if g.card(h, "invulnerable"):
        if "invulnerable" in h.flipped:
            h.flipped.remove("invulnerable")
        else:
            h.flipped.append("invulnerable")
    if "sing" in h.field:
        h.field.remove("sing")
        h.spent.append("unique")
    side = ""
    if g.card(h, "invulnerable"):
        side = " Achilles is " + ("Vulnerable." if "invulnerable" in h.flipped else "Invulnerable.")
    ev.append(Event(text=f"{possessive(h.name)} turn ({h.hero}, {h.ap} AP).{side}", kind="turn"))


def result(s: HeroballState) -> Result:
    """The result as one complete sentence naming the winner, then the final scores ("ann wins with 2 points.
    Final scores: ann 2, bob 1."); ties share the victory."""
    top = max(h.score for h in s.heroes)
    winners = [h for h in s.heroes if h.score == top]
    names = " and ".join(h.name for h in winners)
    won = f"{names} win" if len(winners) > 1 else says(names, "wins")
    text = f"{won} with {top} point{'s' if top != 1 else ''}."
    if len(winners) > 1:
        text += " Victory is shared."
    text += " Final scores: " + ", ".join(f"{h.name} {h.score}" for h in s.heroes) + "."
    return Result(winners=[h.player for h in winners], text=text, scores={h.player: h.score for h in s.heroes})
