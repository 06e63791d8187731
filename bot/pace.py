"""Turn deadlines and reminders: a background task that nudges whoever must act.

For an active game with a deadline D (set by the manager after every move), reminders fall
every `reminder_hours` counted back from D (while after the last move), at D itself, and every
`reminder_hours` after D while nobody has moved. Which slot is due is computed from the stored
deadline; the slot last posted is kept in the game's meta (`nudged_slot`, written with
`storage.update_meta`, which leaves the version and so the board's buttons alone). So a
restart neither repeats a nudge nor loses one: a deadline that passed while the bot was down
is announced at the first tick after it comes back (only the latest slot, never a backlog).

With several bot processes on one database every process ticks over every due game, and each
piece of timed work is claimed in the database first (`Storage.claim`: a lease with an expiry):
a reminder slot (`nudge:<game>:<slot>`), a decision window's expiry (`expire:<game>:<version>`),
a scheduled job's period (`job:<name>:<period>`). One process wins the claim, re-reads the game,
does the work and marks it done; the others skip it. A process that dies holding a claim leaves
it unfinished: once the lease runs out, the next tick of any process takes it over. The one
window left is a crash between Discord accepting a reminder and the claim being marked done:
that reminder is posted again (at least once, never lost).
"""
from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from games.core import get_game
from storage import GameRecord, StorageUnavailable
from storage.base import ClaimResult

from .defaults import DEFAULT_SETTINGS
from .manager import GameManager
from .reply import Button, Menu

log = logging.getLogger("playpost.pace")

NudgeKind = Literal["reminder", "deadline", "overdue", "expired"]  # expired: a reaction window was answered
HORIZON = 31 * 24 * 3600.0  # deadlines are at most 30 days ahead
LEASE_SECONDS = 300.0  # how long a claimed nudge may take before another process takes it over
KEEP_CLAIMS_SECONDS = 7 * 24 * 3600.0  # finished claims are forgotten after a week (a daily job)
DONE_KEPT = 50_000  # finished claim keys a process remembers, so as not to ask the database again


def process_owner() -> str:
    """This process's name on the claims it takes: host, pid and a random tail (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


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
    replay_due: bool = False  # the answered window ended the game: its animated replay follows (as after a move)


def latest_slot(deadline: float, deadline_s: float, reminder_s: float, t: float) -> float | None:
    """The last reminder time at or before t (None if none has come yet since the last move)."""
    if t >= deadline:
        return deadline + math.floor((t - deadline) / reminder_s) * reminder_s
    # before the deadline at least one reminder falls within the window: a 12 h deadline with reminders every
    # 24 h would otherwise never remind (the reminder comes halfway, then)
    before_s = max(3600.0, min(reminder_s, deadline_s / 2))
    slot = deadline - math.ceil((deadline - t) / before_s) * before_s
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
    """Checks the games every tick and hands each due nudge to `post` (the transport), claimed in the database."""

    def __init__(self, manager: GameManager, post: Callable[[Nudge], Awaitable[None]], *,
                 clock: Callable[[], float] = time.time, tick_seconds: float = 60.0, owner: str | None = None,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.manager = manager
        self.post = post
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.owner = owner or process_owner()
        self.lease_seconds = lease_seconds
        self._done: OrderedDict[str, None] = OrderedDict()  # claims known to be finished, newest last
        # scheduled jobs: name -> (period in seconds, the work); each period runs once among all processes
        self.jobs: dict[str, tuple[float, Callable[[float], Awaitable[object]]]] = {
            "prune-claims": (24 * 3600.0, self._prune_claims),
        }

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            await self.tick_safely()

    async def tick_safely(self) -> None:
        """One tick; a fault is logged and the next tick tries again. A database that refuses (disk full,
        read-only, connection lost) has logged its cause once already: no traceback every minute for it."""
        try:
            await self.tick()
        except StorageUnavailable:
            log.info("event=pace_tick_skipped reason=storage_unavailable")
        except Exception:
            log.exception("event=pace_tick_failed")

    def every(self, name: str, period_s: float, job: Callable[[float], Awaitable[object]]) -> None:
        """Run `job(now)` once per `period_s` (aligned to the epoch) in whichever process claims it first."""
        self.jobs[name] = (period_s, job)

    async def _claim(self, key: str, now: float) -> ClaimResult:
        """The database's answer, except for work known to be done (done is forever): a game left past its
        deadline is not claimed again at every tick."""
        if key in self._done:
            return "done"
        got = await self.manager.storage.claim(key, self.owner, now, self.lease_seconds)
        if got == "done":
            self._remember_done(key)
        return got

    async def _finish(self, key: str, now: float) -> None:
        await self.manager.storage.finish_claim(key, self.owner, now)
        self._remember_done(key)

    def _remember_done(self, key: str) -> None:
        self._done[key] = None
        while len(self._done) > DONE_KEPT:
            self._done.popitem(last=False)

    async def tick(self, now: float | None = None) -> list[Nudge]:
        now = self.clock() if now is None else now
        sent: list[Nudge] = []
        for rec in await self.manager.storage.due(now + HORIZON):
            try:
                nudge = await self._game(rec, now)
            except StorageUnavailable:
                log.info("event=pace_game_skipped game=%s reason=storage_unavailable", rec.id)
                continue
            except Exception:
                log.exception("event=pace_game_failed game=%s", rec.id)
                continue
            if nudge is not None:
                sent.append(nudge)
        await self._jobs(now)
        log.debug("event=pace_tick owner=%s posted=%d", self.owner, len(sent))
        return sent

    async def _game(self, rec: GameRecord, now: float) -> Nudge | None:
        """The nudge this process posted for one game this tick, if any."""
        if rec.deadline_at is not None and rec.deadline_at <= now:
            key = f"expire:{rec.id}:{rec.version}"
            claimed = await self._claim(key, now)
            if claimed == "held":
                return None  # another process is on this game's deadline right now
            if claimed == "claimed":
                answered = await self._expire(rec, now, key)
                if answered is not None:
                    return answered
        due = nudge_kind(rec, float(rec.meta.get("nudged_slot", -math.inf)), now)
        if due is None:
            return None
        key = f"nudge:{rec.id}:{due[1]!r}"
        if await self._claim(key, now) != "claimed":
            return None
        fresh = await self.manager.storage.get_game(rec.id)  # what the others did before this claim
        if fresh is None or fresh.version != rec.version or \
                nudge_kind(fresh, float(fresh.meta.get("nudged_slot", -math.inf)), now) != due:
            await self._finish(key, now)  # moved on or posted: nothing to say
            return None
        # the reminder's status, skips and controls are rules work: a rules worker's, not the loop's
        state = await self.manager.table.load(fresh, get_game(fresh.kind))
        nudge = await self.manager.table.rules.run(self.nudge, fresh, due[0], state)
        if nudge is None:
            await self._finish(key, now)
            return None
        try:
            await self.post(nudge)
        except Exception as exc:
            log.exception("event=nudge_failed game=%s", rec.id)
            if getattr(exc, "status", None) != 403:
                await self.manager.storage.release_claim(key, self.owner)  # tried again next tick
                return None
            # a refusal (403) is not worth repeating every minute
        await self.manager.storage.update_meta(rec.id, {"nudged_slot": due[1]})
        await self._finish(key, now)
        log.info("event=nudge game=%s kind=%s to=%s", rec.id, nudge.kind, ",".join(nudge.to_act))
        return nudge

    async def _expire(self, rec: GameRecord, now: float, key: str) -> Nudge | None:
        """A claimed deadline: if a decision window ran out, answer it for the player (one guarded move)."""
        try:
            expired = await self.manager.expire(rec, now)
        except BaseException:
            await self.manager.storage.release_claim(key, self.owner)
            raise
        await self._finish(key, now)  # applied, or nothing to expire here
        if expired is None:
            return None
        answered = Nudge(rec=rec, kind="expired", to_act=list(expired.ping), waiting_for="",
                         text=expired.text, version=expired.version or rec.version, buttons=expired.buttons,
                         menus=expired.menus, replay_due=expired.replay_due)
        try:
            await self.post(answered)
        except Exception:
            log.exception("event=nudge_failed game=%s", rec.id)
        return answered

    async def _jobs(self, now: float) -> None:
        for name, (period, job) in self.jobs.items():
            key = f"job:{name}:{int(now // period)}"
            if await self._claim(key, now) != "claimed":
                continue
            try:
                await job(now)
            except Exception:
                log.exception("event=job_failed job=%s", name)
                await self.manager.storage.release_claim(key, self.owner)
                continue
            await self._finish(key, now)
            log.info("event=job job=%s", name)

    async def _prune_claims(self, now: float) -> int:
        return await self.manager.storage.prune_claims(now - KEEP_CLAIMS_SECONDS)

    def nudge(self, rec: GameRecord, kind: NudgeKind, state: BaseModel) -> Nudge | None:
        """The reminder or deadline notice of `kind` for `rec`, whose state is `state` (None: nobody to nudge)."""
        engine = get_game(rec.kind)
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
