"""Playing cards: what each effect of `data/cards.json` does, when a card may be played, and why not.

Effects are data (`data.EffectDef`); each `do` is implemented once here:
boost (movement points this turn), place (a token within range), remove (a non-scenario token within
range), move (a non-scenario token within range to a free square within range), break (a wall within
range becomes a broken wall), explore (draw from the deck), wipe (a new lineup), equip (an item or pet into
its slot: passive bonuses and a once-per-turn `use`).

The rulebook's card-play rules: cards on your own turn in phases 1 and 3; impulse cards on any turn,
but never during a movement (so not while a decision of a movement waits) and not once your own
exploration began; one item and one pet in play, one item and one pet activation a turn; a token is
never placed under a hero; range counts orthogonally from your hero.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from games.core import Action, Event
from games.core.grid import DIRS8, label
from games.core.words import possessive, says

from . import data
from .abilities.track import has
from .board import (
    XY,
    active,
    free_step,
    hero_of,
    in_range,
    is_pit,
    occupancy,
    on_map,
    placement_problem,
    sim_step,
    token,
    xy,
)
from .deck import can_draw, card_name, draw_top, wipe_lineup
from .jobs import decide
from .state import Hero, Job, QState, Token

CARD_PHASES = ("power", "recovery")  # your own turn
IMPULSE_PHASES = ("power", "recovery", "explore")  # someone else's turn, outside any movement


def _in_range(st: QState, h: Hero, r: int) -> Iterator[XY]:
    """Squares within range `r` of the hero, counted orthogonally and around beams (`board.in_range`)."""
    if h.pos is None:
        return
    yield from in_range(st, xy(h.pos), r)


def card_range(h: Hero, c: data.CardDef) -> int:
    """The card's range; +2 to Rune Range adds 2 for runes."""
    return c.range + (2 if c.kind == "rune" and c.range and has(h, "rune-range") else 0)


def under_self(h: Hero | None, p: XY) -> bool:
    """Underdog: a token may go under this hero's own square (never under another hero)."""
    return h is not None and h.pos == label(*p) and has(h, "underdog")


def target_problem(st: QState, e: data.EffectDef, p: XY, h: Hero | None = None) -> str:
    """Why `p` is no target for `e` played by `h` ("" if it is)."""
    if e.do == "place":
        return placement_problem(st, e.token, p, under_hero_ok=under_self(h, p))
    lab = label(*p)
    t = token(st, p)
    if e.do in ("remove", "move"):
        if t is None:
            return f"there is no token on {lab}"
        if data.token_kinds()[t.kind].scenario:
            return f"the {data.token_kinds()[t.kind].name.lower()} on {lab} is a scenario token"
        return ""
    if t is None or t.kind != "wall":
        return f"there is no wall on {lab}"
    return ""


def dash_ends(st: QState, h: Hero) -> dict[str, tuple[str, int]]:
    """Where a card's dash of one point may take `h`: the square next to it any of the eight ways (pushing heroes
    as a dash does), and with Freeze-O-Tron further on in that straight line across water, free (FAQ). Each end
    square with its direction and steps."""
    out: dict[str, tuple[str, int]] = {}
    if h.pos is None:
        return out
    for d in DIRS8:
        occ = occupancy(st)
        pos, k = xy(h.pos), 0
        while (nxt := sim_step(st, h, pos, d, occ)) is not None and (k == 0 or free_step(st, h, pos, nxt, d, d)):
            k += 1
            out.setdefault(label(*nxt), (d, k))
            if is_pit(st, nxt):
                break
            pos = nxt
    return out


def _targets(st: QState, h: Hero, c: data.CardDef, e: data.EffectDef) -> list[str]:
    return [label(*p) for p in _in_range(st, h, card_range(h, c)) if not target_problem(st, e, p, h)]


def _effect_problem(st: QState, e: data.EffectDef) -> str:
    if e.do == "boost" and st.phase != "power":
        return "a movement boost only helps when played in phase 1, before the movement"
    if e.do in ("explore", "wipe") and not can_draw(st):
        return "the exploration deck and the discard pile are empty"
    if e.do == "dash" and not dash_ends(st, active(st)):
        return "your hero has no space to dash to (blocked on every side)"
    return ""


def _when_problem(st: QState, h: Hero, c: data.CardDef) -> str:
    """Why `h` may not play a card now, whatever card ("" if they may)."""
    if st.phase in ("move",) or st.pending is not None:
        return "cards are never played during a movement"
    mine = active(st).player == h.player
    if mine and st.phase in CARD_PHASES:
        return ""
    if mine and st.phase == "explore":
        return "once your exploration began you can no longer play cards"
    if st.phase not in IMPULSE_PHASES:
        return "cards are played during the turns of the game (phases 1 and 3, impulse cards also off-turn)"
    if not c.impulse:
        return f"{c.name} is not an impulse card: only impulse cards are played on another hero's turn"
    return ""


def _destinations(st: QState, h: Hero, c: data.CardDef, at: str) -> list[str]:
    """Where a `move` effect may put the token on `at`: a square within range it may be placed on."""
    kind_ = st.tokens[at].kind
    return [label(*p) for p in _in_range(st, h, card_range(h, c))
            if not placement_problem(st, kind_, p, under_hero_ok=under_self(h, p))]


@lru_cache(maxsize=1 << 14)
def _card_at(cmd: str, card: str, at: str) -> Action:
    """`Action.of(cmd, card=card, at=at)`, remembered by its three strings (a card with a range lists every target)."""
    return Action.of(cmd, card=card, at=at)


def _plays(st: QState, h: Hero, cmd: str, c: data.CardDef, e: data.EffectDef) -> list[Action]:
    if e.do == "move":
        return [Action.of(cmd, card=c.id, at=t, to=d) for t in _targets(st, h, c, e)
                for d in _destinations(st, h, c, t)]
    if e.do in data.TARGETED:
        return [_card_at(cmd, c.id, t) for t in _targets(st, h, c, e)]
    if e.do == "dash":
        return [_card_at(cmd, c.id, t) for t in dash_ends(st, h)]
    return [Action.of(cmd, card=c.id)]


def _any_play(st: QState, h: Hero, c: data.CardDef, e: data.EffectDef) -> bool:
    """Whether `_plays` would list anything (stops at the first target)."""
    if e.do == "move":
        return any(_destinations(st, h, c, t) for t in _targets(st, h, c, e))
    if e.do in data.TARGETED:
        return any(not target_problem(st, e, p, h) for p in _in_range(st, h, card_range(h, c)))
    return True


def _playable(st: QState, h: Hero) -> Iterator[tuple[str, data.CardDef, data.EffectDef]]:
    """The cards `h` may play (`play`) or use (`use`) now, with the effect each would have, whatever the target."""
    for cid in dict.fromkeys(h.hand):
        c = data.cards()[cid]
        if _when_problem(st, h, c) or _effect_problem(st, c.effect):
            continue
        yield "play", c, c.effect
    if active(st).player == h.player and st.phase in CARD_PHASES and st.pending is None:
        for cid in in_play_usable(st, h):
            c = data.cards()[cid]
            assert c.effect.use is not None
            if not _effect_problem(st, c.effect.use):
                yield "use", c, c.effect.use


def card_actions(st: QState, h: Hero) -> list[Action]:
    """Every card `h` may play or use now."""
    out: list[Action] = []
    for cmd, c, e in _playable(st, h):
        out += _plays(st, h, cmd, c, e)
    return out


def has_card_action(st: QState, h: Hero) -> bool:
    """Whether `card_actions` lists anything (stops at the first: asked after every action, `phases.passing`)."""
    return any(_any_play(st, h, c, e) for _, c, e in _playable(st, h))


def in_play_usable(st: QState, h: Hero) -> list[str]:
    """Items and pets in play with an activation whose kind was not activated this turn."""
    out = [] if st.m.item_used else [c for c in h.items if data.cards()[c].effect.use is not None]
    return out + ([] if st.m.pet_used else [c for c in h.pets if data.cards()[c].effect.use is not None])


def play_card(st: QState, player: str, action: Action, ev: list[Event]) -> None:
    """Play (from the hand) or use (in play) a card; the action is legal."""
    h = hero_of(st, player)
    cid = action.get("card") or ""
    c = data.cards()[cid]
    if action.cmd == "use":
        assert c.effect.use is not None
        if c.kind == "item":
            st.m.item_used = True
        else:
            st.m.pet_used = True
        ev.append(Event(text=f"{says(h.name, 'uses')} {c.name}."))
        _effect(st, h, c, c.effect.use, action, ev)
        return
    h.hand.remove(cid)
    ev.append(Event(text=f"{says(h.name, 'plays')} {c.name}" + (" (impulse)." if action.cmd == "impulse" else ".")))
    _effect(st, h, c, c.effect, action, ev)
    if c.effect.do != "equip":
        st.discard.append(cid)


def _effect(st: QState, h: Hero, c: data.CardDef, e: data.EffectDef, action: Action, ev: list[Event]) -> None:
    at = action.get("at") or ""
    if e.do == "boost":
        key = e.skill or "all"
        st.m.boost[key] = st.m.boost.get(key, 0) + e.points
        what = data.skills()[e.skill].name if e.skill else "every skill"
        ev.append(Event(text=f"{h.name}: {what} +{e.points} movement this turn."))
    elif e.do == "place":
        st.tokens[at] = Token(kind=e.token)
        ev.append(Event(text=f"{says(h.name, 'places')} a {data.token_kinds()[e.token].name.lower()} on {at}."))
        if e.token == "cannon":  # pointed any way by whoever places it, and it fires at once (`gadgets._pointed`)
            decide(st, "cannon_dir", h.player, h, ["N", "E", "S", "W"],
                   f"{h.name}: point the cannon on {at}; it fires a bomb that way at once",
                   job=Job(kind="none", hero=h.player, at=at))
        else:
            underdog_acts(st, h, at, ev)
    elif e.do == "remove":
        gone = st.tokens.pop(at)
        ev.append(Event(text=f"{says(h.name, 'removes')} the {data.token_kinds()[gone.kind].name.lower()} on {at}."))
    elif e.do == "move":
        to = action.get("to") or ""
        st.tokens[to] = st.tokens.pop(at)
        ev.append(Event(text=f"{says(h.name, 'moves')} the {data.token_kinds()[st.tokens[to].kind].name.lower()} "
                             f"from {at} to {to}."))
        underdog_acts(st, h, to, ev)
    elif e.do == "break":
        st.tokens[at] = Token(kind="broken_wall")
        ev.append(Event(text=f"{says(h.name, 'breaks')} the wall on {at}."))
    elif e.do == "explore":
        draw_top(st, h, e.n, ev)
    elif e.do == "wipe":
        ev.append(Event(text=f"{says(h.name, 'sweeps')} the lineup away."))
        wipe_lineup(st, ev)
    elif e.do == "dash":
        _dash(st, h, at, ev)
    else:
        _equip(st, h, c, ev)


def _dash(st: QState, h: Hero, at: str, ev: list[Event]) -> None:
    """A card's dash outside the movement (Crystal Extract): steps the phase runs at once, board elements acting
    as on any step (decided by `h`); not the hero's movement, so no steals, tunnels or Q tokens; it ends in a
    landing (reveals, pick-ups)."""
    d, k = dash_ends(st, h)[at]
    ev.append(Event(text=f"{says(h.name, 'dashes')} {d}" + (f", gliding {k - 1} further on the ice (Freeze-O-Tron)."
                                                    if k > 1 else ".")))
    st.queue += [Job(kind="step", hero=h.player, dir=d, how="dash", n=int(i > 0)) for i in range(k)]
    st.queue.append(Job(kind="land", hero=h.player))


def underdog_acts(st: QState, h: Hero, at: str, ev: list[Event]) -> None:
    """Underdog: a token placed under the hero acts on it at once (the phase runs the queued job)."""
    if at == h.pos:
        ev.append(Event(text=f"The token goes under {h.name} and acts at once (Underdog)."))
        st.queue.append(Job(kind="enter", hero=h.player, how="underdog"))


def slots(h: Hero, kind_: str) -> int:
    """One item and one pet in play; +1 Item / +1 Pet in Play make it two."""
    return 1 + has(h, "extra-item" if kind_ == "item" else "extra-pet")


def _equip(st: QState, h: Hero, c: data.CardDef, ev: list[Event]) -> None:
    """Into its slot; when the slots are full the card that was there longest goes back to the hand (house
    reading: always the better choice, the hand limit only counts at the end of phase 4)."""
    slot = h.items if c.kind == "item" else h.pets
    for old in list(slot)[:max(0, len(slot) - slots(h, c.kind) + 1)]:
        slot.remove(old)
        h.hand.append(old)
        ev.append(Event(text=f"{card_name(old)} goes back to {possessive(h.name)} hand."))
    slot.append(c.id)
    ev.append(Event(text=f"{c.name} is now in {possessive(h.name)} {c.kind} slot."))


def explain_card(st: QState, player: str, action: Action) -> str:
    """Why a `play` or `use` is refused, naming what is legal."""
    h = [x for x in st.heroes if x.player == player]
    if not h:
        return "Only seated players play cards."
    hero = h[0]
    mine = active(st).player == player
    if action.cmd == "impulse" and mine:
        return "On your own turn you play cards with `play`; `impulse` is for another player's turn."
    if action.cmd == "play" and not mine:
        return "It is not your turn: an impulse card is played with `impulse`, other cards on your own turn."
    cid = (action.get("card") or "").strip()
    c = data.cards().get(cid)
    if c is None:
        return f"There is no card `{cid}`." + _yours(hero)
    if action.cmd != "use" and cid not in hero.hand:
        return f"{c.name} is not in your hand." + _yours(hero)
    if action.cmd == "use":
        if cid not in hero.items + hero.pets:
            return f"{c.name} is not in play in front of you."
        if c.effect.use is None:
            return f"{c.name} works by itself (a passive bonus); there is nothing to activate."
        if active(st).player != player or st.phase not in CARD_PHASES:
            return "Items and pets are used on your own turn, in phase 1 or 3."
        if c.kind == "item" and st.m.item_used or c.kind == "pet" and st.m.pet_used:
            return f"You already activated a {c.kind} this turn (one item and one pet activation a turn)."
    why = _when_problem(st, hero, c) or _effect_problem(st, c.effect if action.cmd != "use" else c.effect.use
                                                         or c.effect)
    if why:
        return why[0].upper() + why[1:] + "."
    e = c.effect.use if action.cmd == "use" and c.effect.use else c.effect
    if e.do == "dash":
        ends = dash_ends(st, hero)
        at = (action.get("at") or "").upper()
        if at not in ends:
            return (f"{c.name} dashes you one space (`at:`, any of the eight ways"
                    + (", gliding on across water" if any(k > 1 for _, k in ends.values()) else "") + "): "
                    + ", ".join(ends) + ".")
    if e.do in data.TARGETED:
        at = (action.get("at") or "").upper()
        targets = _targets(st, hero, c, e)
        if not at:
            return (f"{c.name} needs a target `at:` within range {card_range(hero, c)}: "
                    + (", ".join(targets) or "none now") + ".")
        p = xy(at) if at else None
        if p is None or not on_map(st, p):
            return f"`{at}` is not a square of the map."
        if hero.pos is None or p not in in_range(st, xy(hero.pos), card_range(hero, c)):
            return (f"{at} is out of range {card_range(hero, c)} (counted orthogonally from your hero"
                    + (", around the beams)." if st.lit else ")."))
        why = target_problem(st, e, p, hero)
        if why:
            return f"{c.name} cannot target {at}: {why}."
        if e.do == "move":
            to = (action.get("to") or "").upper()
            dests = _destinations(st, hero, c, at)
            if to not in dests:
                return (f"{c.name} moves the token on {at} to a free square within range "
                        f"{card_range(hero, c)} (`to:`): "
                        + (", ".join(dests) or "none now") + ".")
    return ""


def _yours(h: Hero) -> str:
    return (" Your hand: " + ", ".join(f"`{c}`" for c in h.hand) + ".") if h.hand else " Your hand is empty."


def card_label(action: Action) -> str | None:
    cid = action.get("card")
    if action.cmd not in ("play", "use", "impulse") or cid not in data.cards():
        return None
    c = data.cards()[cid]
    verb = {"play": "Play", "use": "Use", "impulse": "Impulse:"}[action.cmd]
    at, to = action.get("at"), action.get("to")
    return f"{verb} {c.name}" + (f" on {at}" if at else "") + (f" to {to}" if to else "")
