"""What a slash command or a click does: acknowledge, ask the manager, present its Reply, keep the status current.

Every interaction is acknowledged within Discord's 3 seconds, before any board is drawn: a slash
command defers at once; a click lets the manager acknowledge (`Context.ack`) once its quick checks
pass, so a refused click (not yours, an old board, a counted vote) is answered privately at once,
without a public "thinking" message first; should those checks wait behind a burst, a timer
acknowledges anyway (`ACK_WITHIN`).

A move's text leaves as soon as the move is applied; its board follows. A board ready within
`image_wait` goes out with the text in one message, a later one is added to that message when drawn,
and a board superseded by a newer board of the channel is never drawn (bot/pipeline.py). The
replies of a channel are posted in the order the moves were made.
"""
from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import discord

from games.core import all_games

from ..manager import GameManager
from ..pipeline import Board
from ..reply import Context, Reply
from .present import (
    MAX_CONTENT,
    attach_board,
    body_of,
    continued_text,
    edit_turn,
    message_url,
    missing_permissions,
    post_failed,
    private_text,
    send_private,
    send_reply,
)
from .status import Poster, create_status, refresh_status

log = logging.getLogger("playpost.discord")

THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 10080
ACK_WITHIN = 2.0  # seconds: a click not yet acknowledged by then is deferred anyway (Discord allows 3)


def context(interaction: discord.Interaction, channel_id: str | None = None, **more: Any) -> Context:
    """Who acts, and where: the one Context an interaction gives the manager."""
    return Context(
        channel_id=channel_id or str(interaction.channel_id),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        can_manage=bool(interaction.permissions.manage_channels),
        image_later=True,  # this transport posts a board after its text when drawing takes a while
        **more,
    )


def once(interaction: discord.Interaction, *, thinking: bool = True) -> Callable[[], Awaitable[None]]:
    """Defer a click exactly once, whoever asks first (the manager or the timer): publicly with a "thinking"
    message, or (`thinking=False`, a game move) as an update of the clicked message, which adds no message."""
    sent: asyncio.Task[Any] | None = None

    async def defer() -> None:
        nonlocal sent
        if sent is None:
            if interaction.response.is_done():
                return
            sent = asyncio.get_running_loop().create_task(interaction.response.defer(thinking=thinking))
        await asyncio.shield(sent)

    return defer


@dataclass
class TurnPost:
    """The message of the turn under way in a channel: moves of the same turn edit it."""

    game_id: int
    message_id: int
    body: str  # its text without the status line

    def meta(self) -> dict[str, str]:
        return {"message_id": str(self.message_id), "body": self.body}

    @classmethod
    def from_meta(cls, game_id: int, meta: dict[str, Any]) -> TurnPost | None:
        """The turn's message as remembered in the game's meta; None if what is there does not read."""
        message_id = str(meta.get("message_id", ""))
        if not message_id.isdigit():
            return None
        return cls(game_id, int(message_id), str(meta.get("body", "")))


def ack_timer(defer: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle:
    """Defer after `ACK_WITHIN` seconds unless cancelled first (the answer came in time)."""

    async def late() -> None:
        try:
            await defer()
        except discord.HTTPException as exc:
            log.warning("event=ack_failed status=%s", exc.status)

    return asyncio.get_running_loop().call_later(ACK_WITHIN, lambda: asyncio.ensure_future(late()))


class Flows:
    """Runs interactions through the manager; the components reach it as `interaction.client.flows`."""

    def __init__(self, bot: Poster, *, image_wait: float = 0.5, replay_at_end: bool = True) -> None:
        self.bot = bot
        self.image_wait = image_wait  # seconds a move's text waits for its board before leaving without it
        self.replay_at_end = replay_at_end  # a move that ends a game: its replay follows the final board
        self._posting: dict[str, asyncio.Lock] = {}  # per channel: replies are posted in commit order
        # per channel: the message of the turn under way; kept in the game's meta too (`remember_turn`), so
        # after a restart the turn's next move edits the same message (it comes back in `Reply.turn_message`)
        self.turns: dict[str, TurnPost] = {}

    @property
    def manager(self) -> GameManager:
        assert self.bot.manager is not None, "the bot's manager is opened in setup_hook"
        return self.bot.manager

    # ---- slash commands ----------------------------------------------------------
    async def slash(self, interaction: discord.Interaction, group: str, name: str, options: dict[str, Any]) -> None:
        started = time.perf_counter()
        ctx = context(interaction)
        private = await self.manager.answers_privately(ctx, group, name)
        await interaction.response.defer(thinking=True, ephemeral=private)
        try:
            thread: discord.Thread | None = None
            notes: list[str] = []
            if group == "game" and name == "new" and options.get("thread") is not False:
                thread, note = await _open_thread(interaction, options)
                notes += [note] if note else []
                if thread is not None:
                    ctx = replace(ctx, channel_id=str(thread.id))
            reply = await self.manager.dispatch(ctx, group, name, options)
            if thread is not None:
                reply = await _move_to_thread(interaction, thread, reply)
            if not reply.ephemeral and reply.image is not None:
                lacking = missing_permissions(interaction.app_permissions, board=True,
                                              in_thread=isinstance(interaction.channel, discord.Thread))
                if lacking:
                    notes.append("I am missing " + ", ".join(lacking) + " in this channel, so boards may not show. "
                                 "Someone with Manage Channel can grant them.")
            await self._show(interaction, reply, ctx.channel_id, deferred_ephemeral=private, note="\n".join(notes),
                             in_thread=thread is not None or isinstance(interaction.channel, discord.Thread))
        except Exception as exc:
            log.exception("event=command_failed command=%s/%s channel=%s user=%s", group, name, ctx.channel_id,
                          ctx.user_id)
            await post_failed(interaction, None, exc)
            return
        ms = (time.perf_counter() - started) * 1000
        log.info("event=command command=%s/%s channel=%s user=%s ok=%s version=%s ms=%d", group, name,
                 ctx.channel_id, ctx.user_id, not reply.ephemeral, reply.version, ms)

    # ---- clicks ------------------------------------------------------------------
    async def press(self, interaction: discord.Interaction, channel_id: str, version: int, carried: str, *,
                    menu: str | None = None) -> None:
        """A click on a board's button or menu: checked by the manager against the board as stored, then played."""
        started = time.perf_counter()
        defer = once(interaction, thinking=False)
        ctx = context(interaction, channel_id, ack=defer)
        reply: Reply | None = None
        timer = ack_timer(defer)
        try:
            try:
                reply = await self.manager.press(ctx, version, carried, menu=menu)
            finally:
                timer.cancel()
            if await self._refused_at_once(interaction, reply, thinking=False):
                log.info("event=click_refused channel=%s user=%s stale=%s", channel_id, ctx.user_id, reply.stale)
                return
            shown = await self._show(interaction, reply, channel_id, thinking=False)
        except Exception as exc:
            log.exception("event=click_failed channel=%s user=%s", channel_id, ctx.user_id)
            await post_failed(interaction, reply, exc)  # never delete what may already be the new board
            return
        log.info("event=click channel=%s user=%s version=%s ok=%s ms=%d", channel_id, ctx.user_id, version,
                 not reply.ephemeral, (time.perf_counter() - started) * 1000)
        if not reply.ephemeral and interaction.message is not None and shown != interaction.message.id:
            # the board this control sat under is history now: take its controls away
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException as exc:
                log.info("event=clear_buttons_failed status=%s", exc.status)

    async def command(self, interaction: discord.Interaction, channel_id: str, name: str, options: dict[str, Any],
                      *, game_id: int | None = None, private: bool = False) -> None:
        """A button that runs a `/game` command: "My options" (privately), a vote or a rematch (for its game)."""
        if private:
            await interaction.response.defer(thinking=True, ephemeral=True)
            reply = await self.manager.dispatch(context(interaction, channel_id), "game", name, options)
            await send_reply(interaction, reply, deferred_ephemeral=True, channel_id=channel_id)
            return

        defer = once(interaction)
        ctx = context(interaction, channel_id, game_id=game_id, ack=defer)
        timer = ack_timer(defer)
        try:
            reply = await self.manager.dispatch(ctx, "game", name, options)
        finally:
            timer.cancel()
        if await self._refused_at_once(interaction, reply):
            log.info("event=button_refused command=%s game=%s user=%s", name, game_id, ctx.user_id)
            return
        await self._show(interaction, reply, channel_id,
                         in_thread=isinstance(interaction.channel, discord.Thread))
        log.info("event=button command=%s game=%s user=%s ok=%s", name, game_id, ctx.user_id, not reply.ephemeral)

    # ---- showing a reply ---------------------------------------------------------
    @staticmethod
    async def _refused_at_once(interaction: discord.Interaction, reply: Reply, *, thinking: bool = True) -> bool:
        """A click the manager answered before acknowledging it: say so privately, at once."""
        if interaction.response.is_done():
            return False
        if reply.ephemeral:
            await interaction.response.send_message(private_text(reply), ephemeral=True)
            return True
        await interaction.response.defer(thinking=thinking)  # not expected: a public answer is acknowledged first
        return False

    async def _show(self, interaction: discord.Interaction, reply: Reply, channel_id: str, *,
                    deferred_ephemeral: bool = False, note: str = "", in_thread: bool = False,
                    thinking: bool = True) -> int | None:
        """Post the reply (the game is as the manager left it, whatever Discord says), then the status message;
        return the id of the message that shows it (a move of the turn under way edits the turn's message).

        Called as soon as the manager answers (no await in between): the channel's posting lock is
        queued for in the order the manager released the replies, which is the order of the moves.
        """
        board = reply.board
        async with self._posting.setdefault(channel_id, asyncio.Lock()):
            if board is not None and not reply.ephemeral:
                try:  # a board drawn quickly goes out with its text, in one message
                    await asyncio.wait_for(board.settled(), self.image_wait)
                    if board.ready:
                        reply.image = await board.image()
                        board = None
                except TimeoutError:
                    pass
                except Exception:
                    log.warning("event=board_failed game=%s", reply.game_id, exc_info=True)
                    board = None
            sent: discord.WebhookMessage | discord.PartialMessage | None = None
            edited = await self._continue_turn(interaction, reply, channel_id, thinking=thinking, note=note)
            if edited is not None:
                sent = edited
            else:
                try:
                    sent = await send_reply(interaction, reply, deferred_ephemeral=deferred_ephemeral,
                                            channel_id=channel_id, note=note, thinking=thinking)
                except discord.HTTPException as exc:
                    await post_failed(interaction, reply, exc)
                    sent = None
                if sent is not None and reply.game_id is not None and reply.version is not None:
                    await self._new_turn(channel_id, TurnPost(reply.game_id, sent.id, body_of(reply)))
                    if reply.finished:  # the game is over: no turn goes on in this channel
                        self.turns.pop(channel_id, None)
            if sent is not None and reply.game_id is not None and reply.buttons and reply.version:
                # where the newest board with buttons is, so a stale button can point to it
                try:
                    await self.manager.remember_board(reply.game_id, reply.version,
                                                      message_url(interaction.guild_id, channel_id, sent.id))
                except Exception:  # bookkeeping only: never let it cost the move its answer
                    log.warning("event=board_link_failed game=%s", reply.game_id, exc_info=True)
            if reply.opened and not reply.ephemeral:
                await create_status(self.bot, reply, channel_id, interaction.app_permissions, in_thread=in_thread)
            else:
                await refresh_status(self.bot, reply)
        if board is not None and sent is not None and not reply.ephemeral:
            content = None
            if edited is not None:
                turn = self.turns.get(channel_id)
                content = continued_text(turn.body, replace(reply, text="")) if turn else None
            await self._board_later(interaction, reply, board, sent, content)
        if reply.replay_due and self.replay_at_end and sent is not None and reply.game_id is not None:
            await self.post_replay(channel_id, reply.game_id)
        return None if sent is None else sent.id

    async def post_replay(self, channel_id: str, game_id: int) -> None:
        """The game just ended: its animated replay, drawn in the render pool, posted after the final board.
        A failure is logged and changes nothing (the game is over and stored already)."""
        try:
            replay = await self.manager.end_replay(game_id)
            if replay is None:
                return
            files = [discord.File(io.BytesIO(f.data), filename=f.name) for f in replay.files]
            await self.bot.get_partial_messageable(int(channel_id)).send(replay.text, files=files)
            log.info("event=end_replay game=%s bytes=%d", game_id, sum(len(f.data) for f in replay.files))
        except Exception:
            log.warning("event=end_replay_failed game=%s", game_id, exc_info=True)

    async def _continue_turn(self, interaction: discord.Interaction, reply: Reply, channel_id: str, *,
                             thinking: bool, note: str = "") -> discord.PartialMessage | None:
        """A move of the turn under way: edit the turn's message (text appended, board and controls
        replaced) and drop this interaction's own "thinking" message; None when a new message is due
        (another player acts, the turn's message is unknown or gone, or the text would be too long)."""
        turn = self.turns.get(channel_id)
        if turn is None and reply.turn_message and reply.game_id is not None:  # remembered before a restart
            turn = TurnPost.from_meta(reply.game_id, reply.turn_message)
            if turn is not None:
                self.turns[channel_id] = turn
        if reply.ephemeral or not reply.continues or turn is None or turn.game_id != reply.game_id:
            return None
        body = "\n".join(t for t in (turn.body, body_of(reply)) if t)
        content = continued_text(turn.body, reply)
        if len(content) > MAX_CONTENT:
            return None
        message = self.bot.get_partial_messageable(int(channel_id)).get_partial_message(turn.message_id)
        try:
            await edit_turn(message, reply, content, channel_id, getattr(interaction, "filesize_limit", 10 << 20))
        except discord.HTTPException as exc:
            log.info("event=turn_edit_failed channel=%s status=%s", channel_id, exc.status)
            self.turns.pop(channel_id, None)
            return None
        turn.body = body
        await self._remember_turn(turn)
        if thinking:  # before any private word: a follow-up would otherwise fill the public "thinking" message
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as exc:
                log.info("event=delete_thinking_failed status=%s", exc.status)
        mine = reply.private.get(str(interaction.user.id))
        if mine or note:
            try:
                await send_private(interaction, mine or "", extra=note)
            except discord.HTTPException as exc:
                log.warning("event=private_failed channel=%s status=%s", channel_id, exc.status)
        return message

    async def _new_turn(self, channel_id: str, post: TurnPost) -> None:
        """A new message for a new turn: the previous turn's message loses its controls."""
        old = self.turns.get(channel_id)
        self.turns[channel_id] = post
        await self._remember_turn(post)
        if old is None or old.message_id == post.message_id:
            return
        try:
            await self.bot.get_partial_messageable(int(channel_id)).get_partial_message(old.message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.info("event=clear_buttons_failed status=%s", exc.status)

    async def _remember_turn(self, turn: TurnPost) -> None:
        """Keep the turn's message in the game's meta (bookkeeping only: a failure costs a restart an edit)."""
        try:
            await self.manager.remember_turn(turn.game_id, turn.meta())
        except Exception:
            log.warning("event=turn_meta_failed game=%s", turn.game_id, exc_info=True)

    @staticmethod
    async def _board_later(interaction: discord.Interaction, reply: Reply, board: Board,
                           sent: discord.WebhookMessage | discord.PartialMessage, content: str | None) -> None:
        """The board that was not ready with its text: added to that message once drawn (unless superseded)."""
        try:
            image = await board.image()
        except Exception:
            log.warning("event=board_failed game=%s", reply.game_id, exc_info=True)
            return
        if image is None:
            log.info("event=board_superseded game=%s version=%s", reply.game_id, reply.version)
            return
        try:
            await attach_board(sent, image, getattr(interaction, "filesize_limit", 10 * 1024 * 1024), content)
        except discord.HTTPException as exc:
            log.warning("event=board_attach_failed game=%s status=%s", reply.game_id, exc.status)


async def _open_thread(interaction: discord.Interaction, options: dict[str, Any]) -> tuple[discord.Thread | None, str]:
    """A public thread for a new game, when the command ran in a text channel that allows it."""
    channel = interaction.channel
    engine = all_games().get(str(options.get("game")))
    if not isinstance(channel, discord.TextChannel) or engine is None:
        return None, ""
    perms = interaction.app_permissions
    lacking = [label for attr, label in (("create_public_threads", "Create Public Threads"),
                                         ("send_messages_in_threads", "Send Messages in Threads"))
               if not getattr(perms, attr)]
    if lacking:
        return None, (f"I cannot open a thread here (missing {', '.join(lacking)}), so the game is in this channel. "
                      "Pass `thread:false` to choose that yourself.")
    name = f"{engine.name} · {interaction.user.display_name}"[:100]
    try:
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                                             reason="playpost: a new game")
    except discord.HTTPException as exc:
        log.warning("event=thread_failed channel=%s status=%s", channel.id, exc.status)
        return None, "I could not open a thread here, so the game is in this channel."
    return thread, ""


async def _move_to_thread(interaction: discord.Interaction, thread: discord.Thread, reply: Reply) -> Reply:
    """The game lives in `thread`: announce it there, point the channel to it; drop the thread on error."""
    if reply.ephemeral:
        try:
            await thread.delete()
        except discord.HTTPException as exc:
            log.warning("event=thread_delete_failed thread=%s status=%s", thread.id, exc.status)
        return reply
    await thread.send(reply.text, allowed_mentions=discord.AllowedMentions.none())
    try:
        await thread.add_user(interaction.user)
    except discord.HTTPException as exc:
        log.info("event=thread_add_user_failed thread=%s status=%s", thread.id, exc.status)
    return replace(reply, text=f"{reply.text}\nThe game is played in {thread.mention}.", thread_name=None)
