"""Issue 11's numbered defects that the platform answers for every game (each test failed before its fix)."""
from __future__ import annotations

import json

import pytest

from bot.commands import game_group
from bot.console import transcript_output
from bot.manager import GameManager
from bot.parsing import parse_command
from bot.reply import Context
from games._template.engine import CountGame
from games.core import Action, Event, MalformedAction, Rng, get_game
from games.core.actions import ECHO_LIMIT, echo
from storage import open_storage


def ctx(user: str, name: str | None = None, channel: str = "c1") -> Context:
    return Context(channel_id=channel, user_id=user, user_name=name or user.title())


@pytest.fixture
async def m(tmp_path):
    """A manager on SQLite without boards: these tests read texts, records and logs."""
    seeds = iter(range(100, 10_000))
    store = await open_storage(str(tmp_path / "d.sqlite3"))
    manager = GameManager(store, render=False, seed_source=lambda: next(seeds))
    yield manager
    manager.close()
    await store.close()


async def started(m: GameManager, seed: int | None = None) -> None:
    opts: dict = {"game": "count"} | ({"seed": seed} if seed is not None else {})
    await m.dispatch(ctx("ann"), "game", "new", opts)
    await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    r = await m.dispatch(ctx("ann"), "game", "start", {})
    assert not r.ephemeral, r.text


# ---- 1. previews see a re-sampled state --------------------------------------------------------------------
async def test_a_preview_runs_on_a_state_whose_dice_are_not_the_games(m, monkeypatch):
    """The platform hands the game's preview a `redact`ed copy: the generator re-seeded from public facts only."""
    seen: list[Rng] = []

    def preview(self, state, player, action):
        seen.append(state.rng)
        return self.apply(state, player, action)

    monkeypatch.setattr(CountGame, "preview", preview)
    await started(m, seed=5)
    rec = await m.storage.live_game("c1")
    real = m.state_of(rec).rng
    r = await m.dispatch(ctx("ann"), "game", "preview", {"action": "roll"})
    assert r.ephemeral and "rolls" in r.text, r.text
    assert seen and seen[0].seed != real.seed and seen[0] != real
    assert (await m.storage.live_game("c1")).version == rec.version  # nothing changed


def test_the_default_redaction_reseeds_the_generator_and_leaves_the_state_alone():
    engine = get_game("count")
    from games.core import Seat
    st = engine.setup({}, [Seat(player="ann", name="Ann")], 7)
    out = engine.redact(st, "ann", Rng(seed=99))
    assert out.rng.seed != st.rng.seed and st.rng == Rng(seed=7, counter=st.rng.counter)
    assert out.model_dump(exclude={"rng"}) == st.model_dump(exclude={"rng"})


# ---- 2. the platform decides what is irreversible ----------------------------------------------------------
async def test_an_action_that_moved_the_generator_is_a_barrier_whatever_its_events_say(m, monkeypatch):
    """A game forgets to mark its roll irreversible: the platform still sees the generator move."""
    real_apply = CountGame.apply

    def forgetful(self, state, player, action):
        new, events = real_apply(self, state, player, action)
        return new, [Event(text=e.text, to=e.to) for e in events]

    monkeypatch.setattr(CountGame, "apply", forgetful)
    await started(m)
    r = await m.dispatch(ctx("ann"), "count", "roll", {})
    assert not r.ephemeral, r.text
    undo = await m.dispatch(ctx("ann"), "game", "undo", {})
    assert undo.ephemeral and "cannot be undone" in undo.text, undo.text
    rec = await m.storage.live_game("c1")
    assert (await m.storage.log(rec.id))[-1].barrier
    # an action that touches nothing hidden stays undoable
    await m.dispatch(ctx("ann"), "count", "keep", {})
    undo = await m.dispatch(ctx("ann"), "game", "undo", {})
    assert not undo.ephemeral and "takes back `keep`" in undo.text, undo.text


# ---- 4. integer ranges -------------------------------------------------------------------------------------
async def test_a_huge_seed_is_refused_in_the_console_not_a_crash(tmp_path):
    script = tmp_path / "huge.txt"
    script.write_text("ann> /game new game:count seed:99999999999999999999\n"
                      "ann> /game new game:count seed:-1\n"
                      "ann> /game new game:count seed:9223372036854775807\n", encoding="utf-8")
    out = await transcript_output(script, tmp_path)
    assert out.count("`seed` must be between 0 and 9,223,372,036,854,775,807") == 2, out
    assert "opened a game of **Count**" in out  # the largest seed storage holds is fine


async def test_every_int_option_has_a_range_checked_before_use(m):
    for spec in game_group():
        for opt in spec.options:
            if opt.kind == "int":
                assert opt.min is not None and opt.max is not None, f"/game {spec.name} {opt.name}"
    for line in ("/game log count:0", "/game log count:100000000000000000000000",
                 "/game settings deadline:999999999999999999999", "/game new game:count deadline:0"):
        with pytest.raises(MalformedAction, match="must be between"):
            parse_command(line)
    # a transport that skips the console's parser (Discord) meets the same check in the command
    r = await m.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 2**70})
    assert r.ephemeral and "must be between" in r.text and await m.storage.live_game("c1") is None
    await started(m)
    r = await m.dispatch(ctx("ann"), "game", "log", {"count": 10**30})
    assert r.ephemeral and "must be between 1 and 50" in r.text
    r = await m.dispatch(ctx("ann"), "game", "settings", {"reminder": -5})
    assert r.ephemeral and "must be between 1 and 720" in r.text


# ---- 5. an option given twice, in any case -----------------------------------------------------------------
@pytest.mark.parametrize("line", ["/count add n:1 N:2", "/count add n:1 n:2", "/game new game:count GAME:count"])
def test_an_option_given_twice_is_refused_whatever_its_case(line):
    with pytest.raises(MalformedAction, match="given twice"):
        parse_command(line)


def test_an_action_with_an_option_twice_is_refused_whatever_its_case():
    with pytest.raises(MalformedAction, match="given twice"):
        Action.parse("step to:A4 TO:A5")


# ---- 6. players are picked by user id -----------------------------------------------------------------------
async def test_kick_by_a_shared_name_is_refused_and_by_id_removes_one_seat(m):
    await m.dispatch(ctx("111", "Ann"), "game", "new", {"game": "count"})
    await m.dispatch(ctx("222", "Sam"), "game", "join", {"colour": "blue"})
    await m.dispatch(ctx("333", "Sam"), "game", "join", {"colour": "green"})
    r = await m.dispatch(ctx("111", "Ann"), "game", "kick", {"player": "Sam"})
    assert r.ephemeral and "2 seated players are called `Sam`" in r.text, r.text
    assert [s.player for s in (await m.storage.live_game("c1")).seats] == ["111", "222", "333"]
    r = await m.dispatch(ctx("111", "Ann"), "game", "kick", {"player": "333"})  # Discord's user option: the id
    assert not r.ephemeral and "Sam was removed" in r.text, r.text
    assert [s.player for s in (await m.storage.live_game("c1")).seats] == ["111", "222"]
    r = await m.dispatch(ctx("111", "Ann"), "game", "kick", {"player": "<@222>"})  # a mention
    assert not r.ephemeral, r.text
    assert [s.player for s in (await m.storage.live_game("c1")).seats] == ["111"]


async def test_kick_by_a_name_only_one_player_has_still_works(m):
    await m.dispatch(ctx("ann"), "game", "new", {"game": "count"})
    await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    r = await m.dispatch(ctx("ann"), "game", "kick", {"player": "@Bob"})
    assert not r.ephemeral and "Bob was removed" in r.text, r.text


def test_kick_is_discords_user_option():
    kick = next(c for c in game_group() if c.name == "kick")
    assert [o.kind for o in kick.options] == ["user"]
    from bot.discord_adapter.app import build_commands
    game = next(c for c in build_commands() if c.name == "game")
    option = next(c for c in game.commands if c.name == "kick").parameters[0]
    assert option.type.name == "user"


# ---- 7. a refusal quotes at most a short prefix of what was typed ------------------------------------------
async def test_a_refusal_never_repeats_a_long_value(m):
    await started(m)
    huge = "x" * 10_000
    replies = [
        await m.dispatch(ctx("ann"), "count", "add", {"n": huge}),
        await m.dispatch(ctx("ann"), "count", huge, {}),
        await m.dispatch(ctx("ann"), "game", "kick", {"player": huge}),
        await m.dispatch(ctx("ann"), "game", "preview", {"action": f"add n:{huge}"}),
        await m.dispatch(ctx("ann"), "rules", "", {"game": "count", "topic": huge}),
        await m.dispatch(ctx("ann"), "game", "join", {"colour": huge}),
    ]
    for r in replies:
        assert r.ephemeral and len(r.text) < 600 and "x" * (ECHO_LIMIT + 1) not in r.text, r.text[:300]
    for line in (f"/count add n:{huge}", f"/game new game:count seed:{huge}", f"/{huge}",
                 f"/game {huge}", f"/game new game:{huge}", f"/count add {huge}:1"):
        with pytest.raises(MalformedAction) as exc:
            parse_command(line)
        said = exc.value.reason + exc.value.hint
        assert len(said) < 600 and "x" * (ECHO_LIMIT + 1) not in said, said[:300]


def test_echo_keeps_a_short_value_whole_and_cuts_a_long_one():
    assert echo("C4") == "C4"
    assert echo("y" * 500) == "y" * ECHO_LIMIT + "..."


# ---- 10. a seed the host chose is announced --------------------------------------------------------------
async def test_a_chosen_seed_is_announced_shown_in_the_status_and_marked_in_the_export(m):
    r = await m.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    assert "The host chose the seed (5)" in r.text, r.text
    await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    r = await m.dispatch(ctx("ann"), "game", "start", {})
    assert "seed 5 chosen by the host" in r.status_text
    r = await m.dispatch(ctx("ann"), "game", "status", {})
    assert "seed 5 chosen by the host" in r.text
    r = await m.dispatch(ctx("ann"), "game", "export", {})
    data = json.loads(r.files[0].data)
    assert data["seeded_by_host"] is True and data["seed"] is None  # the seed itself only once it is over


async def test_a_drawn_seed_is_not_announced(m):
    r = await m.dispatch(ctx("ann"), "game", "new", {"game": "count"})
    assert "seed" not in r.text, r.text
    await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    r = await m.dispatch(ctx("ann"), "game", "start", {})
    assert "seed" not in r.status_text
    r = await m.dispatch(ctx("ann"), "game", "export", {})
    assert json.loads(r.files[0].data)["seeded_by_host"] is False


def test_a_game_commands_player_option_takes_ids_and_refuses_a_shared_name():
    """Quodd's `steal from:` is a user option: the platform turns a mention or a unique name into the user id
    before the rules see it, and refuses a name two seated players share."""
    from bot.table import players_by_id
    from games.core import IllegalAction
    from storage import GameRecord, SeatRecord

    rec = GameRecord(channel_id="c", kind="quodd", host_id="111", seed=1,
                     seats=[SeatRecord(player="111", name="Ann"), SeatRecord(player="222", name="Sam"),
                            SeatRecord(player="333", name="Sam")])
    quodd = get_game("quodd")
    assert next(o for c in quodd.commands if c.name == "steal" for o in c.options if o.name == "from").kind == "user"
    assert players_by_id(rec, quodd, Action.parse("steal from:<@333> item:blue-crystal")).get("from") == "333"
    assert players_by_id(rec, quodd, Action.parse("steal from:ann")).get("from") == "111"
    with pytest.raises(IllegalAction, match="2 seated players are called `Sam`"):
        players_by_id(rec, quodd, Action.parse("steal from:Sam"))
    assert players_by_id(rec, quodd, Action.parse("tumble direction:N")) == Action.parse("tumble direction:N")
