"""The local console and transcripts: the same commands and manager as Discord, over text.

A line is `name> /command option:value ...`: user `name` typed that command in the
console's channel (`name#channel> ...` picks another channel). `name> button N` (or `name> N`)
presses button N under the latest board, as a Discord button would.
"""
from __future__ import annotations

import itertools
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from games.core import PlaypostError
from storage import open_storage

from .manager import GameManager
from .parsing import parse_command
from .reply import Button, Context, Menu, Reply

LINE = re.compile(r"^\s*(?P<name>[^\s>#]+)(?:#(?P<channel>[^\s>]+))?>\s*(?P<body>.*)$")
SCRIPT_EPOCH = 1_767_225_600.0  # 2026-01-01T00:00Z: transcripts run on a fixed clock


class ScriptClock:
    """A clock for transcripts: fixed start, one minute per line, so output repeats exactly."""

    def __init__(self, start: float = SCRIPT_EPOCH) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 60.0) -> None:
        self.now += seconds


@dataclass
class Console:
    manager: GameManager
    out_dir: Path
    default_channel: str = "local"
    write: Callable[[str], None] = print
    counter: int = 0
    last: dict[str, Reply] = field(default_factory=dict)  # channel -> latest reply with buttons

    def resume_numbering(self) -> None:
        """Number new files after those already in out_dir (the local console keeps old boards)."""
        nums = [int(p.name[:4]) for p in self.out_dir.glob("[0-9][0-9][0-9][0-9]-*") if p.name[:4].isdigit()]
        self.counter = max(nums, default=0)

    def _save(self, name: str, data: bytes) -> Path:
        self.counter += 1
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"{self.counter:04d}-{name}"
        path.write_bytes(data)
        return path

    async def line(self, raw: str) -> Reply | None:
        """Run one transcript line and print what every user would see."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return None
        m = LINE.match(text)
        if not m:
            self.write("! A line is `name> /command option:value ...`, or `name> N` to press button N "
                       "(e.g. `ann> /game help`).")
            return None
        name, body = m.group("name"), m.group("body").strip()
        channel = m.group("channel") or self.default_channel
        ctx = Context(channel_id=channel, user_id=name.casefold(), user_name=name, guild_id="local")
        reply = await self.run(ctx, body)
        if reply.ephemeral and reply.hand_controls:
            self._remember_hand(channel, reply)
        self.show(ctx, reply)
        if (reply.buttons or reply.version is not None) and not reply.ephemeral:
            self.last[channel] = reply
        return reply

    async def run(self, ctx: Context, body: str) -> Reply:
        press = re.fullmatch(r"(?:button\s+)?(\d+)", body)  # `button 3`, or the number alone
        if press:
            latest = self.last.get(ctx.channel_id)
            if latest is None:  # a new console on a stored game: the buttons of its board now (not printed)
                shown = await self.manager.dispatch(ctx, "game", "status", {})
                if shown.version is not None and not shown.ephemeral:
                    latest = self.last[ctx.channel_id] = shown
            n = int(press.group(1))
            numbered = [] if latest is None else all_buttons(latest)
            if latest is None or not 1 <= n <= len(numbered):
                return Reply.error("There is no such button.", "Buttons are numbered under the latest board.")
            btn = numbered[n - 1]
            if btn.player != ctx.user_id:
                return Reply.error("That button is not yours to press.", "Only the player who must act can use it.")
            assert latest.version is not None
            return await self.manager.press(ctx, latest.version, btn.action)
        try:
            inv = parse_command(body)
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        return await self.manager.dispatch(ctx, inv.group, inv.name, inv.options)

    def show(self, ctx: Context, reply: Reply) -> None:
        reply.text = discord_times(reply.text)
        prefix = f"({_only(ctx.user_name)}) " if reply.ephemeral else ""
        if reply.text:
            for i, ln in enumerate(reply.text.splitlines()):
                self.write(("  " + prefix if i == 0 else "  ") + ln)
        if reply.image:
            self.write(f"  [image: {self._save('board.png', reply.image)}]")
        for f in reply.files:
            self.write(f"  [file: {self._save(f.name, f.data)}]")
        for who, text in sorted(reply.private.items()):
            self.write(f"  ({_only(who)}) " + text.replace("\n", "\n  "))
        if reply.ping:
            self.write("  ping: " + " ".join(f"@{p}" for p in reply.ping))
        if reply.buttons:
            labels = " | ".join(f"[{i}] {b.label}" for i, b in enumerate(reply.buttons, start=1))
            self.write(f"  buttons: {labels}")
        for menu in reply.menus if reply.buttons or reply.status_text else ():
            # the legal moves that have no button: Discord shows them as a select menu under the board
            self.write(f"  menu {menu.cmd}{_part(menu)}: " + " | ".join(label for label, _ in menu.options))
        self._show_hand(ctx, reply)

    def _show_hand(self, ctx: Context, reply: Reply) -> None:
        """The moves that name a hand's cards (bot/hand.py), on lines only their player sees; numbered after the
        board's buttons (a private reply's: after those of the latest board it belongs to)."""
        numbered = all_buttons(reply)
        latest = self.last.get(ctx.channel_id)
        if reply.ephemeral:
            numbered = all_buttons(latest) if latest is not None and latest.version == reply.version else []
        for who, (buttons, menus) in sorted(reply.hand_controls.items()):
            if buttons:
                first = numbered.index(buttons[0]) + 1 if buttons[0] in numbered else 1
                labels = " | ".join(f"[{i}] {b.label}" for i, b in enumerate(buttons, start=first))
                self.write(f"  ({_only(who)}) buttons: {labels}")
            for menu in menus:
                self.write(f"  ({_only(who)}) menu {menu.cmd}{_part(menu)}: "
                           + " | ".join(label for label, _ in menu.options))

    def _remember_hand(self, channel: str, reply: Reply) -> None:
        """A private answer with its player's hand moves (`/game hand`): its buttons join the latest board's, when it
        is about the same version of the game, so `button N` presses them as numbered."""
        latest = self.last.get(channel)
        if latest is not None and latest.version == reply.version:
            latest.hand_controls = {**latest.hand_controls, **reply.hand_controls}


def all_buttons(reply: Reply) -> list[Button]:
    """A board's buttons as numbered: its own, then each player's private ones (bot/hand.py)."""
    return list(reply.buttons) + [b for _, (bs, _) in sorted(reply.hand_controls.items()) for b in bs]


def typed_line(raw: str, user: str) -> str:
    """A line typed at the local console's `user> ` prompt as a transcript line: a bare command is the
    console user's; `name> /command` acts as `name` for that line only (the prompt stays the user's)."""
    text = raw.strip()
    if text.startswith("/") or text.startswith("button ") or text.isdigit():
        return f"{user}> {text}"
    return text


_STAMP = re.compile(r"<t:(\d+)(?::[tTdDfFR])?>")


def discord_times(text: str) -> str:
    """Discord shows `<t:N:R>` in each reader's time zone; the console shows UTC."""
    return _STAMP.sub(lambda m: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(int(m.group(1)))), text)


def _part(menu: Menu) -> str:
    """" (26-38 of 38)" for one of a command's several menus, as Discord's placeholder says it."""
    return menu.placeholder.removeprefix(f"More: {menu.cmd}") if menu.part else ""


def _only(name: str) -> str:
    return "only you see this" if name.casefold() == "you" else f"only {name} sees this"


async def run_script(lines: Iterable[str], manager: GameManager, out_dir: Path,
                     write: Callable[[str], None] = print, clock: ScriptClock | None = None) -> Console:
    """Run a transcript, echoing each command line before what it printed."""
    console = Console(manager=manager, out_dir=out_dir, write=write)
    for raw in lines:
        stripped = raw.rstrip("\n")
        if not stripped.strip() or stripped.lstrip().startswith("#"):
            continue
        write(stripped.strip())
        await console.line(stripped)
        if clock is not None:
            clock.tick()
    return console


async def play_transcript(lines: Iterable[str], out_dir: Path, *, db: str | None = None, render: bool = True,
                          write: Callable[[str], None] = print) -> None:
    """What `playpost script` does: a fresh database (unless `db`), the fixed clock, seeds 1, 2, ..."""
    with tempfile.TemporaryDirectory() as tmp:
        clock = ScriptClock()
        seeds = itertools.count(1)
        store = await open_storage(db or str(Path(tmp) / "script.sqlite3"))
        manager = GameManager(store, clock=clock, seed_source=lambda: next(seeds), render=render)
        try:
            await run_script(lines, manager, out_dir, write=write, clock=clock)
        finally:
            manager.close()
            await store.close()


async def transcript_output(path: Path, tmp_dir: Path, *, render: bool = False) -> str:
    """A transcript file's whole printed output, as one string (for tests)."""
    out: list[str] = []
    await play_transcript(path.read_text(encoding="utf-8").splitlines(), tmp_dir / "out", render=render,
                          write=out.append)
    return "\n".join(out)
