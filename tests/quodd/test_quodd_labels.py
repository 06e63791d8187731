"""What buttons say: every move that ends in a fall warns of it; labels name their owner and fit Discord."""
from qhelpers import build, do

from games.core import Action
from games.quodd import ENGINE as E


def labels(st, player="ann", cmd=None):
    return [E.label(st, a) for a in E.legal_actions(st, player) if cmd is None or a.cmd == cmd]


def test_a_dash_step_into_a_pit_warns_of_the_fall_like_the_natural_tumble():
    st = build(["....", ".O..", "...."], heroes=[dict(pos="A2", movement=2)], tumbled=True, ready="dash", points=2)
    got = labels(st, cmd="move")
    assert "Dash E → falls (into a pit)" in got
    assert "Dash N" in got and "Dash N E" in got  # safe ones say nothing more


def test_a_slide_or_tumble_skill_leaving_the_map_warns_of_the_fall():
    st = build(["....", "....", "...."], heroes=[dict(pos="B2", movement=2)], tumbled=True, ready="diagonal", points=2)
    got = labels(st, cmd="move")
    assert "Diagonal Slide NE 2 → falls (off the map)" in got and "Diagonal Slide SE 1" in got
    st = build(["....", "....", "...."], heroes=[dict(pos="B1", movement=2)], tumbled=True, ready="tumble", points=2)
    north = [x for x in labels(st, cmd="move") if x.startswith("Tumble N")]
    assert north == ["Tumble N 1 → falls (off the map)"]


def test_a_jump_landing_in_a_pit_warns_of_the_fall():
    st = build([".....", "....."], heroes=[dict(pos="A1", movement=3)], tumbled=True, ready="jump", points=3,
               tokens={"C1": "pit"})
    got = labels(st, cmd="move")
    assert "Jump E over 1 → falls (into a pit)" in got and "Jump E over 2" in got


def test_the_springs_direction_buttons_warn_of_a_throw_into_a_pit_or_off_the_map():
    st = build(["......", "......", "......"], heroes=[dict(pos="A2", movement=1)], tumbled=True, ready="slide",
               points=1, tokens={"B2": "spring", "D2": "pit"})
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending is not None and st.pending.kind == "spring"
    got = sorted(labels(st, cmd="choose"))
    assert got == ["Spring E → falls (into a pit)", "Spring N → falls (off the map)",
                   "Spring S → falls (off the map)", "Spring W → falls (off the map)"]


def test_skill_setup_buttons_say_only_what_changes_whose_it_is_and_fit_a_discord_button():
    """Play-test: "[8] Skills: feet Diagonal Slide, front Dash, ... right Slid" had no owner and was cut at 80."""
    from games.core import Seat
    from games.quodd.skills import SKILL_FACES

    st = E.setup({"scenario": "heist"}, [Seat(player=p, name=p) for p in ("ann", "bob", "cat")], 3)
    while st.pending is not None:
        st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    assert st.phase == "skills"
    names = {h.player: h for h in st.heroes}
    for p in ("ann", "bob", "cat"):
        h = names[p]
        for a in E.button_actions(st, p, E.legal_actions(st, p)):
            if a.cmd != "rearrange":
                continue
            f1, f2 = [f for f in SKILL_FACES if h.skills[f] != a.get(f)]
            mine, shared = E.label(st, a, player=p), E.label(st, a)
            assert mine.startswith("swap ") and {f1, f2} == set(mine.split()[1].split("/")), mine
            # without the owner: whose swap it is (a layout that is a swap for two heroes names both)
            assert f"{h.name}: {mine}" in shared and len(shared) <= 80, shared
    # a layout that is a swap for nobody still names its faces whole, never cut
    ann = names["ann"]
    faces = list(SKILL_FACES)
    rotated = {f: ann.skills[faces[(i + 1) % 5]] for i, f in enumerate(faces)}
    text = E.label(st, Action.of("rearrange", **rotated), player="ann")
    assert all(f"{f} " in text for f in SKILL_FACES) and len(text) <= 80
