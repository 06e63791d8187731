"""Buttons and menus that survive restarts: everything a click needs is in its custom_id.

Custom ids (stable: buttons posted by an older version of the bot keep working):
- `pp:<channel>:<version>:<action text>` (or `...:#<n>`, the n-th button of that board, when the
  text is too long): a game action;
- `pp:sel:<channel>:<version>:<command>`: a menu of one command's actions; the chosen value is the action;
- `pp:opts:<channel>`: "My options"; `pp:rematch:<game>`; `pp:vote:<game>` and `pp:skip:<game>`;
- `pp:hand:<channel>:<version>`: "Your hand", the private moves of its presser (bot/hand.py) for that board;
  the ephemeral answer's buttons are game actions as above (`...:#h<n>`: the n-th private button).

A callback only hands the click to the flows (`interaction.client.flows`); the manager checks it
against the board as stored (only its owner may use a control; an old board is refused).
"""
from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from ..hand import HAND_LABEL, HAND_MARK
from ..reply import INDEX_MARK, Menu

CUSTOM_ID_MAX = 100
TEMPLATE = r"pp:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)"
SELECT_TEMPLATE = r"pp:sel:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<cmd>[a-z0-9_-]+)(?:\.(?P<part>[0-9]+))?"


class Flows(Protocol):
    """What a click does (bot/discord_adapter/flows.py)."""

    async def press(self, interaction: discord.Interaction, channel_id: str, version: int, carried: str, *,
                    menu: str | None = None) -> None: ...

    async def command(self, interaction: discord.Interaction, channel_id: str, name: str,
                      options: dict[str, Any], *, game_id: int | None = None, private: bool = False) -> None: ...


def flows(interaction: discord.Interaction) -> Flows:
    return interaction.client.flows  # type: ignore[attr-defined]  # PlaypostBot.flows


def custom_id(channel_id: str, version: int, action: str, index: int) -> str:
    """The button's custom_id; falls back to the button's index when the action text is too long."""
    cid = f"pp:{channel_id}:{version}:{action}"
    if len(cid) <= CUSTOM_ID_MAX and not action.startswith(INDEX_MARK):
        return cid
    return f"pp:{channel_id}:{version}:{INDEX_MARK}{index}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """One legal action under a board."""

    def __init__(self, channel_id: str, version: int, action: str, *, index: int = 0, label: str | None = None,
                 cid: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=discord.ButtonStyle.primary,
                                           custom_id=cid or custom_id(channel_id, version, action, index)))
        self.channel_id = channel_id
        self.version = version
        self.action = action  # the action text, or `#<n>` for the n-th button of that board

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameButton:
        return cls(match["channel"], int(match["version"]), match["action"], cid=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).press(interaction, self.channel_id, self.version, self.action)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """The legal actions of one command that have no button, when 2 to 25 of them fit a menu."""

    def __init__(self, channel_id: str, version: int, menu: Menu) -> None:
        super().__init__(discord.ui.Select(
            # a command's second menu has an id of its own (ids are unique within a message)
            custom_id=f"pp:sel:{channel_id}:{version}:{menu.cmd}" + (f".{menu.part}" if menu.part > 1 else ""),
            placeholder=menu.placeholder,
            options=[discord.SelectOption(label=label or value, value=value) for label, value in menu.options]))
        self.channel_id = channel_id
        self.version = version
        self.cmd = menu.cmd

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameSelect:
        # discord.py fills in the user's choice (`_refresh_state`) once this item stands in for the clicked one
        return cls(match["channel"], int(match["version"]), Menu(player="", cmd=match["cmd"], options=()))

    def chosen(self) -> str:
        values = self.item.values
        return values[0] if values else ""

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).press(interaction, self.channel_id, self.version, self.chosen(), menu=self.cmd)


class OptionsButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:opts:(?P<channel>[0-9]+)"):
    """"My options": the `/game hand` answer, only for whoever presses it."""

    def __init__(self, channel_id: str) -> None:
        super().__init__(discord.ui.Button(label="My options", style=discord.ButtonStyle.secondary,
                                           custom_id=f"pp:opts:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> OptionsButton:
        return cls(match["channel"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).command(interaction, self.channel_id, "hand", {}, private=True)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:rematch:(?P<game>[0-9]+)"):
    """The same game again: `/game rematch` for the game this button sat under."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                           custom_id=f"pp:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).command(interaction, str(interaction.channel_id), "rematch", {},
                                         game_id=self.game_id)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:vote:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote (`/game vote kind:end`); more than half ends the game."""

    kind = "end"
    label = "Vote to end the game"
    style = discord.ButtonStyle.danger

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=self.label, style=self.style,
                                           custom_id=f"pp:{'vote' if self.kind == 'end' else self.kind}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> VoteButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).command(interaction, str(interaction.channel_id), "vote", {"kind": self.kind},
                                         game_id=self.game_id)


class SkipVoteButton(VoteButton, template=r"pp:skip:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote (`/game vote kind:skip`); more than half skips the late move."""

    kind = "skip"
    label = "Vote to skip the turn"
    style = discord.ButtonStyle.secondary


HAND_TEMPLATE = r"pp:hand:(?P<channel>[0-9]+):(?P<version>[0-9]+)"


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=HAND_TEMPLATE):
    """"Your hand": the moves naming cards of the presser's hand, in a reply only they see (`/game hand` for the
    board it sat under; an older board's answers "out of date")."""

    def __init__(self, channel_id: str, version: int) -> None:
        super().__init__(discord.ui.Button(label=HAND_LABEL, style=discord.ButtonStyle.success,
                                           custom_id=f"pp:hand:{channel_id}:{version}"))
        self.channel_id = channel_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HandButton:
        return cls(match["channel"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows(interaction).command(interaction, self.channel_id, "hand", {"version": self.version}, private=True)


def hand_custom_id(channel_id: str, version: int, action: str, index: int) -> str:
    """A private button's custom_id: its action text, or its place among its presser's private buttons."""
    cid = f"pp:{channel_id}:{version}:{action}"
    if len(cid) <= CUSTOM_ID_MAX and not action.startswith(INDEX_MARK):
        return cid
    return f"pp:{channel_id}:{version}:{HAND_MARK}{index}"


ITEMS = (GameButton, GameSelect, OptionsButton, RematchButton, VoteButton, SkipVoteButton, HandButton)
