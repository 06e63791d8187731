"""The living board's tokens (rulebook: Token & Board Elements Reference — Cannon, Bomb, Rotate Board, Switch -
Rotate, Character Token, Secret Token; Bombs & Explosions; Beam Walls + Gadgets)."""
from __future__ import annotations

import random

from qhelpers import build, do, hero, illegal, legal, seed_rolling

from games.core import Event, Seat
from games.core.ai import Budget, make_player
from games.core.grid import label
from games.core.playout import random_playout
from games.quodd import ENGINE as E
from games.quodd.beams import light
from games.quodd.board import in_range, xy
from games.quodd.bombs import fire
from games.quodd.goals import check_win
from games.quodd.modes import side_of
from games.quodd.modes.buddies import buddy_key, carry_cap, controller, heroes_of
from games.quodd.rotation import rotate_board
from games.quodd.state import BeamPiece, Platform, QState, Token

OPEN = ["........."] * 9


def ready(rows: list[str] = OPEN, *, pos: str = "A3", points: int = 1, **kw) -> QState:  # noqa: ANN003
    heroes = kw.pop("heroes", None) or [dict(pos=pos, movement=points)]
    return build(rows, heroes=heroes, tumbled=True, ready="slide", points=points, **kw)


def whole_board(st: QState) -> QState:
    st.board_of = {label(x, y): "b1" for x in range(9) for y in range(9)}
    return st


def test_cannon_landed_on_rolls_the_bomb_die_and_fires_that_bomb_out_of_its_opening():
    """Cannon: landing on it rolls a bomb die and fires that bomb away from the cannon, the way its opening points."""
    st = ready(tokens={"B7": "wall"}, seed=seed_rolling(1))  # 1 on the bomb die: a standard bomb, speed 4
    st.tokens["B3"] = Token(kind="cannon", dir="S")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B3"
    assert "Ann sets off the cannon at B3, pointing S." in ev
    assert "A standard bomb is fired S from B3." in ev
    assert st.tokens["B7"].kind == "broken_wall"  # B4, B5, B6, then the wall: it explodes there
    assert st.tokens["B3"].kind == "cannon" and st.bombs == []
    assert E.load(E.dump(st)).tokens["B3"].dir == "S" and '"dir"' not in E.dump(st).replace('"dir":"S"', "")


def test_cannon_placed_is_pointed_any_way_by_its_placer_and_fires_at_once():
    """Cannon Token (placed): whoever places it points it any way (a button a direction), then at once the bomb die
    is rolled and that bomb rolls out of it (the Cannon Rune of deck edition 3)."""
    st = build(OPEN, tokens={"F3": "wall"}, heroes=[dict(pos="A3"), dict(pos="I9")], phase="power",
               seed=seed_rolling(1))  # 1 on the bomb die: a standard bomb, speed 4
    hero(st, "ann").hand = ["cannon-rune"]
    assert "play at:B3 card:cannon-rune" in legal(st, "ann", "play")
    st, ev = do(st, "ann", "play card:cannon-rune at:B3")
    assert "Ann places a cannon on B3." in ev and st.pending.kind == "cannon_dir" and st.pending.player == "ann"
    acts = E.legal_actions(st, "ann")
    assert [E.label(st, a) for a in E.button_actions(st, "ann", acts)] == ["Point N ↑", "Point E →", "Point S ↓",
                                                                           "Point W ←"]
    st, ev = do(st, "ann", "choose option:E")
    assert "Ann points the cannon on B3 E; it fires at once." in ev and "A standard bomb is fired E from B3." in ev
    assert st.tokens["F3"].kind == "broken_wall"  # C3, D3, E3, then the wall: it explodes there
    assert st.tokens["B3"] == Token(kind="cannon", dir="E") and st.pending is None
    assert st.phase == "move"  # nothing else to do in phase 1: it passes by itself
    assert "cannon-rune" in st.discard


def test_the_cannon_rune_comes_with_deck_edition_three_only():
    seats = [Seat(player="a", name="A"), Seat(player="b", name="B")]
    second, third = E.setup({"deck": "2"}, seats, 5), E.setup({"deck": "3"}, seats, 5)
    assert "cannon-rune" not in second.deck + second.lineup and "cannon-rune" in third.deck + third.lineup
    assert len(third.deck + third.lineup) == len(second.deck + second.lineup) + 1


def test_a_cannon_fire_bomb_that_hits_nothing_lies_and_rolls_on_at_upkeep():
    """How Bombs Work: a bomb moves when created and again at each upkeep, its speed (fire: 3)."""
    st = ready(seed=seed_rolling(4))  # 4: a fire bomb
    st.tokens["B3"] = Token(kind="cannon", dir="E")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert [(b.at, b.dir, b.kind) for b in st.bombs] == [("E3", "E", "fire")]


def test_a_cannon_opening_turns_with_its_board_and_its_platform():
    """Rotate Board: everything on the board turns, so a cannon's opening points the new way."""
    st = whole_board(build(OPEN, heroes=[dict(pos="E5")]))
    st.tokens["A1"] = Token(kind="cannon", dir="E")
    rotate_board(st, "E5", True, [])
    assert st.tokens["I1"].dir == "S"
    rows = ["........."] * 3 + [".OO......", "..O......"] + ["........."] * 4
    st = build(rows, heroes=[dict(pos="A1")])
    st.platforms = [Platform(cells=["C4", "C5"], kind="slide", dir="S")]
    st.tokens["C5"] = Token(kind="cannon", dir="S")
    from games.quodd.platforms import turned_about
    assert turned_about(st, st.platforms[0], "C4", True, [])
    assert st.tokens["B4"].dir == "W" and st.platforms[0].dir == "W"  # the arrow token turns with it


def test_each_boards_rotation_state_is_kept_in_quarter_turns_since_setup():
    """Board rotation drawn: the state keeps how far each board has turned (none after a full turn back)."""
    st = whole_board(build(OPEN, heroes=[dict(pos="E5")]))
    rotate_board(st, "E5", True, [])
    rotate_board(st, "E5", True, [])
    assert st.turned == {"b1": 2}
    rotate_board(st, "E5", False, [])
    rotate_board(st, "E5", False, [])
    assert st.turned == {}
    assert "turned" not in E.dump(st)  # older games save byte-identical


def test_bomb_token_revealed_explodes_at_once_around_the_hero_who_stays():
    """Bomb: when revealed, an explosion at once (centred on the hero who set it off; others jump away)."""
    st = ready(tokens={"B4": "wall", "B3": "bomb"}, heroes=[dict(pos="A3", movement=1), dict(pos="C2")])
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert "Ann reveals a bomb token at B3: it explodes!" in ev
    assert hero(st, "ann").pos == "B3" and "B3" not in st.tokens
    assert st.tokens["B4"].kind == "broken_wall"
    if st.pending is not None:  # Bob's landing two spaces north-east is decided by the active player
        st, ev = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    assert hero(st, "bob").pos != "C2"


def test_a_secret_token_hiding_a_bomb_explodes_when_revealed():
    """Secret Token: a revealed board token is placed under the hero and acts at once (a bomb explodes)."""
    st = ready(tokens={"B3": "secret:bomb", "C3": "spring"})
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert any("reveals a secret token at B3: Bomb token" in e for e in ev)
    assert any("reveals a bomb token at B3" in e for e in ev)
    assert "B3" not in st.tokens and "C3" not in st.tokens  # the spring beside it is blown away


def test_rotate_board_token_revealed_turns_your_board_either_way_and_is_removed():
    """Rotate Board token: when revealed, turn the board you are on 90 degrees either way; remove the token."""
    st = whole_board(ready(tokens={"B3": "rotate_board", "A9": "spring"}))
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.pending is not None and st.pending.options == ["clockwise", "counter-clockwise"]
    assert "Turn ↻" in [E.label(st, a) for a in E.legal_actions(st, "ann")]
    st, ev = do(st, "ann", "choose option:clockwise")
    assert hero(st, "ann").pos == "G2" and st.tokens["A1"].kind == "spring"  # B3 -> G2, A9 -> A1
    assert all(t.kind != "rotate_board" for t in st.tokens.values()) and st.turned == {"b1": 1}


def test_rotate_board_token_on_a_start_zone_only_goes():
    st = ready(tokens={"B3": "rotate_board"})  # no square board under it
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.pending is None and "B3" not in st.tokens
    assert "B3 is on a start zone, not a square board: nothing turns." in ev


def test_rotate_switch_landed_on_turns_the_platform_it_lies_on_your_way():
    """Switch - Rotate: landing on it turns the board element it lies on 90 degrees, your choice of way."""
    rows = ["........."] * 3 + [".OO......", "..O......"] + ["........."] * 4
    st = ready(rows, pos="C3", heroes=[dict(pos="C3", movement=1, front="S")])
    st.platforms = [Platform(cells=["C4", "C5"], kind="slide", dir="S")]
    st.tokens["C4"] = Token(kind="switch_rotate")
    st, _ = do(st, "ann", "move direction:S distance:1")
    assert st.pending is not None and st.pending.kind == "rotate_way"
    st, ev = do(st, "ann", "choose option:clockwise")
    assert sorted(st.platforms[0].cells) == ["B4", "C4"] and st.platforms[0].dir == "W"
    assert st.tokens["C4"].kind == "switch_rotate" and hero(st, "ann").pos == "C4"


def test_rotate_switch_on_ground_turns_its_board_and_stays():
    """Switch - Rotate on a board: the whole board turns; the switch is a scenario token and stays."""
    st = whole_board(ready(pos="D5", heroes=[dict(pos="D5", movement=1)]))
    st.tokens["E5"] = Token(kind="switch_rotate")
    st, _ = do(st, "ann", "move direction:E distance:1")
    st, ev = do(st, "ann", "choose option:counter-clockwise")
    assert st.tokens["E5"].kind == "switch_rotate" and st.turned == {"b1": 3}


def test_a_rotate_switch_is_only_landed_on_not_passed():
    """House: the rotate switch says "landed on" where the plain switch says "moving over and landing on"."""
    st = whole_board(ready(points=3))
    st.tokens["B3"] = Token(kind="switch_rotate")
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "D3" and st.turned == {}


def test_character_token_collected_brings_its_hero_as_a_buddy_next_to_it():
    """Character Token: when collected, the matching hero joins next to where it lay, as your buddy (you choose the
    square among the free ones beside it); the buddy follows the buddy rules: no hand, carries 2, its own turns."""
    st = ready()
    st.tokens["B3"] = Token(kind="character", hero="forest")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert "B3" not in st.tokens and "character:forest" in hero(st, "ann").revealed
    assert any(e.startswith("Ann collects the character token of Forest at B3: Forest joins as a buddy") for e in ev)
    d = st.pending
    assert d is not None and d.kind == "buddy_spot" and d.player == "ann"
    assert sorted(d.options) == ["A2", "A3", "A4", "B2", "B4", "C2", "C3", "C4"]
    illegal(st, "ann", "choose option:B3")  # the token's own square (Ann stands there) is no choice
    st, ev = do(st, "ann", "choose option:C4")
    b = next(x for x in st.heroes if x.hero == "forest")
    assert b.pos == "C4" and b.controller == "ann" and b.player == buddy_key("ann", "forest")
    assert b.hand == [] and b.items == [] and b.pets == [] and carry_cap(st, b) == 2
    assert b.seat == len(st.heroes) - 1 and heroes_of(st, "ann")[-1] is b  # its turns come after those playing
    assert any("joins at C4 as Ann's buddy" in e for e in ev)


def test_character_token_with_one_free_square_beside_it_places_the_buddy_there_unasked():
    """Character Token: the hero joins adjacent to the token; with a single free square there is nothing to choose."""
    walls = {q: "wall" for q in ("A2", "B2", "C2", "C3", "A4", "B4", "C4")}
    st = ready(tokens=walls)
    st.tokens["B3"] = Token(kind="character", hero="forest")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.pending is None or st.pending.kind != "buddy_spot"
    b = next(x for x in st.heroes if x.hero == "forest")
    assert b.pos == "A3" and b.controller == "ann"


def test_character_token_of_a_hero_already_playing_brings_nobody():
    """House (Character Token): a hero already on the board cannot join a second time; the token still goes."""
    st = ready()
    taken = hero(st, "ann").hero
    st.tokens["B3"] = Token(kind="character", hero=taken)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert "B3" not in st.tokens and len(st.heroes) == 1 and st.pending is None
    assert any("already on the board, so nobody joins" in e for e in ev)


def test_character_token_in_an_overlord_game_the_buddy_plays_for_the_side_of_whoever_collected_it():
    """Character Token: "you now control this buddy": collected by the overlord, the buddy is on the overlord's
    side (its banked crystals count for the overlord's objective), collected by a hero, on the heroes' side."""
    for collector in ("ann", "bob"):
        heroes = [dict(pos="A3", movement=1), dict(pos="G7", movement=1)]
        st = ready(heroes=heroes, play="overlord", mode="heist", target=3)
        hero(st, "ann").overlord = True
        st.overlord_target = 2
        if collector == "bob":
            st.turn = 1
            hero(st, "bob").pos, hero(st, "ann").pos = "A3", "G7"
        st.tokens["B3"] = Token(kind="character", hero="forest")
        st, _ = do(st, collector, "move direction:E distance:1")
        st, _ = do(st, collector, "choose option:C4")
        b = next(x for x in st.heroes if x.hero == "forest")
        lord_side = collector == "ann"
        assert side_of(st, b) == ("overlord" if lord_side else "heroes") == side_of(st, hero(st, collector))
        if lord_side:  # the overlord and its buddy bank for the overlord between them
            hero(st, "ann").banked, b.banked = ["red-crystal"], ["blue-crystal"]
            check_win(st, [])
            assert st.phase == "over"


def test_beams_block_card_and_q_power_range_which_counts_around_them():
    """Beam Walls + Gadgets (Aang's Earth Rune example): a beam blocks range; count range around the beam."""
    st = build(OPEN, heroes=[dict(pos="E4")])
    st.beams = [BeamPiece(at="B5", kind="emitter", dir="E")]  # C5..I5 lit; around it by A5/B5
    light(st, [])
    reach = in_range(st, xy("E4"), 7)
    assert xy("E6") not in reach  # straight it is 2; around the beam by B5: 3 + 1 + 1 + 3 = 8
    assert reach[xy("B6")] == 5 and reach[xy("E5")] == 1  # the beam's own square is reached, never crossed
    st.beams = []
    light(st, [])
    assert in_range(st, xy("E4"), 7)[xy("E6")] == 2


def test_a_q_power_is_refused_across_a_beam_and_says_range_counts_around_it():
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E"), dict(pos="H8")])
    st.beams = [BeamPiece(at="A4", kind="emitter", dir="E")]  # B4..I4 lit: around it only through A3/A4/A5
    light(st, [])
    st, _ = do(st, "ann", "tumble direction:N")
    assert st.m.ready == "q"
    targets = {a.split()[1] for a in legal(st, "ann", "qpower")}
    assert "at:B7" not in targets and "at:A7" in targets  # B1 -> B7 is 6 straight, 8 around the beam (by A4)
    assert "around the beams" in illegal(st, "ann", "qpower at:B7 token:wall").reason


def test_a_beam_is_traced_again_mid_round_when_a_wall_is_placed_in_it():
    """Beams re-trace when something changes: a wall placed in the beam cuts it there, at once."""
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E"), dict(pos="H8")])
    st.beams = [BeamPiece(at="I6", kind="emitter", dir="W")]
    light(st, [])
    assert "B6" in st.lit
    st, _ = do(st, "ann", "tumble direction:N")
    assert "in a beam" in illegal(st, "ann", "qpower at:D6 token:tunnel").reason
    st, _ = do(st, "ann", "qpower at:D6 token:wall")
    assert sorted(st.lit) == ["E6", "F6", "G6", "H6"]


def test_a_crystal_dropped_on_a_power_block_switches_its_emitter_on_at_once():
    """Beam Power Block: with a crystal on it its emitters are on — traced again the moment the crystal lands
    (not only at the upkeep); what the new beam crosses burns."""
    st = build(OPEN, heroes=[dict(pos="A3", carrying=["plain-crystal"])], tokens={"D4": "spring"}, phase="power")
    st.beams = [BeamPiece(at="B3", kind="power", group="p", on=False),
                BeamPiece(at="D8", kind="emitter", dir="N", group="p", on=False)]
    light(st, [])
    assert st.lit == []
    st, ev = do(st, "ann", "drop item:plain-crystal at:B3")
    assert st.beams[1].on and "D1" in st.lit and "B3" in st.lit
    assert "D4" not in st.tokens  # the spring the new beam crosses is destroyed


def test_a_rotator_newly_hit_turns_its_platform_at_once():
    """Beam Rotator: turns its platform as soon as the beam hits it (then again at each upkeep)."""
    rows = ["........."] * 3 + ["OOOOOOOOO"] * 3 + ["........."] * 3
    st = build(rows, heroes=[dict(pos="B2", head="S", front="E"), dict(pos="H8")])
    st.platforms = [Platform(cells=["D5", "E5"], kind="slide", dir="N")]
    st.beams = [BeamPiece(at="A2", kind="emitter", dir="E"), BeamPiece(at="D5", kind="rotator", dir="cw"),
                BeamPiece(at="D2", kind="reflector", dir="SW", on=False)]
    light(st, [])
    assert st.spun == []
    st.beams[2].on = True  # the reflector switched on mid-round: the beam now turns down onto the rotator
    ev: list[Event] = []
    from games.quodd.movement import run
    run(st, ev)
    assert "The beam newly hits the rotator at D5." in [e.text for e in ev]
    assert sorted(st.platforms[0].cells) == ["D5", "D6"] and st.spun == ["D5"]
    run(st, ev)
    assert sorted(st.platforms[0].cells) == ["D5", "D6"]  # not again until the upkeep


def test_a_bomb_rolling_into_a_beam_explodes_against_it():
    """House: a beam is an impassable wall, so a bomb rolling into it explodes there as on a wall."""
    st = build(OPEN, tokens={"D5": "wall", "D7": "spring"}, heroes=[dict(pos="A1")])
    st.beams = [BeamPiece(at="I6", kind="emitter", dir="W")]
    light(st, [])
    ev: list[Event] = []
    fire(st, "D9", "N", "standard", ev)
    assert "The standard bomb rolls into the beam at D6." in [e.text for e in ev]
    assert st.tokens["D5"].kind == "broken_wall" and "D7" not in st.tokens and st.bombs == []


def test_crystal_bomb_jump_shockwave_and_push_bomb_throw_sheep_like_every_basic_explosion():
    """Basic Explosions: what is in the radius jumps over 1 space directly away — sheep too (Crystal Bomb, Jump
    Shockwave and Push Bomb are basic explosions)."""
    from qhelpers import grant

    from games.quodd.state import Sheep
    st = build(OPEN, heroes=[dict(pos="C3", carrying=["red-crystal"]), dict(pos="H8")], phase="power")
    st.sheep = [Sheep(at="D3", colour="grey", facing="N")]
    grant(st, "ann", "crystal-bomb")
    st, _ = do(st, "ann", "ability name:crystal-bomb item:red-crystal")
    assert st.sheep[0].at == "F3"
    st = ready(["........", "........"], pos="A1", heroes=[dict(pos="A1", movement=1)])
    st.m.ready = "jump"
    st.sheep = [Sheep(at="D1", colour="white", facing="N")]
    grant(st, "ann", "jump-shockwave")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "C1" and st.sheep[0].at == "F1"
    st = ready(["........", "........"], pos="A1", heroes=[dict(pos="A1", movement=1), dict(pos="B1")])
    st.sheep = [Sheep(at="C2", colour="grey", facing="N")]
    grant(st, "ann", "push-bomb")
    st, _ = do(st, "ann", "move direction:E distance:1")
    st, _ = do(st, "ann", "choose option:explode")
    assert hero(st, "bob").pos == "E1" and st.sheep == []  # C2 is thrown south-east off the two-row map: lost


def _foundry_to_the_buddy_spot() -> tuple[list[Seat], QState, list]:
    """A random foundry game for two (seed 9) played up to the question where the character token's hero joins."""
    table = [Seat(player=f"p{i}", name=f"P{i}") for i in range(2)]

    def choose(pick, st, p, acts):  # noqa: ANN001, ANN202 - as the random games of test_quodd_game.py
        moves = [a for a in acts if a.cmd != "rearrange"] or acts
        return pick.choice(moves if pick.random() < 0.95 else acts)

    log = random_playout(E, {"scenario": "foundry"}, table, 9, cap=4000, choose=choose).log
    st = E.setup({"scenario": "foundry"}, table, 9)
    for k, (who, act) in enumerate(log):
        if st.pending is not None and st.pending.kind == "buddy_spot":
            return table, st, log[:k]
        st, _ = E.apply(st, who, act)
    raise AssertionError("seed 9 of foundry for two collects the character token")


def test_foundry_character_token_brings_forest_and_the_computer_player_places_and_plays_the_buddy():
    """Character Token in the foundry scenario (Forest's token at M2): the collector's player chooses where Forest
    joins; the computer player answers that question, then runs the buddy in its turns to the game's end."""
    table, st, _ = _foundry_to_the_buddy_spot()
    assert "M2" not in st.tokens
    d = st.pending
    assert d is not None and all(xy(o) != xy("M2") for o in d.options)
    player = make_player("normal")
    forest_turns = 0
    for k in range(4000):
        status = E.status(st)
        if status.finished:
            break
        forest_turns += st.heroes[st.turn].hero == "forest" and st.phase == "move"
        who = status.to_act[0]
        st, _ = E.apply(st, who, player.decide(E, st, who, random.Random(k), Budget(steps=40, playouts=1, depth=3,
                                                                                        width=3)))
    assert E.status(st).finished and forest_turns > 0  # Forest took turns of its own
    forest = next(h for h in st.heroes if h.hero == "forest")
    assert forest.controller in {s.player for s in table} and forest.hand == []
    assert any(controller(h) == forest.controller and "character:forest" in h.revealed for h in st.heroes)


def test_cannon_placed_random_play_with_deck_edition_three_ends_and_replays():
    """The Cannon Rune in play (deck:3, flock and foundry): random legal games reach the end with the rune played
    (its direction question answered), and each replays from its log."""
    from games.core.play import replay
    table = [Seat(player="a", name="A"), Seat(player="b", name="B")]
    placed = 0

    def choose(pick: random.Random, state: QState, player: str, acts: list) -> object:  # noqa: ARG001
        cannon = [a for a in acts if a.get("card") == "cannon-rune"]
        moves = [a for a in acts if a.cmd != "rearrange"] or acts
        return pick.choice(cannon or moves)

    for scenario, seed in (("flock", 1), ("foundry", 2)):
        options = {"scenario": scenario, "deck": "3"}
        out = random_playout(E, options, table, seed, cap=4000, choose=choose)
        assert E.status(out.state).finished
        assert E.dump(replay(E, options, table, seed, out.log)) == E.dump(out.state)
        placed += sum(1 for _, a in out.log if a.cmd == "play" and a.get("card") == "cannon-rune")
    assert placed, "the Cannon Rune was drawn and played in one of the games at least"
