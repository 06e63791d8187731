"""Showing a manager Reply in Discord: one place, for slash commands, clicks and nudges alike.

Pure presentation: a Reply in, messages out; nothing here reads or writes storage. The interaction
has already been deferred (public or ephemeral); the first follow-up fills the "thinking" message.
Private texts go only to the invoker, ephemerally; pings name exactly the users who must act; the
controls under a board come from one view builder (`board_view`).
"""
from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from ..reply import Button, Menu, Reply
from .components import GameButton, GameSelect, HandButton, OptionsButton, RematchButton, hand_custom_id

log = logging.getLogger("playpost.discord")

MAX_CONTENT = 2000
ROWS = 5  # action rows under a message; 5 buttons to a row, a menu takes a row of its own


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
        need += [("attach_files", "Attach Files")]  # the board is a plain attachment, no embed
    return [label for attr, label in need if not getattr(perms, attr)]


def board_view(channel_id: str, version: int | None, buttons: Sequence[Button], menus: Sequence[Menu],
               tail: Sequence[discord.ui.Item[Any]] = (), *, reserve: int | None = None) -> discord.ui.View | None:
    """The controls under a board: buttons for the legal actions, menus for the rest that fit, then `tail`
    (e.g. "My options"). At most 5 rows: menus give way to buttons and to the `reserve` places kept for the tail."""
    items: list[discord.ui.Item[Any]] = []
    if version is not None:
        shown = list(buttons)[:24]
        taken = len(shown) + (len(tail) if reserve is None else reserve)
        rows_free = ROWS - -(-taken // 5)
        items += [GameButton(channel_id, version, b.action, index=i, label=b.label) for i, b in enumerate(shown)]
        items += [GameSelect(channel_id, version, m) for m in list(menus)[:max(0, rows_free)]]
    items += tail
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def view_for(reply: Reply, channel_id: str) -> discord.ui.View | None:
    """A reply's controls: its board's buttons and menus, "My options" while the game runs, "Rematch" at the end."""
    tail: list[discord.ui.Item[Any]] = []
    if reply.status_text and not reply.finished:
        tail.append(OptionsButton(channel_id))
    if reply.status_text and reply.finished and reply.game_id is not None:
        tail.append(RematchButton(reply.game_id))
    tail += hand_tail(reply, channel_id)
    menus = reply.menus if reply.buttons or reply.status_text else []
    return board_view(channel_id, reply.version, reply.buttons, menus, tail,
                      reserve=len(tail) if reply.status_text else 0)


def hand_tail(reply: Reply, channel_id: str) -> list[discord.ui.Item[Any]]:
    """"Your hand" under a public board whose players to act have private moves (bot/hand.py); the moves
    themselves never go under a public message."""
    if reply.ephemeral or reply.version is None or not reply.hand_controls:
        return []
    return [HandButton(channel_id, reply.version)]


def hand_view(reply: Reply, channel_id: str, player: str) -> discord.ui.View | None:
    """The private moves of `player` under a reply only they see (the answer to "Your hand" or `/game hand`)."""
    buttons, menus = reply.hand_controls.get(player, ([], []))
    if reply.version is None or not (buttons or menus):
        return None
    view = discord.ui.View(timeout=None)
    for i, b in enumerate(buttons[:20]):
        view.add_item(GameButton(channel_id, reply.version, b.action, label=b.label,
                                 cid=hand_custom_id(channel_id, reply.version, b.action, i)))
    for m in menus[:5 - -(-min(len(buttons), 20) // 5)]:
        view.add_item(GameSelect(channel_id, reply.version, m))
    return view


def status_view(channel_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OptionsButton(channel_id))
    return view


async def send_reply(interaction: discord.Interaction, reply: Reply, *, deferred_ephemeral: bool,
                     channel_id: str, note: str = "", thinking: bool = True) -> discord.WebhookMessage | None:
    """Send `reply` as the answer to an already deferred interaction; return the public message.
    `thinking`: the interaction was deferred with a "thinking" message (a click is deferred without one)."""
    invoker = str(interaction.user.id)
    if reply.ephemeral:
        if not deferred_ephemeral and thinking:
            await _drop_thinking(interaction)
        files = _files(reply)
        if reply.image is not None:  # a private picture (a preview): shown like a board, to the caller only
            board = _board(reply.image, getattr(interaction, "filesize_limit", 10 * 1024 * 1024))
            files[:0] = [board] if board else []
        await send_private(interaction, private_text(reply), files=files, extra=note,
                           view=hand_view(reply, channel_id, invoker))
        return None
    text = reply.text
    ping = [p for p in reply.ping if p]
    if ping:
        text = (text + "\n" + " ".join(f"<@{p}>" for p in ping)).strip()
    files = _files(reply)
    if reply.image is not None:
        board = _board(reply.image, getattr(interaction, "filesize_limit", 10 * 1024 * 1024))
        if board is None:
            text += "\n(The board image is larger than this server's upload limit.)"
        else:
            files.insert(0, board)
    view = view_for(reply, channel_id)
    pieces = chunks(text)
    sent: discord.WebhookMessage | None = None
    for i, piece in enumerate(pieces):
        kwargs: dict[str, Any] = {"content": piece or None, "allowed_mentions": mentions(ping), "wait": True,
                                  "ephemeral": deferred_ephemeral}
        if i == len(pieces) - 1:
            kwargs.update({k: v for k, v in (("files", files), ("view", view)) if v})
            if kwargs["content"] is None and len(kwargs) == 4:
                kwargs["content"] = "Done."  # the thinking message must be answered
        sent = await interaction.followup.send(**kwargs)
    mine = reply.private.get(invoker)
    if mine or note:
        await send_private(interaction, mine or "", extra=note)
    return sent


async def attach_board(message: discord.WebhookMessage | discord.PartialMessage, image: bytes, limit: int,
                       content: str | None = None) -> None:
    """Add a board drawn after its text was posted to that message (its text and controls stay;
    `content`: the message's text, when `message` does not carry it)."""
    board = _board(image, limit)
    if board is None:
        text = content if content is not None else getattr(message, "content", "")
        await message.edit(content=f"{text}\n(The board image is larger than this server's upload limit.)")
        return
    await message.edit(attachments=[board])


def continued_text(before: str, reply: Reply) -> str:
    """The turn's message after one more move of the same turn: what it said (without its status line),
    this move's lines, the status line now."""
    return "\n".join(t for t in (before, body_of(reply), reply.status_text) if t)


def body_of(reply: Reply) -> str:
    """A reply's text without its trailing status line (which the next move of the turn replaces)."""
    text = reply.text
    if reply.status_text and text.endswith(reply.status_text):
        text = text[: -len(reply.status_text)]
    return text.strip()


async def edit_turn(message: discord.PartialMessage, reply: Reply, content: str, channel_id: str,
                    limit: int) -> None:
    """Show one more move of the same turn in the turn's message: text appended, board and controls replaced.
    Raises discord.HTTPException (say, the message was deleted): the caller posts a new message instead."""
    kwargs: dict[str, Any] = {"content": content, "view": view_for(reply, channel_id),
                              "allowed_mentions": discord.AllowedMentions.none(), "embeds": []}
    if reply.image is not None:
        board = _board(reply.image, limit)
        if board is not None:
            kwargs["attachments"] = [board]
    await message.edit(**kwargs)


def private_text(reply: Reply) -> str:
    """An ephemeral reply's text; a refused stale click also points to the newest board, when known."""
    if reply.stale and reply.board_url:
        return f"{reply.text}\nThe current board: {reply.board_url}"
    return reply.text


def message_url(guild_id: int | str | None, channel_id: str, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


ALREADY_ACKNOWLEDGED = 40060  # Discord's error code: this interaction was answered already


def answered_elsewhere(exc: BaseException) -> bool:
    """Another session took this interaction first (two processes on one shard around a handover): its
    answer is the one the player sees, so this one stays silent (a follow-up would replace its message)."""
    return isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ACKNOWLEDGED


async def post_failed(interaction: discord.Interaction, reply: Reply | None, exc: Exception) -> None:
    """Discord refused (or kept failing) a post after the manager answered: the game is as stored.

    A committed move stays committed; a note says so when Discord lets us (it fills the
    "thinking" message, so it is as public as the answer would have been), and `/game status`
    posts the current board again. Nothing here raises.
    """
    if answered_elsewhere(exc):
        log.info("event=answered_elsewhere channel=%s user=%s", interaction.channel_id, interaction.user.id)
        return
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
        await send_private(interaction, text)
    except discord.HTTPException as again:
        log.warning("event=post_failed_note_failed channel=%s status=%s", interaction.channel_id, again.status)


async def _drop_thinking(interaction: discord.Interaction) -> None:
    """A public "thinking" message whose answer turned out private: remove it first."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        log.warning("event=delete_thinking_failed status=%s", exc.status)


def _board(image: bytes, limit: int) -> discord.File | None:
    """The board as a plain attachment, board.png (nothing if over the upload limit).

    Discord shows a plain image attachment much larger than an image inside an embed (about 400 px
    wide on desktop), where hex labels and the panel cannot be read without opening it; so no embed.
    """
    if len(image) > limit:
        return None
    return discord.File(io.BytesIO(image), filename="board.png")


async def send_private(interaction: discord.Interaction, text: str, *, files: list[discord.File] | None = None,
                        extra: str = "", view: discord.ui.View | None = None) -> None:
    body = "\n".join(t for t in (text, extra) if t).strip() or "Done."
    pieces = chunks(body)
    for i, piece in enumerate(pieces):
        kwargs: dict = {"content": piece, "ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
        if i == len(pieces) - 1:
            if files:
                kwargs["files"] = files
            if view is not None:
                kwargs["view"] = view
        await interaction.followup.send(**kwargs)


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=_safe_name(a.name)) for a in reply.files]


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) or "file"
