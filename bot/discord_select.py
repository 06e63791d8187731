"""Menus under a board: the legal actions the buttons leave out, one select per command that fits.

A game shows buttons for its common moves (`Game.button_actions`); the rest of a command's legal
actions (say 16 throw targets) go into a select menu when there are 2 to 25 of them. A longer
list (a hundred squares) stays with the slash command and its autocomplete. The menu's
custom_id is `pp:sel:<channel>:<version>:<command>`; the chosen option's value is the action
text, checked against the stored board like a button's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
from pydantic import BaseModel

from games.core import Game, Status, get_game
from storage import GameRecord

from .manager import GameManager

SELECT_TEMPLATE = r"pp:sel:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<cmd>[a-z0-9_-]+)"
MAX_OPTIONS = 25
MAX_VALUE = 100


@dataclass(frozen=True)
class Menu:
    player: str
    cmd: str
    options: tuple[tuple[str, str], ...]  # (label, action text)


def menus(manager: GameManager, rec: GameRecord, engine: Game, state: BaseModel, status: Status) -> list[Menu]:
    """For the first player to act: each command whose legal actions without a button fit one menu."""
    if not status.to_act or status.finished:
        return []
    player = status.to_act[0]
    shown = {b.action for b in manager.buttons(engine, state, status, manager.names(rec))}
    groups: dict[str, list[Any]] = {}
    for a in engine.legal_actions(state, player):
        if a.cmd not in engine.anytime_commands and a.text() not in shown:
            groups.setdefault(a.cmd, []).append(a)
    out = []
    for cmd, actions in groups.items():
        if 2 <= len(actions) <= MAX_OPTIONS and all(len(a.text()) <= MAX_VALUE for a in actions) and \
                re.fullmatch(r"[a-z0-9_-]+", cmd):
            out.append(Menu(player, cmd, tuple((engine.label(state, a)[:100], a.text()) for a in actions)))
    return out


async def board_menus(bot: Any, game_id: int | None, version: int | None) -> list[Menu]:
    """The menus for a board about to be posted, if the game is still at that version."""
    manager: GameManager = bot.manager
    if game_id is None or version is None:
        return []
    rec = await manager.storage.get_game(game_id)
    if rec is None or rec.version != version or rec.status != "active" or rec.state is None:
        return []
    engine = get_game(rec.kind)
    state = manager.state_of(rec, engine)
    return menus(manager, rec, engine, state, engine.status(state))


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, channel_id: str, version: int, menu: Menu) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"pp:sel:{channel_id}:{version}:{menu.cmd}",
            placeholder=f"More: {menu.cmd} ({len(menu.options)})",
            options=[discord.SelectOption(label=label or value, value=value) for label, value in menu.options]))
        self.channel_id = channel_id
        self.version = version
        self.cmd = menu.cmd

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> GameSelect:
        sel = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(sel, item)
        sel.channel_id = match["channel"]
        sel.version = int(match["version"])
        sel.cmd = match["cmd"]
        return sel

    def chosen(self) -> str:
        values = self.item.values
        return values[0] if values else ""

    def resolve(self, manager: GameManager, rec: GameRecord, engine: Game, state: BaseModel) -> tuple[str, set[str]]:
        action = self.chosen()
        owners = {m.player for m in menus(manager, rec, engine, state, engine.status(state))
                  if m.cmd == self.cmd and any(v == action for _, v in m.options)}
        return action, owners

    async def callback(self, interaction: discord.Interaction) -> None:
        from .discord_buttons import press_on_board

        await press_on_board(interaction, self.channel_id, self.version, self.chosen(), self.resolve, what="menu")
