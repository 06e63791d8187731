"""The controls under a board: buttons for the common legal moves of whoever must act, menus for the rest of a
command's legal actions, and the packing of both into the rows Discord allows (every legal move stays reachable)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from games.core import Action, Game, Status

from . import hand
from .hand import MAX_MENU_OPTIONS, MAX_MENU_VALUE
from .reply import Button, Menu

MAX_BUTTONS = 20


def controls(engine: Game, state: BaseModel, status: Status,
             names: dict[str, str] | None = None) -> tuple[list[Button], list[Menu]]:
    """The buttons under a board, and menus for the legal actions the buttons leave out."""
    shown = buttons(engine, state, status, names)
    kept = 1 + bool(hand.players(engine, state, status))  # "My options", and "Your hand" when it is there
    return fit_rows(shown, menus(engine, state, status, shown), kept)


def buttons(engine: Game, state: BaseModel, status: Status, names: dict[str, str] | None = None) -> list[Button]:
    """Buttons for the legal actions of whoever must act, when there are few enough to show.

    When several players act at once (or would get the same label, "Keep these skills"), the
    labels start with the player's name, so everyone can tell which button is theirs.
    """
    rows: list[tuple[str, str, str]] = []  # label, action, player
    for player in status.to_act:
        # settings a player may change any time are commands, not buttons under every board
        # a move naming a card of the hand is not for a public message (bot/hand.py)
        legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands
                 and not hand.is_private(engine, state, player, a)]
        rows.extend((engine.label(state, a, player), a.text(), player)
                    for a in engine.button_actions(state, player, legal)[:MAX_BUTTONS])
    owners: dict[str, set[str]] = {}
    for label, _, player in rows:
        owners.setdefault(label, set()).add(player)
    # players acting at once: each button says whose it is, where it fits and the label does not start with it
    # (a colon in a label is no sign of its owner: "Tile 6B: +1 explore" is anybody's)
    several = len(status.to_act) > 1
    out = [Button(label=(mine if len(owners[label]) > 1 or (several and not label.startswith(f"{who}: ")
                                                            and len(mine) <= 80) else label)[:80],
                  action=action, player=p)
           for label, action, p in rows for who in [(names or {}).get(p, p)] for mine in [f"{who}: {label}"]]
    return out[:MAX_BUTTONS]

def menus(engine: Game, state: BaseModel, status: Status, buttons: Sequence[Button]) -> list[Menu]:
    """For the first player to act: each command whose legal actions without a button fit one menu.

    A game shows buttons for its common moves (`Game.button_actions`); the rest of a command's
    legal actions (say 16 throw targets) go into a menu when there are 2 to 25 of them. A longer
    list (a hundred squares) stays with the slash command and its autocomplete.
    """
    if not status.to_act or status.finished:
        return []
    player = status.to_act[0]
    shown = {b.action for b in buttons}
    groups: dict[str, list[Action]] = {}
    for a in engine.legal_actions(state, player):
        if a.cmd not in engine.anytime_commands and a.text() not in shown and \
                not hand.is_private(engine, state, player, a):
            groups.setdefault(a.cmd, []).append(a)
    out = []
    for cmd, actions in groups.items():
        if 2 <= len(actions) <= MAX_MENU_OPTIONS and all(len(a.text()) <= MAX_MENU_VALUE for a in actions) and \
                re.fullmatch(r"[a-z0-9_-]+", cmd):
            out.append(Menu(player, cmd, tuple((engine.label(state, a, player)[:100], a.text()) for a in actions)))
    return out


ROWS = 5  # rows of controls under a message: 5 buttons to a row, or one menu; one place is kept for "My options"


FIRST = 5  # the game's first buttons (its best moves: a goal, an attack) stay buttons while packing allows


def fit_rows(buttons: list[Button], menus: list[Menu], kept: int = 1) -> tuple[list[Button], list[Menu]]:
    """Every legal move stays reachable under the board: while the buttons (and the one kept place) and
    the menus need more than ROWS rows, a kind of move shown as buttons (never `end`) becomes a menu of
    its own, or joins its command's menu when that still holds 25 options: the change that saves most rows
    first, the biggest group on a tie; it stops when no change saves a row. `kept`: places kept for buttons
    that carry no move ("My options", "Your hand").

    A game lists its buttons best first, so the first FIRST stay buttons (a scoring step was sent into the
    steps' menu while 1-point throws kept their buttons); only when that cannot fit are they packed too."""
    packed = _fit(buttons, menus, kept, FIRST)
    return packed if _rows(*packed, kept) <= ROWS else _fit(buttons, menus, kept, 0)


def _rows(bs: list[Button], ms: list[Menu], kept: int) -> int:
    return -(-(len(bs) + kept) // 5) + len(ms)


def _fit(buttons: list[Button], menus: list[Menu], kept: int, first: int) -> tuple[list[Button], list[Menu]]:
    def rows(bs: list[Button], ms: list[Menu]) -> int:
        return _rows(bs, ms, kept)

    fixed = {id(b) for b in buttons[:first]}
    buttons, menus = list(buttons), list(menus)
    while rows(buttons, menus) > ROWS:
        kinds: dict[tuple[str, str], list[Button]] = {}
        for b in buttons:
            if id(b) in fixed:
                continue
            cmd = Action.parse(b.action).cmd
            if cmd != "end" and re.fullmatch(r"[a-z0-9_-]+", cmd) and len(b.action) <= MAX_MENU_VALUE:
                kinds.setdefault((b.player, cmd), []).append(b)
        best: tuple[int, int, list[Button], list[Menu]] | None = None
        for (player, cmd), moved in kinds.items():
            old = next((m for m in menus if (m.player, m.cmd) == (player, cmd)), None)
            options = tuple((b.label[:100], b.action) for b in moved) + (old.options if old else ())
            if len(options) > MAX_MENU_OPTIONS:
                continue
            rest = [b for b in buttons if b not in moved]
            ms = [m for m in menus if m is not old] + [Menu(player, cmd, options)]
            saved = rows(buttons, menus) - rows(rest, ms)
            if saved > 0 and (best is None or (saved, len(moved)) > best[:2]):
                best = (saved, len(moved), rest, ms)
        if best is None:
            break
        buttons, menus = best[2], best[3]
    return buttons, menus
