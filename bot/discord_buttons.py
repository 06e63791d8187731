"""Game buttons that survive restarts: everything a click needs is in its custom_id.

`pp:<channel>:<version>:<action text>` (or `...:#<n>` when the text is too long). A click is
checked against the board as stored: only the player the button was made for may press it,
and the manager refuses it when the game has moved past that version.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
from pydantic import BaseModel

from games.core import Game, get_game
from storage import GameRecord

from .discord_send import (
    INDEX_MARK,
    STALE,
    TEMPLATE,
    board_pointer,
    custom_id,
    post_failed,
    send_reply,
)
from .discord_status import create_status, refresh_status
from .manager import GameManager
from .reply import Context, Reply

log = logging.getLogger("playpost.discord")


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    def __init__(self, channel_id: str, version: int, action: str, *, index: int = 0, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=(label or action)[:80], style=discord.ButtonStyle.primary,
            custom_id=custom_id(channel_id, version, action, index)))
        self.channel_id = channel_id
        self.version = version
        self.action = action  # the action text, or `#<n>` for the n-th button of that board

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> GameButton:
        btn = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(btn, item)
        btn.channel_id = match["channel"]
        btn.version = int(match["version"])
        btn.action = match["action"]
        return btn

    def resolve(self, manager: GameManager, rec: GameRecord, engine: Game, state: BaseModel) -> tuple[str, set[str]]:
        """The action this button carries on the stored board at its version, and who may press it."""
        board = manager.buttons(engine, state, engine.status(state), manager.names(rec))
        action = self.action
        if action.startswith(INDEX_MARK):
            n = int(action[1:]) if action[1:].isdigit() else -1
            action = board[n].action if 0 <= n < len(board) else ""
        return action, {b.player for b in board if b.action == action}

    async def callback(self, interaction: discord.Interaction) -> None:
        await press_on_board(interaction, self.channel_id, self.version, self.action, self.resolve, what="button")


Resolver = Callable[[GameManager, GameRecord, Game, BaseModel], tuple[str, set[str]]]


async def press_on_board(interaction: discord.Interaction, channel_id: str, version: int, carried: str,
                         resolve: Resolver, *, what: str) -> None:
    """A click on a board's button or menu: checked against the board as stored, then played."""
    manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
    started = time.perf_counter()
    user = str(interaction.user.id)
    rec = await manager.storage.live_game(channel_id)
    current = rec is not None and rec.version == version and rec.status == "active" and rec.state is not None
    action = carried
    if current:
        assert rec is not None
        engine = get_game(rec.kind)
        action, allowed = resolve(manager, rec, engine, manager.state_of(rec, engine))
        if user not in allowed:
            await interaction.response.send_message(
                f"That {what} is not yours to use.\nOnly the player who must act can use it; "
                "`/game help` shows what you can do.", ephemeral=True)
            log.info("event=click_refused channel=%s user=%s reason=not_theirs", channel_id, user)
            return
    ctx = _context(interaction, channel_id)
    if not current:
        # an old board, or no game: the manager refuses it at once (nothing to render), so answer
        # privately straight away instead of showing everyone a "thinking" message first
        refused = await manager.press(ctx, version, carried)
        if refused.ephemeral:
            stale = refused.text.startswith(STALE)
            pointer = await board_pointer(interaction.client, channel_id) if stale else ""
            await interaction.response.send_message(refused.text + pointer, ephemeral=True)
            log.info("event=click_refused channel=%s user=%s reason=stale", channel_id, user)
            return
        await interaction.response.defer(thinking=True)  # not expected: versions only grow
        await send_reply(interaction, refused, deferred_ephemeral=False, channel_id=channel_id)
        return
    await interaction.response.defer(thinking=True)
    reply: Reply | None = None
    try:
        reply = await manager.press(ctx, version, action)
        if reply.ephemeral and reply.text.startswith(STALE):  # another click got there first
            reply.text += await board_pointer(interaction.client, channel_id)
        try:
            await send_reply(interaction, reply, deferred_ephemeral=False, channel_id=channel_id)
        except discord.HTTPException as exc:  # the move is committed; the board could not be shown
            await post_failed(interaction, reply, exc)
        await refresh_status(interaction.client, reply)
    except Exception as exc:
        log.exception("event=click_failed channel=%s user=%s", channel_id, user)
        await post_failed(interaction, reply, exc)  # never delete what may already be the new board
        return
    log.info("event=click channel=%s user=%s version=%s ok=%s ms=%d", channel_id, user, version,
             not reply.ephemeral, (time.perf_counter() - started) * 1000)
    if not reply.ephemeral and interaction.message is not None:
        # the board this button sat under is history now: take its buttons away
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException as exc:
            log.info("event=clear_buttons_failed status=%s", exc.status)


def _context(interaction: discord.Interaction, channel_id: str) -> Context:
    return Context(channel_id=channel_id, user_id=str(interaction.user.id), user_name=interaction.user.display_name,
                   guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                   can_manage=bool(interaction.permissions.manage_channels))


class OptionsButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:opts:(?P<channel>[0-9]+)"):
    """"My options": the `/game hand` answer, only for whoever presses it."""

    def __init__(self, channel_id: str) -> None:
        super().__init__(discord.ui.Button(label="My options", style=discord.ButtonStyle.secondary,
                                           custom_id=f"pp:opts:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> OptionsButton:
        return cls(match["channel"])

    async def callback(self, interaction: discord.Interaction) -> None:
        manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
        await interaction.response.defer(thinking=True, ephemeral=True)
        reply = await manager.dispatch(_context(interaction, self.channel_id), "game", "hand", {})
        await send_reply(interaction, reply, deferred_ephemeral=True, channel_id=self.channel_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:rematch:(?P<game>[0-9]+)"):
    """The same game again: `/game rematch` for the game this button sat under."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                           custom_id=f"pp:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_table_command(interaction, self.game_id, "rematch", {})


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:vote:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote (`/game vote kind:end`); more than half of them ends the game."""

    kind = "end"
    label = "Vote to end the game"
    style = discord.ButtonStyle.danger

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=self.label, style=self.style,
                                           custom_id=f"pp:{'vote' if self.kind == 'end' else self.kind}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> VoteButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_table_command(interaction, self.game_id, "vote", {"kind": self.kind})


class SkipVoteButton(VoteButton, template=r"pp:skip:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote (`/game vote kind:skip`); more than half skips the late move."""

    kind = "skip"
    label = "Vote to skip the turn"
    style = discord.ButtonStyle.secondary


async def run_table_command(interaction: discord.Interaction, game_id: int, name: str,
                            options: dict[str, Any]) -> None:
    """A vote or rematch button: the `/game` command for the game it was posted with.

    The manager acknowledges (defers, publicly) only once the quick checks pass, so a refusal
    or a counted vote is answered privately at once, without a public "thinking" message.
    """
    manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]

    async def defer() -> None:
        await interaction.response.defer(thinking=True)

    ctx = replace(_context(interaction, str(interaction.channel_id)), game_id=game_id, ack=defer)
    reply = await manager.dispatch(ctx, "game", name, options)
    if not interaction.response.is_done():
        if reply.ephemeral:
            await interaction.response.send_message(reply.text, ephemeral=True)
            log.info("event=%s_refused game=%s user=%s", name, game_id, ctx.user_id)
            return
        await interaction.response.defer(thinking=True)
    try:
        await send_reply(interaction, reply, deferred_ephemeral=False, channel_id=str(interaction.channel_id))
    except discord.HTTPException as exc:  # the outcome is stored; only showing it failed
        await post_failed(interaction, reply, exc)
    if reply.opened:
        await create_status(interaction.client, reply.game_id, str(interaction.channel_id),
                            interaction.app_permissions, in_thread=isinstance(interaction.channel, discord.Thread))
    else:
        await refresh_status(interaction.client, reply)
    log.info("event=%s game=%s user=%s ok=%s", name, game_id, ctx.user_id, not reply.ephemeral)
