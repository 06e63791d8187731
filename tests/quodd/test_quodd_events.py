"""End of round in the rulebook's order (upkeep, world event, time tracker, upgrade, first player coin) and the
world event deck (`data/events.json`): each event's effect, ongoing events staying in play, the direction die."""
from __future__ import annotations

from qhelpers import build, do, grant, hero, legal, seed_rolling

from games.core import Event, Seat
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.state import Bomb, QState
from games.quodd.turns import end_round, to_explore

OPEN = ["........."] * 9


def ending(events: list[str], *, heroes: list[dict] | None = None, seed: int = 1, round_limit: int = 10,
           tokens: dict[str, str] | None = None) -> QState:
    st = build(OPEN, heroes=heroes or [dict(pos="E5"), dict(pos="C3")], seed=seed, round_limit=round_limit,
               phase="explore", tokens=tokens)
    st.events_on = True
    st.event_deck = list(events)
    return st


def end(st: QState) -> list[str]:
    ev: list[Event] = []
    end_round(st, ev)
    return [e.text for e in ev]


# ---- the deck as data -----------------------------------------------------------------------------------------

EFFECT_TESTS = {
    "random_wind": "test_random_wind_rolls_the_direction_die_and_slides_every_hero_one_space",
    "strong_wind": "test_strong_wind_slides_every_hero_two_spaces_the_way_the_first_player_picks",
    "earthquake": "test_earthquake_event_tumbles_every_hero_the_way_the_direction_die_shows",
    "whirling_winds": "test_whirling_winds_spins_every_hero_the_way_the_first_player_picks",
    "market_day": "test_market_day_wipes_the_lineup",
    "lucky_find": "test_lucky_find_every_hero_explores_a_card_from_the_deck",
    "tailwind": "test_tailwind_is_ongoing_and_gives_every_hero_one_more_movement_each_turn",
    "season_of_plenty": "test_season_of_plenty_is_ongoing_and_gives_one_more_exploration",
    "clear_skies": "test_clear_skies_sends_the_ongoing_events_away",
}


def test_every_world_event_has_an_effect_and_a_test_of_it():
    assert set(data.world_events()) == set(EFFECT_TESTS)
    for eid, name in EFFECT_TESTS.items():
        assert callable(globals().get(name)), (eid, name)
    named = {e.name for e in data.world_events().values() if e.rulebook}
    assert {"Random Wind", "Strong Wind", "Earthquake"} <= named  # the global effects the rulebook names
    assert any(e.do == "ongoing" for e in data.world_events().values())


def test_world_events_are_a_game_option_dealt_from_a_shuffled_deck_kept_secret():
    seats = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")]
    off = E.setup({"scenario": "tutorial"}, seats, 3)
    assert not off.events_on and not off.event_deck
    on = E.setup({"scenario": "tutorial", "events": "on"}, seats, 3)
    assert on.events_on and len(on.event_deck) == sum(e.count for e in data.world_events().values())
    assert on.event_deck != sorted(on.event_deck)
    assert ",".join(on.event_deck) in E.hidden_digest(on)
    assert ",".join(on.event_deck[:3]) not in E.view(on, None).model_dump_json()


# ---- the order of the end of the round ------------------------------------------------------------------------

def test_end_of_round_upkeep_then_world_event_then_time_tracker_then_upgrades_then_coin():
    st = ending(["market_day"], round_limit=10)
    st.bombs = [Bomb(at="A1", dir="N", kind="standard")]
    text = end(st)
    i_bomb = next(i for i, t in enumerate(text) if "bomb rolls off the map" in t)
    i_event = next(i for i, t in enumerate(text) if t.startswith("World event"))
    i_up = next(i for i, t in enumerate(text) if "takes an upgrade tile" in t)
    assert i_bomb < i_event < i_up and st.phase == "upgrade"
    for p in ("ann", "bob"):  # step 4, then the coin passes (step 5)
        st, _ = do(st, p, "upgrade tile:1 side:b")
    assert st.round == 2 and st.first == 1


def test_in_the_last_round_the_world_event_comes_before_the_time_tracker_ends_the_game():
    st = ending(["lucky_find"], round_limit=1)
    text = end(st)
    assert any(t.startswith("World event") for t in text) and st.phase == "over"
    assert st.events_played == ["lucky_find"]


def test_a_new_event_replaces_the_current_one_unless_that_one_is_ongoing():
    st = ending(["market_day", "tailwind", "lucky_find"])
    end(st)
    st.phase = "explore"
    end(st)
    assert st.event_now == "tailwind" and st.event_discard == ["market_day"]
    st.phase = "explore"
    end(st)
    assert st.event_now == "lucky_find" and st.ongoing == ["tailwind"] and st.event_discard == ["market_day"]


def test_an_empty_event_deck_shuffles_its_discard_pile_back():
    st = ending([])
    st.event_discard = ["market_day", "lucky_find"]
    text = end(st)
    assert "The world event discard pile is shuffled into a new deck." in text and len(st.events_played) == 1


# ---- each event ------------------------------------------------------------------------------------------------

def test_random_wind_rolls_the_direction_die_and_slides_every_hero_one_space():
    st = ending(["random_wind"], seed=seed_rolling(2, sides=8))  # NE
    text = end(st)
    assert "The direction die shows NE." in text
    assert hero(st, "ann").pos == "F4" and hero(st, "bob").pos == "D2"
    assert hero(st, "ann").head == "U"  # slid, not tumbled


def test_strong_wind_slides_every_hero_two_spaces_the_way_the_first_player_picks():
    st = ending(["strong_wind"], heroes=[dict(pos="E5"), dict(pos="F5")])
    end(st)
    assert st.pending is not None and st.pending.player == "ann" and len(st.pending.options) == 8
    assert E.phase_of(st) == "decide" and legal(st, "bob") == []
    st, _ = do(st, "ann", "choose option:E")
    assert hero(st, "bob").pos == "H5" and hero(st, "ann").pos == "G5"  # the one in front first: no push
    assert st.phase == "upgrade"  # the end of the round went on after the choice


def test_earthquake_event_tumbles_every_hero_the_way_the_direction_die_shows():
    st = ending(["earthquake"], seed=seed_rolling(5, sides=8), tokens={"C4": "wall"})  # S
    text = end(st)
    assert "The direction die shows S." in text
    assert hero(st, "ann").pos == "E6" and hero(st, "ann").head == "S"
    assert hero(st, "bob").pos == "C3"  # the wall south of C3 blocks the tumble


def test_whirling_winds_spins_every_hero_the_way_the_first_player_picks():
    st = ending(["whirling_winds"], heroes=[dict(pos="E5", front="E"), dict(pos="C3", front="N")])
    end(st)
    st, _ = do(st, "ann", "choose option:cw")
    assert hero(st, "ann").front == "S" and hero(st, "bob").front == "E"


def test_market_day_wipes_the_lineup():
    st = ending(["market_day"])
    before = list(st.lineup)
    end(st)
    assert st.discard[-5:] == before and len(st.lineup) == 5 and st.lineup != before


def test_lucky_find_every_hero_explores_a_card_from_the_deck():
    st = ending(["lucky_find"])
    end(st)
    assert [len(h.hand) for h in st.heroes] == [1, 1]


def test_tailwind_is_ongoing_and_gives_every_hero_one_more_movement_each_turn():
    st = ending(["tailwind"])
    end(st)
    assert st.ongoing == ["tailwind"]
    for p in ("ann", "bob"):
        st, _ = do(st, p, "upgrade tile:1 side:b")  # an explore side: movement stays 1
    assert st.phase in ("power", "move") and st.m.boost == {"all": 1}


def test_season_of_plenty_is_ongoing_and_gives_one_more_exploration():
    st = ending(["season_of_plenty"])
    end(st)
    assert st.ongoing == ["season_of_plenty"]
    st.phase, st.turn = "recovery", 0
    ev: list[Event] = []
    to_explore(st, ev)
    assert st.m.draws == hero(st, "ann").explore + 1


def test_clear_skies_sends_the_ongoing_events_away():
    st = ending(["clear_skies"])
    st.ongoing = ["tailwind"]
    text = end(st)
    assert st.ongoing == [] and "tailwind" in st.event_discard
    assert "Ongoing events leave play: Tailwind." in text


def test_rules_answer_for_every_world_event_by_name():
    topics = E.rules_topics()
    for e in data.world_events().values():
        assert e.text in topics[e.name]
    assert "ongoing" in topics["world events"] and "N, NE, E" in topics["world events"]


def test_the_export_summary_names_upgrades_and_the_world_events_played():
    st = ending(["tailwind", "market_day"])
    end(st)
    st, _ = do(st, "ann", "upgrade tile:1 side:b")
    s = E.summary(st)
    assert s["world_events"] == ["Tailwind"] and s["ongoing_events"] == ["Tailwind"]
    ann = s["players"][0]
    assert ann["upgrades"] == ["1B: +1 explore"]
    assert {"movement", "explore", "hand_size", "upgrades", "items", "pets"} <= set(ann)


def test_a_hero_with_ignore_world_events_is_not_moved_by_one_but_still_pushed_by_a_hero_it_moves():
    st = ending(["random_wind"], seed=seed_rolling(3, sides=8), heroes=[dict(pos="E5"), dict(pos="C3")])  # E
    grant(st, "bob", "ignore-world-events")
    text = end(st)
    assert hero(st, "ann").pos == "F5" and hero(st, "bob").pos == "C3"
    assert "Bob ignores the world event (Ignore World Events)." in text
    st = ending(["random_wind"], seed=seed_rolling(3, sides=8), heroes=[dict(pos="E5"), dict(pos="F5")])
    grant(st, "bob", "ignore-world-events")
    end(st)
    assert hero(st, "ann").pos == "F5" and hero(st, "bob").pos == "G5"  # Ann, blown, pushes Bob


def test_world_event_winds_blow_the_sheep_after_the_heroes_slide():
    """Sheep are affected by what moves the board: a Strong Wind world event blows the flock too (sheep.blow)."""
    from games.quodd.state import Sheep
    st = ending(["strong_wind"], heroes=[dict(pos="E5"), dict(pos="F5")])
    st.sheep = [Sheep(at="B2", colour="grey", facing="N"), Sheep(at="H8", colour="white", facing="N")]
    end(st)
    st, _ = do(st, "ann", "choose option:E")
    assert sorted(s.at for s in st.sheep) == ["D1"]  # upkeep walks B2 -> B1, the wind blows it to D1; the
    # white sheep walks H8 -> H6 and is blown off the east edge: lost
