"""Animated replay of a finished game (issue 18): one frame per turn, the turn's moves as a caption.

A pure function of a game's record (options, seats, seed, action log): the log is replayed with the
rules, the public board drawn whenever the turn passes on, each frame scaled to `WIDTH` (the width a
phone shows) with its caption above, and the frames written as one animated GIF. CPU-bound: the bot
runs it in its render pool, never on the event loop.
"""
from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.core import Action, Game, Seat
from games.core.play import step

from . import render_png
from .common import INK, PAPER, font, wrap

WIDTH = 600  # px: what a phone shows of an attachment
CAPTION_LINES = 4
FRAME_MS = 1600
LAST_FRAME_MS = 6000
MAX_FRAMES = 60  # at most about 7 MB (a Heroball frame is ~110 KB): under Discord's 10 MB upload limit
CAPTION_CHARS = 64


@dataclass
class Frame:
    png: bytes
    caption: list[str]


def _caption(header: str, texts: Sequence[str], chars: int) -> list[str]:
    lines = [header]
    body: list[str] = []
    for t in texts:
        body += wrap(t.replace("→", "->").replace("·", "-"), chars)
    if len(body) > CAPTION_LINES:
        more = len(body) - CAPTION_LINES + 1
        body = body[:CAPTION_LINES - 1] + [f"... and {more} more lines"]
    return lines + body


def turn_frames(engine: Game, options: dict[str, str], seats: Sequence[Seat], seed: int,
                log: Sequence[tuple[str, Action]], max_frames: int = MAX_FRAMES) -> Iterator[Frame]:
    """The board at the start and after each turn (when the status' turn key changes), with what happened.
    A game with more turns than `max_frames` shows several turns per frame (evenly), always the last one."""
    names = {s.player: s.name for s in seats}
    state = engine.setup(options, seats, seed)
    png = render_png(engine.id, engine.view(state, None))
    if png is None:
        raise ValueError(f"{engine.name} has no board image")
    yield Frame(png, [f"{engine.name}: the start", ", ".join(s.name for s in seats)])
    ends = turn_ends(engine, options, seats, seed, log)
    if len(ends) > max_frames - 1:
        k = -(-len(ends) // (max_frames - 1))
        ends = ends[k - 1::k] if ends[-1] in ends[k - 1::k] else [*ends[k - 1::k], ends[-1]]
    wanted = set(ends)
    texts: list[str] = []
    for i, (player, action) in enumerate(log):
        _, state, events = step(engine, state, player, action)
        public = [e.text for e in events if e.to is None]
        texts += public or [f"{names.get(player, player)}: {action.text()}"]
        if i in wanted:
            st = engine.status(state)
            header = f"{st.round_name.capitalize()} {st.round}" + (" - game over" if st.finished else "")
            png = render_png(engine.id, engine.view(state, None))
            assert png is not None
            yield Frame(png, _caption(header, texts, CAPTION_CHARS))
            texts = []


def turn_ends(engine: Game, options: dict[str, str], seats: Sequence[Seat], seed: int,
              log: Sequence[tuple[str, Action]]) -> list[int]:
    """Indices of the log's actions after which the turn passed on (and the last action)."""
    state = engine.setup(options, seats, seed)
    key = engine.status(state).turn_key
    out = []
    for i, (player, action) in enumerate(log):
        state, _ = engine.apply(state, player, action)
        st = engine.status(state)
        if st.turn_key != key or st.finished or i == len(log) - 1:
            out.append(i)
            key = st.turn_key
    return out


def _still(frame: Frame) -> Image.Image:
    board = Image.open(io.BytesIO(frame.png)).convert("RGB")
    h = round(board.height * WIDTH / board.width)
    board = board.resize((WIDTH, h), Image.Resampling.BILINEAR)
    size = 17
    top = 10 + len(frame.caption) * (size + 5)
    img = Image.new("RGB", (WIDTH, top + h), PAPER)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(frame.caption):
        d.text((10, 6 + i * (size + 5)), line, font=font(size + 2 if i == 0 else size), fill=INK)
    img.paste(board, (0, top))
    return img


def replay_gif(frames: Sequence[Frame] | Iterator[Frame]) -> bytes:
    """One animated GIF of the frames (each shown `FRAME_MS`, the last longer), looping."""
    stills = [_still(f) for f in frames]
    if not stills:
        raise ValueError("nothing to replay")
    height = max(s.height for s in stills)
    out = []
    for s in stills:  # one size for every frame; each on the same adaptive palette method (fast, no dither)
        if s.height < height:
            pad = Image.new("RGB", (WIDTH, height), PAPER)
            pad.paste(s, (0, 0))
            s = pad
        out.append(s.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
    buf = io.BytesIO()
    durations = [FRAME_MS] * (len(out) - 1) + [LAST_FRAME_MS]
    out[0].save(buf, format="GIF", save_all=True, append_images=out[1:], duration=durations, loop=0,
                optimize=False, disposal=1)
    return buf.getvalue()


def replay_record(engine: Game, options: dict[str, str], seats: Sequence[Seat], seed: int,
                  log: Sequence[tuple[str, Action]]) -> bytes:
    """The animated replay of a game's record."""
    return replay_gif(turn_frames(engine, options, seats, seed, log))
