"""The play-test of the dungeon (five games in the local console): each finding fixed is pinned here by the rule or
the player-visible behaviour it restores."""
from __future__ import annotations

import pytest
from dhelpers import E, do, legal, scene

from games.core import Action, IllegalAction
from games.core.play import resolve, step
from games.dungeon import combat, dice, stats
from games.dungeon.dice import Rolled


def refusal(st, text: str, player: str = "ann") -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        resolve(E, st, player, Action.parse(text))
    return err.value


# ---- finding 2: `/game log` prints the event details only: every action must carry its full account ----------
def test_game_log_detail_of_a_hero_attack_holds_the_roll_the_result_and_the_loot_roll(dice):
    st = scene("candy@B10", "knucklehead@C10")
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 B2", "B0")  # Candy's STR 2B against the Knucklehead's ARM (1 star, no die); the loot roll
    _, _, events = step(E, st, "ann", Action.parse("attack target:C10 with:melee"))
    detail = events[0].detail
    assert detail == events[0].text  # nothing shortened at the table, and still the whole account in the log
    assert "Candy (melee attack) rolls B2 B2 = 4 vs Knucklehead (C10) +1 = 1: hit." in detail
    assert "Knucklehead is destroyed." in detail
    assert "Loot roll B-: no star, no loot." in detail


# ---- finding 3: rule "Stars": a score counts stars, so it never goes below 0 (0 never beats a defence) ---------
def test_rule_stars_a_score_is_never_below_zero():
    assert dice.score([Rolled("B", 0)], -1, False) == (0, [0])
    assert dice.score([], -2, False) == (0, [])
    assert dice.score([Rolled("B", 5)], -1, False) == (1, [0])  # minus stars still count against stars rolled


def test_rule_stars_a_blank_roll_with_minus_stars_does_not_hit_a_blank_defence_with_minus_stars(dice):
    """The play-test's `B♥ B1 R♥ -1 = 0 vs B- B- -1 = -1: hit`: both rolls score 0, and a tie goes to the defender."""
    st = scene("ruby@B10", "dread_knight@C10")  # Feint: -1 star on the defence against its melee
    st.difficulty = "explorer"  # -1 star on the monsters' offence
    dice.push("B0 Rh R1", "B0 B0 B0")  # STR 1B2R: one star, -1 = 0; Ruby's ARM 3B: nothing, -1 = 0
    lines: list[str] = []
    combat.monster_attack(st, st.monsters[0], stats.hero(st, "ruby"), lines)
    assert "B- R♥ R1 -1 = 0 vs B- B- B- -1 = 0" in lines[-1] and lines[-1].endswith(": blocked."), lines[-1]
    assert stats.hero(st, "ruby").wounds == 0


# ---- finding 5: a reroll refused for its own reason, `keep` named; the prompt shows what decides it ----------
def _at_reroll(dice):
    st = scene("ruby@B10", "knucklehead@C10")
    stats.hero(st, "ruby").equipment = ["dragon_blade"]  # Dragon Spite vs Draconic: two rerolls
    st, _ = do(st, "activate hero:ruby")
    dice.push("B0 B0 G1")
    return do(st, "attack target:C10 with:melee")


def test_the_reroll_prompt_shows_the_total_so_far_against_the_targets_defence(dice):
    _, text = _at_reroll(dice)
    assert ("Ruby rolls [1] B- [2] B- [3] G1 = 1 against Knucklehead (C10), who defends with 1S (a hit needs more "
            "than the defence roll); Ruby may reroll 2 dice or keep the roll.") in text


def test_a_reroll_of_a_die_that_is_not_there_says_so_and_names_keep(dice):
    st, _ = _at_reroll(dice)
    err = refusal(st, "reroll die:4")
    assert err.reason.startswith("There is no die 4: the roll has 3 dice (die 1 B-, die 2 B-, die 3 G1)")
    assert "`keep`" in err.reason and "Finish the attack first" not in err.reason
    st.attack.offence[0].rerolled = True
    assert "Die 1 has been rerolled already" in refusal(st, "reroll die:1").reason
    assert "`keep`" in refusal(st, "potion").reason  # anything else: finish the attack, by a reroll or `keep`


def test_the_hearts_question_is_singular_for_one_heart(dice):
    st = scene("candy@B10:w1", "dragon_priest@C10")  # life 3: the attack leaves it standing
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 Bh", "B0 R1")
    st, _ = do(st, "attack target:C10 with:melee")
    assert E.status(st).waiting_for == "Ann (Candy) to use 1 heart"


# ---- finding 6: the loot roll told when it fails; no debuff told for a monster the same hit destroys ---------
def test_rule_loot_the_minions_loot_roll_is_told_when_nothing_drops_too(dice):
    st = scene("candy@B10", "knucklehead@C10")
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 B2", "B0")
    _, text = do(st, "attack target:C10 with:melee")
    assert "Knucklehead is destroyed.\nLoot roll B-: no star, no loot." in text and not st.floor


def test_a_debuff_is_told_only_for_a_monster_that_survives_the_hit(dice):
    st = scene("rufaren@B10", "knucklehead@C10 dragon_priest@C11")  # Rufaren's attacks set fire
    st, _ = do(st, "activate hero:rufaren")
    dice.push("B2 B2 R3", "B0 B0", "B0")  # WILL 2B1R against the Knucklehead's WILL 2B; the loot roll
    st, text = do(st, "attack target:C10 with:magic")
    assert "Knucklehead is destroyed." in text and "suffers" not in text
    dice.push("B2 B2 R3", "R1 R1")  # the Dragon Priest (life 3) survives the wound and burns
    _, text = do(st, "attack target:C11 with:magic")
    assert "Dragon Priest suffers fire." in text and "Dragon Priest takes 1 wound (1/3)." in text


# ---- finding 7: wording ----------------------------------------------------------------------------------
def test_a_hero_healing_itself_is_named_once_and_the_healer_roll_says_what_it_gave(dice):
    st = scene("candy@B10:w3")
    st, _ = do(st, "activate hero:candy")
    dice.push("B1")  # Healer: a star heals one wound more
    _, text = do(st, "act action:sweet_mend target:candy")
    assert text.splitlines()[-2:] == ["Healer roll B1: a star, 1 wound more.", "Candy heals: 3 wounds removed."]
    dice.push("B0")
    _, text = do(st, "act action:sweet_mend target:candy")
    assert text.splitlines()[-2:] == ["Healer roll B-: no star.", "Candy heals: 2 wounds removed."]


def test_a_potion_names_the_debuffs_it_cures_and_none_when_there_were_none():
    st = scene("ruby@B10:w3")
    st, _ = do(st, "activate hero:ruby")
    _, text = do(st, "potion")
    assert text == "Ruby drinks a potion (0 left): 2 wounds healed (now 1/5)."
    st.heroes[0].debuffs = ["poison"]
    _, text = do(st, "potion")
    assert text == "Ruby drinks a potion (0 left): 2 wounds healed (now 1/5), poison cured."


def test_a_hero_healed_back_up_reads_the_same_after_a_heal_and_a_heart(dice):
    st = scene("candy@B10 ruby@B11:w5", "dragon_priest@C10")
    st, _ = do(st, "activate hero:candy")
    dice.push("B0")  # the Healer roll
    _, text = do(st, "act action:heal target:ruby")
    assert text.splitlines()[-1] == "Candy heals Ruby: 1 wound removed; Ruby gets back up."
    dice.push("B2 Bh", "B0 R1")  # Candy's STR 2B (a heart) against the priest's ARM 1B1R
    st, _ = do(st, "attack target:C10 with:melee")
    _, text = do(st, "heart use:heal hero:ruby")
    assert text.splitlines()[0] == "A heart heals 1 wound on Ruby; Ruby gets back up."


def test_a_heart_with_nothing_to_spend_it_on_says_why_it_goes_unused(dice):
    st = scene("candy@B10", "dragon_priest@C10")
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 Bh", "B0 R1")
    st, _ = do(st, "attack target:C10 with:melee")
    assert legal(st) == ["heart use:none"]
    _, text = do(st, "heart use:none")
    assert ("Candy's heart goes unused: no hero is wounded or suffers a debuff, and Candy carries all the potions "
            "they can.") in text


def test_an_attack_out_of_range_is_refused_with_the_real_distance():
    st = scene("ruby@C10", "knucklehead@H10")
    st, _ = do(st, "activate hero:ruby")
    assert refusal(st, "attack target:H10 with:melee").reason == (
        "Knucklehead (H10) is 5 squares away by the shortest route; the range is 1.")


# ---- finding 8: a button for a unique action or a chest says its AP cost and, for a roll, the dice -----------
def test_unique_action_and_chest_buttons_show_the_ap_cost_and_the_dice_like_an_attack():
    st = scene("ruby@J10", "knucklehead@K10")  # K11 holds the first level's chest
    st, _ = do(st, "activate hero:ruby")
    labels = {a.text(): E.label(st, a) for a in E.legal_actions(st, "ann") if a.cmd != "move"}
    assert labels["attack target:K10 with:ranged"] == "Ranged Knucklehead (K10): 2B1R vs 1S"
    assert labels["act action:twin_strike target:K10"] == "Twin Strike Knucklehead (K10) (2 AP, 2B1R vs 1S)"
    assert labels["act action:picklock"] == "Pick the lock (1 AP, 2B1R vs 2B)"  # DEX against the lock
    assert labels["act action:smash"] == "Smash the chest (2 AP, 2B vs 1S)"  # STR against the chest


# ---- finding 1: a busy board keeps the tokens readable --------------------------------------------------
def _busy():
    """Ruby shoots across Candy at the Knucklehead (the line runs through Candy's square), then the monsters react."""
    st = scene("ruby@D5 candy@E5/bob", "knucklehead@G5 gouger@H7 dragon_priest@I5:w1")
    st, _ = do(st, "activate hero:ruby")
    return st


def test_a_tokens_name_is_drawn_above_the_marks_crossing_it(dice):
    import io

    from PIL import Image

    from render.dungeon import _grid_of, _xy, render
    from render.dungeon import recent as rr

    st = _busy()
    dice.push("B2 B2 R3", "B0")  # Ruby's DEX 2B1R: a hit; the Knucklehead's ARM 1 star; its loot roll
    st, _ = do(st, "attack target:G5 with:ranged")
    view = E.view(st, None)
    assert [m.kind for m in view.recent][-1] == "attack"  # the line D5 -> G5 crosses Candy's E5
    img = Image.open(io.BytesIO(render(view))).convert("RGB")
    g = _grid_of(view)
    x0, y0, _, _ = view.explored
    px, py = _xy(g, 4 - x0, 4 - y0)  # E5 on the cropped image: the map is pasted at the labels' frame
    shift = 28 - 22  # LABELS - MARGIN
    box = (px + shift + g.cell // 2 - 8, py + shift + g.cell // 2 - 9, px + shift + g.cell // 2 + 8,
           py + shift + g.cell // 2 + 5)
    colours = {c for _, c in img.crop(box).getcolors(4096)}
    marks = {rr.HERO_MARK, rr.MONSTER_MARK, (200, 0, 0)}  # and the shared recap's hit red
    assert not colours & marks, colours


def test_the_numbers_sit_on_square_corners_never_on_a_tokens_centre(dice, monkeypatch):
    from render.dungeon import _grid_of, recent, render

    st = _busy()
    dice.push("B2 B2 R3", "B0")
    st, _ = do(st, "attack target:G5 with:ranged")
    st, _ = do(st, "end")  # the monsters react: moves and attacks beside the tokens
    view = E.view(st, "bob")
    placed: list = []
    real = recent.draw_discs
    monkeypatch.setattr(recent, "draw_discs", lambda d, discs, size: (placed.extend(discs), real(d, discs, size)))
    render(view)
    c = _grid_of(view).cell
    assert len(placed) == len(view.recent) >= 3
    centres = [(22 + (m.x + 0.5) * c, 22 + (m.y + 0.5) * c) for m in [*view.monsters, *view.heroes]]
    for (x, y), tag, _ in placed:
        assert all(max(abs(x - cx), abs(y - cy)) >= c / 2 - 1 for cx, cy in centres), (tag, x, y)


def test_heroes_and_monsters_marks_have_their_own_colours_and_heals_are_marked(dice):
    from render.dungeon import recent

    st = scene("candy@B10 ruby@B11:w2", "gouger@E10")
    st, _ = do(st, "activate hero:candy")
    dice.push("B0")  # the Healer roll
    st, _ = do(st, "act action:heal target:ruby")
    heal = st.marks[-1]
    assert (heal.kind, heal.path, heal.text) == ("heal", ["B10", "B11"], "Candy heals Ruby (1 wound)")
    st, _ = do(st, "end")  # the Gouger walks up and attacks
    moves = [m for m in st.marks if m.kind == "move"]
    assert moves and all(m.by == "" for m in moves)
    hero_move = moves[0].model_copy(update={"by": "ann"})
    assert recent.colour_of(hero_move) == recent.HERO_MARK != recent.colour_of(moves[0]) == recent.MONSTER_MARK
    assert recent.colour_of(heal) == recent.HEAL
    assert all(m.turn == 1 for m in st.marks if m.kind in ("heal", "move"))  # the legend groups marks by turn


def test_the_legend_heads_each_game_turn_when_the_marks_span_two():
    from games.core.marks import Mark
    from render.common import Recorder
    from render.dungeon import PALETTE, recent

    marks = [Mark(kind="move", who="Gouger", path=["A1", "A2"], text="Gouger moves", turn=1),
             Mark(kind="move", by="ann", who="Ruby", path=["B1", "B2"], text="Ruby moves", turn=2)]
    pen = Recorder(PALETTE)
    recent.draw_legend(pen, 10, 0, 500, marks, 0, [], size=14, title="Since the last turn")
    texts = [op[1][1] for op in pen.ops if op[0] == "text"]
    assert texts.index("Turn 1") < texts.index("Gouger moves A1-A2") < texts.index("Turn 2") < \
        texts.index("Ruby moves B1-B2")


# ---- finding 4: an unopened spawn point near the heroes is drawn with its screen, and the refusal names it ----
def test_an_unopened_spawn_point_near_a_hero_is_shown_with_its_screen_and_named_in_the_refusal():
    from games.dungeon.board import board

    st = scene("ruby@O4")  # level 2's spawn point, not open yet, stands at U4
    assert board(st.dungeon).spawns[1] == (20, 3)
    st, _ = do(st, "activate hero:ruby")
    view = E.view(st, None)
    spawn = next(sp for sp in view.spawns if sp.level == 1)
    assert spawn.state == "inactive" and (17, 3) in spawn.screen and (16, 3) not in spawn.screen
    x0, y0, x1, y1 = view.explored
    assert x0 <= 17 and x1 >= 23 and y0 <= 0 and y1 >= 6  # the image takes the whole screen in
    assert refusal(st, "move to:R4").reason == (
        "R4 is inside the screen of the spawn point at U4, which has not opened yet: no hero may come within 3 "
        "squares of it in its sight until it opens.")
    far = scene("ruby@B10")
    assert all(not sp.screen for sp in E.view(far, None).spawns)  # one far from every hero is left out


# ---- finding 8 (moves): after a partial move its free rest first, then squares to attack from ----------------
def test_move_buttons_offer_the_rest_of_a_partial_move_first_closing_in_on_the_nearest_goal():
    from games.core.grid import parse_label
    from games.dungeon import hero_actions
    from games.dungeon.board import board
    from games.dungeon.sight import structures

    st = scene("ruby@B10", "gouger@T20")  # far from everything but the level's closed chest
    st, _ = do(st, "activate hero:ruby")
    st, _ = do(st, "move to:D10")
    left = st.activation.move_left
    assert left > 0
    moves = [a for a in E.button_actions(st, "ann", E.legal_actions(st, "ann")) if a.cmd == "move"]
    costs = hero_actions.move_costs(st, stats.hero(st, "ruby"))
    first = [parse_label(a.get("to")) for a in moves[:3]]
    assert all(costs[sq][0] <= left for sq in first)  # no AP spent: what is left of the move
    b = board(st.dungeon)
    dist = b.route_distances([(19, 19), b.chests[0]], structures(st))  # the Gouger and the closed chest
    free = [sq for sq, (cost, _) in costs.items() if cost <= left]
    assert dist[first[0]] == min(dist[sq] for sq in free)  # the one that closes in most first
    assert len(moves) == 6 and any(costs[parse_label(a.get("to"))][0] > left for a in moves[3:])


def test_move_buttons_into_attack_reach_are_squares_the_enemy_can_be_shot_from():
    from games.core.grid import parse_label
    from games.dungeon.sight import route, sees, target_fp

    st = scene("ruby@B10", "knucklehead@K10")  # out of Ruby's range 6 now; in range after a step or two
    st, _ = do(st, "activate hero:ruby")
    moves = [a for a in E.button_actions(st, "ann", E.legal_actions(st, "ann")) if a.cmd == "move"]
    assert moves
    ruby, fp = stats.hero(st, "ruby"), target_fp(st, "m" + str(st.monsters[0].uid))
    for a in moves:
        sq = parse_label(a.get("to"))
        assert 1 < route(st, (sq,), fp) <= 6 and sees(st, "heroes", (sq,), stats.hero_stats(ruby).attributes, fp,
                                                       set()), a.text()


def test_house_a_hero_where_the_next_levels_chest_appears_steps_aside_and_may_open_it():
    """A computer hero stood on W11 when level 2 opened and its chest appeared there: Pick Lock was offered
    (the hero was "within 1" of the chest) and crashed when played (the action wanted it next to the chest).
    The hero now steps to the nearest free square, next to the chest, and the lock can be picked."""
    from dhelpers import do, hero_at, scene, sq

    from games.dungeon.hero_actions import adjacent_chest
    from games.dungeon.levels import open_level

    st = scene("ruby@W11 candy@V11/bob")
    lines: list[str] = []
    open_level(st, 1, lines, breather=False)
    ruby = hero_at(st, "ruby")
    assert (ruby.x, ruby.y) != sq("W11") and any("Ruby steps aside from the new chest to" in ln for ln in lines)
    assert max(abs(ruby.x - 22), abs(ruby.y - 10)) == 1 and adjacent_chest(st, ruby) == 1
    assert (hero_at(st, "candy").x, hero_at(st, "candy").y) == sq("V11")  # nobody else moves
    st.level = 1
    active, _ = do(st, "activate hero:ruby", "ann")
    after, told = do(active, "act action:picklock", "ann")
    assert after.levels[1].chest != "closed" or "lock" in told.casefold(), told
