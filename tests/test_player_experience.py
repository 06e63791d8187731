"""What a player meets across games (issue 18): the recap that opens a ping, no ping for one's own move,
one message per turn (`Reply.continues`), a waiting player's settings leave the deadline alone, and the
README's console example played exactly as written."""
from __future__ import annotations

import re
from pathlib import Path

from bot.console import Console, typed_line
from bot.reply import Context
from bot.table import RECAP_LINES, recap_text
from storage import LogEntry

README = Path(__file__).resolve().parent.parent / "README.md"


def ctx(user: str, channel: str = "c1") -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.capitalize())


async def heroball(m, channel: str = "c1"):
    await m.dispatch(ctx("ann", channel), "game", "new", {"game": "heroball", "seed": 7})
    await m.dispatch(ctx("bob", channel), "game", "join", {"hero": "Pegasus", "god": "Ares"})
    await m.dispatch(ctx("ann", channel), "game", "join", {"hero": "Gorgo", "god": "Zeus"})
    return await m.dispatch(ctx("ann", channel), "game", "start", {})


async def seeded(m):
    await heroball(m)
    for who, hexes in (("ann", "H3"), ("bob", "H10"), ("ann", "H5")):
        r = await m.dispatch(ctx(who), "heroball", "seed", {"to": hexes})
        assert not r.ephemeral, r.text
    return await m.dispatch(ctx("bob"), "heroball", "seed", {"to": "H8"})


def test_recap_lists_one_line_per_action_the_newest_ones_when_there_are_many():
    """A long recap keeps the moves that led up to this turn (it used to keep the oldest ten and cut the newest)."""
    entries = [LogEntry(seq=i, player="bob", action=f"step to:G{i}") for i in range(1, 15)]
    text = recap_text(entries, {"bob": "Bob"}, "heroball")  # the 14th is the message's own move, told below it
    lines = text.splitlines()
    assert lines[0] == "**Since your last move:**"
    assert lines[1].startswith("- 3 earlier (")
    assert lines[2] == "- Bob: `/heroball step to:G4`" and lines[-1] == "- Bob: `/heroball step to:G13`"
    assert len(lines) == 1 + 1 + RECAP_LINES
    assert recap_text(entries[:1], {}, "heroball") == ""  # the one move the message describes anyway


def test_recap_lines_tell_what_each_move_said_and_name_its_player_when_the_text_does_not():
    """The recap listed raw commands (`/heroball react`, whatever the reaction was); moves now keep their first
    public line, and a line that does not name its player says whose move it was."""
    entries = [LogEntry(seq=1, player="bob", action="react", said="Bob defends: the push fails."),
               LogEntry(seq=2, player="ann", action="end", said="Bob's turn (Pegasus, 5 AP)."),
               LogEntry(seq=3, player="ann", action="step to:G1"),  # logged before moves kept their text
               LogEntry(seq=4, player="bob", action="end", said="the message's own move")]
    lines = recap_text(entries, {"bob": "Bob", "ann": "Ann"}, "heroball").splitlines()
    assert lines[1:] == ["- Bob defends: the push fails.", "- Ann: Bob's turn (Pegasus, 5 AP).",
                         "- Ann: `/heroball step to:G1`"]


async def test_a_ping_opens_with_the_recap_of_the_moves_since_the_players_last(manager):
    r = await seeded(manager)  # Bob's last seed starts round 1: Ann must act
    assert r.ping == ["ann"]
    assert r.recap == "" and r.text.startswith("Bob seeds")  # only the move this message describes anyway
    for step in ({"to": "G2"},):
        r = await manager.dispatch(ctx("ann"), "heroball", "step", step)
        assert r.continues and not r.ping and not r.recap  # Ann's own turn goes on: the same message
    r = await manager.dispatch(ctx("ann"), "heroball", "end", {})
    assert r.ping == ["bob"] and not r.continues
    assert r.text.startswith("**Since your last move:**\n- Gorgo (Ann) steps G1 → G2.\nBob's turn"), r.text
    assert "seed" not in r.recap  # only what happened since Bob's last move (his seed on H8)


async def test_nobody_is_pinged_for_their_own_move(manager):
    """In a game for one (Quodd solo), every new turn is the same player's: no ping, ever."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 3})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    start = await manager.dispatch(ctx("ann"), "game", "start", {})
    assert start.ping == ["ann"]  # the start is nobody's move
    r = await manager.dispatch(ctx("ann"), "count", "add", {"n": 2})
    assert r.continues and r.ping == []
    r = await manager.dispatch(ctx("ann"), "count", "end", {})
    assert r.ping == ["bob"] and not r.continues


async def test_a_waiting_players_standing_orders_leave_the_active_players_deadline_alone(manager, clock):
    await seeded(manager)
    rec = await manager.storage.live_game("c1")
    deadline = rec.deadline_at
    clock.now += 3600
    r = await manager.dispatch(ctx("bob"), "heroball", "reactions", {"defend": "always"})
    assert not r.ephemeral, r.text
    after = await manager.storage.live_game("c1")
    assert after.version == rec.version + 1 and after.deadline_at == deadline
    r = await manager.dispatch(ctx("ann"), "heroball", "step", {"to": "G2"})  # a move of who must act: anew
    assert (await manager.storage.live_game("c1")).deadline_at == deadline + 3600


def test_a_prefixed_console_line_acts_for_that_line_only():
    assert typed_line("/game start", "you") == "you> /game start"
    assert typed_line("bob> /game join", "you") == "bob> /game join"
    assert typed_line("button 2", "you") == "you> button 2"


async def test_the_readme_console_example_runs_as_written(manager, tmp_path):
    text = README.read_text(encoding="utf-8")
    block = re.search(r"prefixing their name.*?```\n(.*?)```", text, re.S)
    assert block, "the README's console example"
    lines = [ln for ln in block.group(1).splitlines() if ln.strip()]
    out: list[str] = []
    console = Console(manager=manager, out_dir=tmp_path, write=out.append, default_channel="c1")
    for ln in lines:
        prompt, typed = ln.split("> ", 1)
        assert prompt == "you"  # what the console prints before every line
        reply = await console.line(typed_line(typed, "you"))
        assert reply is not None and not reply.ephemeral, (ln, reply.text if reply else None)
    rec = await manager.storage.live_game("c1")
    engine_status = manager.state_of(rec)
    assert rec.status == "active" and engine_status.round == 1 and engine_status.phase == "play"
    assert any("bob's turn" in o for o in out)


def test_buttons_that_do_not_fit_become_a_menu_per_kind_of_move():
    """Every legal move stays reachable: 20 buttons, the kept "My options" place and a menu need 6 rows;
    the biggest kind of move becomes a menu so that all fit Discord's 5 rows."""
    from bot.board_controls import ROWS, fit_rows
    from bot.reply import Button, Menu

    buttons = ([Button(f"Step → G{i}", f"step to:G{i}", "ann") for i in range(1, 7)]
               + [Button(f"Drop → H{i}", f"drop to:H{i}", "ann") for i in range(1, 8)]
               + [Button(f"Push → J{i}", f"push to:J{i}", "ann") for i in range(1, 7)]
               + [Button("End turn", "end", "ann")])
    menus = [Menu("ann", "throw", tuple((f"Throw → K{i}", f"throw to:K{i}") for i in range(1, 18)))]
    b2, m2 = fit_rows(buttons, menus)
    assert -(-(len(b2) + 1) // 5) + len(m2) <= ROWS
    reachable = {b.action for b in b2} | {v for m in m2 for _, v in m.options}
    assert reachable == {b.action for b in buttons} | {v for m in menus for _, v in m.options}
    assert "end" in {b.action for b in b2}  # End turn always stays a button
    assert [m.cmd for m in m2] == ["throw", "drop"]  # the biggest kind of move became a menu
    assert fit_rows(buttons[:4], []) == (buttons[:4], [])  # what fits is left alone


def test_the_games_first_buttons_stay_buttons_when_the_rest_are_packed_into_menus():
    """Heroball lists a 2-point `Step → H1 (goal!)` first; packing sent all steps into a menu with it, while the
    1-point throws kept their buttons. The game's first buttons (its best moves) now stay buttons."""
    from bot.board_controls import FIRST, ROWS, fit_rows
    from bot.reply import Button, Menu

    goal = Button("Step → H1 (goal!, 1 AP)", "step to:H1", "ann")
    buttons = ([goal] + [Button(f"Throw → F{i} (goal!, 1 AP)", f"throw to:F{i}", "ann") for i in range(1, 4)]
               + [Button(f"Step → G{i}", f"step to:G{i}", "ann") for i in range(2, 12)]
               + [Button(f"Push → J{i}", f"push to:J{i}", "ann") for i in range(1, 6)]
               + [Button("End turn", "end", "ann")])
    menus = [Menu("ann", "throw", tuple((f"Throw → K{i}", f"throw to:K{i}") for i in range(1, 18)))]
    b2, m2 = fit_rows(buttons, menus)
    assert -(-(len(b2) + 1) // 5) + len(m2) <= ROWS
    assert b2[:FIRST] == buttons[:FIRST] and goal in b2
    reachable = {b.action for b in b2} | {v for m in m2 for _, v in m.options}
    assert reachable == {b.action for b in buttons} | {v for m in menus for _, v in m.options}


async def test_rules_topics_autocomplete_every_named_thing_of_heroball(manager):
    """Rules where you play: heroes, their cards, gods, terrains and board elements are topics; the topic
    option suggests them while typed, and each answers with its card."""
    from games.heroball.data import rules

    r = rules()
    names = [h.name for h in r.heroes] + [c.name for h in r.heroes for c in h.cards] + [g.name for g in r.gods]
    names += list(r.terrains) + ["Godball", "pillars", "centre post", "goals"]
    c = ctx("ann")
    for name in names:
        offered = await manager.suggest(c, "rules", "", "topic", {"game": "heroball"}, name[:4])
        assert any(o.casefold() == name.casefold() for o in offered), (name, offered)
    answer = await manager.dispatch(c, "rules", "", {"game": "heroball", "topic": "Lacrosse Stick"})
    assert answer.ephemeral and "Lacrosse Stick" in answer.text and "Helen" in answer.text


def test_a_game_move_missing_its_option_is_answered_with_the_choices_not_an_example():
    from bot.parsing import parse_command
    from games.core import MalformedAction

    inv = parse_command("/heroball step")  # the game fills `to:` in, or lists the legal steps
    assert (inv.group, inv.name, inv.options) == ("heroball", "step", {})
    try:
        parse_command("/game vote")
    except MalformedAction as exc:
        assert "`kind:skip`" in exc.hint and "Example" not in exc.hint
    else:
        raise AssertionError("`/game vote` without `kind:` must be refused")


async def test_rules_topics_match_whole_words_and_list_several_matches_instead_of_picking_one(manager):
    """`/rules` used to answer any topic containing the typed letters: `foo` gave Surefoot and `slime` silently
    one of the slimes, and an unknown topic listed ~200 topics (over one Discord message)."""
    async def ask(game: str, topic: str) -> str:
        return (await manager.dispatch(ctx("ann"), "rules", "", {"game": game, "topic": topic})).text

    assert (await ask("dungeon", "surefoot")).startswith("**SDE-S Dungeon — Surefoot**")
    unknown = await ask("dungeon", "foo")
    assert "No topic `foo`" in unknown and "Surefoot" not in unknown and len(unknown) < 300
    several = await ask("dungeon", "slime")
    assert "could be several" in several and "Emerald Slime" in several
    assert "Did you mean `Surefoot`" in await ask("dungeon", "surefot")
    assert "Night Owl" in (await ask("quodd", "night owl")).splitlines()[0]


async def test_status_after_the_end_shows_how_the_last_game_ended_instead_of_no_game(manager):
    """`/game status` after the last move answered "There is no game in this channel" while log, export and
    replay still worked on that game; it now shows the final board and result, and says how to start another."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 3})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    moves = [("ann", "add", {"n": 2}), ("ann", "add", {"n": 2}), ("ann", "end", {}), ("bob", "end", {})] * 6
    for who, cmd, opts in moves:
        r = await manager.dispatch(ctx(who), "count", cmd, opts)
        if "Game over" in r.text:
            break
    assert "Game over" in r.text, r.text
    st = await manager.dispatch(ctx("bob"), "game", "status", {})
    assert st.text.startswith("The last game here: Count. Game over: Ann wins."), st.text
    assert "`/game new` starts one" in st.text and not st.buttons
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count"})
    await manager.dispatch(ctx("ann"), "game", "abandon", {})
    gone = await manager.dispatch(ctx("ann"), "game", "status", {})
    assert "was abandoned" in gone.text, gone.text


async def test_the_log_numbers_moves_by_their_place_in_the_game_after_an_undo(manager):
    """After an undo `/game log` said "Last 2 of 2 actions" and numbered them 1 and 3 (the undone move's number)."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 3})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    await manager.dispatch(ctx("ann"), "count", "add", {"n": 1})
    await manager.dispatch(ctx("ann"), "count", "add", {"n": 2})
    undo = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert not undo.ephemeral, undo.text
    await manager.dispatch(ctx("ann"), "count", "end", {})
    log = (await manager.dispatch(ctx("ann"), "game", "log", {})).text.splitlines()
    assert log[0] == "Last 2 of 2 actions:"
    assert log[1].startswith("1. ") and "add n:1" in log[1] and log[2].startswith("2. ") and "end" in log[2]


async def test_the_lobby_names_the_seat_counts_of_the_chosen_scenario(manager):
    """Every lobby said "Seats: 1-6"; a Quodd team heist is for 4-6 and an overlord game for 2-4."""
    heist = await manager.dispatch(ctx("ann"), "game", "new", {"game": "quodd", "scenario": "teamheist"})
    assert "Seats: 4-6." in heist.text, heist.text
    over = await manager.dispatch(ctx("ann", "c2"), "game", "new", {"game": "quodd", "scenario": "overlord"})
    assert "Seats: 2-4." in over.text, over.text
    ball = await manager.dispatch(ctx("ann", "c3"), "game", "new", {"game": "heroball"})
    assert "Seats: 2-4." in ball.text, ball.text


def test_a_move_that_told_the_table_nothing_stays_out_of_the_others_recap():
    """A private standing order (Heroball `reactions`, answered to its player alone) was listed in the next
    player's recap as its raw command: it is logged as SILENT, and the recap leaves it out."""
    from bot.table import SILENT, said_of
    from games.core import Event

    assert said_of([Event(text="Your standing orders: distract never.", to=["bob"])]) == SILENT
    assert said_of([Event(text="secret", to=["bob"]), Event(text="Bob ends the turn.\nmore")]) == "Bob ends the turn."
    assert said_of([Event(text="The monsters react:\nOn the move: Gouger C2→H5.\nmore")]) == \
        "The monsters react: On the move: Gouger C2→H5."
    entries = [LogEntry(seq=1, player="bob", action="reactions distract:never", said=SILENT),
               LogEntry(seq=2, player="bob", action="end", said="Ann's turn."),
               LogEntry(seq=3, player="ann", action="step to:G2", said="Ann steps.")]
    text = recap_text(entries, {"bob": "Bob", "ann": "Ann"}, "heroball")
    assert "distract" not in text and "reactions" not in text and "Ann's turn" in text


def test_the_recap_leaves_out_the_moves_told_below_it_the_move_and_those_that_played_themselves():
    entries = [LogEntry(seq=1, player="bob", action="step to:G2", said="Helen (Bob) steps."),
               LogEntry(seq=2, player="bob", action="sprint to:H3", said="Helen (Bob) sprints."),
               LogEntry(seq=3, player="bob", action="end", said="Ann's turn.")]  # played itself after the sprint
    lines = recap_text(entries, {"bob": "Bob"}, "heroball", told=2).splitlines()
    assert lines == ["**Since your last move:**", "- Helen (Bob) steps."]
    assert recap_text(entries, {"bob": "Bob"}, "heroball", told=3) == ""
