"""A rules reference for `/rules game:dungeon topic:`, written in our own words; a card per model from the data."""
from __future__ import annotations

from .data import Bonus, Card, HeroDef, MonsterDef, UniqueAction, content
from .glossary import ATTRIBUTES, CARD_TERMS

RULES_TOPICS: dict[str, str] = {
    "overview": (
        "A co-operative crawl through four dungeon levels. The heroes win by destroying all four spawn "
        "points and every monster that came through them; they lose if all of them are down at once "
        "(or, only if the host set the house option `turn_limit` when starting the game, when that many game turns "
        "have passed; the panel then shows `Turn N of L`).\n"
        "The bot plays every monster. You control one or more heroes."
    ),
    "turn": (
        "Each game turn every standing hero activates once, in any order the party likes: "
        "`/dungeon activate hero:` then spend AP, then `/dungeon end`.\n"
        "After each activation every monster reacts with one action, nearest to a hero it can see first "
        "(ties are drawn by the seeded dice). Then one monster from the pool spawns next to the active spawn point.\n"
        "When all heroes have activated, a boss on the board makes its special move and a new turn begins."
    ),
    "actions": (
        "AP costs (house): a move action 1 (up to your move value, and you may split it around other actions), "
        "melee/ranged/magic attack 1, heal an adjacent hero 1, brew a potion 2, pick a lock 1, smash a chest 2, "
        "equip or switch profile 1, stand up 1, drop a card 0. Drinking a potion is free but only once per activation; "
        "it removes 2 wounds and every debuff."
    ),
    "dice": (
        "Blue, red and green dice show stars; some faces show a heart. Add the stars plus any flat stars. "
        "An attack hits only when the attacker scores more than the defender: ties favour the defender.\n"
        "Rolls are written die by die: `B2` is a blue die showing 2 stars, `R-` a blank red die, `G♥` a heart; "
        "`+1` adds flat stars and a die marked `(x)` was discarded (hex, bane).\n"
        "Hearts count only for heroes and only on a hit: each heart die heals a wound or removes a debuff from "
        "any hero, or gives the attacker a potion (`/dungeon heart use:`).\n"
        "Some abilities let you reroll dice (`/dungeon reroll die:` or `/dungeon keep`): each die once, and the dice "
        "you reroll are chosen together (`also:` names more): after rerolling some you cannot go back for the "
        "others. A friendly and an enemy reroll ability cancel each other."
    ),
    "movement": (
        "Move in any of the eight directions. You may pass friendly models but must stop on an empty square. "
        "Walls (drawn between squares), structures, chasms and enemies stop you; a diagonal step is blocked if "
        "either square beside it is blocked. Difficult terrain costs 2; brambles also poison, lava sets you on fire.\n"
        "Heroes may not come within 3 squares (in sight) of a spawn point that has not opened yet."
    ),
    "targeting": (
        "You need line of sight (a straight line from any part of your square to any part of the target's that "
        "touches no wall, structure or enemy) and range, counted by the shortest route. Melee reaches 1 square.\n"
        "Flying models ignore structures and models for sight; small models block sight only for other small models."
    ),
    "levels": (
        "Destroy the active spawn point (3 life, 1 flat star of armour) to stop the spawning; once it and all its "
        "monsters are gone, the next level opens: monsters spawn around its spawn point, a chest appears, and every "
        "hero is fully restored and may equip and drop freely before `ready`.\n"
        "From level 2 on, monsters roll an extra die (blue, then red, then green)."
    ),
    "loot": (
        "A destroyed minion drops loot on a star of a blue die, an elite always drops loot, a boss drops treasure "
        "(its own cards are shuffled in first). Chests: pick the lock (DEX against 2 blue) for treasure, or smash "
        "them (STR against 1 star) for loot. Some treasure is a Boo Booty that runs off with a card.\n"
        "Cards on your tile can be equipped; a hero carries at most 4 cards, only one of them treasure."
    ),
    "debuffs": (
        "Bane: lose your best die on defence. Hex: lose your best die on offence. Fire: 1 wound at the start of each "
        "turn. Ice: no unique actions. Immobile: no moving. Knockdown: stand up (1 AP) before anything else. "
        "Poison: 1 AP less (at least 1). Slow: half movement, rounded up.\n"
        "House: a hero's debuffs wear off at the end of their next activation; "
        "monsters shed theirs when a new turn starts."
    ),
    "monsters": (
        "Each monster's behaviour is in its data. Melee monsters close in and strike; a monster moving towards its "
        "target stops as soon as it is in attack range, and a monster in range attacks (shooters do not back away). "
        "Support monsters first mend a wounded ally in range; cowards run from the heroes.\n"
        "A large (2x2) monster may end its move on smaller friends of lower rank (boss over elite over minion), "
        "pushing them back into the squares it left. Debuffs hit monsters too: knocked-down monsters spend their "
        "reaction standing up; poison costs a boss the last step of its special move, ice leaves it only plain "
        "reactions (house)."
    ),
    "bosses": (
        "A boss on the board acts after every hero has activated: its special move is a list of steps such as an "
        "extra reaction, summoning monsters (from the pool at the spawn point, or new ones beside itself), mending "
        "wounds, or a blast that strikes every hero within reach, even those who are down."
    ),
    "defeat": (
        "A hero whose wounds reach their life is incapacitated: no actions, blocks neither sight nor movement, "
        "ignored by monsters, but still occupies the square. Healing below the life value brings them back."
    ),
    "dungeons": (
        "`/game new game:dungeon dungeon:` picks the map: Crystal Caverns (the default), Sunken Swamp, Dust Barrows "
        "and Gloom Keep are made by hand; `random` builds one from 12x12 tiles, drawn from the game's seed (the "
        "same seed, the same dungeon). A built dungeon puts its four levels round a square of four tiles, each "
        "entered through a door from the one before, with its spawn point well inside its tile."
    ),
    "difficulty": (
        "Each level opens with as many monsters as there are heroes (at least two): more heroes meet more monsters. "
        "House option `difficulty:` when the game is made: `explorer` (easier) opens each level with one monster "
        "fewer and gives monsters' attacks 1 star less; `veteran` (harder) opens each level with one monster more "
        "and gives their attacks 1 star more. Left out: normal. The rolls show it (`explorer -1`, `veteran +1`)."
    ),
}


# ---- a card for every model, built from the data ------------------------------------------------------
def _stat_line(m: HeroDef | MonsterDef) -> str:
    return (f"move {m.move}, {m.ap} AP, STR {m.str.text()}, ARM {m.arm.text()}, WILL {m.will.text()}, "
            f"DEX {m.dex.text()}, life {m.life}")


def _named(ids: tuple[str, ...]) -> str:
    return ", ".join(i.replace("_", " ").title() for i in ids) or "none"


def unique_text(ua: UniqueAction) -> str:
    """One unique action in a few words: cost, kind, reach and what it adds."""
    risk = ", dangerous" if ua.dangerous else ""
    buff = f"immune to {', '.join(ua.buff)} (a buff)" if ua.buff else ""
    whom = "every hero in reach" if ua.area == "all" else "one hero"
    reach = "the user only" if ua.range == 0 else f"{whom} within {ua.range}"
    if ua.kind == "buff":
        return f"{ua.name} ({ua.ap} AP{risk}): assist on {reach}: {buff}"
    if ua.kind == "heal":
        return (f"{ua.name} ({ua.ap} AP{risk}): heals {ua.amount} wound{'s' if ua.amount > 1 else ''} on {reach}"
                + (", curing every debuff" if ua.cure else "") + (f"; {buff}" if buff else ""))
    area = {"single": "one enemy", "adjacent": "every adjacent enemy",
            "around_target": "an enemy and every enemy next to it", "all": "every enemy in reach"}[ua.area]
    extra = f" +{ua.bonus.text()}" if ua.bonus.dice or ua.bonus.stars else ""
    hurts = f", inflicting {', '.join(ua.inflicts)}" if ua.inflicts else ""
    stat = (ua.stat or "").upper()
    gain = f"; a hit makes the user {buff}" if buff else ""
    return f"{ua.name} ({ua.ap} AP{risk}): {ua.style} attack ({stat}{extra}) on {area} within {ua.range}{hurts}{gain}"


def hero_card(hd: HeroDef) -> str:
    c = content()
    attacks = ", ".join(f"{k} {v}" for k, v in hd.attacks.items())
    lines = [f"{hd.name} ({hd.species or 'hero'}; affinity {', '.join(hd.affinity) or 'none'}): {_stat_line(hd)}, "
             f"potions {hd.potions}.",
             f"Attacks (range): {attacks}. Attributes: {_named(hd.attributes)}."
             + (f" Immune: {', '.join(hd.immune)}." if hd.immune else "")]
    lines += [unique_text(c.unique[u]) + "." for u in hd.unique]
    for p in hd.profiles:
        lines.append(f"Switch (1 AP) to {p.name}" + (f": move {p.move}" if p.move is not None else "") + ".")
    lines.append("Published stat line (fan data)." if not hd.house else "House values: the rule text names this "
                 "hero but gives no sheet.")
    return "\n".join(lines)


def monster_card(md: MonsterDef) -> str:
    attrs = [a.replace("vulnerable:", "vulnerable: ") for a in md.attributes]
    lines = [f"{md.name} ({md.rank}{', large' if md.large else ''}; {', '.join(md.species) or 'monster'}): "
             f"{_stat_line(md)}.",
             f"Attack: {md.attack.style}, range {md.attack.range}. Attributes: {_named(tuple(attrs))}."
             + (f" Immune: {', '.join(md.immune)}." if md.immune else "")]
    if md.shift_to:
        lines.append(f"Forced Shift: becomes {content().monsters[md.shift_to].name} when destroyed.")
    if md.special:
        lines.append("Special move: " + ", ".join(step.effect for step in md.special) + ".")
    lines.append("House values: the rule text names this monster but gives no sheet." if md.house
                 else "Published stat line (fan data).")
    return "\n".join(lines)


def _bonus_text(b: Bonus) -> str:
    parts = [f"{s.upper()} +{getattr(b, s).text()}" for s in ("str", "arm", "will", "dex")
             if getattr(b, s).dice or getattr(b, s).stars]
    parts += [f"{k} +{getattr(b, k)}" for k in ("move", "ap", "potions", "life") if getattr(b, k)]
    return ", ".join(parts) or "none"


def card_text(card: Card) -> str:
    """An equipment card: its deck and slot, bonus, affinity bonus, attributes, immunities and card actions."""
    c = content()
    if card.booty:
        return ("Treasure deck. Boo Booty! Found when a chest is opened by picking its lock: the chest sprouts legs "
                "(a Boo Booty monster) and runs off with one more treasure card, which it drops when destroyed.")
    slot = "loot card (any of the 4 slots)" if card.deck == "loot" else "treasure card (the one treasure slot)"
    where = {"loot": "Loot deck", "treasure": "Treasure deck", "boss": "A boss's own card (joins the treasure "
             "deck when that boss falls)"}[card.deck]
    lines = [f"{where}; a {slot}. Bonus: {_bonus_text(card.bonus)}."]
    if card.affinity and card.affinity_bonus:
        lines.append(f"Affinity {card.affinity}: a {card.affinity} hero gets {_bonus_text(card.affinity_bonus)} "
                     "instead.")
    if card.attributes:
        lines.append(f"Gives the attribute{'s' if len(card.attributes) > 1 else ''} {_named(card.attributes)} "
                     "(`/rules` topic of each).")
    if card.immune:
        lines.append(f"Immune: {', '.join(card.immune)}.")
    lines += ["Card action: " + unique_text(c.unique[u]) + f" (`act action:{u}`)." for u in card.actions]
    return "\n".join(lines)


def model_topics() -> dict[str, str]:
    """A topic per hero, monster, attribute and equipment card, by name (`/rules game:dungeon topic:Candy`),
    and the card terms (cards, buffs, dangerous)."""
    out = {hd.name: hero_card(hd) for hd in content().heroes.values()}
    out.update({md.name: monster_card(md) for md in content().monsters.values() if md.name not in out})
    for name, text in ATTRIBUTES.values():
        out[name if name not in out else f"{name} (attribute)"] = f"Attribute. {text}"
    for card in content().cards.values():
        out.setdefault(card.name if card.name not in out else f"{card.name} (card)", card_text(card))
    out.update(CARD_TERMS)
    return out
