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
            # without the owner: whose swap it is (a layout that swaps two heroes' back faces names both)
            assert shared == f"{h.name}: {mine}" or f"for {h.name}" in shared, shared
            assert len(shared) <= 80, shared
    # a layout that is a swap for nobody still names its faces whole, never cut
    ann = names["ann"]
    faces = list(SKILL_FACES)
    rotated = {f: ann.skills[faces[(i + 1) % 5]] for i, f in enumerate(faces)}
    text = E.label(st, Action.of("rearrange", **rotated), player="ann")
    assert all(f"{f} " in text for f in SKILL_FACES) and len(text) <= 80


def test_every_open_question_reads_after_waiting_for_as_name_colon_question():
    """Play-test: "waiting for cara may set off a basic explosion around G4 (Push Bomb): explode or skip"."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "games" / "quodd"
    bad = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "decide" and len(node.args) >= 6:
                prompt = node.args[5]
                first = prompt.values[0] if isinstance(prompt, ast.JoinedStr) and prompt.values else prompt
                after = prompt.values[1] if isinstance(prompt, ast.JoinedStr) and len(prompt.values) > 1 else None
                ok = isinstance(first, ast.FormattedValue) and isinstance(after, ast.Constant) \
                    and str(after.value).startswith(": ")
                if not ok:
                    bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad


def test_the_push_bomb_question_reads_as_a_question_to_its_player():
    st = build(["......"], heroes=[dict(pos="A1", movement=1), dict(pos="B1")], tumbled=True, ready="slide",
               points=1)
    from test_quodd_abilities_moving import grant

    grant(st, "ann", "push-bomb")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert E.pending(st).waiting_for == "Ann: set off a basic explosion around B1 (Push Bomb), or skip"


def test_choosing_a_start_space_another_hero_took_says_who_took_it():
    from qhelpers import illegal

    from games.core import Seat
    from games.core.grid import label
    from games.quodd import data

    st = E.setup({"scenario": "tutorial"}, [Seat(player=p, name=p) for p in ("ann", "bob")], 1)
    first = st.pending.player
    taken = st.pending.options[0]
    st, _ = do(st, first, f"choose option:{taken}")
    other = st.pending.player
    h = next(x for x in st.heroes if x.player == first)
    why = illegal(st, other, f"choose option:{taken.lower()}").reason
    assert why.startswith(f"{taken} is taken by {data.heroes()[h.hero].name} ({first}); free start spaces: ")
    ground = next(label(x, y) for y in range(st.height) for x in range(st.width) if st.rows[y][x] == ".")
    assert illegal(st, other, f"choose option:{ground}").reason.startswith(f"{ground} is not a start space; free ")


def test_the_result_is_a_sentence_of_its_own_naming_the_winner_for_the_bots_game_over_line():
    """The bot's closing line becomes "Game over: " + the result: "You reach the last rally marker ... and win!"."""
    from games.quodd.goals import check_win

    st = build(["...."], heroes=[dict(pos="B1")], rally=["A1", "B1"])
    st.heroes[0].name = "you"
    st.heroes[0].progress = 2
    ev: list = []
    check_win(st, ev)
    assert st.phase == "over" and st.winners == ["ann"]
    assert st.result_text == f"You reach the last rally marker in round {st.round} and win!"
    assert E.status(st).result.text == st.result_text


def test_the_two_step_dash_buttons_are_a_spread_around_the_hero_not_the_first_few_north_ones():
    """Play-test: the buttons were always "Dash N N", "Dash N NE", ... "Dash N S" (out and back)."""
    from games.core.grid import step_xy
    from games.quodd.board import xy

    st = build(["........"] * 8, heroes=[dict(pos="D4", movement=2)], tumbled=True, ready="dash", points=2)
    shown = [a for a in E.button_actions(st, "ann", E.legal_actions(st, "ann")) if a.cmd == "move"]
    two = [a.get("path").split() for a in shown if len(a.get("path").split()) == 2]
    assert len(two) >= 4
    ends = []
    for path in two:
        p = xy("D4")
        for d in path:
            p = step_xy(p, d)
        ends.append(p)
    assert len(set(ends)) == len(ends)  # one button per square
    assert all(max(abs(x - 3), abs(y - 3)) == 2 for x, y in ends)  # never back home nor next door
    assert {path[0][0] for path in two} >= {"N", "E", "S", "W"}  # all around the hero


def test_a_shared_label_naming_several_heroes_still_fits_a_discord_button():
    from games.core import Seat
    from games.quodd.skills import LABEL_MAX

    for n, seed in ((3, 1), (3, 2), (4, 3), (6, 4)):
        st = E.setup({"scenario": "heist"}, [Seat(player=f"p{i}", name=f"Player{i}") for i in range(n)], seed)
        while st.pending is not None:
            st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
        for p in E.status(st).to_act:
            for a in E.button_actions(st, p, E.legal_actions(st, p)):
                assert len(E.label(st, a)) <= LABEL_MAX and len(E.label(st, a, player=p)) <= LABEL_MAX
