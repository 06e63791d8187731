"""The standing status message of a game, and the nudges (reminders, deadlines) that ping who must act.

The status message is posted when a game opens, pinned where permitted, then edited after every
public change; its text comes in the Reply (`Reply.status_message`), and where it was posted is
kept through the manager in the game's meta (which leaves the version, and so the buttons, alone).
"""
from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from ..manager import GameManager
from ..pace import Nudge
from ..reply import Reply
from .components import OptionsButton, SkipVoteButton, VoteButton
from .present import board_view, mentions, message_url, status_view

log = logging.getLogger("playpost.discord")


class Poster(Protocol):
    """The bot, as far as posting goes."""

    manager: GameManager | None

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable: ...


def _manager(bot: Poster) -> GameManager:
    assert bot.manager is not None, "the bot's manager is opened in setup_hook"
    return bot.manager


def can_pin(perms: discord.Permissions) -> bool:
    return bool(perms.pin_messages or perms.manage_messages)


async def create_status(bot: Poster, reply: Reply, channel_id: str, perms: discord.Permissions, *,
                        in_thread: bool) -> None:
    """Post (and pin, where permitted) the status message of a newly opened game; remember where."""
    status = reply.status_message
    if reply.game_id is None or status is None or status.message_id is not None:
        return
    if not (perms.send_messages_in_threads if in_thread else perms.send_messages):
        return  # said plainly elsewhere; posting would only collect 403s
    channel = bot.get_partial_messageable(int(channel_id))
    try:
        message = await channel.send(status.text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("event=status_post_failed channel=%s status=%s", channel_id, exc.status)
        return
    pinned = False
    if can_pin(perms):
        try:
            await message.pin(reason="playpost: the game's status")
            pinned = True
        except discord.HTTPException as exc:
            log.info("event=status_pin_failed channel=%s status=%s", channel_id, exc.status)
    try:
        await _manager(bot).remember_status(reply.game_id, channel_id, str(message.id), pinned)
    except Exception:  # bookkeeping only
        log.warning("event=status_meta_failed game=%s", reply.game_id, exc_info=True)


async def refresh_status(bot: Poster, reply: Reply) -> None:
    """Edit the status message after a public reply about a game."""
    status = reply.status_message
    if reply.ephemeral or status is None or status.message_id is None or status.channel_id is None:
        return
    channel = bot.get_partial_messageable(int(status.channel_id))
    message = channel.get_partial_message(int(status.message_id))
    try:
        await message.edit(content=status.text, view=None if status.over else status_view(status.channel_id))
        if status.over and status.pinned:
            await message.unpin(reason="playpost: the game is over")
    except discord.HTTPException as exc:
        log.info("event=status_edit_failed game=%s status=%s", reply.game_id, exc.status)


async def post_nudge(bot: Poster, nudge: Nudge) -> None:
    """A reminder in the game's channel: pings exactly who must act, with the board's buttons."""
    rec = nudge.rec
    tail: list[discord.ui.Item[Any]] = [OptionsButton(rec.channel_id)]
    if nudge.kind in ("deadline", "overdue"):  # a missed deadline: the others may vote
        if nudge.can_skip:
            tail.append(SkipVoteButton(rec.id))
        tail.append(VoteButton(rec.id))
    # places for "My options" and both votes are kept whatever the nudge, so its menus are always the same
    view = board_view(rec.channel_id, nudge.version, nudge.buttons[:22], nudge.menus, tail, reserve=3)
    text = nudge.text + "\n" + " ".join(f"<@{p}>" for p in nudge.to_act)
    channel = bot.get_partial_messageable(int(rec.channel_id))
    assert view is not None  # "My options" at least
    sent = await channel.send(text, allowed_mentions=mentions(nudge.to_act), view=view)
    if nudge.buttons:
        url = message_url(rec.guild_id, rec.channel_id, sent.id)
        try:
            await _manager(bot).remember_board(rec.id, nudge.version, url)
        except Exception:  # bookkeeping only: never let it cost the nudge
            log.warning("event=board_link_failed game=%s", rec.id, exc_info=True)
