"""Play a console transcript (`ann> /heroball step to:G2`) through the real bot and the Discord double.

Every line becomes what a Discord user would do: a game action that is one of that user's buttons
under the newest board is clicked (a command clicked is typed the next time, so both ways are
played); any other line is a slash command, and an option with autocomplete is first asked for
suggestions while half typed, the suggested value then used.
After each game action the replayer checks what Discord received: a move that hands the turn to
someone posts one public board with a PNG and pings exactly who newly must act (never the mover);
a move of the same player's turn edits the turn's message instead (board replaced, nobody pinged);
a refused move answers privately and leaves the stored game as it was.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import commands
from bot.console import LINE, ScriptClock, run_script
from bot.discord_adapter.components import TEMPLATE
from bot.manager import GameManager
from bot.parsing import parse_command
from games.core import Action, all_games, get_game
from storage import GameRecord, open_storage

from .conftest import USERS, Harness
from .discord_double import CHANNEL_ID, Interaction, Message

PNG = b"\x89PNG\r\n\x1a\n"


def notices_only(inter: Any) -> bool:
    """A move's private messages (ephemeral: its mover's alone) are notices of what it gave them ("Your hand gets
    Honey Bun."), never a refusal."""
    return all("Legal now" not in m.content and "not legal" not in m.content for m in inter.private)


@dataclass
class Replay:
    harness: Harness
    channel: str = CHANNEL_ID
    board: Message | None = None  # the newest public board with game buttons
    clicks: list[tuple[str, str]] = field(default_factory=list)  # (user, action) pressed as buttons
    slash: list[tuple[str, str]] = field(default_factory=list)  # (user, action) typed as slash commands
    # (command, option, value) taken from autocomplete
    suggested: list[tuple[str, str, str]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # lines answered only privately
    moves: list[Message] = field(default_factory=list)  # public move messages, in order
    last_way: dict[tuple[str, str], str] = field(default_factory=dict)  # (user, command) -> "click" | "slash"
    posted: list[tuple[str, Message]] = field(default_factory=list)  # (line, public message) for every line
    edits: int = 0  # moves shown by editing the turn's message instead of posting one

    @property
    def manager(self) -> GameManager:
        return self.harness.bot.manager

    async def live(self) -> GameRecord | None:
        return await self.manager.storage.live_game(self.channel)

    async def run(self, lines: list[str]) -> None:
        for raw in lines:
            text = raw.strip()
            if text and not text.startswith("#"):
                await self.line(text)

    async def line(self, text: str) -> None:
        seen = len(self.harness.double.messages)
        await self._line(text)
        self.posted += [(text, m) for m in list(self.harness.double.messages.values())[seen:]
                        if not m.ephemeral and m.interaction_id is not None]

    async def _line(self, text: str) -> None:
        m = LINE.match(text)
        assert m and not m.group("channel"), f"unsupported line {text!r}"
        who, body = m.group("name"), m.group("body").strip()
        press = re.fullmatch(r"button\s+(\d+)", body)
        if press:  # the console's "press button N under the latest board"
            assert self.board is not None, text
            ids = [c for c in self.board.custom_ids if re.fullmatch(TEMPLATE, c)]
            inter = await self.harness.double.run(*self.harness.double.click_payload(
                USERS[who], who, self.board, ids[int(press.group(1)) - 1]))
            self.clicks.append((who, body))
            self.remember(inter)
            return
        inv = parse_command(body)
        if inv.group in all_games():
            await self.game_action(who, inv.group, inv.name, inv.options, text)
            return
        inter = await self.command(who, inv.group, inv.name or None, inv.options)
        if inv.group == "game" and inv.name == "new" and inter.public:
            threads = [cid for cid, ch in self.harness.double.channels.items()
                       if ch.get("parent_id") == self.channel and ch["type"] == 11]
            if threads and inv.options.get("thread") is not False:
                self.channel = threads[-1]  # the game lives in its thread from now on
        self.remember(inter)

    async def command(self, who: str, group: str, sub: str | None, options: dict[str, Any]) -> Interaction:
        inter, payload = self.harness.double.command_payload(USERS[who], who, group, sub, options,
                                                             channel_id=self.channel)
        return await self.harness.double.run(inter, payload)

    def remember(self, inter: Interaction) -> None:
        for msg in inter.public:
            if any(re.fullmatch(TEMPLATE, c) for c in msg.custom_ids):
                self.board = msg

    async def game_action(self, who: str, group: str, name: str, options: dict[str, Any], text: str) -> None:
        rec = await self.live()
        assert rec is not None and rec.status == "active", f"no running game for {text!r}"
        engine = get_game(rec.kind)
        before = engine.status(self.manager.state_of(rec, engine))
        action = Action(cmd=name, args={k: str(v) for k, v in options.items()}).text()
        # a command is clicked where a button offers it, and typed the next time, so both ways are played
        edits_before = len(self.harness.double.edited)
        cid = None if self.last_way.get((who, name)) == "click" else self.button_for(rec, USERS[who], action)
        self.last_way[(who, name)] = "click" if cid is not None else "slash"
        if cid is not None and self.board is not None:
            inter = await self.harness.double.run(*self.harness.double.click_payload(USERS[who], who, self.board, cid))
            self.clicks.append((who, action))
        else:
            options = await self.autocompleted(who, group, name, options)
            inter = await self.command(who, group, name, options)
            self.slash.append((who, action))
        after_rec = await self.manager.storage.get_game(rec.id)
        assert after_rec is not None
        after = engine.status(self.manager.state_of(after_rec, engine)) if after_rec.state else None
        newly = [] if after is None or after.finished else [
            p for p in after.to_act
            if p != USERS[who] and (p not in before.to_act or before.turn_key != after.turn_key)]
        if not inter.public and after_rec.version == rec.version:  # refused: said only to the player, nothing changed
            assert inter.private and all(m.ephemeral for m in inter.messages), text
            assert after_rec.state == rec.state, text
            self.refused.append(text)
            return
        # one move, and any the table then played by itself (nothing left to choose: said in the reply)
        assert after_rec.version >= rec.version + 1, text
        if after_rec.version > rec.version + 1:
            said = [m.content for m in inter.messages]
            if self.board is not None and self.board.id in self.harness.double.edited[edits_before:]:
                said.append(self.harness.double.messages[self.board.id].content)  # the turn's message, edited
            assert "Nothing left to choose" in "\n".join(said), text
        if not inter.public:  # the same player's turn goes on: the turn's message was edited, nobody pinged
            assert self.board is not None and not newly, (text, newly)
            assert inter.original in ("deleted", "update") and notices_only(inter), (text, inter.original)
            turn = self.harness.double.messages[self.board.id]
            assert self.board.id in self.harness.double.edited[edits_before:], text
            assert turn.files["board.png"].startswith(PNG) and not turn.embeds, text
            self.edits += 1
            self.moves.append(turn)
            return
        assert len(inter.public) == 1 and notices_only(inter), (text, [m.content for m in inter.messages])
        msg = inter.public[0]
        assert msg.files["board.png"].startswith(PNG), text
        assert not msg.embeds, text  # a plain attachment: Discord shows it largest
        pinged = msg.posted_mentions  # as posted: a board added later edits the message (and pings nobody)
        assert pinged is not None, text
        assert pinged["users"] == [int(p) for p in newly], (text, pinged)
        assert pinged.get("parse", []) == [], text
        self.moves.append(msg)
        self.remember(inter)

    def button_for(self, rec: GameRecord, user: str, action: str) -> str | None:
        """The custom_id under the newest board that carries `action` for `user`, if there is one."""
        if self.board is None:
            return None
        engine = get_game(rec.kind)
        state = self.manager.state_of(rec, engine)
        buttons = self.manager.buttons(engine, state, engine.status(state), self.manager.names(rec))
        ids = [c for c in self.board.custom_ids if re.fullmatch(TEMPLATE, c)]
        for i, b in enumerate(buttons):
            if b.player != user or b.action != action or i >= len(ids):
                continue
            cid = ids[i]
            _, _, version, carried = cid.split(":", 3)
            if int(version) == rec.version and carried in (action, f"#{i}"):
                return cid
        return None

    async def autocompleted(self, who: str, group: str, name: str, options: dict[str, Any]) -> dict[str, Any]:
        """Ask autocomplete for the first option that has it, half typed; use the suggestion if offered."""
        spec = next(c for c in commands.groups()[group] if c.name == name)
        auto = [o.name for o in spec.options if o.autocomplete and o.name in options]
        if not auto:
            return options
        focused = auto[0]
        value = str(options[focused])
        typed = value[: max(1, len(value) // 2)]
        inter, payload = self.harness.double.command_payload(
            USERS[who], who, group, name, {**options, focused: typed}, channel_id=self.channel, focused=focused)
        await self.harness.double.run(inter, payload)
        choices = inter.choices
        assert len(choices) <= 25
        hit = next((c["value"] for c in choices if str(c["value"]).casefold() == value.casefold()), None)
        if hit is None:
            return options
        self.suggested.append((f"{group} {name}", focused, str(hit)))
        return {**options, focused: hit}


async def console_state(lines: list[str], tmp: Path) -> tuple[str, str]:
    """The same transcript through the console (no Discord): (status, state JSON) of its last game."""
    clock = ScriptClock()
    seeds = itertools.count(1)
    manager = GameManager(await open_storage(str(tmp / "console.sqlite3")), clock=clock,
                          seed_source=lambda: next(seeds), render=False)
    try:
        await run_script(lines, manager, tmp / "console-out", write=lambda _: None, clock=clock)
        games = await manager.storage.history("local", 1)
        live = await manager.storage.live_game("local")
        rec = live or games[0]
        return rec.status, rec.state or ""
    finally:
        await manager.storage.close()


def by_name(state: str) -> str:
    """A state stored by the Discord bot, with the test users' ids spelled as the console's names."""
    for name, uid in USERS.items():
        state = state.replace(uid, name)
    return state
