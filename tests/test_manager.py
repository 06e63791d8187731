"""bot/manager.py over the test-only `count` game: the one apply path, generically."""
from __future__ import annotations

import asyncio
import json

from bot.manager import GameManager, replay_export
from bot.reply import Context
from storage import open_storage


def ctx(user: str, channel: str = "c1", manage: bool = False) -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title(), can_manage=manage)


async def started(m: GameManager, channel: str = "c1", seed: int = 5):
    await m.dispatch(ctx("ann", channel), "game", "new", {"game": "count", "seed": seed})
    await m.dispatch(ctx("bob", channel), "game", "join", {"colour": "blue"})
    r = await m.dispatch(ctx("ann", channel), "game", "start", {})
    assert not r.ephemeral, r.text
    return r


async def test_start_pings_who_must_act_and_offers_buttons(manager):
    r = await started(manager)
    assert r.ping == ["ann"]
    assert [b.action for b in r.buttons] == ["add n:1", "add n:2", "roll", "end"]
    assert all(b.player == "ann" for b in r.buttons)


async def test_no_ping_within_a_multi_step_turn(manager):
    await started(manager)
    r = await manager.dispatch(ctx("ann"), "count", "add", {"n": "1"})
    assert r.ping == []
    r = await manager.dispatch(ctx("ann"), "count", "end", {})
    assert r.ping == ["bob"]


async def test_illegal_move_changes_nothing_and_says_what_is_legal(manager):
    await started(manager)
    before = await manager.storage.live_game("c1")
    r = await manager.dispatch(ctx("bob"), "count", "add", {"n": "1"})
    assert r.ephemeral and "not your move" in r.text
    r = await manager.dispatch(ctx("ann"), "count", "add", {"n": "7"})
    assert r.ephemeral and "Legal now" in r.text and "add n:1" in r.text
    after = await manager.storage.live_game("c1")
    assert after.version == before.version and after.state == before.state


async def test_omitted_argument_is_filled_when_unambiguous_and_asked_when_not(manager):
    await started(manager)
    r = await manager.dispatch(ctx("ann"), "count", "add", {})
    assert r.ephemeral and "could mean several" in r.text
    await manager.dispatch(ctx("ann"), "count", "roll", {})
    r = await manager.dispatch(ctx("ann"), "count", "keep", {})
    assert not r.ephemeral


async def test_concurrent_commands_on_one_channel_are_serialised(manager):
    await started(manager)
    results = await asyncio.gather(*[manager.dispatch(ctx("ann"), "count", "add", {"n": "1"}) for _ in range(5)])
    ok = [r for r in results if not r.ephemeral]
    assert len(ok) == 2  # at most two adds per turn: the rest were checked against the new state
    rec = await manager.storage.live_game("c1")
    assert len(await manager.storage.log(rec.id)) == 2


async def test_two_channels_run_independently(manager):
    await started(manager, "c1")
    await started(manager, "c2", seed=9)
    await manager.dispatch(ctx("ann", "c1"), "count", "add", {"n": "2"})
    a = await manager.storage.live_game("c1")
    b = await manager.storage.live_game("c2")
    assert a.version == b.version + 1 and a.id != b.id


async def test_stale_button_is_refused(manager):
    r = await started(manager)
    old = r.version
    await manager.dispatch(ctx("ann"), "count", "add", {"n": "1"})
    stale = await manager.press(ctx("ann"), old, "add n:2")
    assert stale.ephemeral and "out of date" in stale.text
    fresh = await manager.storage.live_game("c1")
    ok = await manager.press(ctx("ann"), fresh.version, "add n:2")
    assert not ok.ephemeral


async def test_restart_resumes_every_game(tmp_path, clock):
    db = str(tmp_path / "r.sqlite3")
    m1 = GameManager(await open_storage(db), clock=clock)
    await started(m1, "c1")
    await started(m1, "c2")
    await m1.dispatch(ctx("ann", "c1"), "count", "add", {"n": "2"})
    before = {c: (await m1.storage.live_game(c)).state for c in ("c1", "c2")}
    await m1.storage.close()
    m2 = GameManager(await open_storage(db), clock=clock)
    for c in ("c1", "c2"):
        rec = await m2.storage.live_game(c)
        assert rec.state == before[c]
        assert (await m2.rebuild_from_log(rec)).model_dump_json() == rec.state
    r = await m2.dispatch(ctx("ann", "c1"), "count", "add", {"n": "1"})
    assert not r.ephemeral
    await m2.storage.close()


async def test_undo_own_action_within_the_turn(manager):
    await started(manager)
    await manager.dispatch(ctx("ann"), "count", "add", {"n": "2"})
    rec = await manager.storage.live_game("c1")
    r = await manager.dispatch(ctx("bob"), "game", "undo", {})
    assert r.ephemeral and "not yours" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert not r.ephemeral and "takes back" in r.text
    after = await manager.storage.live_game("c1")
    assert json.loads(after.state)["totals"] == [0, 0]
    assert after.version == rec.version + 1


async def test_undo_stops_at_dice_and_at_the_end_of_the_turn(manager):
    await started(manager)
    await manager.dispatch(ctx("ann"), "count", "roll", {})
    r = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert r.ephemeral and "`roll` rolled dice or revealed something hidden" in r.text
    await manager.dispatch(ctx("ann"), "count", "keep", {})
    await manager.dispatch(ctx("ann"), "count", "end", {})
    r = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert r.ephemeral and "turn has passed" in r.text


async def test_only_host_or_manager_abandons(manager):
    await started(manager)
    r = await manager.dispatch(ctx("bob"), "game", "abandon", {})
    assert r.ephemeral and "host" in r.text
    r = await manager.dispatch(ctx("cy", manage=True), "game", "abandon", {})
    assert not r.ephemeral
    assert await manager.storage.live_game("c1") is None
    hist = await manager.dispatch(ctx("ann"), "game", "history", {})
    assert "abandoned" in hist.text


async def test_lobby_rules(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count"})
    r = await manager.dispatch(ctx("bob"), "game", "new", {"game": "count"})
    assert r.ephemeral and "already has" in r.text
    r = await manager.dispatch(ctx("bob"), "game", "join", {"colour": "purple"})
    assert r.ephemeral  # the engine refuses a bad choice... via check_seat or choices
    await manager.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    r = await manager.dispatch(ctx("cy"), "game", "join", {"colour": "blue"})
    assert r.ephemeral and "taken" in r.text
    r = await manager.dispatch(ctx("bob"), "game", "start", {})
    assert r.ephemeral and "host" in r.text
    r = await manager.dispatch(ctx("bob"), "count", "add", {"n": "1"})
    assert r.ephemeral and "not started" in r.text


async def test_finished_game_export_replays_identically(manager):
    await started(manager)
    for _ in range(60):
        rec = await manager.storage.live_game("c1")
        if rec is None:
            break
        st = json.loads(rec.state)
        who = st["players"][st["active"]]
        if st["pending_roll"] is not None:
            await manager.dispatch(ctx(who), "count", "keep", {})
        elif st["adds"] < 2:
            await manager.dispatch(ctx(who), "count", "add", {"n": "2"})
        else:
            await manager.dispatch(ctx(who), "count", "end", {})
    assert await manager.storage.live_game("c1") is None
    r = await manager.dispatch(ctx("ann"), "game", "export", {})
    data = json.loads(r.files[0].data)
    s = data["summary"]
    assert s["finished"] is True and s["game"] == "count" and s["result"]["winners"]
    assert {"round", "phase", "to_act", "players"} <= set(s)
    engine, state = replay_export(data)
    rec = (await manager.storage.history("c1"))[0]
    assert engine.dump(state) == rec.state


async def test_export_of_a_running_game_hides_the_seed(manager):
    await started(manager)
    r = await manager.dispatch(ctx("bob"), "game", "export", {})
    assert r.ephemeral
    assert json.loads(r.files[0].data)["seed"] is None


async def test_private_information_only_by_ephemeral_reply(manager):
    await started(manager)
    r = await manager.dispatch(ctx("bob"), "game", "hand", {})
    assert r.ephemeral and "secret bonus" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "status", {})
    assert "secret" not in r.text


async def test_autocomplete_offers_only_legal_values(manager):
    await started(manager)
    assert await manager.suggest(ctx("ann"), "count", "add", "n", {}, "") == ["1", "2"]
    assert await manager.suggest(ctx("bob"), "count", "add", "n", {}, "") == []
    assert await manager.suggest(ctx("ann"), "rules", "", "topic", {"game": "count"}, "w") == ["winning"]


async def test_pause_and_resume_clear_and_restore_the_deadline(manager, clock):
    await started(manager)
    rec = await manager.storage.live_game("c1")
    assert rec.deadline_at == clock.now + 48 * 3600
    await manager.dispatch(ctx("bob"), "game", "pause", {})
    assert (await manager.storage.live_game("c1")).deadline_at is None
    await manager.dispatch(ctx("bob"), "game", "resume", {})
    assert (await manager.storage.live_game("c1")).deadline_at == clock.now + 48 * 3600


async def test_resume_of_a_running_game_and_a_second_pause_change_nothing(manager, clock):
    """`/game resume` on a game that was not paused used to restart the turn's deadline: a late player could
    give themselves a fresh 48 h. A second pause said "paused the game" again. Both are refused, unchanged."""
    await started(manager)
    before = await manager.storage.live_game("c1")
    clock.now += 40 * 3600
    r = await manager.dispatch(ctx("ann"), "game", "resume", {})
    assert r.ephemeral and "not paused" in r.text
    assert (await manager.storage.live_game("c1")).deadline_at == before.deadline_at
    await manager.dispatch(ctx("bob"), "game", "pause", {})
    again = await manager.dispatch(ctx("ann"), "game", "pause", {})
    assert again.ephemeral and "already paused" in again.text
    paused = await manager.storage.live_game("c1")
    assert paused.deadline_at is None and paused.version == before.version + 1


async def test_a_decision_window_waits_its_own_time_then_counts_as_the_default(manager, clock):
    """Reaction windows (Heroball: 12 h, expiry = pass) expire into the game's default answer."""
    await started(manager)
    await manager.dispatch(ctx("ann"), "count", "roll", {})
    rec = await manager.storage.live_game("c1")
    assert rec.deadline_at == clock.now + 3600  # the window's hour, not the 48 h turn deadline
    assert await manager.expire(rec, clock.now + 10) is None  # not yet
    r = await manager.expire(rec, clock.now + 3601)
    assert r is not None and "Time is up" in r.text and "discard" in r.text
    rec = await manager.storage.live_game("c1")
    assert json.loads(rec.state)["pending_roll"] is None
    assert rec.deadline_at == clock.now + 48 * 3600  # back to the turn deadline
    assert await manager.expire(rec, clock.now + 3601) is None


def test_heroball_reaction_window_expires_as_a_pass():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "heroball"))
    from hb_helpers import build, do

    from games.heroball import ENGINE

    s = build("Gorgo@G5, Helen@G6")
    assert ENGINE.timeout(s, {}) is None
    s, _ = do(s, "gorgo", "push target:Helen to:G7")
    assert s.window is not None  # Helen is asked whether to defend
    hours, action = ENGINE.timeout(s, {"reaction_hours": "6"})
    assert hours == 6.0 and action.text() == "pass"
    assert action in ENGINE.legal_actions(s, ENGINE.status(s).to_act[0])


async def test_preview_shows_an_image_only_to_you_and_changes_nothing(manager):
    """`/quodd preview`: the engine's preview on a copy; stored game and version untouched."""
    for line in [("ann", "game", "new", {"game": "quodd", "scenario": "tutorial", "seed": 7}),
                 ("ann", "game", "join", {"hero": "rok"}), ("bob", "game", "join", {}),
                 ("ann", "game", "start", {})]:
        r = await manager.dispatch(ctx(line[0]), line[1], line[2], line[3])
        assert not r.ephemeral, r.text
    rec = await manager.storage.live_game("c1")
    who = manager.state_of(rec)
    from games.core import get_game

    engine = get_game("quodd")
    st = engine.status(who)
    player = st.to_act[0]
    some = engine.legal_actions(who, player)[0]
    r = await manager.dispatch(ctx(player), "quodd", "preview", {"action": some.text()})
    assert r.ephemeral and r.text.startswith("Preview of") and r.image and r.image[:4] == b"\x89PNG"
    after = await manager.storage.live_game("c1")
    assert (after.version, after.state) == (rec.version, rec.state)
    r = await manager.dispatch(ctx(player), "quodd", "preview", {"action": "fly direction:UP"})
    assert r.ephemeral and "Legal now" in r.text


async def test_long_legal_lists_get_no_buttons_unless_the_game_picks_some(manager):
    """114 seed hexes are for autocomplete; the board shows buttons only for the few the game picks (the free
    hexes near the player's hero) and no menu (the rest is longer than a menu holds)."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "heroball", "seed": 3})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    r = await manager.dispatch(ctx("ann"), "game", "start", {})
    assert 0 < len(r.buttons) <= 15 and all(b.action.startswith("seed to:") for b in r.buttons)
    assert r.menus == []


async def test_rebuild_replays_live_games_from_their_logs(manager):
    """The state row is a cache: a damaged or outdated state is rebuilt from the log."""
    from bot.manager import rebuild_all

    await started(manager)
    await manager.dispatch(ctx("ann"), "count", "add", {"n": "2"})
    rec = await manager.storage.live_game("c1")
    assert await rebuild_all(manager, write=False) == [(rec.id, "unchanged")]
    broken = json.loads(rec.state)
    broken["totals"] = [99, 99]
    await manager.storage.update_game(rec, rec.version, state=json.dumps(broken, separators=(",", ":")))
    assert await rebuild_all(manager, write=True) == [(rec.id, "rebuilt")]
    fixed = await manager.storage.live_game("c1")
    assert json.loads(fixed.state)["totals"] == [2, 0]


async def test_boards_drawn_in_worker_processes_are_identical(tmp_path, clock):
    """The bot draws in a process pool (the event loop never waits on drawing): same bytes as a thread."""
    images = []
    for workers in (0, 1):
        m = GameManager(await open_storage(str(tmp_path / f"w{workers}.sqlite3")), clock=clock,
                        render_workers=workers)
        await m.dispatch(ctx("ann"), "game", "new", {"game": "heroball", "seed": 5})
        await m.dispatch(ctx("bob"), "game", "join", {})
        r = await m.dispatch(ctx("ann"), "game", "start", {})
        images.append(r.image)
        m.close()
        await m.storage.close()
    assert images[0] and images[0][:4] == b"\x89PNG" and images[0] == images[1]


async def test_undo_is_the_same_from_the_cache_and_from_the_log(tmp_path, clock):
    """Undo uses the states kept for the turn under way; after a restart it replays the log: same result."""
    db = str(tmp_path / "u.sqlite3")
    m1 = GameManager(await open_storage(db), clock=clock)
    await started(m1)
    await m1.dispatch(ctx("ann"), "count", "add", {"n": "2"})
    await m1.dispatch(ctx("ann"), "count", "add", {"n": "1"})
    await m1.dispatch(ctx("ann"), "game", "undo", {})
    from_cache = (await m1.storage.live_game("c1")).state
    await m1.dispatch(ctx("ann"), "count", "add", {"n": "1"})
    await m1.storage.close()
    m2 = GameManager(await open_storage(db), clock=clock)  # a restart: nothing cached
    await m2.dispatch(ctx("ann"), "game", "undo", {})
    assert (await m2.storage.live_game("c1")).state == from_cache
    r = await m2.dispatch(ctx("ann"), "game", "undo", {})  # and once more, back to the start of the turn
    assert not r.ephemeral and json.loads((await m2.storage.live_game("c1")).state)["totals"] == [0, 0]
    await m2.storage.close()


def test_buttons_shared_by_several_players_name_their_owner():
    """Two players choosing at once must tell their identical buttons apart."""
    from games._template import ENGINE as COUNT
    from games.core import Action, Status

    class Both(type(COUNT)):
        def legal_actions(self, s, player):
            return [Action.of("end")]

    m = GameManager(storage=None)
    state = COUNT.setup({}, [], 1)
    out = m.buttons(Both(), state, Status(phase="x", to_act=["a", "b"]), {"a": "Ann", "b": "Bob"})
    assert [b.label for b in out] == ["Ann: end", "Bob: end"] and [b.player for b in out] == ["a", "b"]


async def test_autocomplete_ignores_case_spaces_and_punctuation(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "dungeon", "seed": 2})
    assert "vonwilding" in await manager.suggest(ctx("bob"), "game", "join", "hero", {}, "Von W") or \
        "Von Wilding" in await manager.suggest(ctx("bob"), "game", "join", "hero", {}, "Von W")


async def test_preview_autocomplete_offers_the_legal_actions(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "dungeon", "seed": 2})
    await manager.dispatch(ctx("ann"), "game", "join", {"hero": "candy"})
    await manager.dispatch(ctx("ann"), "game", "join", {"hero": "ruby"})  # two heroes: which starts is a choice
    await manager.dispatch(ctx("ann"), "game", "start", {})
    offered = await manager.suggest(ctx("ann"), "dungeon", "preview", "action", {}, "")
    assert len(offered) == 2 and all(x.startswith("activate") for x in offered)


# ---- table rules: vote, rematch, preview (the console reaches them as Discord's buttons do) ----------
async def three_at_the_table(m: GameManager, clock) -> object:
    await m.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    await m.dispatch(ctx("cy"), "game", "join", {"colour": "green"})
    assert not (await m.dispatch(ctx("ann"), "game", "start", {})).ephemeral
    rec = await m.storage.live_game("c1")
    clock.now = rec.deadline_at + 1  # Ann missed her deadline
    return rec


async def test_a_vote_before_the_deadline_is_refused(manager):
    await started(manager)
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "end"})
    assert r.ephemeral and "deadline has not passed" in r.text


async def test_the_others_vote_to_skip_the_late_players_turn(manager, clock):
    rec = await three_at_the_table(manager, clock)
    r = await manager.dispatch(ctx("ann"), "game", "vote", {"kind": "skip"})
    assert r.ephemeral and "Only the other seated players" in r.text
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "skip"})
    assert r.ephemeral and "1 of the 2 needed for skipping the turn" in r.text
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "skip"})
    assert r.ephemeral and "counted already" in r.text
    assert (await manager.storage.live_game("c1")).version == rec.version  # a vote is bookkeeping
    r = await manager.dispatch(ctx("cy"), "game", "vote", {"kind": "skip"})
    assert not r.ephemeral and "voted to skip Ann's move: it counts as `end`" in r.text and r.ping == ["bob"]
    log = await manager.storage.log(rec.id)
    assert [(e.player, e.action) for e in log] == [("ann", "end")]


async def test_a_majority_vote_ends_the_game_without_a_result(manager, clock):
    rec = await three_at_the_table(manager, clock)
    assert "1 of the 2" in (await manager.dispatch(ctx("cy"), "game", "vote", {"kind": "end"})).text
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "end"})
    assert not r.ephemeral and r.finished and "voted to end the game" in r.text
    assert (await manager.storage.get_game(rec.id)).status == "abandoned"


async def test_a_vote_button_acknowledges_only_when_the_vote_carries(manager, clock):
    """Context.ack: a counted vote answers at once; the carrying vote acknowledges before the slow part."""
    from dataclasses import replace

    rec = await three_at_the_table(manager, clock)
    acks: list[str] = []

    def pressed(who: str):
        async def ack() -> None:
            acks.append(who)
        return replace(ctx(who), game_id=rec.id, ack=ack)

    assert (await manager.dispatch(pressed("bob"), "game", "vote", {"kind": "end"})).ephemeral
    assert acks == []
    assert not (await manager.dispatch(pressed("cy"), "game", "vote", {"kind": "end"})).ephemeral
    assert acks == ["cy"]


async def test_rematch_reseats_the_players_with_a_new_seed(manager):
    await started(manager)
    r = await manager.dispatch(ctx("bob"), "game", "rematch", {})
    assert r.ephemeral and "Only a finished game" in r.text
    await manager.dispatch(ctx("ann"), "game", "abandon", {})
    r = await manager.dispatch(ctx("bob"), "game", "rematch", {})
    assert r.ephemeral and "Only a finished game" in r.text  # an abandoned game has no rematch
    await started(manager, seed=8)
    for _ in range(60):
        rec = await manager.storage.live_game("c1")
        if rec is None:
            break
        st = json.loads(rec.state)
        who = st["players"][st["active"]]
        if st["adds"] < 2:
            await manager.dispatch(ctx(who), "count", "add", {"n": "2"})
        else:
            await manager.dispatch(ctx(who), "count", "end", {})
    old = (await manager.storage.history("c1", 1))[0]
    assert old.status == "finished"
    r = await manager.dispatch(ctx("cy"), "game", "rematch", {})
    assert r.ephemeral and "Only the players" in r.text
    r = await manager.dispatch(ctx("bob"), "game", "rematch", {})
    assert not r.ephemeral and r.opened and "Rematch called by Bob" in r.text and "begins" in r.text
    new = await manager.storage.live_game("c1")
    assert new.status == "active" and new.id != old.id and new.seed != old.seed and new.host_id == "bob"
    assert [(s.player, s.choices) for s in new.seats] == [("bob", {"colour": "blue"}), ("ann", {})]
    assert new.options == old.options and r.buttons


async def test_game_preview_works_for_every_game_that_previews(manager):
    from games.core import get_game

    r = await manager.dispatch(ctx("ann"), "game", "preview", {"action": "add n:1"})
    assert r.ephemeral and "no game" in r.text
    await started(manager)
    r = await manager.dispatch(ctx("ann"), "game", "preview", {"action": "add n:1"})
    assert r.ephemeral and "Count has no previews" in r.text
    await manager.dispatch(ctx("ann"), "game", "abandon", {})
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "heroball", "seed": 3})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    rec = await manager.storage.live_game("c1")
    engine = get_game("heroball")
    state = manager.state_of(rec)
    player = engine.status(state).to_act[0]
    some = engine.legal_actions(state, player)[0].text()
    assert some in await manager.suggest(ctx(player), "game", "preview", "action", {}, "")
    for group in ("game", "heroball"):
        r = await manager.dispatch(ctx(player), group, "preview", {"action": some})
        assert r.ephemeral and r.text.startswith("Preview of") and r.image[:4] == b"\x89PNG", r.text
    after = await manager.storage.live_game("c1")
    assert (after.version, after.state) == (rec.version, rec.state)


def test_every_game_that_previews_has_one_preview_command():
    from bot import commands
    from games.core import all_games

    assert "preview" in {c.name for c in commands.game_group()}
    for gid, engine in all_games().items():
        names = [c.name for c in commands.groups()[gid]]
        assert names.count("preview") == (1 if commands.previews(engine) else 0), gid
    assert commands.previews(all_games()["heroball"]) and not commands.previews(all_games()["count"])


# ---- one door: binding, the command map, errors --------------------------------------------------
def test_every_game_command_has_a_handler_and_every_handler_a_command():
    from bot import commands

    m = GameManager(storage=None)  # type: ignore[arg-type]
    assert set(m.handlers) == {spec.name for spec in commands.game_group()}


async def test_an_option_a_command_does_not_take_is_the_callers_mistake(manager):
    await started(manager)
    r = await manager.dispatch(ctx("ann"), "game", "status", {"loud": True})
    assert r.ephemeral and "`/game status` does not take those options." in r.text


async def test_a_type_error_inside_an_engine_is_a_logged_bug_not_a_bad_option(manager, monkeypatch, caplog):
    """Only binding the options may answer "does not take those options"; a rules bug says it is ours."""
    import logging

    from games.core import get_game

    await started(manager)
    before = await manager.storage.live_game("c1")

    def broken(state, player, action):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")

    monkeypatch.setattr(get_game("count"), "apply", broken)
    caplog.set_level(logging.INFO)
    for r in (await manager.dispatch(ctx("ann"), "count", "add", {"n": "1"}),
              await manager.press(ctx("ann"), before.version, "add n:1")):
        assert r.ephemeral and "went wrong on my side" in r.text and "does not take" not in r.text
    bugs = [rec for rec in caplog.records if rec.levelname == "ERROR" and "unsupported operand" in rec.getMessage()]
    assert len(bugs) == 2 and all(rec.exc_info for rec in bugs)  # logged with the traceback
    after = await manager.storage.live_game("c1")
    assert (after.version, after.state) == (before.version, before.state)


# ---- the Reply carries everything a transport posts --------------------------------------------
async def test_a_press_is_checked_against_the_stored_board_its_owner_and_its_version(manager):
    r = await started(manager)
    acks: list[str] = []

    def pressing(who: str):
        from dataclasses import replace

        async def ack() -> None:
            acks.append(who)
        return replace(ctx(who), ack=ack)

    refused = await manager.press(pressing("bob"), r.version, "end")
    assert refused.ephemeral and refused.text.startswith("That button is not yours to use.") and not refused.stale
    refused = await manager.press(pressing("bob"), r.version, "end", menu="end")
    assert refused.text.startswith("That menu is not yours to use.")
    assert acks == []  # refused before acknowledging: a transport can answer privately at once
    await manager.remember_board(r.game_id, r.version, "https://example.test/board-1")
    moved = await manager.press(pressing("ann"), r.version, "#1")  # the second button, carried by its index
    assert not moved.ephemeral and "Ann adds 2." in moved.text and acks == ["ann"]
    stale = await manager.press(pressing("ann"), r.version, "end")
    assert stale.ephemeral and stale.stale and "out of date" in stale.text
    assert stale.board_url == ""  # the board remembered is older than the game: no link rather than a wrong one
    await manager.remember_board(moved.game_id, moved.version, "https://example.test/board-2")
    stale = await manager.press(pressing("ann"), r.version, "end")
    assert stale.stale and stale.board_url == "https://example.test/board-2" and acks == ["ann"]


async def test_public_replies_carry_the_status_message_and_where_it_stands(manager):
    opened = await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    assert opened.opened and opened.status_message.text.startswith("**Game status** · **Count** lobby")
    assert opened.status_message.message_id is None  # not posted yet
    await manager.remember_status(opened.game_id, "c1", "555", True)
    await manager.dispatch(ctx("bob"), "game", "join", {})
    r = await manager.dispatch(ctx("ann"), "game", "start", {})
    status = r.status_message
    assert (status.channel_id, status.message_id, status.pinned, status.over) == ("c1", "555", True, False)
    assert status.text == f"**Game status** · {r.status_text}"
    assert (await manager.dispatch(ctx("bob"), "game", "hand", {})).status_message is None  # private: untouched
    over = await manager.dispatch(ctx("ann"), "game", "abandon", {})
    assert over.status_message.over and "was abandoned" in over.status_message.text


def test_menus_offer_the_legal_actions_the_buttons_leave_out():
    from bot.table import Table
    from games._template import ENGINE as COUNT
    from games.core import Action, Status

    class Many(type(COUNT)):
        def legal_actions(self, s, player):
            return [Action.of("end"), *(Action.of("add", n=str(n)) for n in range(1, 9))]

        def button_actions(self, s, player, legal):
            return legal[:2]

    state = COUNT.setup({}, [], 1)
    buttons, menus = Table(storage=None).controls(Many(), state, Status(phase="x", to_act=["a"]))  # type: ignore[arg-type]
    assert [b.action for b in buttons] == ["end", "add n:1"]
    assert [(m.player, m.cmd) for m in menus] == [("a", "add")]
    assert [v for _, v in menus[0].options] == [f"add n:{n}" for n in range(2, 9)]


def test_the_platform_keeps_preview_for_a_game_that_stops_declaring_it(monkeypatch):
    """`/quodd preview` and `/dungeon preview` work whether the game declares the command or not."""
    from bot import commands
    from bot.parsing import parse_command
    from games.core import all_games

    for gid in ("quodd", "dungeon"):
        engine = all_games()[gid]
        monkeypatch.setattr(type(engine), "commands", tuple(c for c in engine.commands if c.name != "preview"))
        names = [c.name for c in commands.groups()[gid]]
        assert names[-1] == "preview" and names.count("preview") == 1
        assert parse_command(f'/{gid} preview action:"move to:C4"').options == {"action": "move to:C4"}


async def test_undo_across_a_new_part_of_ones_own_turn_says_so_not_that_the_turn_passed(manager):
    """A dungeon hero's activation begins a new part of the player's turn: undo stops there, and used to say "Your
    turn has passed on" while the same player was still acting."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "dungeon", "seed": 5})
    await manager.dispatch(ctx("bob"), "game", "join", {"hero": "ruby"})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    act = await manager.dispatch(ctx("bob"), "dungeon", "activate", {"hero": "ruby"})
    assert not act.ephemeral and "activates Ruby" in act.text, act.text
    r = await manager.dispatch(ctx("bob"), "game", "undo", {})
    assert r.ephemeral and "`activate hero:ruby` began a new turn or a new part of your turn" in r.text, r.text
    assert "passed on" not in r.text
