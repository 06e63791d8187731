"""What the bot needs from the engine: buttons, skipping a player, refusals, and `/quodd preview`."""
from __future__ import annotations

import random

from qhelpers import build, do, hero, illegal, legal, seed_rolling

from bot.reply import Context
from games.core import Action, Seat
from games.quodd import ENGINE as E

OPEN = ["........"] * 7


def ctx(user: str) -> Context:
    return Context(channel_id="c1", user_id=user, user_name=user, can_manage=False)


def seats(n: int) -> list[Seat]:
    return [Seat(player=p, name=p) for p in ["ann", "bob", "cat", "dan", "eve", "fay"][:n]]


def to_skills(n: int, seed: int = 3):
    st = E.setup({"scenario": "heist"}, seats(n), seed)
    while st.pending is not None:
        st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    return st


def buttons(st, player: str) -> list[Action]:
    legal_now = E.legal_actions(st, player)
    chosen = E.button_actions(st, player, legal_now)
    assert len(chosen) <= 20 and all(a in legal_now for a in chosen)
    return chosen


def test_skill_setup_buttons_are_keep_and_swaps_of_the_face_a_forward_tumble_brings_up():
    """119 layouts are for typing; the buttons keep the layout or swap the back face (the forward tumble)."""
    st = to_skills(1)
    assert len(E.legal_actions(st, "ann")) == 120
    b = buttons(st, "ann")
    assert b[0] == Action.of("done") and E.label(st, b[0]) == "Keep these skills"
    swaps = [a for a in b if a.cmd == "rearrange"]
    assert len(swaps) == 4
    h = hero(st, "ann")
    for a in swaps:
        changed = [f for f in h.skills if h.skills[f] != a.get(f)]
        assert len(changed) == 2 and "back" in changed
        label = E.label(st, a)
        assert label.startswith("swap back/") and len(label) < 40, label
    # six players still choosing share the 20 buttons: each keeps `done` and one swap
    st6 = to_skills(6)
    per = [buttons(st6, p) for p in E.status(st6).to_act]
    assert sum(len(x) for x in per) <= 20 and all(x[0] == Action.of("done") for x in per)
    # with several players waiting, a swap button names whose it is
    assert any(E.label(st6, a).startswith(("ann:", "bob:")) for x in per for a in x if a.cmd == "rearrange")


def test_movement_buttons_offer_the_moves_that_fit_and_done():
    st = build(OPEN, heroes=[dict(pos="D4", movement=2)], tumbled=True, ready="dash", points=2)
    assert len(legal(st, "ann", "move")) == 8 + 64 - 0  # every two-step path on open ground
    b = buttons(st, "ann")
    assert Action.of("done") in b
    singles = [a for a in b if a.cmd == "move" and len(a.get("path").split()) == 1]
    assert len(singles) == 8 and E.label(st, singles[0]).startswith("Dash ")
    st = build(OPEN, heroes=[dict(pos="D4", movement=2)], tumbled=True, ready="slide", points=2)
    b = buttons(st, "ann")
    assert {a.text() for a in b if a.cmd == "move"} == set(legal(st, "ann", "move"))
    assert E.label(st, Action.parse("move direction:E distance:2")) == "Slide E 2"
    assert E.label(st, Action.of("done")) == "Done moving"


def test_a_long_pending_choice_gets_no_flood_of_buttons_but_a_token_offers_skip_and_top_swaps():
    st = build(["........"] * 9, tokens={"B5": "teleporter"}, heroes=[dict(pos="A5", movement=3)], tumbled=True,
               ready="slide", points=3, seed=seed_rolling(5))
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert st.pending.kind == "teleport" and len(st.pending.options) > 20
    assert buttons(st, "ann") == []  # the squares are outlined on the board and autocompleted
    st = build(OPEN, tokens={"C4": "rearrange"}, heroes=[dict(pos="B4", movement=2, head="N", front="U")],
               tumbled=True, ready="slide", points=2)  # the front face (slide) is on top
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert st.pending.kind == "token"
    b = buttons(st, "ann")
    assert b[0] == Action.parse("choose option:skip") and E.label(st, b[0]) == "Skip"
    tops = [E.label(st, a) for a in b if a.cmd == "rearrange"]
    assert len(tops) == 4 and all(" on top (swap " in t for t in tops), tops


def test_a_skipped_player_never_leaves_the_game_stuck():
    """The table's skip vote always has an action: `done`, or a quiet/first option of a pending choice."""
    for seed in range(3):
        st = E.setup({"scenario": ["tutorial", "heist", "trial"][seed]}, seats(2 if seed < 2 else 1), seed)
        pick = random.Random(seed)
        for _ in range(300):
            status = E.status(st)
            if status.finished:
                break
            for p in status.to_act:
                skip = E.skip_action(st, p)
                assert skip is not None and skip in E.legal_actions(st, p), (status.phase, p)
            p = pick.choice(status.to_act)
            action = E.skip_action(st, p) if pick.random() < 0.3 else pick.choice(E.legal_actions(st, p))
            st, _ = do(st, p, action.text())
    st = build(OPEN, tokens={"C4": "rearrange"}, heroes=[dict(pos="B4", movement=2)], tumbled=True,
               ready="slide", points=2)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert E.skip_action(st, "ann") == Action.parse("choose option:skip")


def test_refusals_name_the_specific_reason():
    st = to_skills(1)
    h = hero(st, "ann")
    same = " ".join(f"{f}:{s}" for f, s in h.skills.items())
    assert "already your layout; `done` keeps it" in illegal(st, "ann", f"rearrange {same}").reason
    st = build(OPEN, tokens={"E4": "impassable_up"}, heroes=[dict(pos="B4", movement=2), dict(pos="D4")],
               tumbled=True, ready="slide", points=2)
    assert "Bob on D4 cannot be pushed E: E4 holds an impassable wall" in illegal(
        st, "ann", "move direction:E distance:2").reason
    assert "2 point(s); 3 is too far" in illegal(st, "ann", "move direction:S distance:3").reason
    assert "Slide goes N, E, S, W" in illegal(st, "ann", "move direction:NE distance:1").reason
    assert "Rearranging needs" in illegal(st, "ann", "rearrange front:jump back:slide").reason
    st = build(OPEN, heroes=[dict(pos="D4", movement=2)], tumbled=True, ready="dash", points=2)
    assert "Dash has 2 points left; the path has 3 steps" in illegal(st, "ann", 'move path:"N N N"').reason
    assert "not a direction" in illegal(st, "ann", 'move path:"N UP"').reason
    st = build(OPEN, heroes=[dict(pos="A4", carrying=["red-crystal"])], tumbled=True)
    assert "right next to you" in illegal(st, "ann", "drop item:red-crystal at:C4").reason
    st = build(OPEN, heroes=[dict(pos="A4")])
    st.m.ended = True  # e.g. walled in during phase 1: respawned, movement over
    assert "movement is over" in illegal(st, "ann", "tumble direction:E").reason
    assert "no open question" in illegal(st, "ann", "choose option:cw").reason


def test_dash_paths_longer_than_three_go_in_several_commands():
    """With 4 dash points a path is sent as up to 3 steps, the remaining points stay ready for the rest."""
    st = build(OPEN, heroes=[dict(pos="D4", movement=4)], tumbled=True, ready="dash", points=4)
    assert "at most 3 steps per command" in illegal(st, "ann", 'move path:"N N E E"').reason
    st, _ = do(st, "ann", 'move path:"N N E"')
    assert hero(st, "ann").pos == "E2" and st.m.ready == "dash" and st.m.points == 1
    st, _ = do(st, "ann", 'move path:"E"')
    assert hero(st, "ann").pos == "F2" and st.m.ready == ""


async def test_preview_through_the_manager_is_private_and_changes_nothing(manager):
    """`/quodd preview action:"..."`: an image only the asker sees; the stored game stays as it was."""
    for who, group, name, opts in [("ann", "game", "new", {"game": "quodd", "scenario": "tutorial", "seed": 7}),
                                   ("ann", "game", "join", {"hero": "rok"}), ("ann", "game", "start", {}),
                                   ("ann", "quodd", "choose", {"option": "A4"}),
                                   ("ann", "quodd", "done", {})]:  # phase 1 (no cards yet) passes by itself
        r = await manager.dispatch(ctx(who), group, name, opts)
        assert not r.ephemeral, r.text
    rec = await manager.storage.live_game("c1")
    r = await manager.dispatch(ctx("ann"), "quodd", "preview", {"action": "tumble direction:E"})
    assert r.ephemeral and r.image[:4] == b"\x89PNG"
    assert "ann tumbles E to B4" in r.text and "on top" in r.text
    after = await manager.storage.live_game("c1")
    assert (after.version, after.state) == (rec.version, rec.state)
    r = await manager.dispatch(ctx("ann"), "quodd", "preview", {"action": "move direction:E distance:1"})
    assert r.ephemeral and "natural tumble" in r.text and r.image is None
    help_text = (await manager.dispatch(ctx("ann"), "game", "help", {})).text
    assert "`/quodd preview`" in help_text and "Legal now: `tumble direction:N`" in help_text


def test_a_choice_handed_to_a_player_off_turn_times_out_to_its_first_option():
    """Landing on a rooted hero: its controller picks the landing, within `decision_hours` (house, 12)."""
    walls = {lab: "impassable_up" for lab in ("B2", "C2", "D2", "B4", "C4", "D4", "D3")}
    walls["B3"] = "wall"
    st = build(OPEN, tokens=walls, heroes=[dict(pos="A3"), dict(pos="C3")], tumbled=True, ready="jump", points=1)
    assert E.timeout(st, {}) is None  # the mover's own turn runs under the ordinary deadline
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.player == "bob"
    hours, act = E.timeout(st, {})
    assert hours == 12.0 and act == Action.parse("choose option:B3") and act in E.legal_actions(st, "bob")
    spin = build(["..@..."], heroes=[dict(pos="A1")], tumbled=True, ready="slide", points=2)
    spin, _ = do(spin, "ann", "move direction:E distance:2")
    assert spin.pending.kind == "spin" and E.timeout(spin, {}) is None  # the mover's own choice
