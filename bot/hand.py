"""Moves that name a player's hidden information (a card of their hand) never sit under a public message.

The game marks them (`Game.private_action`). The board's buttons and menus leave them out (`Table.controls`);
each player who must act and holds something private (`Game.private_text`) gets them in a reply only they see:
on Discord the board carries a "Your hand" button whose ephemeral answer holds them, and `/game hand` shows the
same; the console prints them on a line that only that player sees. Whether a player gets the "Your hand"
button depends on public facts only (they must act, the game keeps something of theirs private), never on
what they hold, so the public message tells nothing either way.

A private button carries its action text like a board's buttons (`pp:<channel>:<version>:<action>`), or
`#h<n>` (the n-th private button of its presser) when the text is too long; the manager checks it against
the presser's private controls of the stored version, so a stale one is refused like any old button.
"""
from __future__ import annotations

from pydantic import BaseModel

from games.core import Action, Game, Status

from .reply import Button, Menu

HAND_MARK = "#h"  # a private button that stands for the n-th private button of its presser
HAND_LABEL = "Your hand"
MAX_HAND_BUTTONS = 20
MAX_MENU_OPTIONS = 25  # Discord's limit of a select menu
MAX_MENU_VALUE = 100  # nor may a value be longer

Controls = tuple[list[Button], list[Menu]]


def is_private(engine: Game, state: BaseModel, player: str, action: Action) -> bool:
    return engine.private_action(state, player, action)


def players(engine: Game, state: BaseModel, status: Status) -> list[str]:
    """Who gets a "Your hand" button under the board: the players who must act and have something private."""
    if status.finished:
        return []
    return [p for p in status.to_act if engine.private_text(state, p)]


def controls(engine: Game, state: BaseModel, player: str) -> Controls:
    """`player`'s private moves: buttons for those the game would show (`Game.button_actions` over the private
    moves), menus of up to 25 for each other command with several (as many as the rows hold), a button for a
    command's lone move. Commands a player may give any time count too (an impulse card on another's turn): this
    reply is theirs alone."""
    private = [a for a in engine.legal_actions(state, player) if engine.private_action(state, player, a)]
    if not private:
        return [], []
    chosen = [a for a in engine.button_actions(state, player, private) if a in private]
    rest: dict[str, list[Action]] = {}
    for a in private:
        if a not in chosen:
            rest.setdefault(a.cmd, []).append(a)
    menus: list[Menu] = []
    for cmd, actions in rest.items():
        if len(actions) == 1:
            chosen.append(actions[0])
        elif all(len(a.text()) <= MAX_MENU_VALUE for a in actions):
            # a card's 38 target squares: menus of 25 (the reply is the player's alone: rows are to spare)
            parts = [actions[i:i + MAX_MENU_OPTIONS] for i in range(0, len(actions), MAX_MENU_OPTIONS)]
            menus += [Menu(player, cmd, tuple((engine.label(state, a, player)[:100], a.text()) for a in part),
                           part=n if len(parts) > 1 else 0, of=len(actions)) for n, part in enumerate(parts, 1)]
    buttons = [Button(label=engine.label(state, a, player)[:80], action=a.text(), player=player)
               for a in chosen[:MAX_HAND_BUTTONS]]
    return buttons, menus[:max(0, 5 - -(-len(buttons) // 5))]


def all_controls(engine: Game, state: BaseModel, status: Status) -> dict[str, Controls]:
    """The private controls of every player with a "Your hand" button (empty ones too: the button is there)."""
    return {p: controls(engine, state, p) for p in players(engine, state, status)}


def resolve(engine: Game, state: BaseModel, player: str, carried: str, menu: str | None) -> str | None:
    """The action a private control of `player` stands for, when it is one of their private controls now."""
    buttons, menus = controls(engine, state, player)
    if menu is not None:
        found = any(m.cmd == menu and any(v == carried for _, v in m.options) for m in menus)
        return carried if found else None
    if carried.startswith(HAND_MARK):
        n = int(carried[len(HAND_MARK):]) if carried[len(HAND_MARK):].isdigit() else -1
        return buttons[n].action if 0 <= n < len(buttons) else None
    return carried if any(b.action == carried for b in buttons) else None
