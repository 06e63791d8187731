"""End to end: the real discord.py bot against the local Discord double, playing the `count` fixture game."""
from __future__ import annotations

import asyncio
import copy
import re

import pytest

from bot.discord_adapter.app import build_commands
from bot.discord_adapter.components import TEMPLATE
from games.core import all_games
from render import renderer_for

from .conftest import USERS
from .discord_double import CHANNEL_ID, EPHEMERAL, GUILD_ID, Interaction, Message

PNG = b"\x89PNG\r\n\x1a\n"
ANN, BOB, CAT = USERS["ann"], USERS["bob"], USERS["cat"]


def board_message(inter: Interaction) -> Message:
    """The one public message that shows what an interaction did: the message it posted, or, for a move of
    the turn under way, the turn's message it edited (its own "thinking" message then removed)."""
    turn = [m for m in inter.edited if not m.content.startswith("**Game status**")]  # not the status message
    if not inter.public and turn and inter.original in ("deleted", "update"):
        return turn[-1]
    assert len(inter.public) == 1, [(m.content, m.ephemeral) for m in inter.messages]
    return inter.public[0]


def game_buttons(msg: Message) -> list[str]:
    """custom_ids of the buttons that carry a game action (not "My options" or "Rematch")."""
    return [c for c in msg.custom_ids if re.fullmatch(TEMPLATE, c)]


def button(msg: Message, action: str) -> str:
    found = [c for c in game_buttons(msg) if c.split(":", 3)[3] == action]
    assert found, f"no button `{action}` in {msg.custom_ids}"
    return found[0]


def assert_private_only(inter: Interaction, *needles: str) -> str:
    """Everything the bot said is ephemeral; returns the text."""
    assert not inter.public, [m.content for m in inter.public]
    text = "\n".join(m.content for m in inter.private)
    for needle in needles:
        assert needle in text, text
    return text


async def live(harness, channel: str = CHANNEL_ID):
    return await harness.bot.manager.storage.live_game(channel)


async def open_count(harness, *players: str, seed: int = 7) -> Message:
    """ann opens a count game in the channel, the others join, ann starts: the start board."""
    await harness.cmd("ann", "game", "new", game="count", thread=False, seed=seed)
    for who in players:
        board_message(await harness.cmd(who, "game", "join"))
    return board_message(await harness.cmd("ann", "game", "start"))


async def test_commands_are_synced_to_the_dev_guild_from_the_command_definitions(harness):
    from bot import commands

    synced = {c["name"]: c for c in harness.double.commands[GUILD_ID]}
    assert set(synced) == set(commands.groups()) | {"rules"}
    game_subs = {o["name"] for o in synced["game"]["options"]}
    assert game_subs == {spec.name for spec in commands.game_group()}
    add = next(o for o in synced["count"]["options"] if o["name"] == "add")
    assert add["options"] == [{"type": 3, "name": "n", "description": "1 or 2", "required": False,
                               "autocomplete": True}]
    new = next(o for o in synced["game"]["options"] if o["name"] == "new")
    game_opt = next(o for o in new["options"] if o["name"] == "game")
    assert game_opt["required"] and {c["value"] for c in game_opt["choices"]} == set(all_games())
    assert "global" not in harness.double.commands  # global sync only on purpose (PLAYPOST_SYNC)


async def test_a_short_count_game_from_new_to_result(harness):
    start = await open_count(harness, "bob", "cat")
    assert "Count** begins" in start.content
    assert f"<@{ANN}>" in start.content and start.posted_mentions["users"] == [int(ANN)]
    assert game_buttons(start) and all(c.startswith(f"pp:{CHANNEL_ID}:") for c in game_buttons(start))

    # autocomplete offers exactly the legal values, for the player to act
    assert await harness.autocomplete("ann", "count", "add", "n", n="") == ["1", "2"]
    assert await harness.autocomplete("bob", "count", "add", "n", n="") == []

    moved = board_message(await harness.cmd("ann", "count", "add", n="2"))
    assert "Ann adds 2." in moved.content
    assert moved.id == start.id  # same turn: the turn's message is edited
    assert moved.allowed_mentions.get("users", []) == []  # nobody newly to act, nobody pinged
    rolled = board_message(await harness.cmd("ann", "count", "roll"))
    assert "Ann rolls" in rolled.content
    # the pending decision: keep or discard, as buttons for ann only
    assert {c.split(":", 3)[3] for c in game_buttons(rolled)} == {"keep", "discard"}
    kept = board_message(await harness.click("ann", rolled, button(rolled, "keep")))
    assert "Ann keeps the" in kept.content

    last = await play_to_end(harness, check_pings=True)
    past = await harness.bot.manager.storage.history(CHANNEL_ID, 1)
    assert past[0].status == "finished"
    assert "Game over:" in last.content and not game_buttons(last)
    assert last.allowed_mentions.get("users", []) == []


async def play_to_end(harness, *, check_pings: bool = False) -> Message:
    """Whoever is to act adds 2 twice, then ends the turn, until the game is over: the final board."""
    names = {v: k for k, v in USERS.items()}
    engine = all_games()["count"]
    for _ in range(60):
        rec = await live(harness)
        state = engine.load(rec.state)
        who = names[state.players[state.active]]
        if state.adds < 2:
            added = board_message(await harness.cmd(who, "count", "add", n="2"))
            if "Game over" in added.content:
                return added
            continue
        ended = board_message(await harness.cmd(who, "count", "end"))
        if "Game over" in ended.content:
            return ended
        if check_pings:
            nxt = engine.load((await live(harness)).state)
            assert ended.posted_mentions["users"] == [int(nxt.players[nxt.active])], "the next player is pinged"
    pytest.fail("the game did not end")


async def test_private_and_error_replies_are_ephemeral(harness):
    await open_count(harness, "bob")
    hand = await harness.cmd("bob", "game", "hand")
    assert hand.callback["data"]["flags"] & EPHEMERAL  # deferred privately: not even "thinking" is public
    assert_private_only(hand, "Your secret bonus")
    helped = await harness.cmd("cat", "game", "help")
    assert_private_only(helped, "play-by-post")
    rules = await harness.cmd("cat", "rules", None, game="count", topic="turn")
    assert_private_only(rules, "Add up to twice")

    # a public command that fails: the thinking message is deleted, the reason sent only to the caller
    wrong = await harness.cmd("bob", "count", "end")
    assert not wrong.callback.get("data", {}).get("flags")
    assert wrong.original == "deleted"
    assert_private_only(wrong)
    assert all(m.ephemeral for m in wrong.messages) and wrong.messages


async def test_an_illegal_move_changes_nothing_stored(harness):
    await open_count(harness, "bob")
    before = await live(harness)
    log_before = await harness.bot.manager.storage.log(before.id)
    for who, options in (("ann", {"n": "5"}), ("bob", {"n": "1"})):
        refused = await harness.cmd(who, "count", "add", **options)
        assert_private_only(refused)
    after = await live(harness)
    assert after.version == before.version and after.state == before.state
    assert await harness.bot.manager.storage.log(after.id) == log_before


async def test_a_wrong_users_click_is_refused_ephemerally(harness):
    start = await open_count(harness, "bob")
    before = await live(harness)
    refused = await harness.click("bob", start, button(start, "end"))
    assert refused.callback["type"] == 4 and refused.callback["data"]["flags"] & EPHEMERAL
    assert_private_only(refused, "not yours")
    assert (await live(harness)).version == before.version


async def test_buttons_survive_a_restart_and_stale_ones_are_refused(harness):
    start = await open_count(harness, "bob")
    old = copy.deepcopy(start)  # the start board as a client that did not see its edit still shows it
    moved = board_message(await harness.cmd("ann", "count", "add", n="1"))
    assert moved.id == start.id  # the same turn: the turn's message was edited
    await harness.stop_bot()
    await harness.start_bot()  # a new process on the same database file: the turn's message is in the game's meta

    after = board_message(await harness.click("ann", moved, button(moved, "add n:2")))
    assert after.id == moved.id  # so the turn's next move edits the same message (issue 18)
    assert "Ann adds 1." in after.content and "Ann adds 2." in after.content
    assert (await live(harness)).meta["turn_message"]["message_id"] == str(moved.id)
    version = (await live(harness)).version
    stale = await harness.click("ann", old, button(old, "end"))  # from an older board
    assert stale.callback["type"] == 4 and stale.callback["data"]["flags"] & EPHEMERAL  # no public "thinking"
    assert_private_only(stale, "out of date", f"The current board: https://discord.com/channels/{GUILD_ID}/"
                        f"{CHANNEL_ID}/{after.id}")  # a pointer to the newest board
    assert (await live(harness)).version == version
    # the turn's message keeps the controls of the board it shows now
    assert harness.double.messages[moved.id].components != []
    # the turn passes: the next move posts a new message that pings Bob, and the turn's message loses its controls
    handed = board_message(await harness.click("ann", after, button(after, "end")))
    assert handed.id != moved.id and harness.double.messages[moved.id].components == []


async def test_two_simultaneous_clicks_apply_once(harness):
    start = await open_count(harness, "bob")
    before = await live(harness)
    cid = button(start, "end")  # a move that hands the turn on posts a new board
    first = harness.click_payload("ann", start, cid)
    second = harness.click_payload("ann", start, cid)
    results = await asyncio.gather(harness.double.run(*first), harness.double.run(*second))
    boards = [m for r in results for m in r.public]
    assert len(boards) == 1 and "Ann ends the turn." in boards[0].content
    assert sum("out of date" in m.content for r in results for m in r.private) == 1
    # the loser may get a link to the winner's board (if it was posted by then), never one to an older board
    assert not [m for r in results for m in r.private if "discord.com/channels" in m.content
                and f"/{boards[0].id}" not in m.content]
    after = await live(harness)
    assert after.version == before.version + 1
    assert [e.action for e in await harness.bot.manager.storage.log(after.id)] == ["end"]


async def test_new_game_opens_a_thread_and_stays_there(harness):
    opened = await harness.cmd("ann", "game", "new", game="count", seed=3)
    threads = [c for c in harness.double.calls if c.method == "POST" and c.path.endswith("/threads")]
    assert len(threads) == 1 and threads[0].path == f"/channels/{CHANNEL_ID}/threads"
    thread_id = next(cid for cid, ch in harness.double.channels.items() if ch["type"] == 11)
    assert f"<#{thread_id}>" in board_message(opened).content
    assert any(m.channel_id == thread_id and "opened a game" in m.content for m in harness.double.messages.values())
    assert await live(harness) is None and (await live(harness, thread_id)).kind == "count"
    board_message(await harness.cmd("bob", "game", "join", channel=thread_id))
    started = board_message(await harness.cmd("ann", "game", "start", channel=thread_id))
    assert started.channel_id == thread_id and all(c.startswith(f"pp:{thread_id}:") for c in game_buttons(started))


async def test_a_refused_new_game_leaves_no_thread(harness):
    refused = await harness.cmd("ann", "game", "new", game="count", target="99")
    assert_private_only(refused, "not a target")
    assert [c.method for c in harness.double.calls if "/channels/" in c.path].count("DELETE") == 1
    assert not [ch for ch in harness.double.channels.values() if ch["type"] == 11]


async def test_missing_thread_permission_is_said_plainly(harness):
    import discord

    from .discord_double import BOT_PERMS

    lacking = BOT_PERMS & ~discord.Permissions(create_public_threads=True)
    inter, payload = harness.double.command_payload(ANN, "Ann", "game", "new", {"game": "count"},
                                                    app_perms=lacking)
    opened = await harness.double.run(inter, payload)
    assert "opened a game" in board_message(opened).content
    assert "missing Create Public Threads" in "\n".join(m.content for m in opened.private)
    assert (await live(harness)).kind == "count"  # played in the channel instead


async def test_boards_of_real_games_carry_a_png(harness):
    ran = []
    for gid, engine in sorted(all_games().items()):
        if gid == "count" or renderer_for(gid) is None:
            continue
        channel = harness.double.snowflake()
        harness.double.channels[channel] = {**harness.double.channels[CHANNEL_ID], "id": channel, "name": gid}
        await harness.cmd("ann", "game", "new", channel=channel, game=gid, thread=False, seed=11)
        for who in ("bob", "cat")[: max(0, engine.min_seats - 1)]:
            board_message(await harness.cmd(who, "game", "join", channel=channel))
        start = board_message(await harness.cmd("ann", "game", "start", channel=channel))
        assert start.files["board.png"].startswith(PNG)
        assert not start.embeds  # a plain attachment, shown larger than an image in an embed
        ran.append(gid)
    if not ran:
        pytest.skip("no real game with a renderer is registered yet")


async def test_an_action_too_long_for_a_custom_id_is_carried_by_its_index(harness, monkeypatch):
    from bot.discord_adapter import components

    monkeypatch.setattr(components, "CUSTOM_ID_MAX", 30)  # `pp:<channel>:<v>:add n:2` no longer fits
    start = await open_count(harness, "bob")
    ids = game_buttons(start)
    assert all(len(c) <= 30 for c in ids) and any(c.split(":", 3)[3].startswith("#") for c in ids)
    labels = [c["label"] for row in start.components for c in row["components"]][:len(ids)]
    index_of_add2 = next(c for c, label in zip(ids, labels, strict=True) if label == "add n:2")
    again = harness.click_payload("ann", start, index_of_add2)  # as a second client still shows it
    moved = board_message(await harness.click("ann", start, index_of_add2))
    assert "Ann adds 2." in moved.content
    stale = await harness.double.run(*again)
    assert_private_only(stale, "out of date")
    assert [e.action for e in await harness.bot.manager.storage.log((await live(harness)).id)] == ["add n:2"]


def calls(harness, method: str, suffix: str) -> list:
    return [c for c in harness.double.calls if c.method == method and c.path.endswith(suffix)]


async def test_the_status_message_is_pinned_and_kept_current(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    sid = rec.meta["status_message"]
    status = harness.double.messages[sid]
    assert status.channel_id == CHANNEL_ID and not status.ephemeral
    assert calls(harness, "PUT", f"/channels/{CHANNEL_ID}/messages/pins/{sid}")
    assert "waiting for Ann" in status.content and "pp:opts:" + CHANNEL_ID in status.custom_ids
    board_message(await harness.cmd("ann", "count", "end"))
    assert "waiting for Bob" in harness.double.messages[sid].content
    board_message(await harness.cmd("ann", "game", "abandon"))
    assert "abandoned" in harness.double.messages[sid].content and not harness.double.messages[sid].custom_ids
    assert calls(harness, "DELETE", f"/channels/{CHANNEL_ID}/messages/pins/{sid}")


async def test_my_options_button_answers_with_the_hand_privately(harness):
    start = await open_count(harness, "bob")
    shown = await harness.click("bob", start, f"pp:opts:{CHANNEL_ID}")
    assert shown.callback["data"]["flags"] & EPHEMERAL
    assert_private_only(shown, "Your secret bonus")


async def test_rematch_reseats_the_same_players_with_a_new_seed(harness):
    await open_count(harness, "bob", "cat")
    final = await play_to_end(harness)
    old = (await harness.bot.manager.storage.history(CHANNEL_ID, 1))[0]
    rematch = f"pp:rematch:{old.id}"
    assert rematch in final.custom_ids
    again = board_message(await harness.click("bob", final, rematch))
    assert "Rematch called by Bob" in again.content and "begins" in again.content
    new = await live(harness)
    assert new.status == "active" and new.id != old.id and new.seed != old.seed
    assert sorted(s.player for s in new.seats) == sorted(s.player for s in old.seats)
    assert new.options == old.options and "status_message" in new.meta
    assert game_buttons(again)  # the first board of the rematch is playable at once
    board_message(await harness.click(names_of(new)[0], again, game_buttons(again)[0]))


def names_of(rec) -> list[str]:
    """Test user names of the players to act first (seat order)."""
    by_id = {v: k for k, v in USERS.items()}
    state = all_games()["count"].load(rec.state)
    return [by_id[state.players[state.active]]]


async def test_only_players_of_the_game_can_call_a_rematch(harness):
    await open_count(harness)
    final = await play_to_end(harness)
    old = (await harness.bot.manager.storage.history(CHANNEL_ID, 1))[0]
    refused = await harness.click("cat", final, f"pp:rematch:{old.id}")
    assert_private_only(refused, "Only the players")
    assert await live(harness) is None


FOLLOWUP = r"/webhooks/\d+/[^/]+"  # an interaction's follow-up messages (the board of a move)


@pytest.mark.parametrize(("status", "times", "via"),
                         [(500, 1, False), (429, 1, True), (429, 1, False), (403, 2, False)])
async def test_a_failed_post_never_loses_or_repeats_a_move(harness, caplog, status, times, via):
    start = await open_count(harness, "bob")
    before = await live(harness)
    cid = button(start, "end")  # hands the turn to Bob: a new message is posted (a follow-up)
    again = harness.click_payload("ann", start, cid)  # the same button, clicked again when nothing seemed to happen
    harness.double.fail("POST", FOLLOWUP, status, times=times, via=via)
    seen = len(harness.double.calls)
    moved = await harness.click("ann", start, cid)
    posts = [c.status for c in harness.double.calls[seen:] if c.method == "POST" and "/webhooks/" in c.path]
    assert posts[:times] == [status] * times
    after = await live(harness)
    assert after.version == before.version + 1
    assert [e.action for e in await harness.bot.manager.storage.log(after.id)] == ["end"]
    if status == 500 or via:  # Discord's own 5xx / 429: discord.py retries, the board is posted once
        assert "Ann ends the turn." in board_message(moved).content
    elif times == 1:  # refused outright: no board, but a note to the clicker says the move counts
        note = moved.private[0]  # a click is deferred without a "thinking" message: the note is private
        assert not moved.public and len(moved.private) == 1
        assert "The move by Ann counts" in note.content and f"HTTP {status}" in note.content
        assert not note.files and not note.custom_ids
    else:  # not even that could be said: nothing shown, nothing raised
        assert not moved.messages
    status_edits = [c for c in harness.double.calls[seen:]
                    if c.method == "PATCH" and c.path.endswith(f"/messages/{after.meta['status_message']}")]
    assert status_edits, "the status message is kept current even when the board could not be posted"
    assert not [r for r in caplog.records if r.levelname == "ERROR"], "a failed post is handled, not crashed on"

    assert_private_only(await harness.double.run(*again), "out of date")  # a retry click does not apply twice
    shown = board_message(await harness.cmd("ann", "game", "status"))  # re-posts the current board
    assert all(c.startswith(f"pp:{CHANNEL_ID}:{after.version}:") for c in game_buttons(shown))
    board_message(await harness.click("bob", shown, button(shown, "end")))
    assert [e.action for e in await harness.bot.manager.storage.log(after.id)] == ["end", "end"]


async def test_seated_players_private_information_never_reaches_a_public_message(harness, monkeypatch):
    from games.core import Event

    engine = all_games()["count"]
    plain_apply = engine.apply

    def apply_with_secrets(state, player, action):  # the fixture game, plus private events to the roller and
        new, events = plain_apply(state, player, action)  # to the next player (who is not the invoker)
        if action.cmd == "roll":
            events.append(Event(text=f"Sealed note for {player}: the table die hides {new.rng.counter}.", to=[player]))
        if action.cmd == "end" and not new.finished:
            nxt = new.players[new.active]
            events.append(Event(text=f"Sealed card for {nxt}: the crown of {new.round}.", to=[nxt]))
        return new, events

    monkeypatch.setattr(engine, "apply", apply_with_secrets)
    start = copy.deepcopy(await open_count(harness, "bob"))  # its "My options" as a client still shows it
    hands = [assert_private_only(await harness.cmd("ann", "game", "hand"), "Your secret bonus"),
             assert_private_only(await harness.click("bob", start, f"pp:opts:{CHANNEL_ID}"), "Your secret bonus")]
    rolled = await harness.cmd("ann", "count", "roll")
    assert "Ann rolls" in board_message(rolled).content
    assert "Sealed note for" in assert_private_only(_only_private(rolled))  # the roller reads it, only privately
    ended = await harness.cmd("ann", "count", "keep")
    ended = await harness.click("ann", board_message(ended), button(board_message(ended), "end"))
    assert not ended.private  # Bob's sealed card is not shown to Ann; Bob has no message of his own to get it in
    assert_private_only(await harness.cmd("cat", "game", "hand"), "no private information")  # a spectator
    assert_private_only(await harness.click("cat", start, f"pp:opts:{CHANNEL_ID}"), "no private information")
    spectator = board_message(await harness.cmd("cat", "game", "status"))
    assert "waiting for Bob" in spectator.content
    await play_to_end(harness)

    secrets = [ln for text in hands for ln in text.splitlines() if "secret bonus" in ln]
    secrets += ["Sealed note for", "Sealed card for"]
    everything = [m for m in harness.double.messages.values()]
    public = "\n".join(m.content + repr(m.embeds) + repr(m.components) for m in everything if not m.ephemeral)
    assert len(secrets) == 4 and public.count("Game over") >= 1
    for secret in secrets:
        assert secret not in public, f"private text in a public message: {secret!r}"
    private = "\n".join(m.content for m in everything if m.ephemeral)
    assert "Sealed card for" not in private  # never sent to someone else in their place
    assert all(s in private for s in secrets[:3])


def _only_private(inter: Interaction) -> Interaction:
    """The interaction with its public board set aside (to read what it said privately)."""
    from dataclasses import replace

    return replace(inter, messages=[m for m in inter.messages if m.ephemeral])


async def test_removing_a_player_and_abandoning_are_for_the_host_or_manage_channel(harness):
    await harness.cmd("ann", "game", "new", game="count", thread=False)
    board_message(await harness.cmd("bob", "game", "join"))
    board_message(await harness.cmd("cat", "game", "join"))
    assert_private_only(await harness.cmd("bob", "game", "kick", player="Cat"), "Only the game's host")
    assert_private_only(await harness.cmd("bob", "game", "abandon"), "Only the game's host")
    kicked = board_message(await harness.cmd("bob", "game", "kick", player="Cat", manage=True))
    assert "Cat was removed" in kicked.content
    assert [s.name for s in (await live(harness)).seats] == ["Ann", "Bob"]
    board_message(await harness.cmd("ann", "game", "start"))
    assert "abandoned" in board_message(await harness.cmd("cat", "game", "abandon", manage=True)).content
    assert await live(harness) is None


async def test_pause_stops_the_clock_and_resume_starts_it_again(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    assert "paused" in board_message(await harness.cmd("bob", "game", "pause")).content
    paused = await live(harness)
    assert paused.deadline_at is None
    assert await harness.bot.pace.tick(now=rec.deadline_at + 1) == []  # no deadline, no nudge
    status = harness.double.messages[paused.meta["status_message"]].content
    assert "(paused)" in status
    assert "resumed" in board_message(await harness.cmd("ann", "game", "resume")).content
    assert (await live(harness)).deadline_at is not None
    assert "<t:" in harness.double.messages[paused.meta["status_message"]].content


async def test_missing_board_permissions_are_said_plainly(harness):
    import discord

    from .discord_double import BOT_PERMS

    if "heroball" not in all_games():
        pytest.skip("needs a game with a board image")
    await harness.cmd("ann", "game", "new", game="heroball", thread=False, seed=7)
    board_message(await harness.cmd("bob", "game", "join"))
    board_message(await harness.cmd("ann", "game", "start"))
    lacking = BOT_PERMS & ~discord.Permissions(attach_files=True, embed_links=True)  # Embed Links is not needed
    inter, payload = harness.double.command_payload(BOB, "Bob", "game", "status", {}, app_perms=lacking)
    shown = await harness.double.run(inter, payload)
    board_message(shown)
    note = "\n".join(m.content for m in shown.private)
    assert "I am missing Attach Files in this channel" in note and "Manage Channel" in note


async def test_autocomplete_offers_rules_topics_scenarios_heroes_and_players(harness):
    for gid, engine in sorted(all_games().items()):
        topics = list(engine.rules_topics())
        offered = await harness.autocomplete("cat", "rules", None, "topic", game=gid, topic="")
        assert offered == topics[:25], gid
        if topics:
            word = topics[-1][:3]
            typed = await harness.autocomplete("cat", "rules", None, "topic", game=gid, topic=word)
            assert typed and topics[-1] in typed and all(word.casefold() in t.casefold() for t in typed)
            answer = await harness.cmd("cat", "rules", None, game=gid, topic=typed[0])
            assert_private_only(answer, typed[0])
    if "quodd" in all_games():
        scenarios = await harness.autocomplete("ann", "game", "new", "scenario", game="quodd", scenario="tu")
        assert scenarios and scenarios[0] == "tutorial"
    if "heroball" in all_games():
        await harness.cmd("ann", "game", "new", game="heroball", thread=False)
        heroes = await harness.autocomplete("bob", "game", "join", "hero", hero="")
        assert 2 <= len(heroes) <= 25
        board_message(await harness.cmd("bob", "game", "join", hero=heroes[0]))
        assert heroes[0] not in await harness.autocomplete("cat", "game", "join", "hero", hero="")  # taken now
        # players are picked with Discord's own user picker (issue 11, defect 6: by id, not by a display name
        # two players may share), so `kick player:` has no autocomplete list of names any more
        game = next(c for c in build_commands() if c.name == "game")
        kick = next(c for c in game.commands if c.name == "kick").parameters[0]
        assert kick.type.name == "user" and not kick.autocomplete


async def test_a_refused_post_of_a_slash_command_move_keeps_the_move_once(harness, caplog):
    await open_count(harness, "bob")
    before = await live(harness)
    harness.double.fail("POST", FOLLOWUP, 403, times=1)
    moved = await harness.cmd("ann", "count", "end")  # hands the turn on: a new message is due
    note = board_message(moved)  # the note fills the "thinking" message: the move counts, no board
    assert "The move by Ann counts" in note.content and "HTTP 403" in note.content and not note.custom_ids
    entries = await harness.bot.manager.storage.log(before.id)
    assert [e.action for e in entries] == ["end"] and (await live(harness)).version == before.version + 1
    shown = board_message(await harness.cmd("bob", "game", "status"))
    assert all(c.startswith(f"pp:{CHANNEL_ID}:{before.version + 1}:") for c in game_buttons(shown))
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_rematch_is_a_slash_command_too(harness):
    await open_count(harness, "bob")
    assert_private_only(await harness.cmd("bob", "game", "rematch"), "Only a finished game")
    await play_to_end(harness)
    old = (await harness.bot.manager.storage.history(CHANNEL_ID, 1))[0]
    assert_private_only(await harness.cmd("cat", "game", "rematch"), "Only the players")
    again = board_message(await harness.cmd("ann", "game", "rematch"))
    assert "Rematch called by Ann" in again.content and game_buttons(again)
    new = await live(harness)
    assert new.id != old.id and new.status == "active" and "status_message" in new.meta
    assert "waiting for" in harness.double.messages[new.meta["status_message"]].content


async def test_preview_is_private_under_game_and_under_each_game_that_previews(harness):
    if "heroball" not in all_games():
        pytest.skip("needs a game with previews")
    await harness.cmd("ann", "game", "new", game="heroball", thread=False, seed=7)
    board_message(await harness.cmd("bob", "game", "join"))
    board_message(await harness.cmd("ann", "game", "start"))
    rec = await live(harness)
    engine = all_games()["heroball"]
    state = engine.load(rec.state)
    who = {v: k for k, v in USERS.items()}[engine.status(state).to_act[0]]
    offered = await harness.autocomplete(who, "game", "preview", "action", action="")
    assert offered
    for group in ("game", "heroball"):
        shown = await harness.cmd(who, group, "preview", action=offered[0])
        assert shown.callback["data"]["flags"] & EPHEMERAL  # deferred privately: nobody else sees even "thinking"
        text = assert_private_only(shown, "Preview of")
        assert "nothing has changed" in text and shown.private[-1].files["board.png"].startswith(PNG)
    assert (await live(harness)).version == rec.version
