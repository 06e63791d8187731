"""Showing a manager Reply in Discord: one place, for slash commands and button clicks alike.

The interaction has already been deferred (public or ephemeral); the first follow-up fills
the "thinking" message. Private texts go only to the invoker, ephemerally; pings name exactly
the users who must act; buttons are DynamicItems that carry channel, version and action.
"""
from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from .discord_select import board_menus
from .reply import Reply

log = logging.getLogger("playpost.discord")

MAX_CONTENT = 2000
CUSTOM_ID_MAX = 100
TEMPLATE = r"pp:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)"
INDEX_MARK = "#"  # `pp:<channel>:<version>:#<n>`: the n-th button of that board (action text too long)


def custom_id(channel_id: str, version: int, action: str, index: int) -> str:
    """The button's custom_id; falls back to the button's index when the action text is too long."""
    cid = f"pp:{channel_id}:{version}:{action}"
    if len(cid) <= CUSTOM_ID_MAX and not action.startswith(INDEX_MARK):
        return cid
    return f"pp:{channel_id}:{version}:{INDEX_MARK}{index}"


def chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split a long text at line breaks into message-sized pieces."""
    out: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out or [""]


def mentions(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged; never roles or everyone."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=int(u)) for u in user_ids if u.isdigit()])


def missing_permissions(perms: discord.Permissions, *, in_thread: bool, board: bool) -> list[str]:
    """What the bot lacks in this channel for showing a game, in the names Discord's settings use."""
    need = [("send_messages_in_threads" if in_thread else "send_messages",
             "Send Messages in Threads" if in_thread else "Send Messages")]
    if board:
        need += [("attach_files", "Attach Files"), ("embed_links", "Embed Links")]
    return [label for attr, label in need if not getattr(perms, attr)]


def view_for(reply: Reply, channel_id: str, menus: Sequence[Any] = ()) -> discord.ui.View | None:
    """The controls under a board: buttons for the legal actions and menus for the rest that fit,
    "My options" while it runs, "Rematch" at the end (at most 5 rows: menus give way to buttons)."""
    from .discord_buttons import GameButton, OptionsButton, RematchButton
    from .discord_select import GameSelect

    items: list[discord.ui.Item] = []
    buttons = reply.buttons[:24] if reply.version is not None else []
    extra = 1 if reply.status_text else 0  # "My options" or "Rematch"
    rows_free = 5 - -(-(len(buttons) + extra) // 5)
    if reply.version is not None:
        items += [GameButton(channel_id, reply.version, b.action, index=i, label=b.label)
                  for i, b in enumerate(buttons)]
        items += [GameSelect(channel_id, reply.version, m) for m in list(menus)[:max(0, rows_free)]]
    if reply.status_text and not reply.finished:
        items.append(OptionsButton(channel_id))
    if reply.status_text and reply.finished and reply.game_id is not None:
        items.append(RematchButton(reply.game_id))
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def status_view(channel_id: str) -> discord.ui.View:
    from .discord_buttons import OptionsButton

    view = discord.ui.View(timeout=None)
    view.add_item(OptionsButton(channel_id))
    return view


async def send_reply(interaction: discord.Interaction, reply: Reply, *, deferred_ephemeral: bool,
                     channel_id: str, note: str = "") -> discord.WebhookMessage | None:
    """Send `reply` as the answer to an already deferred interaction; return the public message."""
    invoker = str(interaction.user.id)
    if reply.ephemeral:
        if not deferred_ephemeral:
            await _drop_thinking(interaction)
        files = _files(reply)
        embed = None
        if reply.image is not None:  # a private picture (a preview): shown like a board, to the caller only
            embed, board = _board(reply.image, getattr(interaction, "filesize_limit", 10 * 1024 * 1024))
            files[:0] = [board] if board else []
        await _send_private(interaction, reply.text, files=files, extra=note, embed=embed)
        return None
    text = reply.text
    ping = [p for p in reply.ping if p]
    if ping:
        text = (text + "\n" + " ".join(f"<@{p}>" for p in ping)).strip()
    files = _files(reply)
    embed = None
    if reply.image is not None:
        embed, board = _board(reply.image, getattr(interaction, "filesize_limit", 10 * 1024 * 1024))
        if board is None:
            text += "\n(The board image is larger than this server's upload limit.)"
        else:
            files.insert(0, board)
    view = view_for(reply, channel_id, await board_menus(interaction.client, reply.game_id, reply.version)
                    if reply.buttons or reply.status_text else ())
    pieces = chunks(text)
    sent: discord.WebhookMessage | None = None
    for i, piece in enumerate(pieces):
        kwargs: dict = {"content": piece or None, "allowed_mentions": mentions(ping), "wait": True,
                        "ephemeral": deferred_ephemeral}
        if i == len(pieces) - 1:
            kwargs.update({k: v for k, v in (("embed", embed), ("files", files), ("view", view)) if v})
            if kwargs["content"] is None and len(kwargs) == 4:
                kwargs["content"] = "Done."  # the thinking message must be answered
        sent = await interaction.followup.send(**kwargs)
    if sent is not None and view is not None and reply.game_id is not None and reply.buttons and reply.version:
        await remember_board(interaction.client, reply.game_id, reply.version, interaction.guild_id, channel_id,
                             sent.id)
    mine = reply.private.get(invoker)
    if mine or note:
        await _send_private(interaction, mine or "", extra=note)
    return sent


async def remember_board(bot: Any, game_id: int, version: int, guild_id: int | None, channel_id: str,
                         message_id: int) -> None:
    """Keep a link to the newest board with buttons, so a stale button can point to it (meta: no version bump)."""
    url = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"
    try:
        await bot.manager.storage.update_meta(game_id, {"board_url": url, "board_version": version})
    except Exception:  # bookkeeping only: never let it cost the move its answer
        log.warning("event=board_link_failed game=%s", game_id, exc_info=True)


async def board_pointer(bot: Any, channel_id: str) -> str:
    """"The current board: <link>" for the game in this channel, if its newest board is known."""
    rec = await bot.manager.storage.live_game(channel_id)
    if rec is None or rec.status != "active" or rec.meta.get("board_version") != rec.version:
        return ""  # no board of this version posted yet (a click that lost a race to it): `/game status` it is
    return f"\nThe current board: {rec.meta['board_url']}"


STALE = "This board is out of date."


async def post_failed(interaction: discord.Interaction, reply: Reply | None, exc: Exception) -> None:
    """Discord refused (or kept failing) a post after the manager answered: the game is as stored.

    A committed move stays committed; a note says so when Discord lets us (it fills the
    "thinking" message, so it is as public as the answer would have been), and `/game status`
    posts the current board again. Nothing here raises.
    """
    status = getattr(exc, "status", None)
    committed = reply is not None and not reply.ephemeral and reply.version is not None
    log.warning("event=post_failed channel=%s user=%s status=%s committed=%s error=%r", interaction.channel_id,
                interaction.user.id, status, committed, exc)
    what = f"Discord refused the message (HTTP {status})" if status else "Something went wrong on my side"
    if committed:
        text = (f"The move by {interaction.user.display_name} counts, but Discord refused to show its board "
                f"(HTTP {status}). `/game status` posts the current board.")
    else:
        text = f"{what}. `/game status` shows the game."
    try:
        await _send_private(interaction, text)
    except discord.HTTPException as again:
        log.warning("event=post_failed_note_failed channel=%s status=%s", interaction.channel_id, again.status)


async def _drop_thinking(interaction: discord.Interaction) -> None:
    """A public "thinking" message whose answer turned out private: remove it first."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        log.warning("event=delete_thinking_failed status=%s", exc.status)


def _board(image: bytes, limit: int) -> tuple[discord.Embed | None, discord.File | None]:
    """The board as an embed showing the attached board.png (nothing if over the upload limit)."""
    if len(image) > limit:
        return None, None
    embed = discord.Embed()
    embed.set_image(url="attachment://board.png")
    return embed, discord.File(io.BytesIO(image), filename="board.png")


async def _send_private(interaction: discord.Interaction, text: str, *, files: list[discord.File] | None = None,
                        extra: str = "", embed: discord.Embed | None = None) -> None:
    body = "\n".join(t for t in (text, extra) if t).strip() or "Done."
    pieces = chunks(body)
    for i, piece in enumerate(pieces):
        kwargs: dict = {"content": piece, "ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
        if i == len(pieces) - 1:
            kwargs.update({k: v for k, v in (("files", files), ("embed", embed)) if v})
        await interaction.followup.send(**kwargs)


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=_safe_name(a.name)) for a in reply.files]


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) or "file"
