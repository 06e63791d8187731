"""Unique Q-powers: with the Q on top a hero may use any or all of their Q-powers, each once a turn: the shared
"rearrange skills" and their own one below. Default range 7, counted orthogonally like a card's.

| power | hero | command |
|---|---|---|
| `place_wall` (place a wall, broken wall or tunnel) | Rok | `qpower at: token:` |
| `place_teleporter` | Forest | `qpower at: token:teleporter` |
| `rotate_board` | Mayor Trixie | `qpower way:cw` / `way:ccw`: the square board she stands on |
| `earthquake` | Aang | `qpower`: the direction die, every hero tumbles that way, no skills |
| `bomb` | Bramble | `qpower direction:`: a bomb of the bomb die, fired N, E, S or W |
| `copy_q` | Nyx | `qpower copy:<hero> ...`: another hero's power at the table, with its own options |
| `flip_upgrade` | Wren (by name only) | `qpower tile: side: [skill:]`: a tile on the track turns to that side |
| `upgrade` | Ossian (by name only) | `qpower tile: side: [skill:]`: one more tile onto the track at once |

Flip Upgrade (house reading): the side turned away stops giving its bonus and the new side gives its own; a gold side
on the track is never turned away (a skill flipped by a gold side stays upgraded for good, as Upgrade Skill says).
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.grid import DIRS4, label, parse_label
from games.core.words import says

from . import data
from .board import in_range, on_map, placement_problem, xy
from .bombs import fire
from .cards import under_self, underdog_acts
from .dice import may_reroll, roll_or_ask
from .rotation import board_box, rotate_board
from .state import Hero, QState, Token
from .sweep import parts, roll_direction, sweep
from .upgrades import explain_upgrade, side_of, side_text, take_upgrade, upgrade_actions

Q_RANGE = 7
PLACES: dict[str, tuple[str, ...]] = {
    "place_wall": ("wall", "broken_wall", "tunnel"),
    "place_teleporter": ("teleporter",),
}
BUILT = (*PLACES, "rotate_board", "earthquake", "bomb", "copy_q", "flip_upgrade", "upgrade")
WAYS = {"cw": "clockwise", "ccw": "counter-clockwise"}


def power_name(power: str) -> str:
    return {"copy_q": "copy Q-power"}.get(power, power.replace("_", " "))


def _own(st: QState, h: Hero, power: str) -> list[Action]:
    """The actions of `power` used by `h` (without the `copy` argument)."""
    if h.pos is None:
        return []
    if power in PLACES:
        out: list[Action] = []
        for p in in_range(st, xy(h.pos), Q_RANGE):  # counted around beams
            out += [Action.of("qpower", at=label(*p), token=k) for k in PLACES[power]
                    if not placement_problem(st, k, p, under_hero_ok=under_self(h, p))]
        return out
    if power == "rotate_board":
        return [Action.of("qpower", way=w) for w in WAYS] if board_box(st, h.pos) else []
    if power == "earthquake":
        return [Action.of("qpower")]
    if power == "bomb":
        return [Action.of("qpower", direction=d) for d in DIRS4]
    if power == "flip_upgrade":  # B-side upgrades never flip (rulebook)
        return [] if st.board == "b" else flip_actions(h)
    if power == "upgrade":
        return [Action.of("qpower", **a.argdict) for a in upgrade_actions(h, st.board)]
    return []


def flip_actions(h: Hero) -> list[Action]:
    """Flip Upgrade: each tile on the track whose shown side is not gold, turned to its other side (a gold side
    turned up names the skill it upgrades)."""
    out: list[Action] = []
    for code in h.upgrades:
        tile, shown = int(code[:-1]), code[-1]
        other = "b" if shown == "a" else "a"
        if side_of(h, tile, shown).gold:
            continue
        if side_of(h, tile, other).gold:
            out += [Action.of("qpower", tile=str(tile), side=other, skill=k) for k in data.skills()
                    if k not in h.upgraded]
        else:
            out.append(Action.of("qpower", tile=str(tile), side=other))
    return out


def flip_upgrade(h: Hero, action: Action, lead: str, ev: list[Event]) -> None:
    tile, side, skill = int(action.get("tile") or 0), action.get("side") or "", action.get("skill") or ""
    shown = "b" if side == "a" else "a"
    old, new = side_of(h, tile, shown), side_of(h, tile, side)
    h.upgrades[h.upgrades.index(f"{tile}{shown}")] = f"{tile}{side}"
    h.movement += new.movement - old.movement
    h.explore += new.explore - old.explore
    if new.gold:
        h.upgraded.append(skill)
    ev.append(Event(text=f"{lead}: tile {tile} turns from {side_text(old)} to side {side.upper()}, "
                         f"{side_text(new, skill)}."))


def copyable(st: QState, h: Hero) -> list[Hero]:
    """The other heroes at the table whose unique Q-power may be copied (not another copier)."""
    return [o for o in st.heroes if o.player != h.player and data.heroes()[o.hero].q_power != "copy_q"]


def qpower_actions(st: QState, h: Hero) -> list[Action]:
    power = data.heroes()[h.hero].q_power
    if power != "copy_q":
        return _own(st, h, power)
    out: list[Action] = []
    for o in copyable(st, h):
        out += [Action.of("qpower", copy=o.hero, **a.argdict) for a in _own(st, h, data.heroes()[o.hero].q_power)]
    return out


def use_qpower(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    copied = action.get("copy") or ""
    power = data.heroes()[copied or h.hero].q_power
    how = f" (copying {data.heroes()[copied].name})" if copied else ""
    lead = f"{says(h.name, 'uses')} the Q-power {power_name(power)}{how}"
    if power in PLACES:
        at, kind = action.get("at") or "", action.get("token") or ""
        st.tokens[at] = Token(kind=kind)
        ev.append(Event(text=f"{lead}: a {data.token_kinds()[kind].name.lower()} on {at}."))
        underdog_acts(st, h, at, ev)  # Underdog: under the hero's own square it acts at once
    elif power == "rotate_board":
        ev.append(Event(text=f"{lead}."))
        rotate_board(st, h.pos or "", action.get("way") == "cw", ev)
    elif power == "earthquake":
        if may_reroll(st, h):  # Re-roll a Die: the roll is shown and the question asked first (`dice`)
            ev.append(Event(text=f"{lead}."))
            roll_or_ask(st, h, "quake", ev)
            return
        d = roll_direction(st)
        ev.append(Event(text=f"{lead}: the direction die shows {d}; every hero tumbles "
                             f"{' then '.join(parts(d))} (no skills activate).", irreversible=True))
        sweep(st, "quake", d, 1, ev, split=True)
    elif power == "bomb":
        ev.append(Event(text=f"{lead}."))
        at, d = h.pos or "", action.get("direction") or ""
        bomb = roll_or_ask(st, h, "bomb", ev, at=at, d=d)
        if bomb is not None:
            fire(st, at, d, bomb, ev, h.player)
    elif power == "flip_upgrade":
        flip_upgrade(h, action, lead, ev)
    elif power == "upgrade":
        ev.append(Event(text=f"{lead}."))
        take_upgrade(st, h, Action.of("upgrade", **action.argdict), ev)


def qpower_label(action: Action, h: Hero | None = None) -> str:
    """The button's words; `h`, the hero using it, lets a tile's side be named."""
    copied = action.get("copy")
    lead = f"Q-power ({data.heroes()[copied].name}'s)" if copied in data.heroes() else "Q-power"
    tile, side = action.get("tile") or "", action.get("side") or ""
    if tile.isdigit() and side in ("a", "b"):
        power = data.heroes()[copied or (h.hero if h else "")].q_power if (copied or h) else ""
        what = {"flip_upgrade": "flip tile", "upgrade": "take tile"}.get(power, "tile")
        named = f": {side_text(side_of(h, int(tile), side), action.get('skill') or '')}" if h else ""
        return f"{lead}: {what} {tile}{side.upper()}{named}"
    kind = action.get("token")
    if kind:
        name = data.token_kinds()[kind].name if kind in data.token_kinds() else kind
        return f"{lead}: {name} on {action.get('at')}"
    if action.get("way"):
        return f"{lead}: rotate the board {WAYS.get(action.get('way') or '', '?')}"
    if action.get("direction"):
        return f"{lead}: bomb {action.get('direction')}"
    return f"{lead}: earthquake"


def explain_qpower(st: QState, h: Hero, action: Action) -> str:
    power = data.heroes()[h.hero].q_power
    if st.m.ready != "q" or st.m.power_used:
        return "Your own Q-power is used with the Q on top, once a turn (rearranging skills is the other one)."
    copied = action.get("copy") or ""
    if power == "copy_q":
        names = {o.hero: o.name for o in copyable(st, h)}
        if copied not in names:
            return ("Your Q-power copies another hero's at the table: `copy:` one of "
                    + (", ".join(f"`{k}`" for k in names) or "none") + ".")
        power = data.heroes()[copied].q_power
    elif copied:
        return "Only a hero with the Copy Q-Power copies another hero's power; leave out `copy:`."
    if power == "rotate_board":
        if h.pos is None or board_box(st, h.pos) is None:
            return "Only a square board turns, and you are not standing on one."
        return "Turn the board `way:cw` or `way:ccw`."
    if power == "earthquake":
        return "The earthquake takes no options: `qpower` rolls the direction die."
    if power == "bomb":
        return "Fire the bomb `direction:` N, E, S or W."
    if power in ("flip_upgrade", "upgrade"):
        return explain_tiles(h, power, action, st.board)
    kinds = PLACES.get(power, ())
    kind, at = action.get("token") or "", (action.get("at") or "").upper()
    if kind not in kinds:
        return "This Q-power places: " + ", ".join(f"`{k}`" for k in kinds) + " (`token:` and `at:`)."
    p = parse_label(at) if at else None
    if p is None or not on_map(st, p) or h.pos is None:
        return f"`{at}` is not a square of the map."
    if p not in in_range(st, xy(h.pos), Q_RANGE):
        return f"{at} is beyond range {Q_RANGE} (counted orthogonally{', around the beams' if st.lit else ''})."
    return f"Not on {at}: {placement_problem(st, kind, p, under_hero_ok=under_self(h, p))}."


def explain_tiles(h: Hero, power: str, action: Action, board: str = "") -> str:
    """Why a Flip Upgrade or Upgrade Q-power was refused, and what is legal."""
    if board == "b" and power == "flip_upgrade":
        return "On the player board's B-side upgrades stay as placed: none can be flipped."
    legal = flip_actions(h) if power == "flip_upgrade" else upgrade_actions(h, board)
    if board == "b" and legal and power == "upgrade":
        return explain_upgrade(h, action, board)
    codes = sorted({f"{a.get('tile')}{a.get('side')}" for a in legal})
    if not codes:
        return ("No tile on your track can be flipped (gold sides stay)." if power == "flip_upgrade"
                else "All your upgrade tiles are on your track already.")
    code = f"{action.get('tile') or ''}{action.get('side') or ''}"
    if code not in codes:
        verb = "turn a tile on your track to its other side" if power == "flip_upgrade" else "take a tile left"
        return f"`tile:` `side:` must {verb}: " + ", ".join(codes) + "."
    skills = sorted({a.get("skill") or "" for a in legal if f"{a.get('tile')}{a.get('side')}" == code})
    if skills == [""]:
        return "That side is not gold: leave out `skill:`."
    return "That side is gold: `skill:` one of " + ", ".join(skills) + "."
