"""image: each game's largest mid-game board against the PNG encoding floor and a chess bot's board."""
from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from pydantic import BaseModel

from render import render_png
from render.common import encode_png

from .common import SEED, TARGETS, Config, Engine, fit_seats, frozen_heap, med, ms, option_combos, pct, played
from .report import Report


@dataclass
class Subject:
    """One game's measured board."""

    view: BaseModel
    png: bytes
    options: dict[str, str]
    decoded: Image.Image  # as decoded (a palette image stays one): only encoding is left
    render: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    # the boards after it in the same game, each drawn once in order as a bot posts them (caches warm only from
    # the boards before: a renderer's content caches hit what consecutive boards share, not a repeat)
    following: list[BaseModel] = field(default_factory=list)
    seq_render: list[float] = field(default_factory=list)
    seq_floor: list[float] = field(default_factory=list)


def _peer() -> tuple[Callable[[], bytes], str] | None:
    """python-chess's SVG board at 800 px through cairosvg, 30 random moves in (the `bench` extra)."""
    try:
        import cairosvg
        import chess
        import chess.svg
    except ImportError:
        return None
    board = chess.Board()
    pick = random.Random(SEED)
    for _ in range(30):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(pick.choice(moves))
    last = board.peek()

    def run() -> bytes:
        svg = chess.svg.board(board, size=800, lastmove=last, coordinates=True)
        return cairosvg.svg2png(bytestring=svg.encode())

    return run, board.fen()


def _largest(cfg: Config, gid: str, engine: Engine) -> Subject | None:
    """The option combination whose board, halfway through a seeded random game, is largest."""
    best: tuple[int, int, dict[str, str], BaseModel, bytes, list[BaseModel]] | None = None
    for opts in option_combos(engine, cfg.max_combos):
        try:
            seats = fit_seats(engine, opts)
        except Exception:
            continue
        game = played(engine, opts, SEED, seats, cfg.playout_cap)
        mid = len(game.states) // 2
        view = engine.view(game.states[mid], None)
        png = render_png(gid, view)
        if png is None:
            return None
        w, h = Image.open(io.BytesIO(png)).size
        if best is None or (w * h, len(png)) > best[:2]:
            best = (w * h, len(png), {**opts, "seats": str(seats)}, view, png, game.states[mid + 1:mid + 1 + FOLLOWING])
    if best is None:
        return None
    _, _, opts, view, png, after = best
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    return Subject(view, png, opts, decoded, following=[engine.view(st, None) for st in after])


FOLLOWING = 40  # consecutive boards drawn once each, after the measured one


def _following(s: Subject, gid: str) -> None:
    """Each following board drawn once, in the game's order, and its own PNG encoded alone (its floor)."""
    for view in s.following:
        t0 = time.perf_counter()
        png = render_png(gid, view)
        t1 = time.perf_counter()
        decoded = Image.open(io.BytesIO(png or b""))
        decoded.load()
        t2 = time.perf_counter()
        encode_png(decoded)
        s.seq_render.append(t1 - t0)
        s.seq_floor.append(time.perf_counter() - t2)


def bench_images(cfg: Config, games: dict[str, Engine], rep: Report) -> None:
    subjects: dict[str, Subject] = {}
    for gid, engine in games.items():
        try:
            found = _largest(cfg, gid, engine)
        except Exception as exc:
            rep.add("image", gid, "skipped", f"board failed: {type(exc).__name__}: {exc}"[:100])
            continue
        if found is None:
            rep.add("image", gid, "skipped", "no renderer (or no option set accepted)")
            continue
        subjects[gid] = found
    with frozen_heap():  # the seeded games behind the subjects stay out of the collector's scans
        peer = _peer()
        peer_times: list[float] = []
        peer_bytes = 0
        for i in range(cfg.image_warmup + cfg.image_runs):  # interleaved, so a noisy moment hits all alike
            keep = i >= cfg.image_warmup
            for gid, s in subjects.items():
                t0 = time.perf_counter()
                render_png(gid, s.view)
                t1 = time.perf_counter()
                encode_png(s.decoded)
                t2 = time.perf_counter()
                if keep:
                    s.render.append(t1 - t0)
                    s.floor.append(t2 - t1)
            if peer is not None:
                t0 = time.perf_counter()
                out = peer[0]()
                if keep:
                    peer_times.append(time.perf_counter() - t0)
                    peer_bytes = len(out)
        for gid, s in subjects.items():
            _following(s, gid)
    peer_med = med(peer_times) if peer_times else None
    if peer_med is not None:
        rep.add("image", "peer", "python-chess SVG 800px + cairosvg: median / p95",
                f"{ms(peer_med):.1f} / {ms(pct(peer_times, 95)):.1f} ms, {peer_bytes / 1024:.0f} KB",
                {"median_ms": ms(peer_med), "p95_ms": ms(pct(peer_times, 95)), "png_bytes": peer_bytes})
    else:
        rep.add("image", "peer", "skipped", "python-chess / cairosvg not installed (pip install -e '.[bench]')")
    details = {gid: _rows(rep, gid, s, peer_med) for gid, s in subjects.items()}
    rep.details["image"] = {"games": details, "peer_ms": [ms(x) for x in peer_times],
                            "peer_position": peer[1] if peer else None, "runs": cfg.image_runs,
                            "warmup": cfg.image_warmup}


def _rows(rep: Report, gid: str, s: Subject, peer_med: float | None) -> dict[str, Any]:
    r_med, r95, f_med = med(s.render), pct(s.render, 95), med(s.floor)
    w, h = s.decoded.size
    kb = len(s.png) / 1024
    optdesc = ",".join(f"{k}={v}" for k, v in s.options.items()) or "default"
    subject = f"{gid} ({optdesc})"
    rep.add("image", subject, "render median / p95", f"{ms(r_med):.1f} / {ms(r95):.1f} ms",
            {"median_ms": ms(r_med), "p95_ms": ms(r95)})
    rep.add("image", subject, "PNG size", f"{kb:.0f} KB", round(kb, 1), f"<= {TARGETS['png_kb']:.0f} KB",
            kb <= TARGETS["png_kb"])
    rep.add("image", subject, "pixels", f"{w} x {h}", [w, h],
            f"width <= {TARGETS['width_px']}, height <= {TARGETS['height_px']}",
            w <= TARGETS["width_px"] and h <= TARGETS["height_px"])
    ratio = r_med / f_med
    rep.add("image", subject, "floor (encode_png alone) / render÷floor",
            f"{ms(f_med):.1f} ms / {ratio:.2f}x", {"floor_ms": ms(f_med), "ratio": round(ratio, 2)},
            f"<= {TARGETS['render_floor']}", ratio <= TARGETS["render_floor"])
    if s.seq_render:
        seq = sum(s.seq_render) / sum(s.seq_floor)
        rep.add("image", subject, f"the {len(s.seq_render)} boards after it, each drawn once: render÷floor",
                f"{seq:.2f}x", round(seq, 2))
    if peer_med:
        pr = r_med / peer_med
        rep.add("image", subject, "render÷peer", f"{pr:.2f}x", round(pr, 2), f"<= {TARGETS['render_peer']}",
                pr <= TARGETS["render_peer"])
    return {"options": s.options, "render_ms": [ms(x) for x in s.render], "floor_ms": [ms(x) for x in s.floor],
            "png_bytes": len(s.png), "size": [w, h], "following_render_ms": [ms(x) for x in s.seq_render],
            "following_floor_ms": [ms(x) for x in s.seq_floor]}
