"""A lone choice with arguments plays itself (issue 18), end to end on the Discord double: in the dungeon the last
hero left to activate starts by itself, said in the reply and logged under its player; while two players may each
start their one hero, neither is started for them (who goes first is their choice)."""
from __future__ import annotations

from games.core import get_game

from .conftest import USERS
from .replay import Replay

START = ["ann> /game new game:dungeon seed:5 thread:false", "ann> /game join hero:Ruby", "bob> /game join hero:Candy",
         "ann> /game start"]


async def test_the_last_hero_left_to_activate_starts_by_itself_and_two_heroes_of_two_players_wait(harness):
    r = Replay(harness)
    await r.run(START)
    engine = get_game("dungeon")
    rec = await r.live()
    assert rec is not None
    state = r.manager.state_of(rec, engine)
    assert engine.status(state).to_act == [USERS["ann"], USERS["bob"]]  # both may start: nothing played for them
    assert await r.manager.storage.log(rec.id) == []
    assert r.board is not None and "Nothing left to choose" not in r.board.content

    await r.run(["ann> /dungeon activate hero:ruby", "ann> /dungeon end"])
    said = "\n".join(m.content for _, m in r.posted[-3:])
    assert "Nothing left to choose for bob: `activate hero:candy` plays itself." in said
    rec = await r.live()
    assert rec is not None
    log = await r.manager.storage.log(rec.id)
    assert [(e.player, e.action) for e in log] == [(USERS["ann"], "activate hero:ruby"), (USERS["ann"], "end"),
                                                   (USERS["bob"], "activate hero:candy")]
    state = r.manager.state_of(rec, engine)
    assert engine.status(state).phase == "activation" and engine.status(state).to_act == [USERS["bob"]]
