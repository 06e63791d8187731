"""The advanced attributes in our own words, one `/rules game:dungeon topic:<name>` each, with the house readings
this game uses where the rule text leaves a choice. Keys are the ids the data uses."""
from __future__ import annotations

_HUNTER = ("A hero with it may reroll one die of an offence roll against {kinds} enemies; a monster with it adds "
           "+1 to such a roll instead.")
_RIDER = ("A hit with one of the three basic attacks (melee, ranged, magic) also gives the target the {d} debuff. "
          "(The {d} debuff: {what}.)")

ATTRIBUTES: dict[str, tuple[str, str]] = {
    "alchemist": ("Alchemist", "After brewing a potion, roll a blue die: any star brews a second potion."),
    "ambush": ("Ambush", "As it spawns the model makes a free attack on an adjacent enemy it can see (house: an "
                         "ambusher spawns next to a hero where it can)."),
    "backlash": ("Backlash", "When the model's defence beats a melee attack, the attacker takes a wound."),
    "bane": ("Bane", _RIDER.format(d="bane", what="the highest defence die is discarded")),
    "beast_hunter": ("Beast Hunter", _HUNTER.format(kinds="Beast, Bug and Chimera")),
    "berserk": ("Berserk", "Once in its turn the model may make a melee attack that costs no AP."),
    "blood_scent": ("Blood Scent", "Melee against an adjacent wounded target: a hero rolls +1 red die, a monster "
                                   "adds +2."),
    "burrow": ("Burrow", "Moves under structures, walls and enemies and ignores difficult terrain; it still ends on "
                         "an empty square."),
    "dawn_of_the_dead": ("Dawn Of The Dead", "Friendly Undead within 3 squares in sight add +1 to melee offence "
                                             "(once, however many such models; house: the model itself too)."),
    "dodge": ("Dodge", "The model may defend with DEX where it would use ARM; monsters always do when it helps."),
    "dragon_rage": ("Dragon Rage", "Friendly Kobolds and Drakes within 3 squares gain STR: +1 blue die for "
                                   "heroes, +1 for monsters (not cumulative; house: the model itself too)."),
    "dragon_spite": ("Dragon Spite", _HUNTER.format(kinds="Draconic")),
    "enhanced_defences": ("Enhanced Defences", "In defence, a heart face counts as 1 star."),
    "feint": ("Feint", "A hero may reroll one die of a melee offence roll (before hex discards one). A monster's "
                       "melee attack takes 1 from the hero's defence (after bane)."),
    "fire": ("Fire", _RIDER.format(d="fire", what="1 wound at the start of each game turn")),
    "flesh_bane": ("Flesh Bane", _HUNTER.format(kinds="Fair Sapient")),
    "fly": ("Fly", "Moves over structures, chasms and enemies and ignores difficult terrain (lava still burns); "
                   "structures and models do not block its line of sight."),
    "forced_shift": ("Forced Shift", "When destroyed the model becomes its other form on the spot (house: with no "
                                     "room, the new form goes to the front of its level's pool)."),
    "ghost": ("Ghost", "Walls block neither its sight nor its moves (a large base may not end over a wall)."),
    "goop": ("Goop", "An enemy next to the model and in its sight gets nothing from equipment cards of the model's "
                     "affinity colour. House: those cards' dice, stars and attributes drop out of that hero's "
                     "offence and defence rolls; move, AP, life, potions and immunities stay."),
    "grabby": ("Grabby", "An opposing model next to it and in its sight may not make move actions."),
    "gross": ("Gross", "As it falls the model makes its Gross action (house: a poisoning attack on every adjacent "
                       "hero in sight)."),
    "healer": ("Healer", "When it heals a wounded ally, roll a blue die: any star heals one wound more."),
    "hex": ("Hex", _RIDER.format(d="hex", what="the highest offence die is discarded")),
    "holy": ("Holy", _HUNTER.format(kinds="Undead, Demon and Nether")),
    "ice": ("Ice", _RIDER.format(d="ice", what="no unique actions, card actions included")),
    "immobile": ("Immobile", _RIDER.format(d="immobile", what="no moving in the next activation")),
    "immune": ("Immune", "Immune: X means the model never gains debuff X (Immune: All, none at all). Gaining an "
                         "immunity, from a card or a buff too, removes that debuff at once."),
    "jinx": ("Jinx", "House attribute: the model's presence as a target cancels one friendly reroll of the "
                     "attacker (a friendly and an enemy reroll cancel each other)."),
    "knockdown": ("Knockdown", _RIDER.format(d="knockdown", what="stand up (1 AP) before doing anything else")),
    "luck": ("Luck", "Draws two treasure cards instead of one, keeps one and shuffles the other back (house: the "
                     "first, unless it is a Boo Booty)."),
    "mob": ("Mob", "Melee offence gains +1 blue die for each other friendly Mob model next to the target and in "
                   "its sight, at most +3."),
    "natures_bane": ("Nature's Bane", _HUNTER.format(kinds="Elemental and Kodama")),
    "nine_lives": ("Nine Lives", "When incapacitated, roll a red die and remove a wound per star; used once until "
                                 "the next spawn point opens."),
    "packmaster": ("Packmaster", "Friendly Drakes within 3 squares in sight gain Mob."),
    "pile_on": ("Pile-On", "Melee against an adjacent knocked-down target rolls +1 blue die."),
    "poison": ("Poison", _RIDER.format(d="poison", what="1 AP less, at least 1")),
    "raise": ("Raise", "At the start of its activation, each wounded friendly Undead within 3 squares in sight "
                       "heals a wound."),
    "savage": ("Savage", "Friendly models next to it and in its sight add +1 to STR offence rolls (house: not the "
                         "savage model itself)."),
    "shapeshifter": ("Shapeshifter", "The switch action (1 AP) changes the hero into its other form, with that "
                                     "form's stat line."),
    "sidestep": ("Sidestep", "After its defence beats a melee, ranged or magic attack the model may move one free "
                             "square (house: monsters go to the free square farthest from the attacker)."),
    "slow": ("Slow", _RIDER.format(d="slow", what="movement halved, rounded up")),
    "small": ("Small", "Offence against it scores 1 less; it blocks sight only between two other small models."),
    "stalwart": ("Stalwart", "+1 blue ARM die for each adjacent enemy in sight, at most +3."),
    "static_charge": ("Static Charge", "Each wound it takes adds a charge point (at most 3); each point gives +1 "
                                       "blue die to STR and to ARM."),
    "stealth": ("Stealth", "An attacker more than 3 squares away takes 1 from its offence roll per square beyond "
                           "3."),
    "surefoot": ("Surefoot", "Difficult terrain costs it no extra movement."),
    "tough": ("Tough", "At the start of each game turn a wounded model heals one wound (not an incapacitated "
                       "hero)."),
    "treasure_map": ("Treasure Map", "Drawing treasure from a chest or a defeated Boo Booty draws one extra "
                                     "treasure card."),
    "virulent": ("Virulent", "+1 blue offence die against a poisoned target."),
    "vulnerable": ("Vulnerable", "Vulnerable: X means an offence action that inflicts debuff X scores +1 against "
                                 "the model."),
}

CARD_TERMS: dict[str, str] = {
    "cards": (
        "Equipment cards (loot: blue deck; treasure: red deck; a boss's own cards join the treasure deck when it "
        "falls). A hero has four equipment slots, and only one may hold a treasure card. A card's bonus dice and "
        "stars add to every roll with that stat; move, AP, potion and life bonuses raise the maximum only (no "
        "free potion or healing when you equip). If the hero shares the card's affinity colour, the better "
        "affinity bonus replaces the standard one. Attributes and immunities on a card are the hero's while "
        "carried.\nCard actions are unique actions: `/dungeon act action:<name>` (buttons name the card, the "
        "AP and `dangerous`); ice stops them. An offence card action rolls its stat plus the card's dice against "
        "an enemy; an assist card action (heal or buff) reaches a friendly hero within its range in sight, or "
        "only the user when its range is 0."
    ),
    "buffs": (
        "A buff is the good twin of a debuff: a card action (an assist, or an offence one on a hit) gives a hero "
        "an immunity for a while. A debuff it covers is removed at once. House: a buff lasts until the end of "
        "that hero's next activation (one given during the hero's own activation lasts through the next one)."
    ),
    "dangerous": (
        "Dangerous (card actions). The rule text names the attribute without its effect; house reading: before a "
        "dangerous action resolves its user rolls one blue die, and on a blank face takes a wound. If that wound "
        "incapacitates the user, the action is lost (its AP are spent)."
    ),
}
