"""Equipment as cards (SDE-S "Equipment Cards" and "How To Use 2nd Edition Cards"): every card of the data has a
test of its effect here (`test_every_card_has_a_test_of_its_effect` enforces it), plus the card rules: bonuses,
affinity, no free potion or healing on equip, card actions (offence, assist, buffs, dangerous), ice, refusals."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from dhelpers import do, legal, monster_at, scene

from games.core import IllegalAction
from games.dungeon import ENGINE as E
from games.dungeon import combat, hero_actions, stats
from games.dungeon.data import content
from games.dungeon.state import FloorCard

EFFECTS: dict[str, Callable[..., None]] = {}


def effect(*cards: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the test of these cards' effect."""
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        for c in cards:
            assert c not in EFFECTS, c
            EFFECTS[c] = fn
        return fn
    return register


def carrying(hid: str, *cards: str, heroes: str = "", monsters: str = "", at: str = "B10"):
    st = scene(f"{hid}@{at} {heroes}".strip(), monsters)
    stats.hero(st, hid).equipment = list(cards)
    return st


def line(hid: str, *cards: str) -> stats.Stats:
    st = carrying(hid, *cards)
    return stats.hero_stats(stats.hero(st, hid))


def activated(hid: str, *cards: str, heroes: str = "", monsters: str = "", at: str = "B10"):
    st = carrying(hid, *cards, heroes=heroes, monsters=monsters, at=at)
    st, _ = do(st, f"activate hero:{hid}")
    return st


# ---- plain bonuses: (hero, stat, the hero's own value, with the card) written out by hand ------------------------
STAT_BONUS = {
    "iron_sword": ("ruby", "str", "2B", "3B"),
    "oak_shield": ("ruby", "arm", "3B", "4B"),
    "focus_charm": ("ruby", "will", "3B", "4B"),
    "archer_gloves": ("ruby", "dex", "2B1R", "3B1R"),
    "shade_cowl": ("ruby", "dex", "2B1R", "2B2R"),
    "frost_wand": ("candy", "will", "2B", "2B1S"),
    "iron_greaves": ("candy", "arm", "3B", "3B1S"),
    "hunters_cloak": ("emerald", "dex", "2B1R", "3B1R"),
    "holy_symbol": ("candy", "will", "2B", "2B1S"),
    "great_axe": ("nyannyan", "str", "3B", "4B"),
    "storm_staff": ("candy", "will", "2B", "3B"),
    "frost_brand": ("nyannyan", "str", "3B", "4B"),
    "spore_crown": ("candy", "will", "2B", "2B1R"),
    "wyrm_scale": ("candy", "arm", "3B", "3B1G"),
    "rex_fang": ("nyannyan", "str", "3B", "4B1R"),
    "spiked_buckler": ("candy", "arm", "3B", "3B1S"),
    "venom_dagger": ("candy", "str", "2B", "2B1S"),
    "fencing_foil": ("candy", "dex", "1B1R", "1B1R1S"),
    "emerald_amulet": ("candy", "arm", "3B", "3B1S"),
}


@effect("iron_sword", "oak_shield", "focus_charm", "archer_gloves")
def stat_dice(cid: str) -> None:
    hid, stat, before, after = STAT_BONUS[cid]
    assert line(hid).dice[stat].text() == before
    assert line(hid, cid).dice[stat].text() == after


@effect("quick_boots")
def quick_boots(cid: str) -> None:
    assert (line("ruby").move, line("ruby", cid).move) == (6, 7)
    st = activated("ruby", cid)
    assert st.activation is not None
    assert hero_actions.move_allowance(stats.hero(st, "ruby"), st.activation) == 7


@effect("winged_crown", "shade_cowl")
def extra_ap(cid: str) -> None:
    st = activated("ruby", cid)
    assert st.activation is not None and st.activation.ap == 4
    if cid == "shade_cowl":
        stat_dice(cid)


@effect("potion_belt", "tide_ring")
def more_potions(cid: str) -> None:
    """Rule: the maximum rises, but equipping gives no potion (no dropping and re-equipping for free potions)."""
    want = {"potion_belt": {"ruby": 2, "candy": 4}, "tide_ring": {"ruby": 2, "candy": 5}}[cid]  # Candy is blue
    for hid, most in want.items():
        st = carrying(hid)
        h = stats.hero(st, hid)
        before = h.potions
        st.floor = [FloorCard(card=cid, x=h.x, y=h.y)]
        st, _ = do(st, f"activate hero:{hid}")
        st, _ = do(st, f"equip card:{cid}")
        h = stats.hero(st, hid)
        assert stats.hero_stats(h).potions == most and h.potions == before


@effect("heart_locket", "goddess_tear", "spore_crown")
def more_life(cid: str) -> None:
    """Rule: the maximum life rises, but equipping heals nothing."""
    gain = {"heart_locket": 1, "goddess_tear": 2, "spore_crown": 1}[cid]
    st = carrying("candy", heroes="ruby@C10")
    st.heroes[0].wounds = 2
    st.floor = [FloorCard(card=cid, x=1, y=9)]
    st, _ = do(st, "activate hero:candy")
    st, _ = do(st, f"equip card:{cid}")
    candy = stats.hero(st, "candy")
    assert stats.hero_stats(candy).life == 5 + gain and candy.wounds == 2
    if cid == "goddess_tear":
        assert stats.hero_stats(candy).potions == 4
        check_immune(cid, ["fire", "hex", "knockdown", "bane"], [])
    if cid == "spore_crown":
        stat_dice(cid)
        check_immune(cid, ["poison"], ["bane"])


def check_immune(cid: str, blocked: list[str], taken: list[str]) -> None:
    """Rule (Immune): the hero carrying the card never gains these debuffs (and still gains the others)."""
    st = carrying("candy", cid)
    candy = stats.hero(st, "candy")
    for d in blocked + taken:
        combat.give_debuff_hero(candy, d, [])
    assert candy.debuffs == taken


@effect("warm_cloak", "wyrm_scale", "emerald_amulet")
def immunities(cid: str) -> None:
    blocked = {"warm_cloak": ["ice", "slow"], "wyrm_scale": ["fire"], "emerald_amulet": ["poison"]}[cid]
    check_immune(cid, blocked, ["bane"])
    if cid == "wyrm_scale":
        stat_dice(cid)
    if cid == "emerald_amulet":
        affinity(cid)


# ---- affinity: the better bonus for a hero of the card's colour ---------------------------------------------------
AFFINITY = {  # card: (matching hero, stat, value), (other hero, stat, value)
    "ruby_pendant": (("ruby", "will", "3B1R"), ("candy", "will", "2B1S")),
    "crystal_mail": (("candy", "arm", "3B1G"), ("ruby", "arm", "3B1R")),
    "dragon_blade": (("ruby", "str", "2B1G"), ("candy", "str", "2B1R")),
    "sun_brooch": (("nyannyan", "will", "2B1R"), ("ruby", "will", "4B")),
    "ember_charm": (("ruby", "str", "2B1S"), ("candy", "str", "2B")),
    "emerald_amulet": (("emerald", "arm", "3B1G"), ("candy", "arm", "3B1S")),
}


@effect("ruby_pendant", "crystal_mail", "sun_brooch")
def affinity(cid: str) -> None:
    for hid, stat, value in AFFINITY[cid]:
        assert line(hid, cid).dice[stat].text() == value, (cid, hid)


# ---- attributes a card gives: each really acts ---------------------------------------------------------------------
def hero_hits(dice, hid: str, cid: str, target: str, monsters: str, style: str, offence: str, defence: str) -> str:
    st = activated(hid, cid, monsters=monsters)
    dice.push(offence, defence)
    st, text = do(st, f"attack target:{target} with:{style}")
    return text


@effect("venom_dagger", "spiked_gauntlets", "frost_brand", "rex_fang")
def riding_debuff(cid: str, dice) -> None:
    """Rule (card attribute): a basic attack that hits inflicts the card's debuff."""
    debuff = {"venom_dagger": "poison", "spiked_gauntlets": "knockdown", "frost_brand": "ice",
              "rex_fang": "knockdown"}[cid]
    st = activated("nyannyan", cid, monsters="sprout@C10")
    order = ["R3" if c == "R" else "B2" for c in stats.hero_stats(stats.hero(st, "nyannyan")).dice["str"].dice]
    dice.push(" ".join(order), "Rh Rh")
    st, text = do(st, "attack target:C10 with:melee")
    assert f"Sprout suffers {debuff}." in text and debuff in monster_at(st, "C10").debuffs
    if cid in STAT_BONUS:
        stat_dice(cid)


@effect("spiked_buckler")
def backlash(cid: str, dice) -> None:
    """Rule (Backlash): a defence that beats a melee attack wounds the attacker."""
    st = carrying("candy", cid, monsters="bone_head@C10")
    dice.push("B0 B0 Rh", "B2 B2 B2")  # Bone Head's STR 2B1R against Candy's ARM 3B (+1 star)
    lines: list[str] = []
    combat.monster_attack(st, monster_at(st, "C10"), stats.hero(st, "candy"), lines)
    assert "Candy's backlash strikes back" in "\n".join(lines)
    stat_dice(cid)


@effect("fencing_foil")
def feint(cid: str, dice) -> None:
    """Rule (Feint): a hero may reroll one die of a melee offence roll."""
    st = activated("candy", cid, monsters="sprout@C10")
    dice.push("B0 B0")
    st, text = do(st, "attack target:C10 with:melee")
    assert "may reroll 1 die" in text
    stat_dice(cid)


@effect("dragon_blade", "hunters_cloak", "holy_symbol")
def hunter(cid: str, dice) -> None:
    """Rule (Dragon Spite, Beast Hunter, Holy): a reroll against the named kinds of enemy."""
    foe = {"dragon_blade": "wyrmling", "hunters_cloak": "rabid_squirrel", "holy_symbol": "bone_head"}[cid]
    assert content().cards[cid].attributes
    st = activated("nyannyan", cid, monsters=f"{foe}@C10")
    h = stats.hero(st, "nyannyan")
    dice.push(" ".join("B0" if c == "B" else f"{c}h" for c in stats.hero_stats(h).dice["str"].dice))
    st, text = do(st, "attack target:C10 with:melee")
    assert "may reroll 1 die" in text, text
    if cid == "dragon_blade":
        affinity(cid)
    else:
        stat_dice(cid)


@effect("lucky_coin", "explorers_map")
def treasure_drawing(cid: str, dice) -> None:
    """Rule (Luck: two cards, keep one; Treasure Map: one more card from a picked chest)."""
    st = carrying("candy", cid, at="J11")  # the level 1 chest is K11
    st.treasure_deck = [c for c in st.treasure_deck if not content().cards[c].booty]
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 R3", "B0 B0")  # DEX 1B1R against the lock's 2B
    st, text = do(st, "act action:picklock")
    if cid == "lucky_coin":
        assert "Luck: Candy draws two treasure cards and keeps one." in text and len(st.floor) == 1
    else:
        assert "treasure map shows one more" in text and len(st.floor) == 2


@effect("boo_booty_a", "boo_booty_b")
def boo_booty(cid: str, dice) -> None:
    """A Boo Booty card drawn from a picked chest: the chest runs off with a treasure card."""
    st = carrying("candy", at="J11")
    st.treasure_deck = [cid] + [c for c in st.treasure_deck if c != cid]
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 R3", "B0 B0")
    st, text = do(st, "act action:picklock")
    assert "Boo Booty! The chest sprouts legs" in text
    assert any(m.kind == "boo_booty" for m in st.monsters) and len(st.booty_cards) == 1
    assert E.rules_topics()["Boo Booty!"].startswith("Treasure deck.")


# ---- card actions ----------------------------------------------------------------------------------------------------
def best(colours) -> str:
    return " ".join({"B": "B2", "R": "R3", "G": "G3"}[c] for c in colours)


def use_offence(dice, cid: str, action: str, target: str, monsters: str, *, danger: str = "",
                hid: str = "candy", targets: int = 1):
    """The hero uses a card's offence action with winning dice; returns (state, text)."""
    st = activated(hid, cid, monsters=monsters)
    ua = content().unique[action]
    h = stats.hero(st, hid)
    pool = list(stats.hero_stats(h).dice[ua.stat or "str"].dice) + list(ua.bonus.dice)
    if danger:
        dice.push(danger)
    for _ in range(targets):
        dice.push(best(pool), "Rh Rh" if ua.style != "magic" else "B0 B0 B0")  # Sprout: ARM 2R, WILL 3B
    st, text = do(st, f"act action:{action}" + (f" target:{target}" if target else ""))
    return st, text


OFFENCE = {  # card: action, target square, monsters, debuff inflicted
    "firebomb_satchel": ("firebomb", "E10", "sprout@E10 sprout@E11", "fire"),
    "frost_wand": ("frost_shard", "E10", "sprout@E10", "ice"),
    "hooked_blade": ("hamstring", "C10", "sprout@C10", "slow"),
    "blowpipe": ("sleep_dart", "E10", "sprout@E10", "knockdown"),
    "cursed_tome": ("hex_word", "E10", "sprout@E10", "hex"),
    "bone_maul": ("bone_crush", "C10", "sprout@C10", "bane"),
    "weighted_net": ("net_throw", "D10", "sprout@D10", "immobile"),
    "toad_sling": ("venom_spit", "E10", "sprout@E10", "poison"),
    "storm_staff": ("thunderclap", "E10", "sprout@E10 sprout@E11", "knockdown"),
}


@effect("frost_wand", "hooked_blade", "blowpipe", "cursed_tome", "weighted_net", "storm_staff")
def offence_action(cid: str, dice) -> None:
    """Rule (2nd-edition cards): a card action without the assist icon is an offence action; its debuff icons hit
    on a success; a dangerous one first risks a wound (house reading)."""
    action, target, monsters, debuff = OFFENCE[cid]
    ua = content().unique[action]
    st = activated("candy", cid, monsters=monsters)
    labels = [E.label(st, a) for a in E.legal_actions(st, "ann") if a.cmd == "act" and a.get("action") == action]
    assert labels and all(content().cards[cid].name in t and f"{ua.ap} AP" in t for t in labels), labels
    assert all(("dangerous" in t) == ua.dangerous for t in labels)
    n = 2 if ua.area == "around_target" else 1
    st, text = use_offence(dice, cid, action, target, monsters, danger="B2" if ua.dangerous else "", targets=n)
    assert f"Candy uses {content().cards[cid].name}: {ua.name}." in text
    assert text.count(f"Sprout suffers {debuff}.") == n, text
    assert ("is dangerous: Candy rolls B2 and comes to no harm" in text) == ua.dangerous
    if cid in STAT_BONUS:
        stat_dice(cid)


@effect("bone_maul")
def bone_maul(cid: str, dice) -> None:
    """The action's own dice add to the stat when it is used (Bone Crush: STR +1R)."""
    offence_action(cid, dice)
    st, text = use_offence(dice, cid, "bone_crush", "C10", "sprout@C10")
    assert "(Bone Crush) rolls B2 B2 R3 = 7" in text


@effect("toad_sling", "firebomb_satchel")
def dangerous(cid: str, dice) -> None:
    """House reading of "dangerous": a blank blue die wounds the user before the action; the action goes on."""
    offence_action(cid, dice)
    action, target, monsters, debuff = OFFENCE[cid]
    n = 2 if content().unique[action].area == "around_target" else 1
    st, text = use_offence(dice, cid, action, target, monsters, danger="B0", targets=n)
    assert "is dangerous: Candy rolls B- and is hurt." in text and "Candy takes 1 wound (1/5)." in text
    assert f"Sprout suffers {debuff}." in text
    # a user the danger takes down loses the action (AP spent)
    st = activated("candy", cid, monsters=monsters)
    stats.hero(st, "candy").wounds = 4
    dice.push("B0")
    st, text = do(st, f"act action:{action} target:{target}")
    assert "is lost" in text and "suffers" not in text.split("is lost")[1]


@effect("great_axe")
def cleave(cid: str, dice) -> None:
    """Cleave strikes every adjacent enemy."""
    st, text = use_offence(dice, cid, "cleave", "", "sprout@C10 sprout@B11", hid="nyannyan", targets=2)
    assert text.count("hit.") == 2 and all(monster_at(st, s).wounds == 1 for s in ("C10", "B11"))
    stat_dice(cid)


@effect("sunlit_mace")
def buff_on_a_hit(cid: str, dice) -> None:
    """Rule: a buff icon on an offence action bestows the buff when the action succeeds (house: on the user)."""
    st, text = use_offence(dice, cid, "sun_strike", "C10", "sprout@C10", hid="nyannyan")
    h = stats.hero(st, "nyannyan")
    assert "Nyan-Nyan gains a buff from Sun Strike: immune to hex, bane." in text and set(h.buffs) == {"hex", "bane"}
    combat.give_debuff_hero(h, "hex", [])
    assert "hex" not in h.debuffs
    # a miss gives nothing
    st = activated("nyannyan", cid, monsters="sprout@C10")
    dice.push("B0 B0 B0 Rh", "R3 R3")
    st, text = do(st, "act action:sun_strike target:C10")
    assert "no effect" in text and stats.hero(st, "nyannyan").buffs == []


BUFFS = {  # card: action, target, immunities, the debuff it removes at once
    "ember_charm": ("ember_ward", "candy", {"fire"}, "fire"),
    "antidote_vial": ("antidote", "ruby", {"poison"}, "poison"),
    "clarity_circlet": ("clear_mind", "candy", {"hex", "ice"}, "hex"),
    "iron_greaves": ("iron_stance", "candy", {"slow", "immobile"}, "slow"),
    "war_banner": ("rally", "", {"knockdown"}, "knockdown"),
}


@effect(*BUFFS)
def buff_action(cid: str) -> None:
    """Rule: an assist card action's immunity icon bestows a buff; gaining an immunity removes that debuff at once.
    House: the buff lasts until the end of the hero's next activation."""
    action, target, immune, cured = BUFFS[cid]
    st = activated("candy", cid, heroes="ruby@C10")
    who = target or "ruby"
    stats.hero(st, who).debuffs = [cured]
    st, text = do(st, f"act action:{action}" + (f" target:{target}" if target else ""))
    h = stats.hero(st, who)
    assert set(h.buffs) >= immune and cured not in h.debuffs and "The buff frees" in text
    for d in immune:
        combat.give_debuff_hero(h, d, [])
    assert not set(h.debuffs) & immune
    if cid == "war_banner":
        assert stats.hero(st, "candy").buffs == ["knockdown"]  # every hero within 3, the user too
        assert stats.hero_stats(stats.hero(st, "candy")).move == 7
    if cid == "iron_greaves":
        stat_dice(cid)
    if cid == "ember_charm":
        affinity(cid)
    # the buff lasts through the end of this activation and the hero's next one, then it is gone
    st, _ = do(st, "end")
    assert stats.hero(st, who).buffs
    if who == "candy":
        st, _ = do(st, "activate hero:ruby")
        st, _ = do(st, "end")
        st, _ = do(st, "activate hero:candy")
        st, _ = do(st, "end")
        assert stats.hero(st, "candy").buffs == []


@effect("salve_pouch", "saints_relic")
def heal_action(cid: str, dice) -> None:
    """Assist card actions that heal use the rules' heal; Saint's Grace also cures and buffs."""
    action = content().cards[cid].actions[0]
    st = activated("ruby", cid, heroes="candy@C10")
    candy = stats.hero(st, "candy")
    candy.wounds, candy.debuffs = 2, ["poison"]
    st, text = do(st, f"act action:{action} target:candy")
    candy = stats.hero(st, "candy")
    assert candy.wounds == 1 and "Ruby heals Candy: 1 wound removed" in text
    if cid == "saints_relic":
        assert candy.debuffs == [] and candy.buffs == ["all"]
    else:
        assert candy.debuffs == ["poison"]
        st = activated("ruby", cid, heroes="candy@E10")
        stats.hero(st, "candy").wounds = 1
        assert not any(a.startswith(f"act action:{action}") for a in legal(st))  # range 1


@pytest.mark.parametrize("cid", sorted(content().cards))
def test_each_card_does_what_it_says(cid, request):
    fn = EFFECTS[cid]
    wants_dice = "dice" in fn.__code__.co_varnames[:fn.__code__.co_argcount]
    fn(cid, request.getfixturevalue("dice")) if wants_dice else fn(cid)


def test_every_card_has_a_test_of_its_effect_and_there_are_forty():
    cards = content().cards
    assert set(EFFECTS) == set(cards), sorted(set(cards) ^ set(EFFECTS))
    assert sum(1 for c in cards.values() if not c.booty) >= 40
    assert sum(1 for c in cards.values() if c.actions) >= 15


def test_every_card_has_a_rules_topic():
    topics = E.rules_topics()
    for card in content().cards.values():
        assert card.name in topics, card.name
        for u in card.actions:
            assert content().unique[u].name in topics[card.name]


# ---- card action rules -----------------------------------------------------------------------------------------------
def test_rule_ice_stops_card_actions_too():
    st = activated("candy", "hooked_blade", monsters="sprout@C10")
    stats.hero(st, "candy").debuffs = ["ice"]
    assert not any("hamstring" in a for a in legal(st))
    with pytest.raises(IllegalAction, match="iced: no unique actions \\(card actions included\\)"):
        do(st, "act action:hamstring target:C10")


def test_a_card_action_without_the_card_is_refused_naming_the_card():
    st = activated("candy", monsters="sprout@C10")
    with pytest.raises(IllegalAction, match="action of the card Hooked Blade; Candy does not carry that card"):
        do(st, "act action:hamstring target:C10")


def test_a_self_buff_reaches_only_its_user_and_says_so():
    st = activated("candy", "ember_charm", heroes="ruby@C10")
    assert [a for a in legal(st) if "ember_ward" in a] == ["act action:ember_ward target:candy"]
    with pytest.raises(IllegalAction, match="works only on Candy themself"):
        do(st, "act action:ember_ward target:ruby")


def test_dropping_the_card_takes_its_action_away():
    st = activated("candy", "hooked_blade", monsters="sprout@C10")
    st, _ = do(st, "drop card:hooked_blade")
    assert not any("hamstring" in a for a in legal(st))


def test_rule_goop_cards_of_the_slimes_colour_do_nothing_next_to_it(dice):
    """Rule (Goop): an enemy adjacent to and in sight of the model gets nothing from cards of its affinity."""
    st = carrying("candy", "crystal_mail", "iron_sword", monsters="sapphire_slime@C10")  # Sapphire: blue, Goop
    candy = stats.hero(st, "candy")
    assert stats.hero_stats(candy).dice["arm"].text() == "3B1G"
    dice.push("B0 B0", "B0 B0 B0")  # the slime's STR 2B; Candy defends with ARM 3B only
    lines: list[str] = []
    combat.monster_attack(st, monster_at(st, "C10"), candy, lines)
    assert "goop: no Crystal Mail" in lines[0] and "B- B- B- = 0" in lines[0]
    # a card of another colour keeps working, and one square away the goop lets go
    st = activated("candy", "crystal_mail", "iron_sword", monsters="sapphire_slime@C10")
    dice.push("B2 B2 B2", "B0")
    st, text = do(st, "attack target:C10 with:melee")
    assert "B2 B2 B2" in text and "goop" in text
    st = carrying("candy", "crystal_mail", monsters="sapphire_slime@D10")
    dice.push("B0 B0", "B0 B0 B0 G3")
    lines = []
    combat.monster_attack(st, monster_at(st, "D10"), stats.hero(st, "candy"), lines)
    assert "goop" not in lines[0]
    assert "goop" in content().monsters["sapphire_slime"].attributes


def test_card_action_buttons_name_the_card_the_cost_and_the_danger():
    st = activated("candy", "ember_charm", "toad_sling", monsters="sprout@E10")
    labels = {a.text(): E.label(st, a) for a in E.legal_actions(st, "ann") if a.cmd == "act"}
    assert labels["act action:ember_ward target:candy"] == "Ember Ward (Ember Charm, 1 AP)"
    assert labels["act action:venom_spit target:E10"] == (
        "Venom Spit Sprout (E10) (Toad Sling, 1 AP, 1B1R vs 2R, dangerous)")
