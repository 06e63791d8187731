"""Between the event loop and the workers: bounded stages, coalesced boards, replies in commit order.

A burst must make replies slower, never fewer, and never stall the event loop (DESIGN rule 8):

- `Stage`: a fixed number of slots (worker threads, render processes, or moves in their apply path)
  behind a bounded queue. A submitter waits while every slot is busy and the queue is full; nothing
  is ever dropped. Only the submitters that got a slot do any work, so a thousand waiting moves cost
  the loop nothing but their parked coroutines.
- `Boards`: per channel at most one board waits to be drawn. A newer board of the same channel takes
  the waiting one's place, so a channel whose moves pile up gets only its newest board drawn; the
  older moves still get their text (`Board.superseded` says so at once).
- `Turns`: the replies of one channel leave in the order their moves were committed, whatever order
  their drawing and controls finished in.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

log = logging.getLogger("playpost.pipeline")

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """How much work is under way at once; the rest waits its turn (bot/settings.py sets them)."""

    apply_slots: int = 8  # moves in their apply path at once (storage reads and writes, rules)
    rules_workers: int = 2  # threads for rules work (one core's worth: the GIL)
    queue: int = 64  # jobs waiting at a stage before a submitter has to wait


class Stage:
    """`slots` jobs at once, `queue` more waiting; a submitter beyond that waits (never dropped).

    With an executor, `run` does its job there; `slot()` holds a slot for work done on the loop.
    """

    def __init__(self, name: str, slots: int, queue: int,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.name = name
        self.slots = max(1, slots)
        self.queue = max(0, queue)
        self.executor = executor
        self.running = 0  # jobs holding a slot
        self.waiting = 0  # jobs in the queue (admitted, no slot yet)
        self.blocked = 0  # submitters waiting for room in the queue
        self.peak_waiting = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._room: asyncio.Semaphore | None = None  # slots + queue places
        self._free: asyncio.Semaphore | None = None  # slots

    def _gates(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._room is None or self._free is None:
            self._loop = loop
            self._room = asyncio.Semaphore(self.slots + self.queue)
            self._free = asyncio.Semaphore(self.slots)
        return self._room, self._free

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one of the stage's slots (FIFO), waiting for room in its queue first."""
        room, free = self._gates()
        self.blocked += 1
        try:
            await room.acquire()
        finally:
            self.blocked -= 1
        try:
            queued = free.locked()  # every slot busy: wait in the queue
            if queued:
                self.waiting += 1
                self.peak_waiting = max(self.peak_waiting, self.waiting)
            try:
                await free.acquire()
            finally:
                if queued:
                    self.waiting -= 1
            self.running += 1
            try:
                yield
            finally:
                self.running -= 1
                free.release()
        finally:
            room.release()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the stage's executor (the loop's default one when None), in a slot."""
        async with self.slot():
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)


class Board:
    """The board one reply asked for: drawn, or superseded by a newer board of its channel."""

    def __init__(self, version: int | None) -> None:
        self.version = version
        self.superseded = False  # a newer board of the channel took this one's place: it is never drawn
        loop = asyncio.get_running_loop()
        self._done: asyncio.Future[bytes | None] = loop.create_future()
        self._settled = asyncio.Event()  # drawn, failed or superseded: nothing more to wait for here

    async def settled(self) -> None:
        """Until this board is drawn (or failed), or a newer board of its channel took its place."""
        await self._settled.wait()

    async def image(self) -> bytes | None:
        """This board's PNG; None when superseded (then once the newer board is drawn)."""
        return await asyncio.shield(self._done)

    @property
    def ready(self) -> bool:
        return self._done.done()

    def _supersede(self) -> None:
        self.superseded = True
        self._settled.set()

    def _finish(self, png: bytes | None, exc: BaseException | None = None) -> None:
        self._settled.set()
        if self._done.done():
            return
        if exc is not None and not self.superseded:
            self._done.set_exception(exc)
            self._done.add_done_callback(lambda f: f.exception())  # nobody may ask (a reply that gave up)
        else:
            self._done.set_result(None if self.superseded else png)


Draw = Callable[[], Awaitable[bytes | None]]


@dataclass
class _Waiting:
    """A channel's board waiting for a render slot: the newest request's drawing, and who asked."""

    draw: Draw
    boards: list[Board] = field(default_factory=list)
    started: bool = False


class Boards:
    """Boards drawn through the render stage; a channel's waiting board is replaced by a newer one."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.drawn = 0
        self.coalesced = 0  # boards never drawn: a newer board of their channel took their place
        self.drawing_s = 0.0  # time spent drawing (in a slot), for the benchmark
        self._waiting: dict[str, _Waiting] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def request(self, key: str | None, version: int | None, draw: Draw) -> Board:
        """Ask for a board; `key` (a channel) coalesces: only its newest waiting board is drawn."""
        board = Board(version)
        entry = self._waiting.get(key) if key is not None else None
        if entry is not None and not entry.started:
            for old in entry.boards:
                if not old.superseded:
                    old._supersede()
                    self.coalesced += 1
            entry.draw = draw
            entry.boards.append(board)
            return board
        entry = _Waiting(draw, [board])
        if key is not None:
            self._waiting[key] = entry
        task = asyncio.get_running_loop().create_task(self._draw(key, entry), name=f"playpost-board-{key}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return board

    async def _draw(self, key: str | None, entry: _Waiting) -> None:
        png: bytes | None = None
        error: BaseException | None = None
        try:
            async with self.stage.slot():
                entry.started = True  # from here on a newer board waits for a slot of its own
                if key is not None and self._waiting.get(key) is entry:
                    del self._waiting[key]
                try:
                    t0 = time.perf_counter()
                    png = await entry.draw()
                    self.drawn += 1
                    self.drawing_s += time.perf_counter() - t0
                except Exception as exc:  # the move stands; its reply says the board could not be drawn
                    log.exception("event=render_failed channel=%s", key)
                    error = exc
        finally:
            if key is not None and self._waiting.get(key) is entry:
                del self._waiting[key]
            for b in entry.boards:
                if entry.started:
                    b._finish(png, error)
                else:  # cancelled before a slot came free (the manager closing)
                    b._settled.set()
                    b._done.cancel()

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()


class Turn:
    """One reply's place in its channel's order."""

    def __init__(self, prev: asyncio.Future[None] | None, mine: asyncio.Future[None],
                 forget: Callable[[], None]) -> None:
        self._prev, self._mine, self._forget = prev, mine, forget

    async def wait(self) -> None:
        """Until every earlier reply of the channel has left (or failed)."""
        if self._prev is not None and not self._prev.done():
            await asyncio.wait({self._prev})

    def release(self) -> None:
        if not self._mine.done():
            self._mine.set_result(None)
        self._forget()


class Turns:
    """Replies of a channel leave in the order their turns were taken (take one as the move commits)."""

    def __init__(self) -> None:
        self._last: dict[str, asyncio.Future[None]] = {}

    def take(self, key: str) -> Turn:
        prev = self._last.get(key)
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._last[key] = mine

        def forget() -> None:
            if self._last.get(key) is mine:
                del self._last[key]

        return Turn(prev, mine, forget)
