"""Game buttons that survive restarts: everything a click needs is in its custom_id.

`pp:<channel>:<version>:<action text>` (or `...:#<n>` when the text is too long). A click is
checked against the board as stored: only the player the button was made for may press it,
and the manager refuses it when the game has moved past that version.
"""
from __future__ import annotations

import logging
import re
import time

import discord

from games.core import get_game

from .discord_send import INDEX_MARK, TEMPLATE, custom_id, send_error, send_reply
from .reply import Button, Context

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
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> GameButton:
        btn = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(btn, item)
        btn.channel_id = match["channel"]
        btn.version = int(match["version"])
        btn.action = match["action"]
        return btn

    async def _board_buttons(self, interaction: discord.Interaction) -> list[Button] | None:
        """The buttons of the stored board, if it is still at this button's version."""
        manager = interaction.client.manager  # type: ignore[attr-defined]
        rec = await manager.storage.live_game(self.channel_id)
        if rec is None or rec.version != self.version or rec.status != "active" or rec.state is None:
            return None
        engine = get_game(rec.kind)
        state = manager._state(rec, engine)
        return manager.buttons(engine, state, engine.status(state))

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = interaction.client.manager  # type: ignore[attr-defined]
        started = time.perf_counter()
        user = str(interaction.user.id)
        board = await self._board_buttons(interaction)
        action = self.action
        if board is not None:
            if action.startswith(INDEX_MARK):
                n = int(action[1:]) if action[1:].isdigit() else -1
                action = board[n].action if 0 <= n < len(board) else ""
            allowed = {b.player for b in board if b.action == action}
            if user not in allowed:
                await interaction.response.send_message(
                    "That button is not yours to press.\nOnly the player who must act can use it; "
                    "`/game help` shows what you can do.", ephemeral=True)
                log.info("event=click_refused channel=%s user=%s reason=not_theirs", self.channel_id, user)
                return
        await interaction.response.defer(thinking=True)
        ctx = Context(channel_id=self.channel_id, user_id=user, user_name=interaction.user.display_name,
                      guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                      can_manage=bool(interaction.permissions.manage_channels))
        try:
            # a stale board (board is None) is refused by the manager's version check
            reply = await manager.press(ctx, self.version, action or self.action)
            await send_reply(interaction, reply, deferred_ephemeral=False, channel_id=self.channel_id)
        except Exception:
            log.exception("event=click_failed channel=%s user=%s", self.channel_id, user)
            await send_error(interaction, "Something went wrong on my side. `/game status` shows the board.",
                             deferred_ephemeral=True)  # never delete what may already be the new board
            return
        log.info("event=click channel=%s user=%s version=%s ok=%s ms=%d", self.channel_id, user, self.version,
                 not reply.ephemeral, (time.perf_counter() - started) * 1000)
        if not reply.ephemeral and interaction.message is not None:
            # the board this button sat under is history now: take its buttons away
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException as exc:
                log.info("event=clear_buttons_failed status=%s", exc.status)
