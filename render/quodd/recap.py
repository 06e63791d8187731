"""What the Quodd board draws of the play since the acting player's last turn (issue 18): each hero's movement
as a numbered path (tumbles through whirlpools, water, tunnels, teleporters), heroes moved by others, explosions;
and the numbered legend under the panel. Kept apart from the panel (`render.quodd`), which other work extends."""
from __future__ import annotations

from games.quodd.view import QView
from render.common import Pen
from render.recap import draw_legend, draw_marks, legend_lines


def overlay(d: Pen, view: QView, margin: int, cell: int, number_size: int) -> None:
    def where(lab: str) -> tuple[float, float] | None:
        i = 0
        while i < len(lab) and lab[i].isalpha():
            i += 1
        if i == 0 or i == len(lab):
            return None
        x = 0
        for ch in lab[:i]:
            x = x * 26 + ord(ch) - 64
        return margin + (x - 1) * cell + cell / 2, margin + (int(lab[i:]) - 1) * cell + cell / 2

    draw_marks(d, view.recent, where, cell, number_size=number_size)


def legend_height(view: QView, width: int, size: int) -> int:
    """Pixels the recap legend needs (a generous estimate: long lines wrap)."""
    lines = legend_lines(view.recent, view.earlier)
    if not lines:
        return 0
    chars = max(12, int((width - 2 * size - 30) / (size * 0.52)))
    rows = sum(1 + len(text) // chars for _, text, _ in lines)
    return size + 20 + rows * (size + 7)


def legend(d: Pen, view: QView, top: int, width: int, size: int) -> int:
    return draw_legend(d, 10, top, width - 20, view.recent, view.earlier, size=size,
                       title="Since the last turn (numbered in order)")
