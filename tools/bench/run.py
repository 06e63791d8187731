"""One benchmark run: every section in turn, then the table (and the JSON)."""
from __future__ import annotations

import asyncio
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from .common import FULL, QUICK, ROOT, SEED, TARGETS, bench_games, forget_played
from .durability import bench_durability
from .engines import bench_engines
from .images import bench_images
from .pipeline import bench_pipeline
from .replay import bench_replay
from .report import Report, format_table, to_json
from .scale import bench_scale
from .scaleout import bench_scaleout
from .undo import bench_undo_export


def _meta(quick: bool) -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=10, check=False).stdout.strip()
    except Exception:
        commit = ""
    return {"quick": quick, "python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count(), "commit": commit, "seed": SEED, "started_at": time.time(),
            "loadavg_start": list(os.getloadavg())}


SECTIONS = ("image", "replay", "scale", "undo/export", "scale-out", "durability", "engines", "pipeline")


async def run(quick: bool = False, only: tuple[str, ...] = ()) -> Report:
    """Every section in turn, or only those named in `only` (comparing one change back to back)."""
    cfg = QUICK if quick else FULL
    rep = Report()
    rep.details["meta"] = _meta(quick)
    rep.details["config"] = cfg.__dict__
    rep.details["targets"] = TARGETS
    games = bench_games()
    rep.details["games"] = sorted(games)
    t0 = time.perf_counter()
    timings = {}
    with tempfile.TemporaryDirectory(prefix="playpost-bench-") as d:
        tmp = Path(d)
        sections: list[tuple[str, Callable[[], Awaitable[None] | None]]] = [
            ("image", lambda: bench_images(cfg, games, rep)),
            ("replay", lambda: bench_replay(cfg, games, rep)),
            ("scale", lambda: bench_scale(cfg, games, rep, tmp)),
            ("undo/export", lambda: bench_undo_export(cfg, games, rep, tmp)),
            ("scale-out", lambda: bench_scaleout(cfg, games, rep, tmp)),
            ("durability", lambda: bench_durability(cfg, games, rep, tmp)),
            ("engines", lambda: bench_engines(cfg, games, rep, quick)),
            # last, with the seeded games (thousands of states) freed: their garbage-collector
            # scans would otherwise show up as event-loop stalls the bot does not have
            ("pipeline", lambda: bench_pipeline(cfg, games, rep, tmp)),
        ]
        for name, section in sections:
            if only and name not in only:
                continue
            if name == "pipeline":
                forget_played()
                gc.collect()
            s0 = time.perf_counter()
            try:
                pending = section()
                if pending is not None:
                    await pending
            except Exception as exc:  # one broken section must not hide the others
                rep.add(name, "all", "failed", f"{type(exc).__name__}: {exc}"[:120])
            timings[name] = round(time.perf_counter() - s0, 2)
    rep.details["section_s"] = timings
    rep.details["total_s"] = round(time.perf_counter() - t0, 2)
    rep.details["meta"]["loadavg_end"] = list(os.getloadavg())
    return rep


def main(json_path: str | None = None, quick: bool = False, only: str | None = None) -> int:
    """`only`: comma-separated section names (see SECTIONS); None runs them all."""
    names = tuple(n.strip() for n in only.split(",") if n.strip()) if only else ()
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        print(f"unknown bench section(s): {', '.join(unknown)}; sections: {', '.join(SECTIONS)}", file=sys.stderr)
        return 2
    rep = asyncio.run(run(quick, names))
    meta = rep.details["meta"]
    what = ("quick" if quick else "full") + (f", only {','.join(names)}" if names else "")
    print(f"playpost bench ({what}; {meta['cpus']} CPUs, Python {meta['python']}, "
          f"{rep.details['total_s']:.0f} s; load average {meta['loadavg_start'][0]:.1f} at start, "
          f"{meta['loadavg_end'][0]:.1f} at end)")
    print(format_table(rep))
    if json_path:
        path = Path(json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(to_json(rep), indent=1, default=str) + "\n", encoding="utf-8")
        print(f"JSON written to {path}")
    return 0
