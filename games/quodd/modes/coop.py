"""Co-op and team card sharing (rulebook "Co-Op and Team Card Sharing"): within 4 spaces of a teammate, counted
orthogonally, a player may pass cards freely in phase 1 or 3 of their own turn.

House reading: passing is one way, `/quodd give card: hero:` hands a card of your hand to a teammate; a trade is two
gives, the teammate giving theirs on their own turn (a play-by-post turn cannot wait for the other player). The card
stays secret: the table reads "Ann gives Bob a card", only the two of them read which.
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.words import says

from .. import data
from ..board import active, xy
from ..state import Hero, QState
from . import MODE_NAMES, shares_cards, teammates

SHARE_RANGE = 4  # spaces, counted orthogonally
SHARE_PHASES = ("power", "recovery")  # phases 1 and 3


def spaces_between(a: str, b: str) -> int:
    """The orthogonal count of spaces from one square to another."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def in_reach(h: Hero, mate: Hero) -> bool:
    return h.pos is not None and mate.pos is not None and spaces_between(h.pos, mate.pos) <= SHARE_RANGE


def give_actions(st: QState, h: Hero) -> list[Action]:
    """Every card of `h`'s hand to every teammate in reach (the active hero, phases 1 and 3)."""
    if not shares_cards(st) or not h.hand or st.phase not in SHARE_PHASES or st.pending is not None:
        return []
    cards = list(dict.fromkeys(h.hand))
    return [Action.of("give", card=cid, hero=mate.player)
            for mate in teammates(st, h) if in_reach(h, mate) for cid in cards]


def explain_give(st: QState, player: str, action: Action) -> str:
    """Why a `give` is refused (empty: nothing to say, it is legal)."""
    if not shares_cards(st):
        return (f"Cards are shared only in co-op and team games; this one is {MODE_NAMES.get(st.mode, st.mode)}, "
                "so every hand stays its own.")
    mine = [h for h in st.heroes if h.player == player]
    if not mine:
        return "Only seated players hold cards."
    h = mine[0]
    if st.phase not in SHARE_PHASES or active(st).player != player or st.pending is not None:
        return "Cards pass between teammates in phase 1 (power-up) or phase 3 (recovery) of your own turn."
    to = action.get("hero") or ""
    mate = next((x for x in st.heroes if x.player == to), None)
    if mate is None or mate is h:
        return f"Give to a teammate: {', '.join(x.name for x in teammates(st, h)) or 'you have none'}."
    if mate not in teammates(st, h):
        return f"{says(mate.name, 'is')} not on your side; cards pass only between teammates."
    cid = action.get("card") or ""
    if cid not in h.hand:
        return f"You hold no card `{cid}`: see `/game hand`."
    if h.pos is None or mate.pos is None:
        return f"{h.name if h.pos is None else mate.name} is not on the board, so out of reach."
    far = spaces_between(h.pos, mate.pos)
    if far > SHARE_RANGE:
        return (f"{says(mate.name, 'is')} {far} spaces away, counting orthogonally; cards pass within {SHARE_RANGE} "
                "spaces.")
    return ""


def give(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    cid = action.get("card") or ""
    mate = next(x for x in st.heroes if x.player == action.get("hero"))
    h.hand.remove(cid)
    mate.hand.append(cid)
    ev.append(Event(text=f"{says(h.name, 'gives')} {mate.name} a card."))
    ev.append(Event(text=f"{says(h.name, 'gives')} {mate.name} {data.cards()[cid].name}.", to=[h.player, mate.player]))


def give_label(st: QState, action: Action) -> str:
    cid = action.get("card") or ""
    mate = next((x.name for x in st.heroes if x.player == action.get("hero")), action.get("hero") or "")
    name = data.cards()[cid].name if cid in data.cards() else cid
    return f"Give {name} to {mate}"
