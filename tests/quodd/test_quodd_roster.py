"""The two house heroes chosen by name only, Wren (Q: Flip Upgrade) and Ossian (Q: Upgrade): rulebook list
"Upgrades and Q-Powers" (Flip Upgrade: turn one of your upgrade tiles over; Upgrade (Q-Power): choose and place
another upgrade when the Q is activated)."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal, legal

from games.core import Action, Seat
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.abilities.track import abilities_of
from games.quodd.qpowers import flip_actions, flip_upgrade

OPEN = ["........."] * 9


def q_up(hero_id: str, *, upgrades: list[str] | None = None, others: list[dict] | None = None):  # noqa: ANN201
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E"), *(others or [dict(pos="H8")])])  # tumble N: Q up
    h = st.heroes[0]
    h.hero = hero_id
    for code in upgrades or []:  # the track as the game builds it: each side's bonus counted
        t = data.upgrades()[hero_id][int(code[:-1]) - 1]
        s = t.a if code[-1] == "a" else t.b
        h.upgrades.append(code)
        h.movement += s.movement
        h.explore += s.explore
    st, _ = do(st, "ann", "tumble direction:N")
    assert st.m.ready == "q"
    return st


def test_flip_upgrade_turns_a_tile_on_the_track_over_to_its_other_side():
    st = q_up("wren", upgrades=["1a", "3a"])  # 1A +1 movement, 3A Strong Wind
    h = hero(st, "ann")
    assert h.movement == 2 and abilities_of(h) == ["strong-wind"]
    assert sorted(legal(st, "ann", "qpower")) == ["qpower side:b tile:1", "qpower side:b tile:3"]
    assert E.label(st, Action.of("qpower", tile="3", side="b")) == "Q-power: flip tile 3B: Random Wind"
    st, ev = do(st, "ann", "qpower tile:1 side:b")
    h = hero(st, "ann")
    assert h.upgrades == ["1b", "3a"]  # same slot, other side
    assert h.movement == 1  # the +1 movement side is gone ...
    assert abilities_of(h) == ["extra-item", "strong-wind"]  # ... and +1 Item in Play has come
    assert any("tile 1 turns from +1 movement to side B, +1 Item in Play" in e for e in ev)
    assert st.m.power_used and not legal(st, "ann", "qpower") and legal(st, "ann", "rearrange")  # once a turn


def test_flip_upgrade_refuses_a_tile_not_on_the_track_and_says_which_can_turn():
    st = q_up("wren", upgrades=["2a"])
    why = illegal(st, "ann", "qpower tile:4 side:b").reason
    assert "2b" in why and "4" not in why.replace("1-6", "")
    assert "2b" in illegal(st, "ann", "qpower tile:2 side:a").reason  # already showing side A
    st = q_up("wren")
    assert not legal(st, "ann", "qpower")  # an empty track: nothing to flip
    assert "No tile on your track" in illegal(st, "ann", "qpower tile:1 side:b").reason


def test_flip_upgrade_keeps_a_gold_side_and_a_gold_side_turned_up_upgrades_a_skill():
    st = build(OPEN, heroes=[dict(pos="B2")])
    h = st.heroes[0]
    h.hero, h.upgrades, h.upgraded = "bramble", ["6b"], ["jump"]  # Bramble's tile 6: Crystal Bomb / gold
    assert flip_actions(h) == []  # the skill flipped by a gold side stays upgraded for good
    h.upgrades = ["6a"]
    acts = flip_actions(h)
    assert {a.get("skill") for a in acts} == set(data.skills()) - {"jump"}
    flip_upgrade(h, Action.of("qpower", tile="6", side="b", skill="dash"), "Ann flips", [])
    assert h.upgrades == ["6b"] and h.upgraded == ["jump", "dash"] and "crystal-bomb" not in abilities_of(h)


def test_upgrade_q_power_takes_another_tile_at_once_on_the_side_chosen():
    st = q_up("ossian", upgrades=["1b"])
    acts = legal(st, "ann", "qpower")
    assert "qpower side:a tile:2" in acts and not [a for a in acts if "tile:1" in a]  # tile 1 is on the track
    assert E.label(st, Action.of("qpower", tile="2", side="a")) == "Q-power: take tile 2A: Explore: Pet"
    st, ev = do(st, "ann", "qpower tile:4 side:B")  # the side in any case
    h = hero(st, "ann")
    assert h.upgrades == ["1b", "4b"] and h.movement == 2  # slot 2, +1 movement
    assert any("takes upgrade tile 4, side B: +1 movement (slot 2)" in e for e in ev)
    assert st.m.power_used and not legal(st, "ann", "qpower")
    st = q_up("ossian", upgrades=["1a"])
    assert "tile left" in illegal(st, "ann", "qpower tile:1 side:b").reason


def test_copy_q_power_of_the_upgrade_hero_takes_a_tile_of_the_copier():
    st = q_up("nyx", others=[dict(pos="H8")])
    st.heroes[1].hero = "ossian"
    st, _ = do(st, "ann", "qpower copy:ossian tile:3 side:b")
    h = hero(st, "ann")
    assert h.upgrades == ["3b"] and abilities_of(h) == ["ghost"]  # Nyx's own tile 3B


def test_the_new_heroes_are_dealt_only_when_chosen_by_name():
    """Heroes added after games were saved are never dealt at random, so old seeds deal the same heroes."""
    by_name = {h.id for h in data.heroes().values() if h.by_name_only}
    assert by_name == {"wren", "ossian"}
    for seed in range(40):
        st = E.setup({}, [Seat(player=p, name=p) for p in ("a", "b", "c", "d")], seed)
        assert not {h.hero for h in st.heroes} & by_name
    st = E.setup({}, [Seat(player="a", name="A", choices={"hero": "Wren"}),
                      Seat(player="b", name="B", choices={"hero": "ossian brightforge"})], 5)
    assert [h.hero for h in st.heroes] == ["wren", "ossian"]


def test_each_new_hero_carries_seven_abilities_on_no_other_tile():
    placed = {hid: {s.ability for t in tiles for s in (t.a, t.b) if s.ability}
              for hid, tiles in data.upgrades().items()}
    others = set().union(*(v for k, v in placed.items() if k not in ("wren", "ossian")))
    assert len(placed["wren"]) == len(placed["ossian"]) == 7
    assert not (placed["wren"] | placed["ossian"]) & others
    assert all(any(s.movement for t in data.upgrades()[hid] for s in (t.a, t.b)) for hid in ("wren", "ossian"))


def test_rules_answer_for_both_new_heroes_and_both_powers():
    topics = E.rules_topics()
    assert "Wren Tidewhistle's Q-power is Q: Flip Upgrade" in topics["Wren Tidewhistle"]
    assert "choose this hero by name" in topics["Wren Tidewhistle"]
    assert "Ossian Brightforge's Q-power is Q: Upgrade" in topics["Ossian Brightforge"]
    assert "other side" in topics["Q: Flip Upgrade"] and "gold side" in topics["Q: Flip Upgrade"]
    assert "one more upgrade tile" in topics["Q: Upgrade"]
    assert "On: Wren Tidewhistle tile 5A." in topics["Swap Skills (swap-skills)"]  # the ability topics name the tile
    assert "On: Ossian Brightforge tile 6B." in topics["Timely Removal (timely-removal)"]
    assert not [t for t in topics.values() if "no tile yet" in t or "on no hero's tile" in t]


def test_random_games_with_wren_and_ossian_play_to_the_end_using_both_powers():
    """As the conformance test, but with the two heroes it never deals: random legal play (preferring Q-powers
    and upgrades) ends, the log replays, and both powers are used."""
    from games.core.play import replay
    from games.core.playout import random_playout

    used: set[str] = set()
    for seed in range(3):
        seats = [Seat(player="a", name="A", choices={"hero": "wren"}), Seat(player="b", name="B",
                 choices={"hero": "ossian"}), Seat(player="c", name="C", choices={"hero": "nyx"})]
        options = {"events": "on"} if seed % 2 else {}

        def choose(pick, state, player, legal):  # noqa: ANN001, ANN202
            preferred = [a for a in legal if a.cmd == "qpower" and a.get("tile")]
            return pick.choice(preferred or legal)

        def each(old, player, action, state, events) -> None:  # noqa: ANN001
            if action.cmd == "qpower" and action.get("tile"):
                used.add(next(h.hero for h in state.heroes if h.player == player))

        game = random_playout(E, options, seats, seed, choose=choose, each=each)
        assert game.finished
        assert E.dump(replay(E, options, seats, seed, game.log)) == E.dump(game.state)
    assert {"wren", "ossian"} <= used
