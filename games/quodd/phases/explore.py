"""Phase 4, exploration: draw from the face-up lineup or the top of the deck, then discard down to the
hand limit. `done` stops drawing early; the turn ends once the hand fits."""
from __future__ import annotations

from typing import Any

from games.core import Action, Event
from games.core.words import says

from ..board import active
from ..collectibles import drop, drops
from ..commands import arg
from ..deck import HAND_LIMIT, can_draw, card_name, draw_top, own_deck, take_lineup
from ..modes.buddies import holder
from ..state import Hero, QState
from ..turns import end_turn, finish_exploring
from .base import Buttons, TurnPhase


class ExplorePhase(TurnPhase):
    name = "explore"
    done_label = "Stop exploring"

    def waiting(self, st: QState, h: Hero) -> str:
        if st.m.discarding:
            return f"{h.name} to discard down to {HAND_LIMIT} cards (`discard card:`)"
        return f"{h.name} to explore {st.m.draws} more: `draw card:` from the lineup or `draw card:deck`"

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        st, h = state, active(state)
        if st.m.discarding:
            return [Action.of("discard", card=c) for c in dict.fromkeys(holder(st, h).hand)]
        out = [Action.of("draw", card=c) for c in dict.fromkeys(st.lineup)]
        if st.deck or st.discard or own_deck(st, h):
            out.append(Action.of("draw", card="deck"))
        return out + [Action.of("done")] + drops(st, h)

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        st, h = state, active(state)
        if action.cmd == "drop":
            drop(st, h, arg(action, "item"), arg(action, "at"), events)
        elif action.cmd == "discard":
            cid = arg(action, "card")
            hand = holder(st, h)  # a buddy's draws went to its controller's hand
            hand.hand.remove(cid)
            st.discard.append(cid)
            events.append(Event(text=f"{says(hand.name, 'discards')} {card_name(cid)}."))
            if len(hand.hand) <= HAND_LIMIT:
                end_turn(st, events)
        elif action.cmd == "draw":
            cid = arg(action, "card")
            if cid == "deck":
                draw_top(st, h, 1, events)
            else:
                take_lineup(st, h, cid, events)
            st.m.draws -= 1
            if st.m.draws <= 0 or not can_draw(st):
                finish_exploring(st, events)
        else:
            events.append(Event(text=f"{says(h.name, 'stops')} exploring."))
            finish_exploring(st, events)

    def skip(self, game: Any, state: QState, player: str) -> Action | None:
        """A skipped player stops exploring, or while discarding lets go of the card drawn last."""
        h = active(state)
        if state.m.discarding:
            return Action.of("discard", card=holder(state, h).hand[-1])
        return Action.of("done")

    def explain_own(self, game: Any, state: QState, player: str, action: Action) -> str:
        st, h = state, active(state)
        cid = action.get("card") or ""
        if st.m.discarding:
            if action.cmd != "discard" and action.cmd != "drop":
                return f"First discard down to {HAND_LIMIT} cards with `discard card:`."
            hand = holder(st, h).hand
            if action.cmd == "discard" and cid not in hand:
                return f"`{cid}` is not in your hand: " + ", ".join(dict.fromkeys(hand)) + "."
        if action.cmd == "discard":
            return f"You discard only when you hold more than {HAND_LIMIT} cards at the end of exploring."
        if action.cmd == "draw":
            return (f"`{cid}` is not in the lineup: draw one of " + ", ".join(f"`{c}`" for c in st.lineup)
                    + " or `deck` (the top of the deck).")
        return super().explain_own(game, state, player, action)

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        cid = action.get("card")
        if action.cmd == "draw":
            if cid == "deck":
                return "Draw from the overlord deck" if own_deck(state, active(state)) else "Draw from the deck"
            return f"Take {card_name(cid or '')}"
        if action.cmd == "discard":
            return f"Discard {card_name(cid or '')}"
        return super().label(game, state, action)

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        b = Buttons(legal)
        b.add(b.of("draw"))
        b.add(b.of("discard"))
        b.add(b.of("done"))
        b.add(b.of("drop"), 3)
        return b.out
