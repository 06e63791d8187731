"""A local stand-in for Discord's REST API and gateway, enough for the real discord.py client.

It records every REST call, keeps the messages the bot creates (with the "first follow-up fills
the thinking message" rule, so whether a message is really ephemeral can be checked), and
injects INTERACTION_CREATE events for slash commands, autocomplete and button clicks.

Sharding as Discord does it: an IDENTIFY naming `shard: [id, count]` gets READY and GUILD_CREATE for
just the guilds of that shard (`(guild_id >> 22) % count`), and an interaction in a guild goes to a
connection of the guild's shard. An interaction is acknowledged once: a second callback is refused
with 400 / code 40060, as Discord does. Bot processes in other OS processes reach it by its port.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

EPHEMERAL = 64
APP_ID = "1100000000000000001"
BOT_ID = APP_ID
GUILD_ID = "1100000000000000010"
CHANNEL_ID = "1100000000000000020"
TOKEN = "e2e.secret-token.do-not-log"
# how long to wait for the bot before calling it hung: generous, so a busy machine is never mistaken for a hang
HANG = 180.0

BOT_PERMS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True, embed_links=True,
                                create_public_threads=True, send_messages_in_threads=True,
                                read_message_history=True, manage_messages=True, manage_threads=True)
PLAYER_PERMS = discord.Permissions(view_channel=True, send_messages=True, use_application_commands=True)
OPTION_TYPES = {bool: 5, int: 4, str: 3}


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """Discord's shard for a guild."""
    return (int(guild_id) >> 22) % shard_count


def _now() -> str:
    return "2026-01-01T00:00:00.000000+00:00"


def user(uid: str, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": uid, "username": name.lower(), "global_name": name, "discriminator": "0", "avatar": None,
            "bot": bot, "public_flags": 0}


BOT_USER = user(BOT_ID, "playpost", bot=True)


@dataclass
class Call:
    method: str
    path: str
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)  # filename -> bytes
    status: int = 200  # what the double answered (an injected fault's status)


@dataclass
class Fault:
    """An error the double answers instead of handling a request (`times` more times)."""

    method: str
    pattern: str  # regex over the path after /api/v10
    status: int
    times: int = 1
    via: bool = False  # a 429 with a Via header is Discord's own (retried); without, Cloudflare's (raised)

    def response(self) -> web.Response:
        if self.status == 429:
            body: dict[str, Any] = {"message": "You are being rate limited.", "retry_after": 0.05, "global": False}
            headers = {"Retry-After": "0.05", "X-RateLimit-Scope": "user",
                       **({"Via": "1.1 google"} if self.via else {})}
        elif self.status == 403:
            body, headers = {"message": "Missing Permissions", "code": 50013}, {}
        else:
            body, headers = {"message": f"{self.status}: Server Error", "code": 0}, {}
        return web.Response(status=self.status, body=json.dumps(body).encode(), content_type="application/json",
                            headers=headers)


@dataclass
class Message:
    id: str
    channel_id: str
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    files: dict[str, bytes]
    ephemeral: bool
    allowed_mentions: dict[str, Any] | None
    interaction_id: str | None = None
    deleted: bool = False
    edits: int = 0  # how many times the bot edited it (content, attachments or components)
    # the mentions allowed when it was posted: who was pinged (an edit pings nobody, whatever it allows;
    # discord.py sends the client's default `allowed_mentions` with every edit, e.g. a board added later)
    posted_mentions: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.posted_mentions = self.allowed_mentions

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", ()) if "custom_id" in c]

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id, "channel_id": self.channel_id, "author": BOT_USER, "content": self.content,
            "timestamp": _now(), "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "pinned": False, "type": 0, "embeds": self.embeds,
            "components": self.components, "flags": EPHEMERAL if self.ephemeral else 0,
            "attachments": [{"id": str(i + 1), "filename": n, "size": len(b), "url": f"https://cdn.invalid/{n}",
                             "proxy_url": f"https://cdn.invalid/{n}"} for i, (n, b) in enumerate(self.files.items())],
        }


@dataclass
class Interaction:
    """What the bot did with one injected interaction."""

    id: str
    token: str
    kind: int
    channel_id: str = CHANNEL_ID
    callback: dict[str, Any] | None = None  # the interaction response body
    original: str = "none"  # none | thinking | filled | deleted | update (a click deferred as an update)
    message_id: str | None = None  # a click: the message its control sat under (@original after an update)
    thinking_ephemeral: bool = False
    messages: list[Message] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    edited: list[Message] = field(default_factory=list)  # messages the bot edited while handling it (in order)

    @property
    def public(self) -> list[Message]:
        return [m for m in self.messages if not m.ephemeral and not m.deleted]

    @property
    def private(self) -> list[Message]:
        return [m for m in self.messages if m.ephemeral and not m.deleted]

    @property
    def choices(self) -> list[dict[str, Any]]:
        assert self.callback is not None and self.callback["type"] == 8, self.callback
        return self.callback["data"]["choices"]


class DiscordDouble:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[str, Message] = {}
        self.edited: list[str] = []  # ids of the messages the bot edited, one entry per edit, in order
        self.current: Interaction | None = None  # the interaction `run` is waiting for (edits are credited to it)
        self.channels: dict[str, dict[str, Any]] = {
            CHANNEL_ID: {"id": CHANNEL_ID, "type": 0, "guild_id": GUILD_ID, "name": "games", "position": 0,
                         "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                         "last_message_id": None, "rate_limit_per_user": 0, "flags": 0},
        }
        self.faults: list[Fault] = []
        self.interactions: dict[str, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" or guild id -> synced commands
        self.sockets: list[web.WebSocketResponse] = []
        self.shard_sockets: dict[web.WebSocketResponse, tuple[int, int]] = {}  # connection -> (shard, count)
        self.identifies: list[tuple[int, int] | None] = []  # every IDENTIFY's shard, in order
        self.identified = asyncio.Event()
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._saved: tuple[str, yarl.URL] | None = None

    def snowflake(self) -> str:
        return str(next(self._ids))

    # ---- lifecycle ---------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def stop(self) -> None:
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        for ws in self.sockets:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- gateway -----------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif data["op"] == 2:
                shard = data["d"].get("shard")
                guilds = self.guild_ids()
                if shard is not None:
                    self.shard_sockets[ws] = (shard[0], shard[1])
                    guilds = [g for g in guilds if shard_of(g, shard[1]) == shard[0]]
                self.identifies.append(None if shard is None else (shard[0], shard[1]))
                await self._send(ws, "READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": g, "unavailable": True} for g in guilds],
                    "session_id": f"e2e-session-{len(self.identifies)}",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "application": {"id": APP_ID, "flags": 0}, **({"shard": shard} if shard else {})})
                for g in guilds:
                    await self._send(ws, "GUILD_CREATE", self._guild(g))
                self.identified.set()
        if ws in self.sockets:
            self.sockets.remove(ws)
        self.shard_sockets.pop(ws, None)
        return ws

    def guild_ids(self) -> list[str]:
        return sorted({c["guild_id"] for c in self.channels.values()}, key=int)

    def add_channel(self, guild_id: str, name: str) -> str:
        """A text channel (in a new or known guild): its id."""
        cid = self.snowflake()
        self.channels[cid] = {"id": cid, "type": 0, "guild_id": guild_id, "name": name, "position": 0,
                              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                              "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
        return cid

    def connected_shards(self) -> set[int]:
        return {shard for shard, _ in self.shard_sockets.values()}

    def socket_for(self, guild_id: str, *, every: bool = False) -> list[web.WebSocketResponse]:
        """The connection a guild's events go to: the newest of its shard's (`every`: all of them, as while a
        shard is handed over and two sessions of it are open), or the one unsharded connection."""
        sharded = [ws for ws, (shard, count) in self.shard_sockets.items() if shard_of(guild_id, count) == shard]
        if sharded:
            return sharded if every else sharded[-1:]
        plain = [ws for ws in self.sockets if ws not in self.shard_sockets]
        if not plain:
            raise ConnectionError(f"no gateway connection serves guild {guild_id}")
        return plain[-1:]

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    def _guild(self, guild_id: str = GUILD_ID) -> dict[str, Any]:
        everyone = {"id": guild_id, "name": "@everyone", "permissions": str(PLAYER_PERMS.value), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        return {
            "id": guild_id, "name": "e2e guild", "icon": None, "owner_id": "1", "roles": [everyone], "emojis": [],
            "stickers": [], "features": [],
            "channels": [c for c in self.channels.values() if c["type"] == 0 and c["guild_id"] == guild_id],
            "threads": [], "members": [], "member_count": 3, "large": False, "unavailable": False,
            "joined_at": _now(), "premium_tier": 0, "preferred_locale": "en-US", "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "system_channel_flags": 0, "nsfw_level": 0, "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    # ---- REST ---------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: dict[str, bytes] = {}
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files[part.filename or part.name or "file"] = bytes(await part.read())
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        call = Call(request.method, path, body, files)
        self.calls.append(call)
        for fault in self.faults:
            if fault.times > 0 and fault.method == request.method and re.fullmatch(fault.pattern, path):
                fault.times -= 1
                call.status = fault.status
                return fault.response()
        for method, pattern, handler in self._routes():
            m = re.fullmatch(pattern, path)
            if m and method == request.method:
                status, out = handler(call, **m.groupdict())
                if out is None:
                    return web.Response(status=status)
                return web.Response(status=status, body=json.dumps(out).encode(), content_type="application/json")
        return web.Response(status=404, body=json.dumps({"message": "Unknown", "code": 0}).encode(),
                            content_type="application/json")

    def _routes(self):  # noqa: ANN202
        return [
            ("GET", r"/users/@me", lambda c: (200, BOT_USER)),
            ("GET", r"/oauth2/applications/@me", lambda c: (200, self._application())),
            ("PUT", r"/applications/\d+/commands", lambda c: (200, self._sync(c, "global"))),
            ("PUT", r"/applications/\d+/guilds/(?P<guild>\d+)/commands", lambda c, guild: (200, self._sync(c, guild))),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", r"/webhooks/\d+/(?P<token>[^/]+)", self._followup),
            ("PATCH", r"/webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", self._edit_webhook),
            ("DELETE", r"/webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", self._delete_webhook),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._channel_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._thread),
            ("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+)", lambda c, cid, uid: (204, None)),
            ("DELETE", r"/channels/(?P<cid>\d+)", self._delete_channel),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/pins/(?P<mid>\d+)", lambda c, cid, mid: (204, None)),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/pins/(?P<mid>\d+)", lambda c, cid, mid: (204, None)),
        ]

    def _application(self) -> dict[str, Any]:
        return {"id": APP_ID, "name": "playpost", "icon": None, "description": "", "bot_public": True,
                "bot_require_code_grant": False, "owner": user("1", "owner"), "verify_key": "00", "flags": 0,
                "summary": "", "team": None, "rpc_origins": []}

    def _sync(self, call: Call, scope: str) -> list[dict[str, Any]]:
        out = [{**cmd, "id": self.snowflake(), "application_id": APP_ID, "version": "1",
                **({"guild_id": scope} if scope != "global" else {})} for cmd in call.json]
        self.commands[scope] = out
        return out

    def _message(self, channel_id: str, body: dict[str, Any], files: dict[str, bytes], *, ephemeral: bool,
                 interaction: Interaction | None = None, mid: str | None = None) -> Message:
        msg = Message(id=mid or self.snowflake(), channel_id=channel_id, content=body.get("content") or "",
                      embeds=body.get("embeds") or [], components=body.get("components") or [], files=files,
                      ephemeral=ephemeral, allowed_mentions=body.get("allowed_mentions"),
                      interaction_id=interaction.id if interaction else None)
        self.messages[msg.id] = msg
        if interaction is not None:
            interaction.messages.append(msg)
        return msg

    def _callback(self, call: Call, iid: str, token: str) -> tuple[int, Any]:
        inter = self.interactions[iid]
        if inter.callback is not None:  # Discord takes one response per interaction
            call.status = 400
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        inter.callback = call.json
        kind = call.json["type"]
        data = call.json.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        resource: dict[str, Any] = {"type": kind}
        if kind == 5:  # deferred: "thinking"
            inter.original, inter.thinking_ephemeral = "thinking", ephemeral
        elif kind == 6:  # deferred update of the clicked message: no message of its own
            inter.original = "update"
        elif kind == 4:
            msg = self._message(self._channel_of(inter), data, call.files, ephemeral=ephemeral, interaction=inter)
            inter.original = "filled"
            resource["message"] = msg.payload()
        inter.done.set()
        return 200, {"interaction": {"id": iid, "type": inter.kind, "response_message_loading": kind == 5,
                                     "response_message_ephemeral": ephemeral}, "resource": resource}

    def _channel_of(self, inter: Interaction) -> str:
        return inter.channel_id

    def _followup(self, call: Call, token: str) -> tuple[int, Any]:
        inter = self.by_token[token]
        flags = (call.json or {}).get("flags", 0)
        if inter.original == "thinking":  # the first follow-up fills the thinking message, as it was deferred
            inter.original = "filled"
            ephemeral = inter.thinking_ephemeral
        else:
            ephemeral = bool(flags & EPHEMERAL)
        msg = self._message(self._channel_of(inter), call.json or {}, call.files, ephemeral=ephemeral,
                            interaction=inter)
        return 200, msg.payload()

    def _edit_webhook(self, call: Call, token: str, mid: str) -> tuple[int, Any]:
        inter = self.by_token[token]
        if mid == "@original" and inter.original == "update" and inter.message_id:
            mid = inter.message_id
        if mid == "@original":
            found = [m for m in inter.messages if not m.deleted][:1]
            if not found:
                msg = self._message(self._channel_of(inter), call.json or {}, call.files,
                                    ephemeral=inter.thinking_ephemeral, interaction=inter)
                inter.original = "filled"
                return 200, msg.payload()
            msg = found[0]
        else:
            msg = self.messages[mid]
        self._apply_edit(msg, call)
        return 200, msg.payload()

    def _delete_webhook(self, call: Call, token: str, mid: str) -> tuple[int, Any]:
        inter = self.by_token[token]
        if mid == "@original" and inter.original == "update" and inter.message_id:
            mid = inter.message_id  # after a deferred update, the original is the clicked message itself
        if mid == "@original":
            if inter.original == "thinking":
                inter.original = "deleted"
            else:
                for m in inter.messages[:1]:
                    m.deleted = True
        else:
            self.messages[mid].deleted = True
        return 204, None

    def _apply_edit(self, msg: Message, call: Call) -> None:
        """As Discord: `attachments` is the full list to keep (here: the files uploaded with the edit, or none);
        left out, the attachments stay as they are."""
        body = call.json or {}
        msg.edits += 1
        self.edited.append(msg.id)
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "allowed_mentions" in body:  # an edit pings nobody: `posted_mentions` keeps the ping of the posting
            msg.allowed_mentions = body["allowed_mentions"]
        if "attachments" in body:  # the bot never keeps an old attachment beside a new one: replace or clear
            msg.files = dict(call.files)
        elif call.files:
            msg.files = dict(call.files)

    def _channel_message(self, call: Call, cid: str) -> tuple[int, Any]:
        return 200, self._message(cid, call.json or {}, call.files, ephemeral=False).payload()

    def _edit_channel_message(self, call: Call, cid: str, mid: str) -> tuple[int, Any]:
        msg = self.messages.get(mid)
        if msg is None or msg.deleted:
            call.status = 404
            return 404, {"message": "Unknown Message", "code": 10008}
        self._apply_edit(msg, call)
        if self.current is not None:
            self.current.edited.append(msg)
        return 200, msg.payload()

    def _thread(self, call: Call, cid: str) -> tuple[int, Any]:
        tid = self.snowflake()
        body = call.json or {}
        self.channels[tid] = {
            "id": tid, "type": body.get("type", 11), "guild_id": GUILD_ID, "parent_id": cid, "owner_id": BOT_ID,
            "name": body["name"], "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": body.get("auto_archive_duration", 1440),
                                "archive_timestamp": _now(), "locked": False},
        }
        return 201, self.channels[tid]

    def _delete_channel(self, call: Call, cid: str) -> tuple[int, Any]:
        return 200, self.channels.pop(cid)

    def fail(self, method: str, pattern: str, status: int, *, times: int = 1, via: bool = False) -> Fault:
        """Answer the next `times` matching requests with `status` instead of handling them."""
        fault = Fault(method, pattern, status, times, via)
        self.faults.append(fault)
        return fault

    # ---- injecting interactions ---------------------------------------------
    def _base(self, kind: int, uid: str, name: str, channel_id: str, *, manage: bool = False,
              app_perms: discord.Permissions = BOT_PERMS) -> tuple[Interaction, dict[str, Any]]:
        iid = self.snowflake()
        token = f"itoken-{iid}"
        guild_id = self.channels[channel_id]["guild_id"]
        inter = Interaction(id=iid, token=token, kind=kind, channel_id=channel_id)
        self.interactions[iid] = inter
        self.by_token[token] = inter
        perms = PLAYER_PERMS | discord.Permissions(manage_channels=True) if manage else PLAYER_PERMS
        payload = {
            "id": iid, "application_id": APP_ID, "type": kind, "token": token, "version": 1,
            "guild_id": guild_id, "channel_id": channel_id, "channel": self.channels[channel_id],
            "member": {"user": user(uid, name), "roles": [], "joined_at": _now(), "permissions": str(perms.value),
                       "deaf": False, "mute": False, "flags": 0, "nick": None},
            "app_permissions": str(app_perms.value), "locale": "en-US", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {"0": guild_id}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return inter, payload

    async def dispatch(self, event: str, data: dict[str, Any], *, every_session: bool = False) -> None:
        """Send an event to the connection serving its guild (`every_session`: to each open session of its shard)."""
        await self.identified.wait()
        for ws in self.socket_for(data.get("guild_id") or GUILD_ID, every=every_session):
            await self._send(ws, event, data)

    async def dispatch_to_shards(self, event: str, data: dict[str, Any], shards: set[int]) -> None:
        """Send one event to the newest connection of each of these shards, whatever the event's guild (two
        processes seeing the same interaction, as around a handover)."""
        for shard in sorted(shards):
            ws = [w for w, (s, _) in self.shard_sockets.items() if s == shard][-1]
            await self._send(ws, event, data)

    def command_payload(self, uid: str, name: str, group: str, sub: str | None, options: dict[str, Any], *,
                        channel_id: str = CHANNEL_ID, focused: str | None = None, manage: bool = False,
                        app_perms: discord.Permissions = BOT_PERMS) -> tuple[Interaction, dict[str, Any]]:
        inter, payload = self._base(4 if focused else 2, uid, name, channel_id, manage=manage, app_perms=app_perms)
        opts = []
        for key, value in options.items():
            opt = {"name": key, "type": OPTION_TYPES[type(value)], "value": value}
            if key == focused:
                opt["focused"] = True
            opts.append(opt)
        guild_id = payload["guild_id"]
        scope = self.commands.get(guild_id) or self.commands.get("global") or []
        cmd_id = next((c["id"] for c in scope if c["name"] == group), self.snowflake())
        data: dict[str, Any] = {"id": cmd_id, "name": group, "type": 1, "guild_id": guild_id}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        payload["data"] = data
        return inter, payload

    def click_payload(self, uid: str, name: str, message: Message,
                      custom_id: str) -> tuple[Interaction, dict[str, Any]]:
        inter, payload = self._base(3, uid, name, message.channel_id)
        inter.message_id = message.id
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = message.payload()
        return inter, payload

    def select_payload(self, uid: str, name: str, message: Message, custom_id: str,
                       values: list[str]) -> tuple[Interaction, dict[str, Any]]:
        """A choice in a select menu under `message`."""
        inter, payload = self._base(3, uid, name, message.channel_id)
        inter.message_id = message.id
        payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload["message"] = message.payload()
        return inter, payload

    async def run(self, inter: Interaction, payload: dict[str, Any], *, timeout: float = HANG) -> Interaction:
        """Send an interaction and wait until the bot has finished handling it."""
        self.current = inter
        try:
            await self.dispatch("INTERACTION_CREATE", payload)
            await asyncio.wait_for(inter.done.wait(), timeout)
            await settle(timeout)
        finally:
            self.current = None
        return inter


async def settle(timeout: float = HANG) -> None:
    """Wait for discord.py's handler tasks (commands, autocomplete, button clicks) to finish."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        busy = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(
            ("CommandTree-invoker", "discord-ui-"))]
        if not busy:
            return
        if loop.time() > deadline:
            raise TimeoutError(f"bot still busy: {[t.get_name() for t in busy]}")
        await asyncio.wait(busy, timeout=max(0.01, deadline - loop.time()))
