"""Which named abilities a hero has: the ability sides on its upgrade track. The passive checks that
other modules consult live here, so that the board, the cards and the elements can ask without
importing the movement (this module imports only the data and the state)."""
from __future__ import annotations

from .. import data
from ..data import UpgradeTile
from ..modes.bside import awake_abilities
from ..state import Hero, QState

CARD_ABILITIES = ("mind-push", "twister", "good-aim", "timely-trades")  # discard one card to use


def abilities_of(h: Hero) -> list[str]:
    """The ability ids on `h`'s upgrade track, left to right (remembered per hero and track: asked many times per
    action; forgotten when the tile data is another object, as a test's stand-in). On the board's B-side only those
    whose face was activated (`modes.bside.awake_abilities`)."""
    if h.faces:
        return awake_abilities(h)
    tiles = data.upgrades()
    if tiles is not _SOURCE[0]:
        _SEEN.clear()
        _SOURCE[0] = tiles
    key = (h.hero, tuple(h.upgrades))
    found = _SEEN.get(key)
    if found is None:
        found = _SEEN[key] = tuple(_on_track(tiles.get(h.hero, []), h.upgrades))
    return list(found)


_SEEN: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
_SOURCE: list[object] = [None]


def _on_track(tiles: list[UpgradeTile], upgrades: list[str]) -> list[str]:
    out = []
    for u in upgrades:
        n, side = int(u[:-1]), u[-1]
        if 1 <= n <= len(tiles):
            s = tiles[n - 1].a if side == "a" else tiles[n - 1].b
            if s.ability:
                out.append(s.ability)
    return out


def has(h: Hero, ability: str) -> bool:
    return ability in abilities_of(h)


def used(st: QState, ability: str) -> bool:
    """Used (or switched on) this turn: `MoveCtx.abilities`."""
    return ability in st.m.abilities


def mark(st: QState, ability: str) -> None:
    if ability not in st.m.abilities:
        st.m.abilities.append(ability)


def ignores_world_events(h: Hero) -> bool:
    """Ignore World Events: a world event passes this hero by (a push by another hero it moves still counts)."""
    return has(h, "ignore-world-events")


def food_protected(h: Hero) -> bool:
    """Protected Food: no other player may take, discard or cancel this hero's food cards."""
    return has(h, "protected-food")


def name(ability: str) -> str:
    return data.abilities()[ability].name
