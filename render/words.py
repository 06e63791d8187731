"""A line of text's coverage mask put together from its words' cached masks, byte for byte what FreeType gives.

A board's new lines ("AP 2  wounds 3/8 ...") are mostly words seen before, and FreeType renders a line glyph by
glyph, loading every glyph four times (two of them rasterised): a 60-character panel line took ~0.45 ms, most of
a board's drawing when its panel changed. Pillow's basic layout (the bundled font's) puts each glyph at the pen
position rounded to a pixel and adds the glyph's advance to the pen; the font is hinted, so every advance here is a
whole number of pixels. Then a word's pixels are the same wherever the pen starts, and a line is its words
placed at their pens: the mask's box is the union of the pen line and the words' boxes (`getbbox` of each,
which hold their own pen lines), and its offset follows the anchor as Pillow's `bounding_box_and_anchors` works
it out.

Where that would not be exact, `line` answers None and the caller asks FreeType for the whole line:
- a character whose advance is not a whole number of pixels, or a pair of neighbouring characters that kerns
  (every pair is checked once per size, spaces included),
- two words whose inked pixels would share a column (FreeType blends overlapping glyphs; pasting would not),
- an anchor other than left/middle/right by ascender/top/middle/baseline/bottom/descender.
tests/test_render_words.py compares the result with `getmask2` over every text the renderers draw in seeded games
and random lines of every printable character.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageFont

Mask = tuple[Image.Image, int, int]  # coverage ("L"), and its top-left relative to the anchor point


def _pixel(x: int) -> int:
    """FreeType 26.6 units to pixels, rounded as Pillow's `PIXEL` macro does."""
    return ((x + 32) & -64) >> 6


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font: the same glyphs on every machine (`render.common.font`)."""
    return ImageFont.load_default(size=size)


def _font(size: int) -> ImageFont.FreeTypeFont | None:
    """The font, when words can be put together for it (FreeType's basic layout)."""
    f = font(size)
    return f if isinstance(f, ImageFont.FreeTypeFont) and f.layout_engine == ImageFont.Layout.BASIC else None


@lru_cache(maxsize=8192)
def _advance(size: int, ch: str) -> int | None:
    """A character's advance in whole pixels, or None when it is not whole."""
    f = _font(size)
    assert f is not None
    length = f.getlength(ch)
    return int(length) if float(length).is_integer() else None


@lru_cache(maxsize=65536)
def _unkerned(size: int, a: str, b: str) -> bool:
    """Do neighbours `a` `b` stand exactly their two advances apart (no kerning between them)?"""
    f = _font(size)
    assert f is not None
    pa, pb = _advance(size, a), _advance(size, b)
    return pa is not None and pb is not None and f.getlength(a + b) == pa + pb


class Word:
    """One word's mask at the pen: its box relative to the pen (left, top, right, bottom, y down, holding the pen
    line from 0 to its advance), its inked pixels cropped, where they start relative to the pen, and its advance."""

    __slots__ = ("box", "ink", "ink_x", "ink_y", "advance")

    def __init__(self, box: tuple[int, int, int, int], ink: Image.Image | None, ink_x: int, ink_y: int,
                 advance: int) -> None:
        self.box, self.ink, self.ink_x, self.ink_y, self.advance = box, ink, ink_x, ink_y, advance


@lru_cache(maxsize=8192)
def _word(size: int, word: str) -> Word | None:
    """`word` (no space in it) as FreeType renders it at the pen, or None when it cannot be placed exactly."""
    f = _font(size)
    assert f is not None
    advance = 0
    for i, ch in enumerate(word):
        step = _advance(size, ch)
        if step is None or (i and not _unkerned(size, word[i - 1], ch)):
            return None
        advance += step
    core, (left, top) = f.getmask2(word, mode="L", anchor="ls")
    img = Image.Image()._new(core)
    box = (left, top, left + img.width, top + img.height)
    inked = img.getbbox()
    if inked is None:
        return Word(box, None, 0, 0, advance)
    return Word(box, img.crop(inked), left + inked[0], top + inked[1], advance)


@lru_cache(maxsize=256)
def _anchor_y(size: int, letter: str) -> int:
    """How far above the baseline a vertical anchor of the font's own metrics lies (ascender, middle, descender),
    in pixels, as Pillow works it out (`y_offset` is `y_anchor - y_max` for any text)."""
    f = _font(size)
    assert f is not None
    return int(f.getbbox("x", anchor="l" + letter)[1] - f.getbbox("x", anchor="ls")[1])


def line(text: str, size: int, anchor: str) -> Mask | None:
    """`getmask2(text, mode="L", anchor=anchor)` of the bundled font, put together from cached words; None where
    that is not exact (see the module's docstring) or the text has no pixels' box."""
    if len(anchor) != 2 or anchor[0] not in "lmr" or anchor[1] not in "atmsbd" or _font(size) is None:
        return None
    space = _advance(size, " ")
    if space is None:
        return None
    words = text.split(" ")
    pen = 0
    x_min = x_max = y_min = y_max = 0  # the union, pen line included (y up, as FreeType's: y_min <= 0 <= y_max)
    placed: list[tuple[int, Word]] = []
    for i, w in enumerate(words):
        if i:
            before = words[i - 1][-1:] or " "
            if not _unkerned(size, before, " ") or (w and not _unkerned(size, " ", w[0])):
                return None
            pen += space
        if not w:
            continue
        found = _word(size, w)
        if found is None:
            return None
        left, top, right, bottom = found.box
        x_min, x_max = min(x_min, pen + left), max(x_max, pen + right)
        y_max, y_min = max(y_max, -top), min(y_min, -bottom)
        placed.append((pen, found))
        pen += found.advance
    x_max = max(x_max, pen)
    width, height = x_max - x_min, y_max - y_min
    if width <= 0 or height <= 0:
        return None
    out = Image.new("L", (width, height), 0)
    inked_to = -1 << 30  # the rightmost inked column so far, on the line's own axis
    for at, word in placed:
        ink = word.ink
        if ink is None:
            continue
        x = at + word.ink_x
        if x < inked_to:  # this word's ink starts in a column another word inked: FreeType blends those
            return None
        y = word.ink_y + y_max
        out.im.paste(ink.im, (x - x_min, y, x - x_min + ink.width, y + ink.height))
        inked_to = x + ink.width
    x_anchor = {"l": 0, "m": _pixel(pen * 64 // 2), "r": pen}[anchor[0]]
    v = anchor[1]
    y_anchor = y_max if v == "t" else 0 if v == "s" else y_min if v == "b" else _anchor_y(size, v)
    return out, x_min - x_anchor, y_anchor - y_max
