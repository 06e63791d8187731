"""Unique Q-powers, instead of rearranging (rulebook: Q-Powers, default range 7; Upgrades and Q-Powers list)."""
from __future__ import annotations

from qhelpers import build, do, grant, hero, illegal, legal, seed_rolling

from games.core import Action, Event
from games.core.grid import label
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.bombs import roll, upkeep_bombs
from games.quodd.qpowers import BUILT
from games.quodd.state import Bomb
from games.quodd.turns import start_turn

OPEN = ["........."] * 9


def q_up(hero_id: str = "rok", *, others: list[dict] | None = None, seed: int = 1,  # noqa: ANN201
         rows: list[str] | None = None, tokens: dict[str, str] | None = None):
    st = build(rows or OPEN, heroes=[dict(pos="B2", head="S", front="E"), *(others or [dict(pos="H8")])], seed=seed,
               tokens=tokens)  # tumbling N brings the Q up
    st.heroes[0].hero = hero_id
    st, _ = do(st, "ann", "tumble direction:N")
    assert st.m.ready == "q"
    return st


def test_rok_places_a_wall_broken_wall_or_tunnel_within_range_7_instead_of_rearranging():
    st = q_up("rok")
    acts = [a for a in E.legal_actions(st, "ann") if a.cmd == "qpower"]
    assert {a.get("token") for a in acts} == {"wall", "broken_wall", "tunnel"}
    assert Action.of("qpower", at="H1", token="wall") in acts  # B1 -> H1: 6 away
    assert not [a for a in acts if a.get("at") == "I8"]  # B1 -> I8: 7 + 7 away
    assert not [a for a in acts if a.get("at") in ("B1", "H8")]  # never under a hero
    assert "beyond range 7" in illegal(st, "ann", "qpower at:I8 token:wall").reason
    st, ev = do(st, "ann", "qpower at:D1 token:tunnel")
    assert st.tokens["D1"].kind == "tunnel" and st.m.power_used
    assert not legal(st, "ann", "qpower") and legal(st, "ann", "rearrange")  # each Q-power once; any or all of them
    st, _ = do(st, "ann", "rearrange front:dash right:slide")
    assert st.m.ready == "" and not legal(st, "ann", "rearrange") and not legal(st, "ann", "qpower")


def test_forest_places_a_teleporter_within_range_7():
    st = q_up("forest")
    acts = [a for a in E.legal_actions(st, "ann") if a.cmd == "qpower"]
    assert {a.get("token") for a in acts} == {"teleporter"}
    st, _ = do(st, "ann", "qpower at:C3 token:teleporter")
    assert st.tokens["C3"].kind == "teleporter"
    assert E.label(st, Action.of("qpower", at="C3", token="teleporter")) == "Q-power: Teleporter on C3"


def test_underdog_lets_a_q_power_place_its_token_under_your_own_hero_and_it_acts_at_once(monkeypatch):  # noqa: ANN001
    # Underdog sits on Bramble's track and Bramble's own Q-power fires bombs: the test gives Bramble Forest's power
    heroes = {**data.heroes()}
    heroes["bramble"] = heroes["bramble"].model_copy(update={"q_power": "place_teleporter"})
    monkeypatch.setattr(data, "heroes", lambda: heroes)
    st = q_up("bramble")
    assert "qpower at:B1 token:teleporter" not in legal(st, "ann", "qpower")
    assert "under a hero" in illegal(st, "ann", "qpower at:B1 token:teleporter").reason
    grant(st, "ann", "underdog")
    assert "qpower at:B1 token:teleporter" in legal(st, "ann", "qpower")
    assert "qpower at:H8 token:teleporter" not in legal(st, "ann", "qpower")  # never under another hero
    st, ev = do(st, "ann", "qpower at:B1 token:teleporter")
    assert "The token goes under Ann and acts at once (Underdog)." in ev
    assert any(e.startswith("Ann rolls") and "for the teleporter at B1" in e for e in ev)  # the teleporter acted


def test_a_q_power_needs_the_q_on_top():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="H8")], tumbled=True, ready="slide", points=1)
    assert hero(st, "ann").hero == "rok"
    assert not legal(st, "ann", "qpower")
    assert "Q on top" in illegal(st, "ann", "qpower at:C3 token:wall").reason


# ---- the roster: every hero a unique power of the rulebook's list, every one built -----------------------------

RULEBOOK_POWERS = {"bomb", "copy_q", "earthquake", "flip_upgrade", "place_teleporter", "place_wall", "rotate_board",
                   "upgrade"}  # place_wall: the rulebook's Rok example (a wall, broken wall or tunnel: Place Tunnel)


def test_every_hero_has_a_unique_q_power_from_the_rulebook_list_and_each_is_built():
    powers = [h.q_power for h in data.heroes().values()]
    assert len(powers) >= 6 and len(set(powers)) == len(powers)
    assert set(powers) == RULEBOOK_POWERS  # every power of the list is on a hero
    assert set(powers) <= set(BUILT)
    for h in data.heroes().values():  # each is offered with the Q on top, beside rearranging
        st = q_up(h.id)  # Bob plays Trixie: Nyx may copy her
        st.heroes[0].upgrades = ["1a"]  # a tile on the track for Flip Upgrade to turn
        st.board_of = {label(x, y): "b1" for x in range(9) for y in range(9)}
        assert legal(st, "ann", "qpower") and legal(st, "ann", "rearrange"), h.id


def test_trixie_rotates_the_board_she_stands_on_with_everything_on_it():
    rows = [">........"] + ["........."] * 8
    st = q_up("trixie", rows=rows, tokens={"C1": "wall", "I9": "spring"}, others=[dict(pos="A9", front="N")])
    st.board_of = {label(x, y): "b1" for x in range(9) for y in range(9)}
    st.ground = {"E5": ["red-crystal"]}
    assert legal(st, "ann", "qpower") == ["qpower way:cw", "qpower way:ccw"]
    ann_head = hero(st, "ann").head
    st, ev = do(st, "ann", "qpower way:cw")
    assert "Board b1 turns a quarter clockwise, with everything on it." in ev
    assert st.rows[0][8] == "v"  # A1's current pointed E; after a clockwise turn it is at I1 pointing S
    assert st.tokens["I3"].kind == "wall" and st.tokens["A9"].kind == "spring"  # C1 -> I3, I9 -> A9
    assert st.ground == {"E5": ["red-crystal"]}  # the centre stays
    assert hero(st, "ann").pos == "I2" and hero(st, "ann").head == ann_head  # B1 -> I2, the Q still on top
    assert hero(st, "bob").pos == "A1" and hero(st, "bob").front == "E"  # A9 -> A1, facing N -> E
    assert st.m.power_used and not legal(st, "ann", "qpower")


def test_rotating_a_face_down_secret_token_keeps_it_secret_and_reveals_nothing():
    """Found by the fuzzer (Quodd seed 5013): a turned board moves a secret token face down. Where it lies is public,
    what it is stays hidden, so the hidden digest (what undo guards) must not change: only a reveal changes it."""
    st = q_up("trixie", tokens={"C1": "wall"}, others=[dict(pos="A9", front="N")])
    st.board_of = {label(x, y): "b1" for x in range(9) for y in range(9)}
    st.tokens["C1"] = st.tokens["C1"].model_copy(update={"hidden": "spring", "kind": "secret"})
    before = E.hidden_digest(st)
    st, _ = do(st, "ann", "qpower way:cw")
    assert st.tokens["I3"].hidden == "spring" and "C1" not in st.tokens  # moved, still face down
    assert E.hidden_digest(st) == before
    st.tokens["I3"] = st.tokens["I3"].model_copy(update={"hidden": ""})  # a reveal
    assert E.hidden_digest(st) != before


def test_only_a_square_board_turns():
    st = q_up("trixie")
    st.board_of = {label(x, y): "zone" for x in range(9) for y in range(2)}  # a 2x9 start zone
    assert not legal(st, "ann", "qpower")
    assert "square board" in illegal(st, "ann", "qpower way:cw").reason


def test_aang_earthquake_rolls_the_direction_die_and_tumbles_every_hero_without_skills():
    seed = seed_rolling(3, sides=8)  # E
    st = q_up("aang", seed=seed, others=[dict(pos="E5", head="U", front="N"), dict(pos="C1")])
    st, ev = do(st, "ann", "qpower")
    assert any("the direction die shows E" in e for e in ev)
    # the one furthest east tumbles first, so nobody pushes anybody: every hero one space east
    assert [hero(st, p).pos for p in ("ann", "bob", "cat")] == ["C1", "F5", "D1"]
    assert hero(st, "bob").head == "E"  # a tumble east turns the head east
    assert st.m.ready == "q" and not legal(st, "ann", "move")  # no skill activates; rearranging is still hers


def test_earthquake_diagonal_tumbles_north_or_south_first_and_skips_a_blocked_part():
    seed = seed_rolling(8, sides=8)  # NW: north, then west (FAQ)
    st = q_up("aang", seed=seed, others=[dict(pos="E5")], tokens={"D4": "wall"})
    st, ev = do(st, "ann", "qpower")
    assert any("tumbles N then W" in e for e in ev)
    assert hero(st, "bob").pos == "E4"  # north to E4, then west into the wall on D4: not made
    assert hero(st, "ann").pos is None and any("Ann falls into the void" in e for e in ev)  # B1 north: off the map


def test_bramble_fires_a_bomb_that_explodes_on_the_wall_it_hits():
    st = q_up("bramble", others=[dict(pos="E2")], tokens={"E1": "wall", "F1": "wall"})
    assert {a for a in legal(st, "ann", "qpower")} == {f"qpower direction:{d}" for d in "NESW"}
    st, ev = do(st, "ann", "qpower direction:E")  # from B1 east: C1, D1, then the wall on E1
    assert any("bomb hits the wall at E1" in e for e in ev)
    assert st.tokens["E1"].kind == "broken_wall" and st.tokens["F1"].kind == "broken_wall"
    assert hero(st, "bob").pos == "E4"  # beside the explosion (south of it): jumps over 1, away from it


def test_a_bomb_hitting_a_hero_throws_it_two_spaces_then_explodes_where_it_stood():
    st = q_up("bramble", others=[dict(pos="D1")], tokens={"D2": "wall"})
    st, ev = do(st, "ann", "qpower direction:E")
    assert any("bomb hits Bob at D1" in e for e in ev)
    assert hero(st, "bob").pos == "F1"  # jump of 1 (two spaces) directly away
    assert st.tokens["D2"].kind == "broken_wall"  # the explosion centred on D1


def test_a_bomb_that_hits_nothing_waits_and_rolls_on_at_the_end_of_the_round():
    st = q_up("bramble", others=[dict(pos="H8")])
    st, _ = do(st, "ann", "qpower direction:S")  # B1 south 3 or 4: nothing in the way
    assert len(st.bombs) == 1 and st.bombs[0].dir == "S" and st.bombs[0].at in ("B4", "B5")
    ev: list[Event] = []
    upkeep_bombs(st, ev)  # end of round step 1: it rolls on its speed again
    assert st.bombs[0].at in ("B7", "B9")
    upkeep_bombs(st, ev)
    upkeep_bombs(st, ev)
    assert not st.bombs and any("rolls off the map" in e.text for e in ev)


def test_fire_bomb_burns_a_random_card_and_ice_bomb_freezes_the_faces_towards_it():
    st = build(OPEN, heroes=[dict(pos="A5"), dict(pos="E5", front="W"), dict(pos="E4")])
    hero(st, "bob").hand = ["apple"] if "apple" in data.cards() else [next(iter(data.cards()))]
    ev: list[Event] = []
    roll(st, Bomb(at="A5", dir="E", kind="fire"), ev)  # B5, C5, D5 and hits Bob... only 3 spaces: stops at D5
    assert st.bombs and st.bombs[0].at == "D5"
    st.bombs.clear()
    roll(st, Bomb(at="B5", dir="E", kind="fire"), ev)  # C5, D5, hits Bob at E5
    assert not hero(st, "bob").hand and st.discard  # burnt: a random card discarded
    burnt = data.cards()[st.discard[-1]].name  # face up on the discard pile: the line names it for everyone
    assert any(e.text.endswith(f"a random card: {burnt} (face up on the discard pile).") and e.to is None for e in ev)
    st = build(OPEN, heroes=[dict(pos="A5"), dict(pos="E5", front="W"), dict(pos="E4", front="E")])
    roll(st, Bomb(at="B5", dir="E", kind="ice"), ev)
    bob, cat = hero(st, "bob"), hero(st, "cat")
    assert bob.iced == [bob.skills["front"]]  # Bob faced west, where the bomb came from
    assert cat.iced == [cat.skills["right"]]  # Cat on E4 faces the centre E5 (south) with her right face


def test_a_frozen_skill_does_not_activate_until_the_heros_next_turn():
    st = build(OPEN, heroes=[dict(pos="E5", head="U", front="E"), dict(pos="H8")])
    hero(st, "ann").iced = ["jump"]  # tumbling E brings the back face (jump) up
    st, ev = do(st, "ann", "tumble direction:E")
    assert st.m.ready == "" and "Ann has Jump on top, frozen by an ice bomb." in ev
    start_turn(st, 0, [])
    assert hero(st, "ann").iced == []


def test_nyx_copies_another_heros_q_power_at_the_table():
    st = q_up("nyx", others=[dict(pos="H8")])
    hero(st, "bob").hero = "rok"
    acts = legal(st, "ann", "qpower")
    assert "qpower at:D1 copy:rok token:tunnel" in acts
    assert not [a for a in acts if "copy:nyx" in a]
    assert "copy:` one of `rok`" in illegal(st, "ann", "qpower copy:forest at:D1 token:teleporter").reason
    st, ev = do(st, "ann", "qpower copy:Rok at:D1 token:tunnel")
    assert st.tokens["D1"].kind == "tunnel" and any("copying Rok Gemstalker" in e for e in ev)


def test_rules_answer_for_every_q_power_and_hero_by_name():
    topics = E.rules_topics()
    for h in data.heroes().values():
        assert h.q_power in topics["q-powers"] or h.name in topics["q-powers"]
        assert h.name in topics and "Q-power" in topics[h.name]
    for name in ("Q: Bomb", "Q: Copy Q-Power", "Q: Earthquake", "Q: Place Teleporter", "Q: Rotate Board", "bombs"):
        assert name in topics


def test_q_power_buttons_offer_the_power_beside_the_rearranges():
    st = q_up("bramble")
    labels = [E.label(st, a) for a in E.button_actions(st, "ann", E.legal_actions(st, "ann"))]
    assert {"Q-power: bomb N", "Q-power: bomb E", "Q-power: bomb S", "Q-power: bomb W"} <= set(labels)
    st = q_up("rok")
    placing = [a for a in E.button_actions(st, "ann", E.legal_actions(st, "ann")) if a.cmd == "qpower"]
    assert 0 < len(placing) <= 6 and all(a.get("at") in ("A1", "C1", "B2") for a in placing)  # next to B1 first


def test_a_q_token_offers_the_heros_own_q_power_too_and_the_move_goes_on():
    """Rulebook, Q token: passing or landing on it, a hero may activate their Q-powers (rearranging, their own)."""
    st = build(OPEN, tokens={"B3": "q"}, heroes=[dict(pos="A3"), dict(pos="H8")], tumbled=True, ready="slide",
               points=3)
    st.heroes[0].hero = "bramble"
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "B3" and st.pending is not None and st.pending.kind == "token"
    assert "qpower direction:N" in legal(st, "ann") and legal(st, "ann", "rearrange")
    st, ev = do(st, "ann", "qpower direction:N")
    assert any("bomb is fired N from B3" in e for e in ev)
    assert hero(st, "ann").pos == "D3"  # the slide went on past the token


def _lend(monkeypatch, hero_id: str, **changes: object) -> None:  # noqa: ANN001
    """Re-roll a Die sits on Forest's track, whose own Q-power places teleporters: lend Forest another power or
    one more tile, so the rolls Re-roll a Die covers can be tried with it."""
    heroes = {**data.heroes()}
    if "q_power" in changes:
        heroes[hero_id] = heroes[hero_id].model_copy(update={"q_power": changes["q_power"]})
    monkeypatch.setattr(data, "heroes", lambda: heroes)
    if "tile" in changes:
        ups = {**data.upgrades()}
        side = data.UpgradeSide(ability=str(changes["tile"]))
        ups[hero_id] = [*ups[hero_id], data.UpgradeTile(a=side, b=side)]
        monkeypatch.setattr(data, "upgrades", lambda: ups)


def test_re_roll_a_die_also_covers_the_direction_die_and_the_bomb_die(monkeypatch):  # noqa: ANN001
    # the Earthquake Q-power: the roll is shown, the question asked before anyone tumbles; the new roll stands
    _lend(monkeypatch, "forest", q_power="earthquake")
    st = q_up("forest", seed=seed_rolling(3, sides=8), others=[dict(pos="E5")])
    grant(st, "ann", "re-roll")
    st, ev = do(st, "ann", "qpower")
    assert st.pending is not None and st.pending.kind == "reroll_die" and "Ann rolls E on the direction die." in ev
    assert hero(st, "bob").pos == "E5" and "choose option:reroll" in legal(st, "ann", "choose")
    st, ev = do(st, "ann", "choose option:reroll")
    assert "re-roll" in st.m.abilities and "Ann rolls again (Re-roll a Die)." in ev
    assert any(e.startswith("The direction die shows") for e in ev) and st.pending is None
    # the Bomb Q-power: keeping the roll fires the bomb the die shows, and Re-roll a Die is not spent
    _lend(monkeypatch, "forest", q_power="bomb")
    st = q_up("forest", others=[dict(pos="H8")])
    grant(st, "ann", "re-roll")
    st, ev = do(st, "ann", "qpower direction:E")
    assert st.pending is not None and st.pending.kind == "reroll_die"
    shown = next(e for e in ev if "on the bomb die" in e).split(" rolls ")[1].split(" on ")[0]
    st, ev = do(st, "ann", "choose option:keep")
    assert f"A {shown} bomb is fired E from B1." in ev and "re-roll" not in st.m.abilities
    # Random Wind in phase 1: asked too; keeping the roll slides every hero the way it shows
    _lend(monkeypatch, "forest", tile="random-wind")
    st = build(OPEN, heroes=[dict(pos="C3"), dict(pos="E5")], phase="power", seed=seed_rolling(3, sides=8))
    h = grant(st, "ann", "re-roll")
    h.upgrades.append(f"{len(data.upgrades()['forest'])}a")
    h.hand = ["lantern"]  # a card to play keeps phase 1 open
    st, ev = do(st, "ann", "ability name:random-wind")
    assert st.pending is not None and st.pending.kind == "reroll_die" and hero(st, "ann").pos == "C3"
    st, ev = do(st, "ann", "choose option:keep")
    assert "The direction die shows E: every hero slides 1 space E." in ev and hero(st, "ann").pos == "D3"
    assert st.phase == "power" and st.pending is None


def test_a_fired_bombs_roll_is_drawn_on_the_board_image():
    """Play-test: a fired bomb's path was not drawn."""
    st = build(OPEN, heroes=[dict(pos="A5"), dict(pos="E5", front="W")])
    ev: list[Event] = []
    roll(st, Bomb(at="A5", dir="E", kind="standard"), ev)
    rolls = [m for m in st.marks if "bomb rolls" in m.text]
    assert rolls and rolls[-1].path[0] == "A5" and rolls[-1].path[-1] in ("D5", "E5")
