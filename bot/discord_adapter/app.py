"""The Discord bot: the slash-command tree from the command definitions, the components, the pace task.

Commands are generated from bot/commands.py (one definition for Discord and the console):
a group per entry of `commands.groups()` (`/game`, `/<game id>`), one subcommand per
CommandSpec, plus `/rules`. Every handler hands the interaction to the flows (bot/discord_adapter/flows.py).
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import math
import re
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands as ext

from games.core import CommandSpec, OptionSpec, all_games
from storage import open_storage

from .. import commands, parsing
from ..manager import GameManager
from ..ops import RESTARTING, ShutdownGate, backup_schedule, beat
from ..pace import Nudge, Pace
from ..runtime import tune_runtime
from ..settings import Settings
from .components import ITEMS
from .components import Flows as ClickFlows
from .flows import Flows, context
from .present import answered_elsewhere
from .status import post_nudge

log = logging.getLogger("playpost.discord")

KINDS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "user": discord.User}  # "user": Discord's user picker
DISCORD_INT = 2**53  # Discord's integer options hold at most this much either way
MAX_OPTIONS = 25
HEARTBEAT_SECONDS = 30.0


class GatedFlows(Flows):
    """The flows behind the shutdown gate: once the bot is stopping, a command or click is answered
    "restarting" and changes nothing; those already admitted run to the end (the bot waits for them)."""

    def __init__(self, bot: PlaypostBot, *, image_wait: float = 0.5, replay_at_end: bool = True) -> None:
        super().__init__(bot, image_wait=image_wait, replay_at_end=replay_at_end)
        self.gate = bot.gate

    async def _refuse(self, interaction: discord.Interaction) -> None:
        log.info("event=refused_restarting user=%s", interaction.user.id)
        try:
            await interaction.response.send_message(RESTARTING, ephemeral=True)
        except discord.HTTPException:
            pass

    async def slash(self, interaction: discord.Interaction, group: str, name: str, options: dict[str, Any]) -> None:
        if not self.gate.enter():
            return await self._refuse(interaction)
        try:
            await super().slash(interaction, group, name, options)
        finally:
            self.gate.leave()

    async def press(self, interaction: discord.Interaction, channel_id: str, version: int, carried: str, *,
                    menu: str | None = None) -> None:
        if not self.gate.enter():
            return await self._refuse(interaction)
        try:
            await super().press(interaction, channel_id, version, carried, menu=menu)
        finally:
            self.gate.leave()

    async def command(self, interaction: discord.Interaction, channel_id: str, name: str, options: dict[str, Any],
                      *, game_id: int | None = None, private: bool = False) -> None:
        if not self.gate.enter():
            return await self._refuse(interaction)
        try:
            await super().command(interaction, channel_id, name, options, game_id=game_id, private=private)
        finally:
            self.gate.leave()


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
        self.gate = ShutdownGate()
        # what the components' callbacks reach (checked against their Protocol), behind the shutdown gate
        self.posting = GatedFlows(self, image_wait=settings.playpost_image_wait_ms / 1000,
                                  replay_at_end=settings.playpost_replay_at_end)
        self.flows: ClickFlows = self.posting
        self.background: list[asyncio.Task[None]] = []
        self.stopping: asyncio.Task[None] | None = None
        for command in build_commands():
            self.tree.add_command(command)
        self.tree.error(_tree_error)

    async def setup_hook(self) -> None:
        storage = await open_storage(self.settings.playpost_db)
        self.manager = GameManager(storage, render_workers=self.settings.render_workers(),
                                   limits=self.settings.limits(), computer_workers=self.settings.computer_workers())
        tune_runtime()
        self.add_dynamic_items(*ITEMS)
        self.pace = Pace(self.manager, self._post_nudge,
                         tick_seconds=self.settings.playpost_tick_seconds)
        self.background.append(asyncio.create_task(self.pace.run(), name="playpost-pace"))
        self.background.append(asyncio.create_task(self._heartbeat(), name="playpost-heartbeat"))
        if self.settings.playpost_backup_dir:
            if storage.backs_up:
                self.background.append(asyncio.create_task(backup_schedule(
                    storage, Path(self.settings.playpost_backup_dir), self.settings.playpost_backup_every_hours,
                    self.settings.playpost_backup_keep), name="playpost-backup"))
            else:
                log.warning("event=backup_skipped reason=%r", "this database backend takes no backups; use pg_dump")
        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.begin_shutdown)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
            log.info("event=no_sigterm_handler")
        shards = self.settings.shards()
        log.info("event=storage_open db=%s games=%s shards=%s of=%s claims_owner=%s",
                 _redacted(self.settings.playpost_db), ",".join(sorted(all_games())),
                 ",".join(map(str, shards[0])) if shards else "all", shards[1] if shards else 1, self.pace.owner)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("event=sync scope=guild guild=%s commands=%d", self.settings.dev_guild_id, len(synced))
        if self.settings.playpost_sync:
            synced = await self.tree.sync()
            log.info("event=sync scope=global commands=%d", len(synced))

    async def _post_nudge(self, nudge: Nudge) -> None:
        """A reminder or a deadline's answer; a game the answer ended gets its animated replay, as after a move."""
        await post_nudge(self, nudge)
        if nudge.replay_due and self.posting.replay_at_end:
            await self.posting.post_replay(nudge.rec.channel_id, nudge.rec.id)

    async def on_ready(self) -> None:
        log.info("event=ready user=%s guilds=%d", self.user, len(self.guilds))

    def begin_shutdown(self) -> asyncio.Task[None]:
        """SIGTERM (docker stop): refuse new commands, finish those in flight, close the database, exit."""
        if self.stopping is None:
            log.info("event=shutdown_requested in_flight=%d", self.gate.in_flight)
            self.stopping = asyncio.create_task(self._shutdown(), name="playpost-shutdown")
        return self.stopping

    async def _shutdown(self) -> None:
        drained = await self.gate.drained(self.settings.playpost_shutdown_grace)
        log.info("event=shutdown drained=%s in_flight=%d", drained, self.gate.in_flight)
        await self.close()

    def connected(self) -> bool:
        """Connected to Discord's gateway now (ready, not closed, a heartbeat latency measured)."""
        return self.is_ready() and not self.is_closed() and self.ws is not None and math.isfinite(self.latency)

    async def _heartbeat(self) -> None:
        """Touch the heartbeat file while connected, so `playpost health` can tell a live bot from a stuck one."""
        path = self.settings.heartbeat_path()
        while True:
            connected = self.connected()
            if connected:
                try:
                    await asyncio.to_thread(beat, path)
                except OSError as exc:
                    log.warning("event=heartbeat_failed path=%s error=%r", path, exc)
            await asyncio.sleep(HEARTBEAT_SECONDS if connected else 1.0)  # the first beat soon after connecting

    async def close(self) -> None:
        self.gate.closing = True
        for task in self.background:
            task.cancel()
        try:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError):
            pass
        try:  # a stopped bot is not connected, whatever the file's age says
            await asyncio.to_thread(self.settings.heartbeat_path().unlink, missing_ok=True)
        except OSError as exc:
            log.warning("event=heartbeat_remove_failed error=%r", exc)
        await super().close()
        if self.manager is not None:
            self.manager.close()
            await self.manager.storage.close()
            self.manager = None


class ShardedPlaypostBot(PlaypostBot, ext.AutoShardedBot):
    """The same bot over some of the gateway shards (`shard_ids` of `shard_count`): one of several processes.

    Discord sends each guild's events to shard `(guild_id >> 22) % shard_count`, so a channel's
    commands and clicks reach the one process running its guild's shard. Storage is shared
    (PostgreSQL): the version guard refuses a second writer, and timers are claimed in the database.
    """

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("event=shard_ready shard=%d of=%s", shard_id, self.shard_count)


def build_bot(settings: Settings, **options: Any) -> PlaypostBot:
    """The bot for these settings; `options` go to discord.py's Client (tests pass timeouts).

    With shards set (PLAYPOST_SHARDS / PLAYPOST_SHARD_COUNT, or `playpost run --shards`) it is an
    AutoShardedBot running just those shards; otherwise a plain Bot on one connection."""
    shards = settings.shards()
    if shards is None:
        return PlaypostBot(settings, **options)
    ids, count = shards
    return ShardedPlaypostBot(settings, shard_ids=ids, shard_count=count, **options)


def _redacted(db: str) -> str:
    """A database URL as logged: any password replaced."""
    return re.sub(r"(://[^:/@]+:)[^/]*@", r"\1***@", db)


# ---- commands from CommandSpecs ---------------------------------------------
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
        # a picked user travels on as their id, as every player-selecting option takes it
        given = {py_names[k]: (str(v.id) if isinstance(v, discord.abc.User) else v)
                 for k, v in values.items() if v is not None}
        await interaction.client.flows.slash(interaction, group, sub, given)  # type: ignore[attr-defined]

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    choices: dict[str, list[app_commands.Choice]] = {}
    autocomplete: dict[str, Any] = {}
    for py, opt in zip(py_names, options, strict=True):
        kind = KINDS[opt.kind]
        default = inspect.Parameter.empty if opt.required else None
        annotation = kind
        if opt.kind == "int":  # the option's range, as far as Discord's integers reach
            lo, hi = parsing.int_range(opt)
            annotation = app_commands.Range[int, max(lo, -DISCORD_INT), min(hi, DISCORD_INT)]
        params.append(inspect.Parameter(py, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default))
        if kind is bool or opt.kind == "user":
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
            pairs = await manager.suggest_labelled(context(interaction), group, name, opt.name, given, typed)
            return _choices(pairs, kind)
        return _choices([(v, v) for v in values], kind)

    return suggest


async def _tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    if answered_elsewhere(getattr(error, "original", error)):
        log.info("event=answered_elsewhere command=%s", getattr(interaction.command, "qualified_name", "?"))
        return
    log.error("event=app_command_error command=%s error=%r", getattr(interaction.command, "qualified_name", "?"), error)
    text = "That command could not be run. `/game help` lists what works here."
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass
