"""Cards: the loot and treasure decks, what a destroyed monster drops, what a hero may carry, equip and drop."""
from __future__ import annotations

from games.core.grid import label as sq_label

from . import dice, marks
from .data import content
from .state import DungeonState, FloorCard, HeroState, LevelState, MonsterState
from .stats import hero_stats, immune_to, monster_def


def take_card(st: DungeonState, deck: str, lines: list[str], allow_booty: bool = True) -> str | None:
    """Top card of a deck; a Boo Booty card where none may appear is set aside."""
    cards = st.loot_deck if deck == "loot" else st.treasure_deck
    while cards:
        cid = cards.pop(0)
        if content().cards[cid].booty and not allow_booty:
            lines.append("A Boo Booty card turns up and is set aside.")
            continue
        return cid
    lines.append(f"The {deck} deck is empty.")
    return None


def draw_card(st: DungeonState, deck: str, x: int, y: int, lines: list[str], allow_booty: bool = True) -> str | None:
    """Draw a card onto the floor at (x, y); a Boo Booty card is returned unplaced."""
    cid = take_card(st, deck, lines, allow_booty)
    if cid is None or content().cards[cid].booty:
        return cid
    st.floor.append(FloorCard(card=cid, x=x, y=y))
    lines.append(f"{content().cards[cid].name} drops at {sq_label(x, y)}.")
    marks.dropped(st, content().cards[cid].name, (x, y))
    return cid


def draw_treasure(st: DungeonState, drawer: HeroState | None, x: int, y: int, lines: list[str],
                  allow_booty: bool = True, found: bool = False) -> str | None:
    """A treasure card drawn by a hero (or by no one in particular). Luck: draw two, keep one (house: the first
    unless it is a Boo Booty) and shuffle the other back. Treasure Map (`found`: from a chest or a Boo Booty): one
    extra treasure card."""
    attrs = hero_stats(drawer).attributes if drawer is not None else set()
    who = hero_stats(drawer).name if drawer is not None else ""
    if "luck" in attrs and st.treasure_deck:
        first = take_card(st, "treasure", lines, allow_booty)
        second = take_card(st, "treasure", lines, allow_booty) if st.treasure_deck else None
        keep, back = first, second
        if first is not None and second is not None and content().cards[first].booty \
                and not content().cards[second].booty:
            keep, back = second, first
        if back is not None:
            st.treasure_deck.insert(st.rng.below(len(st.treasure_deck) + 1), back)
        lines.append(f"Luck: {who} draws two treasure cards and keeps one.")
        cid = keep
        if cid is not None and not content().cards[cid].booty:
            st.floor.append(FloorCard(card=cid, x=x, y=y))
            lines.append(f"{content().cards[cid].name} drops at {sq_label(x, y)}.")
            marks.dropped(st, content().cards[cid].name, (x, y))
    else:
        cid = draw_card(st, "treasure", x, y, lines, allow_booty)
    if found and "treasure_map" in attrs:
        lines.append(f"{who}'s treasure map shows one more:")
        draw_card(st, "treasure", x, y, lines, allow_booty=False)
    return cid


def monster_drops(st: DungeonState, m: MonsterState, lv: LevelState | None, lines: list[str]) -> None:
    """What a destroyed monster leaves: a guardian its treasure, a boss its own cards, an elite loot, a minion maybe."""
    md = monster_def(m)
    drawer = next((h for h in st.heroes if st.attack is not None and h.id == st.attack.hero), None)
    if md.guardian:
        draw_treasure(st, drawer, m.x, m.y, lines, allow_booty=False, found=True)
        for cid in st.booty_cards:
            st.floor.append(FloorCard(card=cid, x=m.x, y=m.y))
        st.booty_cards = []
    elif md.rank == "boss":
        for cid in md.boss_cards:
            if cid not in st.treasure_deck:
                st.treasure_deck.append(cid)
        st.rng.shuffle(st.treasure_deck)
        lines.append(f"{md.name}'s own treasure is shuffled into the treasure deck.")
        draw_treasure(st, drawer, m.x, m.y, lines, allow_booty=False)
        if lv is not None:
            lv.boss_defeated = True
    elif md.rank == "elite":
        draw_card(st, "loot", m.x, m.y, lines)
    else:
        d = dice.roll_dice(st, ["B"])  # rule: a blue die for every minion; told whether it drops or not
        if dice.face(d[0])[0] > 0:
            lines.append(f"Loot roll {dice.die_text(d[0])}: it drops loot.")
            draw_card(st, "loot", m.x, m.y, lines)
        else:
            lines.append(f"Loot roll {dice.die_text(d[0])}: no star, no loot.")


def can_carry(h: HeroState, cid: str) -> bool:
    rules = content().rules
    card = content().cards[cid]
    if len(h.equipment) >= rules.max_equipment:
        return False
    if card.deck in ("treasure", "boss"):
        held = sum(1 for c in h.equipment if content().cards[c].deck in ("treasure", "boss"))
        if held >= rules.max_treasure:
            return False
    return True


def can_drop(h: HeroState, cid: str) -> bool:
    """A card whose life bonus keeps the hero standing may not be dropped (remembered by all it depends on: every
    listing of a hero's actions asks it of every card carried, and the answer weighs a copy of the hero)."""
    key = (h.id, h.profile, h.wounds, cid, *h.equipment)
    c = content()
    found = _DROPS.get(key) if _DROPS_FROM[0] is c else None
    if found is None:
        if _DROPS_FROM[0] is not c or len(_DROPS) >= DROPS_LIMIT:
            _DROPS.clear()  # another content object met starts the table afresh (as `stats._STATS`)
            _DROPS_FROM[0] = c
        found = _DROPS[key] = _stands_without(h, cid)
    return found


def _stands_without(h: HeroState, cid: str) -> bool:
    trial = h.model_copy(deep=True)
    trial.equipment.remove(cid)
    return trial.wounds < hero_stats(trial).life


_DROPS: dict[tuple[object, ...], bool] = {}  # `can_drop` by its key, for the content in `_DROPS_FROM`
_DROPS_FROM: list[object] = [None]
DROPS_LIMIT = 4096


def equip(st: DungeonState, h: HeroState, cid: str, lines: list[str]) -> None:
    """Pick a card up from the floor; a new immunity removes a debuff already suffered at once."""
    name = content().cards[cid].name
    hname = hero_stats(h).name
    idx = next(i for i, f in enumerate(st.floor) if f.card == cid)
    st.floor.pop(idx)
    h.equipment.append(cid)
    lines.append(f"{hname} equips {name}.")
    immune = hero_stats(h).immune
    gone = [d for d in h.debuffs if immune_to(immune, d)]
    if gone:
        h.debuffs = [d for d in h.debuffs if d not in gone]
        h.expiring = [d for d in h.expiring if d not in gone]
        lines.append(f"{name} frees {hname} of {', '.join(gone)}.")


def drop(st: DungeonState, h: HeroState, cid: str, lines: list[str]) -> None:
    name = content().cards[cid].name
    hname = hero_stats(h).name
    h.equipment.remove(cid)
    st.floor.append(FloorCard(card=cid, x=h.x, y=h.y))
    h.potions = min(h.potions, hero_stats(h).potions)
    lines.append(f"{hname} drops {name} at {sq_label(h.x, h.y)}.")
