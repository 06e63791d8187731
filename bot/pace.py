"""Turn deadlines and reminders: a background task that nudges whoever must act.

For an active game with a deadline D (set by the manager after every move), reminders fall
every `reminder_hours` counted back from D (while after the last move), at D itself, and every
`reminder_hours` after D while nobody has moved. Which slot is due is computed from the stored
deadline; the slot last posted is kept in the game's meta (`nudged_slot`, written with
`storage.update_meta`, which leaves the version and so the board's buttons alone). So a
restart neither repeats a nudge nor loses one: a deadline that passed while the bot was down
is announced at the first tick after it comes back (only the latest slot, never a backlog).
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from games.core import get_game
from storage import GameRecord

from .defaults import DEFAULT_SETTINGS
from .manager import GameManager
from .reply import Button, Menu

log = logging.getLogger("playpost.pace")

NudgeKind = Literal["reminder", "deadline", "overdue", "expired"]  # expired: a reaction window was answered
HORIZON = 31 * 24 * 3600.0  # deadlines are at most 30 days ahead


@dataclass
class Nudge:
    rec: GameRecord
    kind: NudgeKind
    to_act: list[str]
    waiting_for: str
    text: str
    version: int  # the game's version the nudge's buttons and menus are for
    buttons: list[Button] = field(default_factory=list)  # the current board's buttons, for acting at once
    menus: list[Menu] = field(default_factory=list)  # and its menus
    can_skip: bool = False  # the game names a skip action for the late player (a vote may apply it)


def latest_slot(deadline: float, deadline_s: float, reminder_s: float, t: float) -> float | None:
    """The last reminder time at or before t (None if none has come yet since the last move)."""
    if t >= deadline:
        return deadline + math.floor((t - deadline) / reminder_s) * reminder_s
    slot = deadline - math.ceil((deadline - t) / reminder_s) * reminder_s
    return slot if slot > deadline - deadline_s else None


def nudge_kind(rec: GameRecord, last: float, now: float) -> tuple[NudgeKind, float] | None:
    """Which nudge (if any) fell due after slot `last` (the one posted before) and by `now`."""
    settings = {**DEFAULT_SETTINGS, **rec.settings}
    if settings["paused"] or rec.deadline_at is None or rec.status != "active":
        return None
    deadline = float(rec.deadline_at)
    deadline_s = float(settings["deadline_hours"]) * 3600
    reminder_s = max(3600.0, float(settings["reminder_hours"]) * 3600)
    slot = latest_slot(deadline, deadline_s, reminder_s, now)
    if slot is None or slot <= last:
        return None
    kind: NudgeKind = "deadline" if slot == deadline else ("overdue" if slot > deadline else "reminder")
    return kind, slot


class Pace:
    """Checks the games every tick and hands each due nudge to `post` (the transport)."""

    def __init__(self, manager: GameManager, post: Callable[[Nudge], Awaitable[None]], *,
                 clock: Callable[[], float] = time.time, tick_seconds: float = 60.0) -> None:
        self.manager = manager
        self.post = post
        self.clock = clock
        self.tick_seconds = tick_seconds

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick()
            except Exception:
                log.exception("event=pace_tick_failed")

    async def tick(self, now: float | None = None) -> list[Nudge]:
        now = self.clock() if now is None else now
        sent: list[Nudge] = []
        for rec in await self.manager.storage.due(now + HORIZON):
            expired = await self.manager.expire(rec, now)
            if expired is not None:  # a reaction window ran out: it was answered for the player
                answered = Nudge(rec=rec, kind="expired", to_act=list(expired.ping), waiting_for="",
                                 text=expired.text, version=expired.version or rec.version, buttons=expired.buttons,
                                 menus=expired.menus)
                try:
                    await self.post(answered)
                except Exception:
                    log.exception("event=nudge_failed game=%s", rec.id)
                sent.append(answered)
                continue
            due = nudge_kind(rec, float(rec.meta.get("nudged_slot", -math.inf)), now)
            if due is None:
                continue
            nudge = self.nudge(rec, due[0])
            if nudge is None:
                continue
            try:
                await self.post(nudge)
            except Exception as exc:
                log.exception("event=nudge_failed game=%s", rec.id)
                if getattr(exc, "status", None) != 403:
                    continue  # tried again next tick; a refusal (403) is not worth repeating every minute
            await self.manager.storage.update_meta(rec.id, {"nudged_slot": due[1]})
            log.info("event=nudge game=%s kind=%s to=%s", rec.id, nudge.kind, ",".join(nudge.to_act))
            sent.append(nudge)
        return sent

    def nudge(self, rec: GameRecord, kind: NudgeKind) -> Nudge | None:
        engine = get_game(rec.kind)
        assert rec.state is not None
        state = self.manager.state_of(rec, engine)
        st = engine.status(state)
        if st.finished or not st.to_act:
            return None
        names = self.manager.names(rec)
        waiting = st.waiting_for or ", ".join(names.get(p, p) for p in st.to_act)
        when = f"<t:{int(rec.deadline_at or 0)}:R>"
        can_skip = any(engine.skip_action(state, p) is not None for p in st.to_act)
        if kind == "reminder":
            text = f"Reminder: your move in **{engine.name}**, {waiting} (deadline {when})."
        else:
            if kind == "deadline":
                text = f"The turn deadline in **{engine.name}** has passed; still waiting for {waiting}."
            else:
                text = f"Still waiting for {waiting} in **{engine.name}**; the deadline passed {when}."
            text += (" The other players may vote to " + ("skip the turn or " if can_skip else "") +
                     "end the game: more than half of them decides (an ended game has no result).")
        buttons, menus = self.manager.table.controls(engine, state, st, names)
        return Nudge(rec=rec, kind=kind, to_act=list(st.to_act), waiting_for=waiting, text=text, version=rec.version,
                     buttons=buttons, menus=menus, can_skip=can_skip)
