"""Issue 12, new lines drawn from cached words: `render.words.line` gives byte for byte what FreeType renders for
the whole line (`getmask2`: the mask, its size and its offset from the anchor), or None where it could not."""
from __future__ import annotations

import random
import string

import pytest
from PIL import Image

from games.core import Seat, get_game
from games.core.playout import random_playout
from render import common, render_png, words
from render_guard import clear_caches


def _freetype(text: str, size: int, anchor: str) -> tuple[bytes, tuple[int, int], int, int]:
    core, (left, top) = common.font(size).getmask2(text, mode="L", anchor=anchor)
    img = Image.Image()._new(core)
    return img.tobytes(), img.size, left, top


def _same(text: str, size: int, anchor: str) -> bool | None:
    got = words.line(text, size, anchor)
    if got is None:
        return None
    mask, left, top = got
    return (mask.tobytes(), mask.size, left, top) == _freetype(text, size, anchor)


@pytest.mark.parametrize("game", ["heroball", "dungeon", "quodd"])
def test_every_text_a_board_draws_is_freetypes_own_mask(game, monkeypatch):
    asked: set[tuple[str, int, str]] = set()
    real = words.line

    def noted(text, size, anchor):
        asked.add((text, size, anchor))
        return real(text, size, anchor)

    monkeypatch.setattr(words, "line", noted)
    engine = get_game(game)
    seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(max(2, engine.min_seats))]
    states = []
    random_playout(engine, {}, seats, 7, cap=200, each=lambda before, p, a, after, ev: states.append(after))
    for st in states[::8]:
        clear_caches(game)  # the key and other parts drawn once are drawn again, so their texts are asked too
        common._glyphs.cache_clear()
        render_png(game, engine.view(st, None))
    answers = [_same(*a) for a in sorted(asked)]
    assert len(answers) > 100
    assert all(a is not False for a in answers), [a for a, s in zip(sorted(asked), answers, strict=True) if s is False]
    assert answers.count(True) > 0.95 * len(answers)  # words put together nearly every text


def test_random_lines_of_every_printable_character_are_freetypes_own_mask():
    pick = random.Random(12)
    chars = string.printable[:95] + "·—…×→" + " " * 12
    sizes = [9, 11, 12, 13, 14, 15, 16, 17, 19, 22, 26]
    anchors = ["la", "lt", "lm", "ls", "lb", "ld", "ma", "mm", "mt", "ra", "rs", "rb", "md"]
    answers = []
    for _ in range(2500):
        text = "".join(pick.choice(chars) for _ in range(pick.randint(1, 48)))
        answers.append((_same(text, pick.choice(sizes), pick.choice(anchors)), text))
    assert not [text for same, text in answers if same is False]
    assert sum(1 for same, _ in answers if same) > 0.95 * len(answers)


def test_where_words_cannot_be_placed_exactly_freetype_draws_the_line(monkeypatch):
    assert words.line("Turn 3", 14, "sa") is None  # no such horizontal anchor: Pillow's own error stands
    assert words.line("   ", 14, "la") is None or _same("   ", 14, "la")
    # a character whose advance were not whole pixels: its words are not put together
    real = words._advance.__wrapped__
    monkeypatch.setattr(words, "_advance", lambda size, ch: None if ch == "x" else real(size, ch))
    monkeypatch.setattr(words, "_word", words._word.__wrapped__)
    monkeypatch.setattr(words, "_unkerned", words._unkerned.__wrapped__)
    assert words.line("six boxes", 14, "la") is None
    assert _same("ten bones", 14, "la") is True


def test_two_words_whose_ink_would_share_a_column_are_left_to_freetype(monkeypatch):
    real = words._word.__wrapped__

    def wide(size, word):  # every word's ink reaching four columns past its advance
        w = real(size, word)
        if w is None or w.ink is None:
            return w
        ink = Image.new("L", (w.ink.width + w.advance + 4, w.ink.height), 0)
        ink.paste(w.ink, (0, 0))
        return words.Word(w.box, ink, w.ink_x, w.ink_y, w.advance)

    monkeypatch.setattr(words, "_word", wide)
    assert words.line("one two", 14, "la") is None
    assert words.line("one", 14, "la") is not None
