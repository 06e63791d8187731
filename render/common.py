"""What every renderer shares: fonts, a palette for seats, palette-mode drawing and deterministic PNG encoding.

Fast path (issue 7): a renderer draws straight into a palette ("P") image on a fixed palette of its
own, so no colour quantisation is left for encoding. Shapes (Pillow draws them without
anti-aliasing) get palette indices; text, which is anti-aliased, is pasted from cached sprites whose
edge pixels use blends of the text and background colours that the palette holds as ramps.
"""
from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from . import words
from .words import font

RGB = tuple[int, int, int]

# Colour-blind-friendly seat colours (Okabe-Ito), in seat order.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # green
    (204, 121, 167),  # purple
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky
)
INK = (30, 30, 35)
PAPER = (248, 246, 240)
GRID = (160, 160, 160)
MUTED = (110, 110, 115)
WHITE = (255, 255, 255)

RAMP = (0.25, 0.5, 0.75)  # anti-aliasing levels of text edges kept in a palette


def blend(bg: Sequence[int], fg: Sequence[int], t: float) -> RGB:
    """`t` of the way from bg to fg (what an anti-aliased edge pixel looks like)."""
    return tuple(round(b + (f - b) * t) for b, f in zip(bg, fg, strict=True))  # type: ignore[return-value]


class Palette:
    """A fixed palette of up to 256 colours: the solid colours a renderer draws with, then for each
    (text colour, background) pair the blends its anti-aliased text edges need. Fixed per renderer,
    so the same view always gives the same bytes; a colour not in it maps to the nearest entry."""

    def __init__(self, colours: Iterable[Sequence[int]],
                 text_pairs: Iterable[tuple[Sequence[int], Sequence[int]]] = ()) -> None:
        entries: list[RGB] = []
        seen: set[RGB] = set()

        def add(colour: Sequence[int]) -> None:
            c: RGB = (int(colour[0]), int(colour[1]), int(colour[2]))
            if c not in seen:
                seen.add(c)
                entries.append(c)

        for c in colours:
            add(c)
        pairs = list(text_pairs)
        for fg, bg in pairs:
            add(fg)
            add(bg)
        for fg, bg in pairs:
            for t in RAMP:
                add(blend(bg, fg, t))
        if len(entries) > 256:
            raise ValueError(f"palette needs {len(entries)} colours, at most 256 fit")
        self.colours: tuple[RGB, ...] = tuple(entries)
        self._index = {c: i for i, c in enumerate(entries)}
        flat = [v for c in entries for v in c]
        self.flat = flat + flat[:3] * (256 - len(entries))  # padded with the first colour: never a new one

    def __len__(self) -> int:
        return len(self.colours)

    def __getitem__(self, colour: Sequence[int] | int) -> int:
        if isinstance(colour, int):
            return colour
        c = tuple(colour[:3])
        i = self._index.get(c)  # type: ignore[arg-type]
        return i if i is not None else _nearest(self, c)

    def new(self, size: tuple[int, int], colour: Sequence[int]) -> Image.Image:
        img = Image.new("P", size, self[colour])
        img.putpalette(self.flat)
        return img

    def remap(self, img: Image.Image, fn: Any) -> Image.Image:
        """A palette image with every pixel's colour replaced by fn(colour), mapped back into the palette
        (fn: a module-level function; its table is cached). The result has no palette of its own: paste it."""
        return Image.frombytes("P", img.size, img.tobytes().translate(_remap_table(self, fn)))


@lru_cache(maxsize=64)
def _remap_table(pal: Palette, fn: Any) -> bytes:
    return bytes([pal[fn(c)] for c in pal.colours] + [0] * (256 - len(pal.colours)))


@lru_cache(maxsize=4096)
def _nearest(pal: Palette, c: tuple[int, ...]) -> int:
    return min(range(len(pal.colours)),
               key=lambda i: (sum((a - b) ** 2 for a, b in zip(pal.colours[i], c, strict=True)), i))


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """A text's advance width in px (what a count of characters only estimates)."""
    return math.ceil(font(size).getlength(text))


@lru_cache(maxsize=2048)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int] | None:
    """The anti-aliased coverage mask of a text and where its top-left sits relative to the anchor point.

    FreeType's own bitmap of the text (`getmask2`): the same pixels as drawing it into a mask sized by
    `getbbox`, at half the cost (no second layout pass; getbbox of a long panel line took longer than
    drawing it); put together from its words' cached masks where that gives the very same (`words.line`)."""
    f = font(size)
    if isinstance(f, ImageFont.FreeTypeFont):
        found = words.line(text, size, anchor)
        if found is not None:
            return found
        core, (left, top) = f.getmask2(text, mode="L", anchor=anchor)
        if core.size[0] <= 0 or core.size[1] <= 0:
            return None
        return Image.Image()._new(core), left, top
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))  # Pillow without FreeType
    if right <= left or bottom <= top:
        return None
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=256)
def _level_lut(pal: Palette, fg: RGB, bg: RGB) -> bytes:
    """Coverage 0..255 -> the palette index of the nearest of 25/50/75/100 % of fg over bg (one table per pair)."""
    levels = [pal[blend(bg, fg, t)] for t in RAMP] + [pal[fg]]
    # below 1/8 the pixel is left alone (mask)
    return bytes(levels[min(3, max(0, round(a / 255 * 4) - 1))] for a in range(256))


_MASK_LUT = bytes(255 if a >= 32 else 0 for a in range(256))


def _bilevel(mask: Image.Image) -> Image.Image:
    """A 0/255 mask as mode "1": pasting through it copies pixels where an "L" mask blends them (a third faster)."""
    return mask.convert("1", dither=Image.Dither.NONE)


@lru_cache(maxsize=2048)
def _sprite(pal: Palette, text: str, size: int, anchor: str, fg: RGB,
            bg: RGB) -> tuple[Any, Any, int, int, int, int] | None:
    """A text's palette indices and paste mask (Pillow cores, pasted without Image.paste's overhead)."""
    g = _glyphs(text, size, anchor)
    if g is None:
        return None
    mask, left, top = g
    cover = mask.tobytes()
    idx = Image.frombytes("P", mask.size, cover.translate(_level_lut(pal, fg, bg)))
    paste = _bilevel(Image.frombytes("L", mask.size, cover.translate(_MASK_LUT)))
    return idx.im, paste.im, left, top, mask.width, mask.height


@lru_cache(maxsize=2048)
def _opaque(pal: Palette, text: str, size: int, anchor: str, fg: RGB, bg: RGB) -> Any:
    """A text's sprite for a place where nothing is drawn yet (the palette's first colour): its pixels where the
    paste mask copies them and that colour elsewhere, the pixels a masked paste there leaves, copied whole."""
    g = _glyphs(text, size, anchor)
    assert g is not None  # asked only for a text that has a sprite
    return Image.frombytes("P", g[0].size, g[0].tobytes().translate(_opaque_lut(pal, fg, bg))).im


@lru_cache(maxsize=256)
def _opaque_lut(pal: Palette, fg: RGB, bg: RGB) -> bytes:
    """Coverage -> `_level_lut`'s index where the paste mask copies a pixel, else the first colour's (0)."""
    lut = _level_lut(pal, fg, bg)
    return bytes(lut[a] if _MASK_LUT[a] else 0 for a in range(256))


class Pen:
    """ImageDraw for a palette image: fill/outline given as RGB (or index), text pasted from cached sprites.

    `bg` is the colour a text is assumed to sit on (its edge blends); the pen's default is PAPER. Rectangles,
    ellipses, lines and polygons go straight to Pillow's core with the same calls ImageDraw makes (its
    per-call colour handling was a third of a board's drawing); other shapes go through ImageDraw."""

    def __init__(self, img: Image.Image, pal: Palette, bg: Sequence[int] = PAPER) -> None:
        self.img = img
        self.pal = pal
        self.bg = tuple(bg)
        self.d = ImageDraw.Draw(img)
        img.load()
        self._core = img.im
        self._size = img.size
        self._draw = self.d.draw
        self._index = pal._index

    def _c(self, c: Any) -> int | None:
        if c is None:
            return None
        i = self._index.get(c) if isinstance(c, tuple) else None
        return i if i is not None else self.pal[c]

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self.d, name)

        def call(*args: Any, fill: Any = None, outline: Any = None, **kw: Any) -> Any:
            if outline is not None:
                kw["outline"] = self._c(outline)
            return fn(*args, fill=self._c(fill), **kw)

        return call

    def _shape(self, draw: Callable[..., None], xy: Any, fill: Any, outline: Any, width: int) -> None:
        """A filled and outlined shape with ImageDraw's own core calls: the fill, then an outline of another colour."""
        f, o = self._c(fill), self._c(outline)
        if f is not None:
            draw(xy, f, 1)
        if o is not None and o != f and width != 0:
            draw(xy, o, 0, width)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        if fill is None and outline is None:  # ImageDraw's default ink
            self.d.rectangle(xy, width=width)
        else:
            self._shape(self._draw.draw_rectangle, xy, fill, outline, width)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        if fill is None and outline is None:
            self.d.ellipse(xy, width=width)
        else:
            self._shape(self._draw.draw_ellipse, xy, fill, outline, width)

    def _tile(self, xy: Any, f: int | None, o: int | None, width: int, radius: float) -> bool:
        """Paste a rounded box from a cached tile if its corners are whole pixels inside the image (what Pillow
        clips at the edge is left to Pillow)."""
        box = (*xy[0], *xy[1]) if len(xy) == 2 else tuple(xy)
        if not all(float(v).is_integer() for v in box):
            return False
        x0, y0, x1, y1 = (int(v) for v in box)
        if not (0 <= x0 <= x1 < self._size[0] and 0 <= y0 <= y1 < self._size[1]):
            return False
        idx, mask = _rounded(x1 - x0, y1 - y0, f, o, width, radius)
        self._core.paste(idx, (x0, y0, x1 + 1, y1 + 1), mask)
        return True

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        if (fill is None and outline is None) or (outline is not None and width > 1):  # a wide outline: a mask
            self.d.polygon(xy, fill=self._c(fill), outline=self._c(outline), width=width)
        else:
            self._shape(self._draw.draw_polygon, xy, fill, outline, width)

    def line(self, xy: Any, fill: Any = None, width: int = 1, joint: str | None = None) -> None:
        if fill is None or joint is not None:
            self.d.line(xy, fill=self._c(fill), width=width, joint=joint)
            return
        if width != 0:
            self._draw.draw_lines(xy, self._c(fill), width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None,
                          width: int = 1) -> None:
        """Pasted from a cached tile when its corners are whole pixels (ImageDraw's corners cost 30 us a box)."""
        f, o = self._c(fill), self._c(outline)
        if (f is None and o is None) or not self._tile(xy, f, o, width, radius):
            self.d.rounded_rectangle(xy, radius=radius, fill=f, outline=o, width=width)

    def band(self, band: tuple[Any, Any], top: int, left: int = 0, fresh: bool = False) -> None:
        """Paste a `band` (from `band`) at its place, `top` px down and `left` px in.

        `fresh`: nothing has been drawn where it goes, so the image there is still the palette's first colour,
        the background the band's pixels were drawn on: the band is copied whole, without its mask, with the
        same pixels (a masked paste costs a few ns a pixel, a hero card's 60,000 pixels 0.1-0.3 ms)."""
        idx, mask = band
        box = (left, top, left + idx.size[0], top + idx.size[1])
        if fresh:
            self._core.paste(idx, box)
        else:
            self._core.paste(idx, box, mask)

    def sheet(self, sheet: Any, left: int, top: int) -> None:
        """Paste a `sheet` whole at (`left`, `top`), where nothing is drawn yet (the image is its background there)."""
        self._core.paste(sheet, (left, top, left + sheet.size[0], top + sheet.size[1]))

    def text(self, xy: tuple[float, float], text: str, font: Any = None, fill: Sequence[int] = INK,
             anchor: str | None = None, bg: Sequence[int] | None = None, size: int | None = None,
             fresh: list[Box] | None = None, above: float = 0) -> Box | None:
        """`text`, and the box its pixels took (None: nothing drawn). `fresh`, `above` (from `Recorder.replay`): the
        boxes drawn since the image was still its first colour from row `above` down; a text whose box starts there
        and meets none of them is copied whole from its opaque sprite instead of through its mask (same pixels)."""
        size = size if size is not None else font.size
        key = (self.pal, text, size, anchor or "la", tuple(fill), tuple(bg) if bg is not None else self.bg)
        s = _sprite(*key)
        if s is None:
            return None
        idx, mask, left, top, w, h = s
        x, y = round(xy[0]) + left, round(xy[1]) + top
        box = (x, y, x + w, y + h)
        if fresh is not None and y >= above:
            for a, b, c, d in fresh:
                if a < box[2] and box[0] < c and b < box[3] and y < d:
                    break
            else:
                self._core.paste(_opaque(*key), box)
                return box
        self._core.paste(idx, box, mask)
        return box


@lru_cache(maxsize=256)
def _rounded(w: int, h: int, fill: int | None, outline: int | None, width: int,
             radius: float) -> tuple[Any, Any]:
    """A rounded box drawn at the origin and the mask of its pixels: drawn on two backgrounds, a pixel that
    differs between them is background (the same shape at a whole-pixel offset has the same pixels)."""
    tiles = []
    for bg in (0, 1):
        img = Image.new("P", (w + 1, h + 1), bg)
        ImageDraw.Draw(img).rounded_rectangle((0, 0, w, h), radius=radius, fill=fill, outline=outline, width=width)
        tiles.append(img.tobytes())
    return _masked(tiles[0], tiles[1], (w + 1, h + 1))


def _masked(on0: bytes, on1: bytes, size: tuple[int, int]) -> tuple[Any, Any]:
    """The pixels drawn on background index 0 and the mask of what was drawn: a pixel the same on both backgrounds
    (`on0`, `on1`) is drawn, one that differs is background."""
    differ = ImageChops.difference(Image.frombytes("L", size, on0), Image.frombytes("L", size, on1))
    drawn = differ.point(_DRAWN_LUT)  # in Pillow's core: a card is 100,000 pixels, 40 ms a pixel at a time in Python
    return Image.frombytes("P", size, on0).im, _bilevel(drawn).im


_DRAWN_LUT = [255] + [0] * 255  # no difference between the two backgrounds: drawn


def band(pal: Palette, width: int, top: int, height: int, draw: Callable[[Pen], object]) -> tuple[Any, Any]:
    """What `draw` draws between `top` and `top + height` of an image `width` px wide, and the mask of its pixels:
    a part every board of one layout shares (a map's key), cached by the renderer and pasted in one go. Drawn
    where it will be pasted, on two backgrounds: a pixel that differs between them is background."""
    bands = []
    for bg in (0, 1):
        img = Image.new("P", (width, top + height), bg)
        draw(Pen(img, pal))
        bands.append(img.crop((0, top, width, top + height)).tobytes())
    return _masked(bands[0], bands[1], (width, height))


def sheet(pal: Palette, width: int, height: int, draw: Callable[[Pen], object]) -> Any:
    """What `draw` draws in a `width` x `height` box at the origin, on the palette's first colour, without a mask:
    for a part pasted whole where nothing else is drawn (`Pen.sheet`), so that drawing it anew costs what drawing it
    in place did, and a renderer may cache it by what it shows."""
    img = Image.new("P", (width, height), 0)
    draw(Pen(img, pal))
    return img.im


def grown(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A copy of palette image `img` grown to `size` in the palette's first colour (every renderer's is PAPER):
    one pass over the pixels, where a new image and a paste were two."""
    return img.crop((0, 0, *size))


def _noted(name: str) -> Any:
    def note(self: Recorder, *args: Any, **kw: Any) -> None:
        self.ops.append((name, args, kw))
    return note


class Recorder(Pen):
    """A Pen that only notes what is drawn, replayed on a real Pen once the image's size is known: a renderer
    whose panel sets the height allocates the image at its size, where a larger one and a crop made two more
    passes over a megabyte."""

    def __init__(self, pal: Palette, bg: Sequence[int] = PAPER) -> None:  # no image: nothing is drawn yet
        self.pal = pal
        self.bg = tuple(bg)
        self.ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:  # any other ImageDraw shape
        if name.startswith("_"):
            raise AttributeError(name)
        return _noted(name).__get__(self)

    text = _noted("text")
    rectangle = _noted("rectangle")
    ellipse = _noted("ellipse")
    polygon = _noted("polygon")
    line = _noted("line")
    rounded_rectangle = _noted("rounded_rectangle")
    band = _noted("band")
    sheet = _noted("sheet")

    def replay(self, img: Image.Image, drawn: Box | None = None) -> Pen:
        """Draw what was noted on `img` (in the same order), with a Pen of the same palette and text background.

        `drawn`: the box of `img` drawn on so far (a `grown` base); the rest is still the palette's first colour. A
        text whose box meets nothing drawn before it is copied whole from its opaque sprite, not pasted through
        its mask (the same pixels; a panel's lines are most of its pixels). What was drawn is followed by boxes
        (`_extent`, the text's own), those reaching below the top of the last one drawn."""
        pen = Pen(img, self.pal, self.bg)
        if drawn is None:
            for name, args, kw in self.ops:
                getattr(pen, name)(*args, **kw)
            return pen
        # every box drawn is in `boxes` or ends above `base` (a text may be copied whole only from `base` down);
        # after each one, those ending above its top leave the list and `base` moves down to them
        base: float = -math.inf
        boxes: list[Box] = [drawn]
        for name, args, kw in self.ops:
            if name == "text":
                # a noted text's keywords never hold these two
                placed = pen.text(*args, **kw, fresh=boxes, above=base)  # type: ignore[misc]
                if placed is None:
                    continue
                box: Box = placed
            else:
                getattr(pen, name)(*args, **kw)
                box = _extent(name, args, kw)
            top = box[1]
            if top > base:
                kept = []
                for other in boxes:
                    if other[3] > top:
                        kept.append(other)
                    elif other[3] > base:
                        base = other[3]
                boxes = kept
            if box[3] > base:
                boxes.append(box)
        return pen


Box = tuple[float, float, float, float]  # left, top, right, bottom: pixels x, y with left <= x < right, ...


_SHAPES = frozenset(("rectangle", "ellipse", "rounded_rectangle", "polygon", "line"))


def _extent(name: str, args: tuple[Any, ...], kw: dict[str, Any]) -> Box:
    """A box holding every pixel a noted shape, band or sheet can touch (more is safe; a shape not known here
    covers everything, so no text after it is copied whole)."""
    if name == "band":
        band, top = args[0], args[1]
        left = args[2] if len(args) > 2 else kw.get("left", 0)
        return (left, top, left + band[0].size[0], top + band[0].size[1])
    if name == "sheet":
        sheet, left, top = args
        return (left, top, left + sheet.size[0], top + sheet.size[1])
    if name in _SHAPES and args:
        xy = args[0]
        if len(xy):
            if isinstance(xy[0], (int, float)):  # x0, y0, x1, y1, ...
                xs, ys = xy[0::2], xy[1::2]
            else:  # points
                xs, ys = [p[0] for p in xy], [p[1] for p in xy]
            pad = kw.get("width", 1) + 2  # a wide line reaches half its width past its points; a pixel's rounding
            return (min(xs) - pad, min(ys) - pad, max(xs) + pad + 1, max(ys) + pad + 1)
    return (-math.inf, -math.inf, math.inf, math.inf)


def text_center(draw: Any, xy: tuple[float, float], text: str, size: int, fill: Sequence[int] = INK,
                bg: Sequence[int] | None = None) -> None:
    if isinstance(draw, Pen):
        draw.text(xy, text, size=size, fill=fill, anchor="mm", bg=bg)
    else:
        draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def wrap(text: str, width: int) -> list[str]:
    """Words into lines of at most `width` characters (a longer word gets a line of its own)."""
    return list(_wrap(text, width))


@lru_cache(maxsize=1024)  # a panel wraps the same key and stat lines on every board
def _wrap(text: str, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return tuple(lines)


def encode_png(img: Image.Image, *, palette: bool = True) -> bytes:
    """PNG bytes with fixed settings (no timestamps): same image, same bytes.

    zlib level 1: encoding was most of a board's drawing (a phone-first board is 1-2 million pixels);
    level 1 encodes 2.5-3x faster than level 6 for about 55 % more bytes (dungeon 42 -> 66 KB, far
    under Discord's limits and the bench's 250 KB). The pixels are the same at any level."""
    if palette and img.mode == "RGB":
        # fast octree: deterministic, ~10x quicker than median cut, and boards have few colours
        img = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()
