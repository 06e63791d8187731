"""The standing status message of a game: posted when the game opens, pinned where permitted,
then kept current by editing it after every public change.

Its id is stored in `GameRecord.meta` with `storage.update_meta`, which leaves the game's
version alone, so the write never makes a board's buttons stale.
"""
from __future__ import annotations

import logging
from typing import Any

import discord

from games.core import get_game
from storage import GameRecord, StaleVersion

from .manager import GameManager
from .reply import Reply

log = logging.getLogger("playpost.discord")

HEADER = "**Game status**"


def status_text(manager: GameManager, rec: GameRecord) -> str:
    engine = get_game(rec.kind)
    if rec.status == "lobby":
        seated = ", ".join(s.name for s in rec.seats) or "nobody"
        return (f"{HEADER} · **{engine.name}** lobby · seated: {seated}\n"
                "Take a seat with `/game join`; the host starts with `/game start`.")
    if rec.status == "abandoned":
        return f"{HEADER} · **{engine.name}** was abandoned. `/game history` lists it."
    assert rec.state is not None
    state = manager.state_of(rec, engine)
    return f"{HEADER} · {manager.table.status_line(rec, engine, engine.status(state))}"


def can_pin(perms: discord.Permissions) -> bool:
    return bool(perms.pin_messages or perms.manage_messages)


async def create_status(bot: Any, game_id: int | None, channel_id: str, perms: discord.Permissions, *,
                        in_thread: bool) -> None:
    """Post (and pin, where permitted) the status message of a new game; remember its id."""
    manager: GameManager = bot.manager
    if game_id is None:
        return
    if not (perms.send_messages_in_threads if in_thread else perms.send_messages):
        return  # said plainly elsewhere; posting would only collect 403s
    rec = await manager.storage.get_game(game_id)
    if rec is None or rec.status not in ("lobby", "active") or "status_message" in rec.meta:
        return
    channel = bot.get_partial_messageable(int(channel_id))
    try:
        message = await channel.send(status_text(manager, rec), allowed_mentions=discord.AllowedMentions.none())
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
    meta = {"status_message": str(message.id), "status_channel": channel_id, "status_pinned": pinned}
    try:
        await manager.storage.update_meta(game_id, meta)
    except StaleVersion:
        log.warning("event=status_meta_failed game=%s", game_id)


async def refresh_status(bot: Any, reply: Reply) -> None:
    """Edit the status message after a public reply about a game."""
    from .discord_send import status_view

    manager: GameManager = bot.manager
    if reply.ephemeral or reply.game_id is None:
        return
    rec = await manager.storage.get_game(reply.game_id)
    if rec is None or "status_message" not in rec.meta:
        return
    channel = bot.get_partial_messageable(int(rec.meta["status_channel"]))
    message = channel.get_partial_message(int(rec.meta["status_message"]))
    over = rec.status in ("finished", "abandoned")
    try:
        await message.edit(content=status_text(manager, rec), view=None if over else status_view(rec.channel_id))
        if over and rec.meta.get("status_pinned"):
            await message.unpin(reason="playpost: the game is over")
    except discord.HTTPException as exc:
        log.info("event=status_edit_failed game=%s status=%s", rec.id, exc.status)


async def post_nudge(bot: Any, nudge: Any) -> None:
    """A reminder in the game's channel: pings exactly who must act, with the board's buttons."""
    from .discord_buttons import GameButton, OptionsButton, SkipVoteButton, VoteButton
    from .discord_select import GameSelect, board_menus
    from .discord_send import mentions, remember_board

    rec = nudge.rec
    view = discord.ui.View(timeout=None)
    for i, b in enumerate(nudge.buttons[:22]):
        view.add_item(GameButton(rec.channel_id, rec.version, b.action, index=i, label=b.label))
    rows_free = 5 - -(-(len(nudge.buttons[:22]) + 3) // 5)  # + My options and the two votes
    for menu in (await board_menus(bot, rec.id, rec.version))[:max(0, rows_free)]:
        view.add_item(GameSelect(rec.channel_id, rec.version, menu))
    view.add_item(OptionsButton(rec.channel_id))
    if nudge.kind in ("deadline", "overdue"):  # a missed deadline: the others may vote
        if nudge.can_skip:
            view.add_item(SkipVoteButton(rec.id))
        view.add_item(VoteButton(rec.id))
    text = nudge.text + "\n" + " ".join(f"<@{p}>" for p in nudge.to_act)
    channel = bot.get_partial_messageable(int(rec.channel_id))
    sent = await channel.send(text, allowed_mentions=mentions(nudge.to_act), view=view)
    if nudge.buttons:
        await remember_board(bot, rec.id, rec.version, int(rec.guild_id) if rec.guild_id else None, rec.channel_id,
                             sent.id)
