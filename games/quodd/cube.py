"""The hero cube: which face points where after tumbles and spins.

An orientation is the world direction of the head (the Q face) and of the front face;
the other four faces follow (right = front x head). World directions: U, D, N, E, S, W.
All 24 orientations are the pairs (head, front) with front at right angles to head.
"""
from __future__ import annotations

from functools import cache

SKILL_FACES = ("feet", "front", "back", "left", "right")
WORLD = ("U", "D", "N", "E", "S", "W")
VEC: dict[str, tuple[int, int, int]] = {
    "E": (1, 0, 0), "W": (-1, 0, 0), "N": (0, 1, 0), "S": (0, -1, 0), "U": (0, 0, 1), "D": (0, 0, -1),
}
_BY_VEC = {v: k for k, v in VEC.items()}
OPP = {"U": "D", "D": "U", "N": "S", "S": "N", "E": "W", "W": "E"}
_CW = {"N": "E", "E": "S", "S": "W", "W": "N", "U": "U", "D": "D"}
_CCW = {v: k for k, v in _CW.items()}


def _cross(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def right_of(head: str, front: str) -> str:
    return _BY_VEC[_cross(VEC[front], VEC[head])]


def face_dirs(head: str, front: str) -> dict[str, str]:
    """Face -> world direction it points to."""
    right = right_of(head, front)
    return {"q": head, "feet": OPP[head], "front": front, "back": OPP[front], "right": right, "left": OPP[right]}


@cache  # 24 orientations x 6 directions; asked for the top face all through every legal list
def face_at(head: str, front: str, world: str) -> str:
    """The face pointing in world direction `world` (e.g. 'U' for the top face)."""
    for face, d in face_dirs(head, front).items():
        if d == world:
            return face
    raise ValueError(f"bad orientation {head}/{front}")


def _tumble_map(direction: str) -> dict[str, str]:
    m = {d: d for d in WORLD}
    m["U"], m[direction], m["D"], m[OPP[direction]] = direction, "D", OPP[direction], "U"
    return m


def tumble(head: str, front: str, direction: str) -> tuple[str, str]:
    """Roll the cube one space towards `direction` (N, E, S, W): the top face ends up facing it."""
    m = _tumble_map(direction)
    return m[head], m[front]


def spin(head: str, front: str, clockwise: bool) -> tuple[str, str]:
    """Turn the cube a quarter about the vertical, seen from above; the top face stays on top."""
    m = _CW if clockwise else _CCW
    return m[head], m[front]


def all_orientations() -> list[tuple[str, str]]:
    return [(h, f) for h in WORLD for f in WORLD if f not in (h, OPP[h])]


def facing(head: str, front: str) -> str:
    """Where the hero looks: the front's compass direction, else 'up'/'down'."""
    return {"U": "up", "D": "down"}.get(front, front)
