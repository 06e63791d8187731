"""The SQLite file's integrity check at open (`PRAGMA quick_check`), startable before the rest of the process loads.

The check reads the whole file: about 0.8 s of CPU for 10,000 stored games, most of a start-up. SQLite's C code
releases the GIL while it runs, so a process that starts it first (`start_check`, on a connection and a thread of its
own) imports and builds the bot on the other core meanwhile; the `SQLiteStorage.open` that follows takes the verdict
(waiting for it if need be) before its own connection reads or writes anything, so a damaged file is refused exactly
as before. This module imports only the standard library: it is the first thing a start-up loads.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from concurrent.futures import Future

Verdict = Future[list[str]]  # the check's problems ([] when the file is sound), or the sqlite3.Error it raised

_started: dict[str, Verdict] = {}
_lock = threading.Lock()


def _key(path: str) -> str:
    return os.path.realpath(path)


def problems(path: str) -> list[str]:
    """What `PRAGMA quick_check` finds wrong with the file ([] when it says ok; raises the sqlite3.Error a file
    that is no database at all gives). A file that does not exist yet has nothing to check: the open creates it."""
    if path == ":memory:" or not os.path.exists(path):
        return []
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
    finally:
        conn.close()
    return [] if rows == ["ok"] else rows or ["quick_check gave no answer"]


def _run(path: str, verdict: Verdict) -> None:
    try:
        verdict.set_result(problems(path))
    except BaseException as exc:  # the opener raises it, as if it had run the check itself
        verdict.set_exception(exc)


def _begin(path: str) -> Verdict:
    verdict: Verdict = Future()
    threading.Thread(target=_run, args=(path, verdict), name="playpost-quick-check", daemon=True).start()
    return verdict


def start_check(path: str) -> None:
    """Begin checking the SQLite file at `path` in a thread; the next open of that file in this process takes
    the verdict instead of checking again. A check of that file already under way is not started twice."""
    with _lock:
        if _key(path) not in _started:
            _started[_key(path)] = _begin(path)


def passed(path: str) -> None:
    """The file at `path` has just been checked by this process and found sound (a probe before connecting
    anywhere): the next open takes that verdict rather than reading the whole file again."""
    verdict: Verdict = Future()
    verdict.set_result([])
    with _lock:
        _started[_key(path)] = verdict


def take(path: str) -> Verdict:
    """The verdict of the check started on `path` (consumed: the open after it checks again), else a check begun now."""
    with _lock:
        verdict = _started.pop(_key(path), None)
    return verdict if verdict is not None else _begin(path)  # its own check: no other open can take it first
