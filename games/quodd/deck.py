"""The exploration deck, its face-up lineup and discard pile, the treasure deck, and hands.

Rulebook numbers: the lineup holds 5 cards, the hand limit is 5 at the end of phase 4. A hand is
private (`private_text`); the deck's order is hidden (`redact`, `hidden_digest` in the engine).
"""
from __future__ import annotations

from games.core import Event, Rng
from games.core.words import possessive, says

from . import data
from .modes.buddies import holder
from .state import Hero, QState

LINEUP = 5
HAND_LIMIT = 5
OPENING = ("food", "item", "pet", "rune")  # tokens that fetch a card of their kind when taken
DECK_EDITIONS = ("1", "2", "3")  # game option `deck`: 2 adds Crystal Extract and Freeze-O-Tron, 3 the Cannon Rune


def card_name(cid: str) -> str:
    return data.cards()[cid].name


def new_decks(rng: Rng, edition: int = 1) -> tuple[list[str], list[str], list[str]]:
    """The shuffled exploration deck of that edition (its cards and the older ones), the lineup dealt from it,
    and the shuffled treasure deck. A game made before an edition has no `deck` option and plays the first:
    its deals never change when cards are added."""
    deck = [c.id for c in data.cards().values() if not (c.treasure or c.overlord) and c.edition <= edition
            for _ in range(c.copies)]
    treasure = [c.id for c in data.cards().values() if c.treasure for _ in range(c.copies)]
    rng.shuffle(deck)
    rng.shuffle(treasure)
    return deck[LINEUP:], deck[:LINEUP], treasure


def _top(st: QState, ev: list[Event]) -> str | None:
    """The top card of the deck; an empty deck first takes the discard pile back, shuffled."""
    if not st.deck and st.discard:
        # overlord cards never join the exploration deck: they go under the overlord's deck, in discard order
        st.overlord_deck += [c for c in st.discard if data.cards()[c].overlord]
        st.deck = [c for c in st.discard if not data.cards()[c].overlord]
        st.discard.clear()
        st.rng.shuffle(st.deck)
        ev.append(Event(text="The discard pile is shuffled into a new exploration deck.", irreversible=True))
    return st.deck.pop(0) if st.deck else None


def new_overlord_deck(rng: Rng) -> list[str]:
    """Mode overlord: the overlord's own deck (`overlord.json`), shuffled."""
    deck = [c.id for c in data.cards().values() if c.overlord for _ in range(c.copies)]
    rng.shuffle(deck)
    return deck


def own_deck(st: QState, h: Hero) -> bool:
    """The overlord explores from the top of their own deck while it holds cards (rulebook: overlord)."""
    return h.overlord and bool(st.overlord_deck)


def can_draw(st: QState) -> bool:
    return bool(st.deck or st.discard or st.lineup or st.overlord_deck)


def draw_top(st: QState, h: Hero, n: int, ev: list[Event]) -> int:
    """`h` draws `n` cards from the top of the deck (fewer if it runs out); how many were drawn. The overlord draws
    from their own deck (the exploration deck once it is empty); a buddy's cards go to its controller's hand."""
    got: list[str] = []
    mine = False
    for _ in range(n):
        mine = own_deck(st, h)
        cid = st.overlord_deck.pop(0) if mine else _top(st, ev)
        if cid is None:
            break
        holder(st, h).hand.append(cid)
        got.append(cid)
    if got:
        where = "the overlord deck" if mine else "the exploration deck"
        to = f" for {holder(st, h).name}'s hand" if h.controller else ""
        ev.append(Event(text=f"{says(h.name, 'draws')} {len(got)} from {where}{to}.", irreversible=True))
        ev.append(drawn_privately(st, h, got))
    return len(got)


def drawn_privately(st: QState, h: Hero, cards: list[str]) -> Event:
    """The line only the hand's owner sees, naming the hidden cards that came to it (the public line counts them)."""
    owner = holder(st, h)
    names = ", ".join(card_name(c) for c in cards)
    by = "" if owner is h else f" (drawn by {h.name})"
    return Event(text=f"Your hand gets {names}{by}.", to=[owner.player])


def take_lineup(st: QState, h: Hero, cid: str, ev: list[Event]) -> None:
    st.lineup.remove(cid)
    holder(st, h).hand.append(cid)
    ev.append(Event(text=f"{says(h.name, 'takes')} {card_name(cid)} from the lineup."))


def fetch_kind(st: QState, h: Hero, kind: str, ev: list[Event]) -> None:
    """A food/item/pet/rune token: the left-most lineup card of that kind, else deck cards are revealed until
    one turns up (the others go to the discard pile)."""
    for cid in st.lineup:
        if data.cards()[cid].kind == kind:
            take_lineup(st, h, cid, ev)
            return
    passed: list[str] = []
    while (top := _top(st, ev)) is not None:
        if data.cards()[top].kind == kind:
            holder(st, h).hand.append(top)
            st.discard.extend(passed)
            shown = f" ({', '.join(card_name(c) for c in passed)} to the discard pile)" if passed else ""
            a = "an" if kind[0] in "aeiou" else "a"
            ev.append(Event(text=f"{says(h.name, 'reveals')} cards from the deck until {a} {kind} card turns up: "
                                 f"{card_name(top)} goes to {possessive(holder(st, h).name)} hand{shown}.",
                            irreversible=True))
            return
        passed.append(top)
    st.discard.extend(passed)
    ev.append(Event(text=f"{says(h.name, 'finds')} no {kind} card in the deck.", irreversible=True))


def take_treasure(st: QState, h: Hero, ev: list[Event]) -> None:
    if not st.treasure:
        ev.append(Event(text=f"The treasure deck is empty: {says(h.name, 'finds')} nothing."))
        return
    cid = st.treasure.pop(0)
    holder(st, h).hand.append(cid)
    ev.append(Event(text=f"{says(h.name, 'takes')} a treasure card.", irreversible=True))
    ev.append(drawn_privately(st, h, [cid]))


def refill_lineup(st: QState, ev: list[Event]) -> None:
    """After an exploration phase the lineup is dealt back up to 5 from the deck."""
    added = 0
    while len(st.lineup) < LINEUP and (cid := _top(st, ev)) is not None:
        st.lineup.append(cid)
        added += 1
    if added:
        ev.append(Event(text=f"The lineup is refilled: {', '.join(card_name(c) for c in st.lineup)}.",
                        irreversible=True))


def wipe_lineup(st: QState, ev: list[Event]) -> None:
    st.discard.extend(st.lineup)
    st.lineup.clear()
    refill_lineup(st, ev)


def in_play(h: Hero) -> list[str]:
    return h.items + h.pets


def passive(h: Hero, what: str) -> int:
    """The passive bonus (`movement` or `explore`) of the items and pets `h` has in play."""
    return sum(getattr(data.cards()[c].effect, what) for c in in_play(h))


def explore_count(h: Hero) -> int:
    """Phase 4: the explore icons, the passive bonuses, and explorations earned this turn (tokens, gold sides)."""
    return h.explore + passive(h, "explore") + h.explores_earned


def take_reveal(st: QState, h: Hero, kind: str, ev: list[Event]) -> None:
    """A reveal token taken: an explore token is one more draw in phase 4 (house reading: drawn with the
    others, so a movement never waits on a lineup choice); food, item, pet and rune tokens fetch a card
    of their kind; treasure takes a treasure card; an upgrade token asks for an upgrade
    (`upgrades.offer_token_upgrade`, asked by `movement.do_land`)."""
    if kind == "explore":
        h.explores_earned += 1
        ev.append(Event(text=f"{h.name} will explore 1 more card in phase 4."))
    elif kind in OPENING:
        fetch_kind(st, h, kind, ev)
    elif kind == "treasure":
        take_treasure(st, h, ev)
