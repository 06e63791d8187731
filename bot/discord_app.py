"""The Discord adapter: slash commands and buttons in, manager Replies out.

Commands are generated from bot/commands.py (one definition for Discord and the console):
a group per entry of `commands.groups()` (`/game`, `/<game id>`), one subcommand per
CommandSpec, plus `/rules`. Every handler defers first, then asks the manager.
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands as ext

from games.core import CommandSpec, OptionSpec, all_games
from storage import open_storage

from . import commands
from .discord_buttons import GameButton, OptionsButton, RematchButton, SkipVoteButton, VoteButton
from .discord_select import GameSelect
from .discord_send import missing_permissions, post_failed, send_reply
from .discord_status import create_status, post_nudge, refresh_status
from .manager import GameManager
from .pace import Pace
from .reply import Context, Reply
from .runtime import tune_runtime
from .settings import Settings

log = logging.getLogger("playpost.discord")

ALWAYS_PRIVATE = {"help", "hand", "log", "history", "preview"}  # /game commands whose answer is only for the caller
KINDS: dict[str, type] = {"str": str, "int": int, "bool": bool}
MAX_OPTIONS = 25
THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 10080


class PlaypostBot(ext.Bot):
    """The bot `playpost run` starts; storage and manager are opened in setup_hook."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=ext.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), **options)
        self.settings = settings
        self.manager: GameManager | None = None
        self.pace: Pace | None = None
        self.background: list[asyncio.Task[None]] = []
        for command in build_commands():
            self.tree.add_command(command)
        self.tree.error(_tree_error)

    async def setup_hook(self) -> None:
        storage = await open_storage(self.settings.playpost_db)
        self.manager = GameManager(storage, render_workers=self.settings.render_workers())
        tune_runtime()
        self.add_dynamic_items(GameButton, GameSelect, OptionsButton, RematchButton, VoteButton, SkipVoteButton)
        self.pace = Pace(self.manager, lambda nudge: post_nudge(self, nudge),
                         tick_seconds=self.settings.playpost_tick_seconds)
        self.background.append(asyncio.create_task(self.pace.run(), name="playpost-pace"))
        log.info("event=storage_open db=%s games=%s", self.settings.playpost_db, ",".join(sorted(all_games())))
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("event=sync scope=guild guild=%s commands=%d", self.settings.dev_guild_id, len(synced))
        if self.settings.playpost_sync:
            synced = await self.tree.sync()
            log.info("event=sync scope=global commands=%d", len(synced))

    async def on_ready(self) -> None:
        log.info("event=ready user=%s guilds=%d", self.user, len(self.guilds))

    async def close(self) -> None:
        for task in self.background:
            task.cancel()
        await super().close()
        if self.manager is not None:
            self.manager.close()
            await self.manager.storage.close()
            self.manager = None


def build_bot(settings: Settings, **options: Any) -> PlaypostBot:
    """The bot for these settings; `options` go to discord.py's Client (tests pass timeouts)."""
    return PlaypostBot(settings, **options)


# ---- commands from CommandSpecs ---------------------------------------------
Runner = Callable[[discord.Interaction, str, str, dict[str, Any]], Awaitable[None]]


def build_commands() -> list[app_commands.Command | app_commands.Group]:
    out: list[app_commands.Command | app_commands.Group] = []
    for group_name, specs in commands.groups().items():
        engine = all_games().get(group_name)
        desc = f"Play {engine.name}" if engine else "Open, join and manage games in this channel"
        group = app_commands.Group(name=group_name, description=desc[:100], guild_only=True)
        for spec in specs[:25]:
            group.add_command(_command(group_name, spec, parent=group))
        out.append(group)
    out.append(_command("rules", commands.rules_command(), parent=None))
    return out


def _command(group: str, spec: CommandSpec, parent: app_commands.Group | None) -> app_commands.Command:
    """One slash command whose options are the spec's, by a generated callback signature."""
    name = spec.name if parent is not None else group
    sub = spec.name if parent is not None else ""
    options = spec.options[:MAX_OPTIONS]
    if len(spec.options) > MAX_OPTIONS:
        log.warning("event=too_many_options command=%s/%s kept=%d", group, name, MAX_OPTIONS)
    py_names = {f"o{i}": opt.name for i, opt in enumerate(options)}

    async def callback(interaction: discord.Interaction, /, **values: Any) -> None:
        given = {py_names[k]: v for k, v in values.items() if v is not None}
        await run_command(interaction, group, sub, given)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    choices: dict[str, list[app_commands.Choice]] = {}
    autocomplete: dict[str, Any] = {}
    for py, opt in zip(py_names, options, strict=True):
        kind = KINDS[opt.kind]
        default = inspect.Parameter.empty if opt.required else None
        params.append(inspect.Parameter(py, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default))
        if kind is bool:
            continue
        if opt.autocomplete or len(opt.choices) > 25:
            autocomplete[py] = _autocomplete(group, sub, opt)
        elif opt.choices:
            choices[py] = [app_commands.Choice(name=c[:100], value=kind(c)) for c in opt.choices]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_rename__ = dict(py_names)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        py: opt.description[:100] for py, opt in zip(py_names, options, strict=True)}
    callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_autocomplete__ = autocomplete  # type: ignore[attr-defined]
    return app_commands.Command(name=name, description=spec.description[:100], callback=callback, parent=parent,
                                extras={"group": group, "spec": spec})


def _choices(pairs: list[tuple[str, str]], kind: Callable[[str], Any]) -> list[app_commands.Choice]:
    """Autocomplete answers: the game's label shown, the plain value sent back."""
    out = []
    for label, value in pairs[:25]:
        try:
            out.append(app_commands.Choice(name=str(label)[:100], value=kind(value)))
        except ValueError:
            continue
    return out


def _autocomplete(group: str, name: str, opt: OptionSpec) -> Callable[..., Awaitable[list[app_commands.Choice]]]:
    kind = KINDS[opt.kind]

    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
        typed = str(current or "")
        if opt.choices and not opt.autocomplete:
            folded = typed.casefold()
            values = [c for c in opt.choices if folded in c.casefold()][:25]
        else:
            given = {k: v for k, v in interaction.namespace if k != opt.name and v is not None}
            pairs = await manager.suggest_labelled(_context(interaction), group, name, opt.name, given, typed)
            return _choices(pairs, kind)
        return _choices([(v, v) for v in values], kind)

    return suggest


# ---- running a command -------------------------------------------------------
def _context(interaction: discord.Interaction, channel_id: str | None = None) -> Context:
    return Context(
        channel_id=channel_id or str(interaction.channel_id),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        can_manage=bool(interaction.permissions.manage_channels),
    )


async def _always_private(manager: GameManager, group: str, name: str, channel_id: str) -> bool:
    """Whether the answer is private whatever happens, so the "thinking" message can be too."""
    if group == "rules":
        return True
    if group != "game":
        return name == "preview"  # a game's preview is a picture only the caller sees
    if name in ALWAYS_PRIVATE:
        return True
    if name == "export":  # a running game's record is only for the caller
        rec = await manager.storage.live_game(channel_id)
        return rec is not None and rec.status == "active"
    return False


async def run_command(interaction: discord.Interaction, group: str, name: str, options: dict[str, Any]) -> None:
    manager: GameManager = interaction.client.manager  # type: ignore[attr-defined]
    started = time.perf_counter()
    ctx = _context(interaction)
    private = await _always_private(manager, group, name, ctx.channel_id)
    await interaction.response.defer(thinking=True, ephemeral=private)
    try:
        thread: discord.Thread | None = None
        notes: list[str] = []
        if group == "game" and name == "new" and options.get("thread") is not False:
            thread, note = await _open_thread(interaction, options)
            notes += [note] if note else []
            if thread is not None:
                ctx = replace(ctx, channel_id=str(thread.id))
        reply = await manager.dispatch(ctx, group, name, options)
        if thread is not None:
            reply = await _move_to_thread(interaction, thread, reply)
        if not reply.ephemeral and reply.image is not None:
            lacking = missing_permissions(interaction.app_permissions, board=True,
                                          in_thread=isinstance(interaction.channel, discord.Thread))
            if lacking:
                notes.append("I am missing " + ", ".join(lacking) + " in this channel, so boards may not show. "
                             "Someone with Manage Channel can grant them.")
        try:
            await send_reply(interaction, reply, deferred_ephemeral=private, channel_id=ctx.channel_id,
                             note="\n".join(notes))
        except discord.HTTPException as exc:  # the game is already as the manager left it
            await post_failed(interaction, reply, exc)
        if reply.opened and not reply.ephemeral:
            await create_status(interaction.client, reply.game_id, ctx.channel_id, interaction.app_permissions,
                                in_thread=thread is not None or isinstance(interaction.channel, discord.Thread))
        else:
            await refresh_status(interaction.client, reply)
    except Exception as exc:
        log.exception("event=command_failed command=%s/%s channel=%s user=%s", group, name, ctx.channel_id,
                      ctx.user_id)
        await post_failed(interaction, None, exc)
        return
    log.info("event=command command=%s/%s channel=%s user=%s ok=%s version=%s ms=%d", group, name, ctx.channel_id,
             ctx.user_id, not reply.ephemeral, reply.version, (time.perf_counter() - started) * 1000)


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


async def _tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    log.error("event=app_command_error command=%s error=%r", getattr(interaction.command, "qualified_name", "?"), error)
    text = "That command could not be run. `/game help` lists what works here."
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass
