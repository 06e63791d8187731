"""Deadlines and reminders: which nudge is due when, and how it reaches Discord."""
from __future__ import annotations

import copy

from bot.pace import latest_slot, nudge_kind
from storage import GameRecord

from .conftest import USERS
from .discord_double import CHANNEL_ID
from .test_discord_e2e import assert_private_only, board_message, button, live, open_count

H = 3600.0


def record(deadline: float, **settings) -> GameRecord:
    return GameRecord(channel_id="c", kind="count", host_id="a", seed=1, status="active", deadline_at=deadline,
                      settings={"deadline_hours": 48, "reminder_hours": 24, **settings})


def test_reminder_slots_count_back_from_the_deadline_and_on_after_it():
    d = 100 * H
    assert latest_slot(d, 48 * H, 24 * H, d - 30 * H) is None  # 18 h after the move: nothing yet
    assert latest_slot(d, 48 * H, 24 * H, d - 23 * H) == d - 24 * H
    assert latest_slot(d, 48 * H, 24 * H, d) == d
    assert latest_slot(d, 48 * H, 24 * H, d + 25 * H) == d + 24 * H
    assert latest_slot(d, 10 * H, 24 * H, d - 1) == d - 5 * H  # interval longer than the deadline: once halfway


def test_each_nudge_is_due_once_and_never_while_paused():
    d = 100 * H
    rec = record(d)
    assert nudge_kind(rec, d - 25 * H, d - 23 * H) == ("reminder", d - 24 * H)
    assert nudge_kind(rec, d - 23 * H, d - 22 * H) is None  # the same slot, next tick
    assert nudge_kind(rec, d - 1, d + 1) == ("deadline", d)
    assert nudge_kind(rec, d + 23 * H, d + 24 * H) == ("overdue", d + 24 * H)
    assert nudge_kind(record(d, paused=True), d - 1, d + 1) is None


async def test_a_missed_deadline_pings_who_must_act_and_the_others_vote_to_end(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    pace = harness.bot.pace
    reminders = await pace.tick(now=rec.deadline_at - 23 * H)
    assert [n.kind for n in reminders] == ["reminder"]
    assert await pace.tick(now=rec.deadline_at - 22 * H) == []  # not twice
    assert [n.kind for n in await pace.tick(now=rec.deadline_at + 1)] == ["deadline"]
    posted = [m for m in harness.double.messages.values() if m.interaction_id is None and "deadline" in m.content]
    reminder, deadline = posted[-2], posted[-1]
    assert reminder.channel_id == CHANNEL_ID and f"<@{USERS['ann']}>" in reminder.content
    assert reminder.posted_mentions["users"] == [int(USERS["ann"])]
    assert f"pp:vote:{rec.id}" in deadline.custom_ids and f"pp:vote:{rec.id}" not in reminder.custom_ids

    harness.bot.manager.clock = lambda: rec.deadline_at + 2  # the vote happens after the deadline
    refused = await harness.click("ann", deadline, f"pp:vote:{rec.id}")  # the late player does not vote
    assert_private_only(refused, "Only the other seated players")
    ended = board_message(await harness.click("bob", deadline, f"pp:vote:{rec.id}"))
    assert "voted to end the game" in ended.content
    assert await live(harness) is None
    assert (await harness.bot.manager.storage.get_game(rec.id)).status == "abandoned"


async def test_the_other_players_vote_to_skip_a_missed_turn(harness):
    start = copy.deepcopy(await open_count(harness, "bob", "cat"))  # as a client still showing Ann's board
    rec = await live(harness)
    pace = harness.bot.pace
    assert [n.kind for n in await pace.tick(now=rec.deadline_at + 1)] == ["deadline"]
    notice = [m for m in harness.double.messages.values() if m.interaction_id is None and "deadline" in m.content][-1]
    assert "vote to skip the turn or end the game" in notice.content
    skip = f"pp:skip:{rec.id}"
    assert skip in notice.custom_ids and f"pp:vote:{rec.id}" in notice.custom_ids

    harness.bot.manager.clock = lambda: rec.deadline_at + 2
    assert_private_only(await harness.click("ann", notice, skip), "Only the other seated players")
    counted = await harness.click("bob", notice, skip)
    assert_private_only(counted, "1 of the 2 needed for skipping the turn")
    assert_private_only(await harness.click("bob", notice, skip), "counted already")
    after_one = await live(harness)
    assert after_one.version == rec.version  # a vote is bookkeeping: Ann's buttons stay valid
    assert after_one.meta["skip_votes"]["voters"] == [USERS["bob"]]

    carried = await harness.click("cat", notice, skip)
    assert carried.callback["type"] == 5  # deferred before the skip is applied and drawn
    skipped = board_message(carried)
    assert "voted to skip Ann's move: it counts as `end`" in skipped.content
    assert skipped.posted_mentions["users"] == [int(USERS["bob"])]  # the next player is pinged
    now = await live(harness)
    assert now.version == rec.version + 1 and now.deadline_at > rec.deadline_at
    entries = await harness.bot.manager.storage.log(now.id)
    assert [(e.player, e.action) for e in entries] == [(USERS["ann"], "end")]
    # the vote is over: more clicks on the old notice change nothing, Ann's old board is stale
    assert_private_only(await harness.click("bob", notice, skip), "deadline has not passed")
    assert_private_only(await harness.click("ann", start, button(start, "end")), "out of date")
    assert (await live(harness)).version == now.version


async def test_a_skip_vote_does_not_apply_after_the_late_player_moved(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    pace = harness.bot.pace
    await pace.tick(now=rec.deadline_at + 1)
    notice = [m for m in harness.double.messages.values() if m.interaction_id is None and "deadline" in m.content][-1]
    harness.bot.manager.clock = lambda: rec.deadline_at + 2
    board_message(await harness.cmd("ann", "count", "add", n="2"))  # Ann moves at last: a new deadline
    refused = await harness.click("bob", notice, f"pp:skip:{rec.id}")
    assert_private_only(refused, "deadline has not passed")
    assert [e.action for e in await harness.bot.manager.storage.log(rec.id)] == ["add n:2"]
    stale = await harness.bot.manager.skip(rec, USERS["ann"])  # the record the vote read, before Ann moved
    assert stale.ephemeral and "moved on" in stale.text
    assert [e.action for e in await harness.bot.manager.storage.log(rec.id)] == ["add n:2"]


async def test_an_expired_decision_window_is_answered_and_offers_no_vote(harness):
    await open_count(harness, "bob")
    board_message(await harness.cmd("ann", "count", "roll"))  # keep or discard within the hour
    rec = await live(harness)
    assert [n.kind for n in await harness.bot.pace.tick(now=rec.deadline_at + 1)] == ["expired"]
    posted = [m for m in harness.double.messages.values() if m.interaction_id is None and "Time is up" in m.content]
    assert len(posted) == 1 and "counts as `discard`" in posted[0].content
    assert not [c for c in posted[0].custom_ids if c.startswith(("pp:vote:", "pp:skip:"))]
    assert [e.action for e in await harness.bot.manager.storage.log(rec.id)] == ["roll", "discard"]
    # its buttons are for the board after the answer (they used to carry the version before it, stale at once)
    now = await live(harness)
    actions = [c for c in posted[0].custom_ids if c.startswith(f"pp:{CHANNEL_ID}:")]
    assert actions and all(c.startswith(f"pp:{CHANNEL_ID}:{now.version}:") for c in actions)
    board_message(await harness.click("ann", posted[0], button(posted[0], "end")))


async def test_a_deadline_missed_while_the_bot_was_down_is_announced_once_after_the_restart(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    await harness.stop_bot()  # down across the deadline
    await harness.start_bot()
    late = rec.deadline_at + 5 * H

    def notices() -> list:
        return [m for m in harness.double.messages.values() if m.interaction_id is None and "passed" in m.content]

    assert [n.kind for n in await harness.bot.pace.tick(now=late)] == ["deadline"]
    assert len(notices()) == 1 and f"pp:vote:{rec.id}" in notices()[0].custom_ids
    assert await harness.bot.pace.tick(now=late + 60) == []
    await harness.stop_bot()
    await harness.start_bot()
    assert await harness.bot.pace.tick(now=late + 120) == []  # posted once, whatever the restarts
    assert [n.kind for n in await harness.bot.pace.tick(now=rec.deadline_at + 24 * H)] == ["overdue"]
    assert len(notices()) == 2 and (await live(harness)).version == rec.version  # bookkeeping only


async def test_a_nudge_discord_failed_to_post_comes_again_next_tick(harness):
    await open_count(harness, "bob")
    rec = await live(harness)
    harness.double.fail("POST", rf"/channels/{CHANNEL_ID}/messages", 500, times=5)  # discord.py gives up
    harness.bot.pace.post = _without_retry_waits(harness.bot.pace.post)
    assert await harness.bot.pace.tick(now=rec.deadline_at + 1) == []
    assert [n.kind for n in await harness.bot.pace.tick(now=rec.deadline_at + 61)] == ["deadline"]


def _without_retry_waits(post):
    """discord.py waits 1, 3, 5, 7 s between retries of a 5xx; the test need not."""
    import discord.http

    async def quick(nudge):
        real = discord.http.asyncio.sleep

        async def no_wait(delay, *args, **kwargs):
            return await real(0)

        discord.http.asyncio.sleep = no_wait
        try:
            return await post(nudge)
        finally:
            discord.http.asyncio.sleep = real

    return quick


async def test_the_vote_is_a_slash_command_too(harness):
    await open_count(harness, "bob", "cat")
    rec = await live(harness)
    harness.bot.manager.clock = lambda: rec.deadline_at + 2
    counted = await harness.cmd("bob", "game", "vote", kind="skip")
    assert_private_only(counted, "1 of the 2 needed for skipping the turn")
    carried = board_message(await harness.cmd("cat", "game", "vote", kind="skip"))
    assert "voted to skip Ann's move: it counts as `end`" in carried.content
    assert carried.posted_mentions["users"] == [int(USERS["bob"])]
    status = harness.double.messages[rec.meta["status_message"]].content
    assert "waiting for Bob" in status  # the status message follows a carried vote


def stub_replays(harness) -> list[int]:
    """The transport's side of the end-of-game replay: which games it asked for (the drawing itself, in the
    render pool, is tested with a real game in test_games_e2e and tests/test_replay.py)."""
    from bot.reply import Attachment, Reply

    asked: list[int] = []
    real = harness.bot.manager.end_replay

    async def end_replay(game_id: int) -> Reply | None:
        asked.append(game_id)
        if await real.__self__.table.storage.get_game(game_id) is None:
            return None
        return Reply(text=f"Replay of game #{game_id}.", files=[Attachment(name="replay.gif", data=b"GIF89a")])

    harness.bot.flows.replay_at_end = True
    harness.bot.manager.end_replay = end_replay
    return asked


def replays_posted(harness) -> list:
    return [m for m in harness.double.messages.values() if any(n.endswith(".gif") for n in m.files)]


async def test_a_game_ended_by_a_deadline_answer_posts_its_replay_like_a_last_move(harness, monkeypatch):
    """Issue 18: the replay follows the end of a game however it ends; here the expired window's answer ends it."""
    from games._template.phases import over

    asked = stub_replays(harness)
    await open_count(harness, "bob")
    board_message(await harness.cmd("ann", "count", "roll"))
    rec = await live(harness)
    monkeypatch.setattr(over, "HOUSE", over.HOUSE.model_copy(update={"win_at": 1}))  # any total ends it now
    assert [n.kind for n in await harness.bot.pace.tick(now=rec.deadline_at + 1)] == ["expired"]
    assert (await harness.bot.manager.storage.get_game(rec.id)).status == "finished"
    gifs = replays_posted(harness)
    assert asked == [rec.id] and len(gifs) == 1 and gifs[0].channel_id == CHANNEL_ID
    answered = [m for m in harness.double.messages.values() if "Time is up" in m.content]
    assert int(gifs[0].id) > int(answered[-1].id)  # after the answer that ended it


async def test_a_window_answered_by_the_deadline_without_ending_the_game_posts_no_replay(harness):
    asked = stub_replays(harness)
    await open_count(harness, "bob")
    board_message(await harness.cmd("ann", "count", "roll"))
    rec = await live(harness)
    assert [n.kind for n in await harness.bot.pace.tick(now=rec.deadline_at + 1)] == ["expired"]
    assert asked == [] and not replays_posted(harness)


async def test_a_game_ended_by_the_players_vote_posts_its_replay(harness):
    asked = stub_replays(harness)
    await open_count(harness, "bob")
    board_message(await harness.cmd("ann", "count", "add", n="2"))
    board_message(await harness.cmd("ann", "count", "end"))
    rec = await live(harness)
    await harness.bot.pace.tick(now=rec.deadline_at + 1)
    notice = [m for m in harness.double.messages.values() if m.interaction_id is None and "deadline" in m.content][-1]
    harness.bot.manager.clock = lambda: rec.deadline_at + 2
    board_message(await harness.click("ann", notice, f"pp:vote:{rec.id}"))
    assert (await harness.bot.manager.storage.get_game(rec.id)).status == "abandoned"
    assert asked == [rec.id] and len(replays_posted(harness)) == 1
