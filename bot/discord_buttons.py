"""Game buttons that survive restarts: everything a click needs is in its custom_id.

`pp:<channel>:<version>:<action text>` (or `...:#<n>` when the text is too long). A click is
checked against the board as stored: only the player the button was made for may press it,
and the manager refuses it when the game has moved past that version.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable

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
    """The same game again: same seats and options, a new seed, started at once."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                           custom_id=f"pp:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
        old = await manager.storage.get_game(self.game_id)
        user = str(interaction.user.id)
        if old is None or user not in {s.player for s in old.seats}:
            await interaction.response.send_message("Only the players of that game can call a rematch.",
                                                    ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        try:
            reply = await rematch(interaction, manager, old)
            await send_reply(interaction, reply, deferred_ephemeral=False, channel_id=old.channel_id)
            await refresh_status(interaction.client, reply)
        except Exception as exc:
            log.exception("event=rematch_failed game=%s", self.game_id)
            await post_failed(interaction, None, exc)
            return
        log.info("event=rematch game=%s user=%s ok=%s", self.game_id, user, not reply.ephemeral)


async def rematch(interaction: discord.Interaction, manager: GameManager, old) -> Reply:  # noqa: ANN001
    """Open the old game's kind with its options, seat its players with their choices, start it."""
    if old.status != "finished":
        return Reply.error("Only a finished game can be played again.", "`/game new` opens a new one.")
    host = _context(interaction, old.channel_id)
    opened = await manager.dispatch(host, "game", "new", {"game": old.kind, "thread": False, **old.options})
    if opened.ephemeral:
        return opened
    # the status message is posted while the game is a lobby, before any board has buttons
    await create_status(interaction.client, opened.game_id, old.channel_id, interaction.app_permissions,
                        in_thread=isinstance(interaction.channel, discord.Thread))
    host_seated = False
    for seat in old.seats:
        if seat.player == host.user_id and not host_seated:
            host_seated = True
            if not seat.choices:
                continue  # `/game new` seated the host already
        ctx = Context(channel_id=old.channel_id, user_id=seat.player, user_name=seat.name, guild_id=host.guild_id)
        joined = await manager.dispatch(ctx, "game", "join", dict(seat.choices))
        if joined.ephemeral:
            return Reply(text=f"Rematch lobby opened, but {seat.name} could not be seated again: {joined.text}",
                         game_id=opened.game_id)
    started = await manager.dispatch(host, "game", "start", {})
    if not started.ephemeral:
        started.text = f"Rematch called by {host.user_name}.\n{started.text}"
    return started


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:vote:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote; more than half of them ends the game."""

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
        manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
        user = str(interaction.user.id)
        async with manager.lock(f"vote:{self.game_id}"):
            outcome, carried = await count_vote(interaction, manager, self.game_id, user, self.kind)
            if carried is None:
                await interaction.response.send_message(outcome, ephemeral=True)
                return
            await interaction.response.defer(thinking=True)  # before the move is applied and drawn
            reply = await carried()
        try:
            await send_reply(interaction, reply, deferred_ephemeral=False, channel_id=str(interaction.channel_id))
        except discord.HTTPException as exc:  # the vote's outcome is stored; only showing it failed
            await post_failed(interaction, reply, exc)
        await refresh_status(interaction.client, reply)


class SkipVoteButton(VoteButton, template=r"pp:skip:(?P<game>[0-9]+)"):
    """After a missed deadline the other players vote; more than half of them skips the late player's move."""

    kind = "skip"
    label = "Vote to skip the turn"
    style = discord.ButtonStyle.secondary


async def count_vote(interaction: discord.Interaction, manager: GameManager, game_id: int, user: str,
                     kind: str) -> tuple[str, Callable[[], Awaitable[Reply]] | None]:
    """Count one vote (`end` or `skip`): (private answer, None), or ("", what carrying it does) to run once deferred."""
    rec = await manager.storage.get_game(game_id)
    if rec is None or rec.status != "active" or rec.state is None:
        return "That game is not running any more.", None
    if rec.deadline_at is None or rec.deadline_at > manager.clock():
        return "The turn deadline has not passed; there is nothing to vote on.", None
    engine = get_game(rec.kind)
    state = manager.state_of(rec, engine)
    late = list(engine.status(state).to_act)
    voters = sorted({s.player for s in rec.seats} - set(late))
    what = "ending the game" if kind == "end" else "skipping the turn"
    if user not in voters:
        return f"Only the other seated players vote on {what}.", None
    if kind == "skip" and not any(engine.skip_action(state, p) is not None for p in late):
        return f"This move cannot be skipped in {engine.name}; the vote to end the game is still open.", None
    key = f"{kind}_votes"
    ballot = rec.meta.get(key) or {}
    votes = set(ballot.get("voters", [])) if ballot.get("deadline") == rec.deadline_at else set()
    if user in votes:
        return "Your vote is counted already.", None
    votes.add(user)
    need = len(voters) // 2 + 1
    if len(votes) < need:
        # meta only: the version stays, so the late player's buttons keep working
        await manager.storage.update_meta(rec.id, {key: {"deadline": rec.deadline_at, "voters": sorted(votes)}})
        log.info("event=vote game=%s kind=%s votes=%d need=%d", rec.id, kind, len(votes), need)
        return f"Vote counted: {len(votes)} of the {need} needed for {what}.", None
    log.info("event=vote_carried game=%s kind=%s votes=%d", rec.id, kind, len(votes))
    if kind == "skip":
        return "", lambda: skip_late_players(manager, rec, late)
    ctx = Context(channel_id=rec.channel_id, user_id=user, user_name=interaction.user.display_name,
                  guild_id=rec.guild_id, can_manage=True)  # the vote carries the authority to end it

    async def end() -> Reply:
        reply = await manager.dispatch(ctx, "game", "abandon", {})
        if not reply.ephemeral:
            reply.text = f"The other players voted to end the game after the missed deadline.\n{reply.text}"
        return reply

    return "", end


async def skip_late_players(manager: GameManager, rec, late: list[str]) -> Reply:  # noqa: ANN001
    """Apply the game's skip action for each player who kept the game waiting, while they still must act."""
    done: list[Reply] = []
    for player in late:
        current = await manager.storage.get_game(rec.id)
        if current is None or current.status != "active" or current.state is None:
            break
        if done and player not in get_game(current.kind).status(manager.state_of(current)).to_act:
            continue
        if not done and current.version != rec.version:
            return Reply.error("The game moved on before the vote was counted; nothing was skipped.",
                               "`/game status` shows the current board.")
        reply = await manager.skip(current, player)
        if reply.ephemeral:
            if done:
                continue
            return reply
        done.append(reply)
        if reply.finished:
            break
    if not done:
        return Reply.error("Nobody could be skipped.", "The vote to end the game is still open.")
    last = done[-1]
    earlier = [r.text.split("\n", 1)[0] for r in done[:-1]]
    last.text = "\n".join([*earlier, last.text])
    return last
