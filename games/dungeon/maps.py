"""Which map a game plays: a hand-made dungeon from `data/dungeons.json`, or one built from tiles.

`dungeon_def(id)` is the one way the engine reaches a map. A hand-made dungeon's id is its data id; a built one's
is `random-<n>`, where `n` (drawn from the game's generator at setup) decides the whole layout, so the saved game
stores only the id and the same id always builds the same dungeon.

Building (house rules for what the rule text leaves to the table; `data/tiles.json` holds the 12x12 tiles):
- four tiles in a 2x2 square, one level each, visited round the square from a drawn corner in a drawn direction;
  each tile drawn without repeats and turned or mirrored (eight ways);
- the edges between tiles are walls, except a two-square door between consecutive levels (first to second, ...),
  so the heroes reach each level through the previous one;
- a spawn point stands on open ground in the middle of a clear 5x5 patch (its opening monsters and a large boss
  come out in its sight), five or more steps from its tile's doors (so its screen never closes a door) and, on
  level 1, from the heroes' start;
- a chest stands on open ground with its eight neighbours open, away from doors and the spawn point;
- the heroes start on a clear 3x2 block of the first tile, each square six or more squares from its spawn point
  in a straight count (so no hero strikes it on the first move) and at most sixteen steps from it by route;
- every open square is reachable on foot from the start (chests and spawn points standing), else the draw is
  made again with the generator's next numbers;
- each level takes the name, pool and aura of that level of a hand-made dungeon (drawn per level), so monsters
  grow tougher level by level as in the hand-made ones.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from pydantic import BaseModel

from games.core import Rng
from games.core.grid import label, parse_label

from .data import TERRAIN_CHARS, DungeonDef, LevelDef, _read_object, content, parse_wall, validate_dungeon

RANDOM = "random"
TILE = 12
Sq = tuple[int, int]
Edge = tuple[str, int, int]  # ('v', X, y): the line x=X beside row y; ('h', x, Y) likewise
BLOCKING = frozenset({"structure", "champion", "sentinel", "goddess", "chasm"})
BLOCKING_LETTERS = frozenset(ch for ch, kind in TERRAIN_CHARS.items() if kind in BLOCKING)
# the 2x2 square's cells in order round it, clockwise from the north-west
RING = ((0, 0), (1, 0), (1, 1), (0, 1))


class TileDef(BaseModel):
    id: str
    terrain: tuple[str, ...]
    walls: tuple[str, ...] = ()


@cache
def tiles() -> tuple[TileDef, ...]:
    """The tile library, validated like the dungeons (12 rows of 12 known letters, walls on the tile)."""
    out = tuple(TileDef.model_validate(t) for t in _read_object("tiles.json")["tiles"])
    for t in out:
        if len(t.terrain) != TILE or any(len(r) != TILE or set(r) - set(TERRAIN_CHARS) for r in t.terrain):
            raise ValueError(f"tile {t.id}: terrain must be {TILE} rows of {TILE} known letters")
        for w in t.walls:
            parse_wall(w, TILE, TILE)
    return out


def is_random(dungeon_id: str) -> bool:
    return dungeon_id.startswith(RANDOM + "-") and dungeon_id[len(RANDOM) + 1:].isdigit()


def dungeon_def(dungeon_id: str) -> DungeonDef:
    """The map of a game: hand-made by id, or built from tiles for `random-<n>`."""
    if is_random(dungeon_id):
        return built(int(dungeon_id[len(RANDOM) + 1:]))
    return content().dungeons[dungeon_id]


def dungeon_ids() -> tuple[str, ...]:
    """What the host may choose: the hand-made dungeons, then `random`."""
    return (*content().dungeons, RANDOM)


# ---- tiles turned and mirrored --------------------------------------------------------------------
def turn(x: int, y: int, t: int, n: int = TILE) -> Sq:
    """Square (x, y) of a tile under transform t (0-7): bit 4 mirrors east-west, then t % 4 quarter turns."""
    if t & 4:
        x = n - 1 - x
    for _ in range(t & 3):
        x, y = n - 1 - y, x
    return x, y


def edge_squares(e: Edge) -> tuple[Sq, Sq]:
    kind, a, b = e
    return ((a - 1, b), (a, b)) if kind == "v" else ((a, b - 1), (a, b))


def edge_of(p: Sq, q: Sq) -> Edge:
    """The edge between two orthogonally adjacent squares."""
    if p[1] == q[1]:
        return ("v", max(p[0], q[0]), p[1])
    return ("h", p[0], max(p[1], q[1]))


def wall_texts(edges: Iterable[Edge]) -> tuple[str, ...]:
    """Edges written as wall runs (`A1-A5 E`, `B3-F3 S`), merged along their line."""
    runs: list[str] = []
    v = sorted((a, b) for k, a, b in edges if k == "v")
    h = sorted((b, a) for k, a, b in edges if k == "h")
    for items, vertical in ((v, True), (h, False)):
        i = 0
        while i < len(items):
            line, start = items[i]
            j = i
            while j + 1 < len(items) and items[j + 1] == (line, items[j][1] + 1):
                j += 1
            end = items[j][1]
            if vertical:  # east side of column line-1, rows start..end
                a, b = label(line - 1, start), label(line - 1, end)
                runs.append(f"{a}-{b} E" if a != b else f"{a} E")
            else:  # south side of row line-1, columns start..end
                a, b = label(start, line - 1), label(end, line - 1)
                runs.append(f"{a}-{b} S" if a != b else f"{a} S")
            i = j + 1
    return tuple(runs)


@dataclass
class Layout:
    """A tiled map before its levels are filled in: terrain rows and wall edges."""

    width: int
    height: int
    terrain: list[list[str]]
    edges: set[Edge]
    cells: list[Sq]  # the tile cell of each level, in level order
    doors: list[list[Sq]]  # squares on either side of each level's doors
    _sums: dict[str, list[list[int]]] = field(default_factory=dict)

    def count(self, what: str, x0: int, y0: int, x1: int, y1: int) -> int:
        """How many marks of `what` in columns x0..x1-1, rows y0..y1-1 (prefix sums, built on first use once the
        layout is complete). `what`: terrain letters counted as bad when NOT among them, or "v"/"h" wall edges
        (edge ('v', X, y) counted at square (X, y), ('h', x, Y) at (x, Y))."""
        sums = self._sums.get(what)
        if sums is None:
            sums = [[0] * (self.width + 1) for _ in range(self.height + 1)]
            for y in range(self.height):
                for x in range(self.width):
                    if what in ("v", "h"):
                        mark = (what, x, y) in self.edges
                    else:
                        mark = self.terrain[y][x] not in what
                    sums[y + 1][x + 1] = sums[y][x + 1] + sums[y + 1][x] - sums[y][x] + mark
            self._sums[what] = sums
        return sums[y1][x1] - sums[y0][x1] - sums[y1][x0] + sums[y0][x0]


def place_tiles(picks: list[tuple[TileDef, int]], cells: list[Sq],
                pick_door: Callable[[list[int]], int]) -> Layout | None:
    """Tiles (with transforms) into their cells, walls between tiles, and between level i and level i+1 a door at
    the offset `pick_door` chooses among those where it is two squares wide and two deep on each side (None if
    there is no such place)."""
    cols = 1 + max(c[0] for c in cells)
    rows = 1 + max(c[1] for c in cells)
    w, h = cols * TILE, rows * TILE
    terrain = [["#"] * w for _ in range(h)]
    edges: set[Edge] = set()
    for (tile, t), (cx, cy) in zip(picks, cells, strict=True):
        ox, oy = cx * TILE, cy * TILE
        for y, row in enumerate(tile.terrain):
            for x, ch in enumerate(row):
                tx, ty = turn(x, y, t)
                terrain[oy + ty][ox + tx] = ch
        for wall in tile.walls:
            for e in parse_wall(wall, TILE, TILE):
                p, q = edge_squares(e)
                p2, q2 = turn(*p, t), turn(*q, t)
                edges.add(edge_of((ox + p2[0], oy + p2[1]), (ox + q2[0], oy + q2[1])))
    lay = Layout(width=w, height=h, terrain=terrain, edges=edges, cells=list(cells), doors=[[] for _ in cells])
    # every edge between two tiles is a wall, but for the doors
    for i, (ax, ay) in enumerate(cells):
        for j, (bx, by) in enumerate(cells):
            if j <= i or abs(ax - bx) + abs(ay - by) != 1:
                continue
            pairs = []
            for k in range(TILE):
                if bx != ax:  # side by side: a vertical edge at the shared x
                    p, q = (max(ax, bx) * TILE - 1, ay * TILE + k), (max(ax, bx) * TILE, ay * TILE + k)
                else:
                    p, q = (ax * TILE + k, max(ay, by) * TILE - 1), (ax * TILE + k, max(ay, by) * TILE)
                pairs.append((p, q))
            door: set[int] = set()
            if j == i + 1:
                deep = [all(_open(lay, s) for s in (p, q, (2 * p[0] - q[0], 2 * p[1] - q[1]),
                                                     (2 * q[0] - p[0], 2 * q[1] - p[1]))) for p, q in pairs]
                options = [k for k in range(1, TILE - 2) if deep[k] and deep[k + 1]]
                if not options:
                    return None
                at = pick_door(options)
                door = {at, at + 1}
            for k, (p, q) in enumerate(pairs):
                if k in door:
                    lay.doors[i].extend([p, q])
                    lay.doors[j].extend([p, q])
                else:
                    edges.add(edge_of(p, q))
    return lay


# ---- squares and routes ---------------------------------------------------------------------------
def _open(lay: Layout, sq: Sq) -> bool:
    x, y = sq
    return 0 <= x < lay.width and 0 <= y < lay.height and TERRAIN_CHARS[lay.terrain[y][x]] not in BLOCKING


def _walled(lay: Layout, p: Sq, q: Sq) -> bool:
    return edge_of(p, q) in lay.edges


def distances(lay: Layout, starts: Iterable[Sq], blocked: set[Sq] | frozenset[Sq] = frozenset(),
              cell: Sq | None = None) -> dict[Sq, int]:
    """Orthogonal steps from `starts` over open squares, through no wall and no `blocked` square (and, given a
    tile `cell`, without leaving that tile)."""
    dist = {s: 0 for s in starts}
    todo = deque(dist)
    x0, y0, x1, y1 = (0, 0, lay.width, lay.height) if cell is None else (
        cell[0] * TILE, cell[1] * TILE, cell[0] * TILE + TILE, cell[1] * TILE + TILE)
    terrain, edges = lay.terrain, lay.edges
    while todo:
        p = todo.popleft()
        px, py = p
        for q, edge in (((px + 1, py), ("v", px + 1, py)), ((px - 1, py), ("v", px, py)),
                        ((px, py + 1), ("h", px, py + 1)), ((px, py - 1), ("h", px, py))):
            if q not in dist and x0 <= q[0] < x1 and y0 <= q[1] < y1 and q not in blocked \
                    and terrain[q[1]][q[0]] not in BLOCKING_LETTERS and edge not in edges:
                dist[q] = dist[p] + 1
                todo.append(q)
    return dist


def _clear_box(lay: Layout, x0: int, y0: int, w: int, h: int, kinds: str = ".,") -> bool:
    """A w x h box of squares of `kinds` with no wall inside it."""
    if x0 < 0 or y0 < 0 or x0 + w > lay.width or y0 + h > lay.height:
        return False
    return not (lay.count(kinds, x0, y0, x0 + w, y0 + h) or lay.count("v", x0 + 1, y0, x0 + w, y0 + h)
                or lay.count("h", x0, y0 + 1, x0 + w, y0 + h))


def _tile_squares(cell: Sq) -> list[Sq]:
    return [(cell[0] * TILE + x, cell[1] * TILE + y) for y in range(TILE) for x in range(TILE)]


def spawn_spots(lay: Layout, level: int, away: Iterable[Sq]) -> list[Sq]:
    """Where a level's spawn point may stand: open ground at the centre of a clear 5x5 patch inside its tile,
    five or more steps (walls respected) from every square of `away` (its doors, the heroes' start)."""
    away = list(away)
    near = distances(lay, away, cell=lay.cells[level])
    x0, y0 = lay.cells[level][0] * TILE, lay.cells[level][1] * TILE
    return [(x, y) for x, y in _tile_squares(lay.cells[level])
            if x0 + 2 <= x <= x0 + TILE - 3 and y0 + 2 <= y <= y0 + TILE - 3 and lay.terrain[y][x] == "."
            and _clear_box(lay, x - 2, y - 2, 5, 5) and near.get((x, y), 99) >= 5
            and all(max(abs(x - a[0]), abs(y - a[1])) >= 4 for a in away)]


def chest_spots(lay: Layout, level: int, spawn: Sq) -> list[Sq]:
    """Open ground with its eight neighbours open (never the door itself), three or more from doors and spawn."""
    near = distances(lay, [*lay.doors[level], spawn], cell=lay.cells[level])
    return [(x, y) for x, y in _tile_squares(lay.cells[level])
            if lay.terrain[y][x] == "." and near.get((x, y), 99) >= 3 and _clear_box(lay, x - 1, y - 1, 3, 3, ".,")]


def start_blocks(lay: Layout, spawn: Sq) -> list[Sq]:
    """North-west corners of clear 3x2 blocks in the first tile, every square six or more squares away from its
    spawn point (as the crow flies: no hero reaches it on the first move) and at most sixteen steps by route."""
    d = distances(lay, [spawn], cell=lay.cells[0])
    x0, y0 = lay.cells[0][0] * TILE, lay.cells[0][1] * TILE
    return [(x, y) for x, y in _tile_squares(lay.cells[0])
            if x - x0 <= TILE - 3 and y - y0 <= TILE - 2 and _clear_box(lay, x, y, 3, 2, ".")
            and all(d.get((x + i, y + j), 99) <= 16 and max(abs(x + i - spawn[0]), abs(y + j - spawn[1])) >= 6
                    for i in range(3) for j in range(2))]


def all_reachable(lay: Layout, start: Sq, blocked: set[Sq]) -> bool:
    """Every open square not `blocked` can be reached on foot from `start`."""
    seen = distances(lay, [start], blocked)
    return all(sq in seen for y in range(lay.height) for x in range(lay.width)
               if _open(lay, sq := (x, y)) and sq not in blocked)


# ---- building a dungeon ----------------------------------------------------------------------------
@lru_cache(maxsize=64)
def built(n: int) -> DungeonDef:
    """The dungeon `random-<n>`: drawn from the tiles with a generator seeded by n (see the module text)."""
    rng = Rng(seed=n)
    for _ in range(200):
        d = _attempt(n, rng)
        if d is not None:
            return d
    raise ValueError(f"no dungeon could be built from seed {n}")  # the tiles make this unreachable (tested)


def _attempt(n: int, rng: Rng) -> DungeonDef | None:
    lib = list(tiles())
    rng.shuffle(lib)
    first, step = rng.below(4), rng.choice((1, 3))
    cells = [RING[(first + step * i) % 4] for i in range(4)]
    picks = [(lib[i], rng.below(8)) for i in range(4)]
    lay = place_tiles(picks, cells, rng.choice)
    if lay is None:
        return None
    spawns: list[Sq] = []
    chests: list[Sq] = []
    start: Sq | None = None
    for level in range(4):
        spots = spawn_spots(lay, level, lay.doors[level])
        rng.shuffle(spots)
        if level == 0:  # the first spawn point needs room for the heroes' start
            blocks = next(((s, b) for s in spots[:6] if (b := start_blocks(lay, s))), None)
            if blocks is None:
                return None
            spots = [blocks[0]]
            start = rng.choice(blocks[1])
        if not spots:
            return None
        spawn = spots[0]
        chest = chest_spots(lay, level, spawn)
        if start is not None:
            chest = [c for c in chest if max(abs(c[0] - start[0] - 1), abs(c[1] - start[1])) > 3]
        if not chest:
            return None
        spawns.append(spawn)
        chests.append(rng.choice(chest))
    assert start is not None
    starts = [(start[0] + i, start[1] + j) for j in range(2) for i in range(3)]
    if not all_reachable(lay, start, set(spawns) | set(chests)):
        return None
    hand_made = list(content().dungeons.values())
    levels = []
    for level, ((cx, cy), sp, ch) in enumerate(zip(cells, spawns, chests, strict=True)):
        theme = rng.choice(hand_made).levels[level]
        area = f"{label(cx * TILE, cy * TILE)}-{label(cx * TILE + TILE - 1, cy * TILE + TILE - 1)}"
        levels.append(LevelDef(name=theme.name, area=area, spawn=label(*sp), chest=label(*ch),
                               pool=theme.pool, aura=theme.aura))
    d = DungeonDef(id=f"{RANDOM}-{n}", name=f"Random dungeon {n}", width=lay.width, height=lay.height,
                   terrain=tuple("".join(r) for r in lay.terrain), walls=wall_texts(lay.edges),
                   start=tuple(label(*s) for s in starts), levels=tuple(levels))
    validate_dungeon(content(), d)  # the checks every hand-made dungeon passes
    return d


def random_id(rng: Rng) -> str:
    """A new built dungeon's id, drawn from the game's generator."""
    return f"{RANDOM}-{rng.below(1_000_000)}"


def square(text: str) -> Sq:
    p = parse_label(text)
    assert p is not None, text
    return p
