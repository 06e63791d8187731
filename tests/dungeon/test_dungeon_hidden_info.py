"""Hidden information through the platform: a preview knows only what the player may know, and an action that
reveals something hidden can never be taken back (issue 11, defects 1 and 2)."""
from __future__ import annotations

import re

import pytest
from dhelpers import E, scene

from bot.manager import GameManager
from bot.reply import Context
from storage import open_storage

DROP = re.compile(r"(\w[\w' ]*) drops at C10")


def ctx(channel: str) -> Context:
    return Context(channel_id=channel, user_id="ann", user_name="Ann")


async def _ruby_kept_roll_pending(m: GameManager, channel: str, seed: int, dice) -> None:
    """Ruby has rolled B2 B2 against an elite Flinger (it has no defence dice) and may reroll or keep:
    `keep` destroys the Flinger, and an elite always drops the top loot card."""
    await m.dispatch(ctx(channel), "game", "new", {"game": "dungeon", "seed": seed, "thread": False})
    await m.dispatch(ctx(channel), "game", "join", {"hero": "ruby"})
    r = await m.dispatch(ctx(channel), "game", "start", {})
    assert not r.ephemeral, r.text
    rec = await m.storage.live_game(channel)
    st = scene("ruby@B10", "flinger@C10", seed=seed)  # the real loot deck's order comes from the seed
    await m.storage.update_game(rec, rec.version, state=E.dump(st))
    r = await m.dispatch(ctx(channel), "dungeon", "activate", {"hero": "ruby"})
    assert not r.ephemeral, r.text
    dice.push("B2 B2")
    r = await m.dispatch(ctx(channel), "dungeon", "attack", {"target": "C10", "with": "melee"})
    assert "may reroll" in r.text, r.text


@pytest.fixture
async def quiet(tmp_path):
    store = await open_storage(str(tmp_path / "h.sqlite3"))
    m = GameManager(store, render=False)
    yield m
    m.close()
    await store.close()


async def test_a_preview_draws_from_a_deck_independent_of_the_real_one(quiet, dice):
    """`/dungeon preview action:keep` shows a loot card; over many games it matches the card the real `keep`
    then draws no more often than chance (before: always, the preview drew from the real deck)."""
    trials, same, deck = 30, 0, len(scene("ruby@B10").loot_deck)
    for seed in range(1, trials + 1):
        channel = f"p{seed}"
        await _ruby_kept_roll_pending(quiet, channel, seed, dice)
        shown = await quiet.dispatch(ctx(channel), "dungeon", "preview", {"action": "keep"})
        real = await quiet.dispatch(ctx(channel), "dungeon", "keep", {})
        assert "hidden cards are stand-ins" in shown.text, shown.text  # the player is told it is a sample
        seen, drawn = DROP.search(shown.text), DROP.search(real.text)
        assert seen and drawn, (shown.text, real.text)
        same += seen.group(1) == drawn.group(1)
    # chance alone: trials / deck (about 2 here); a leak: every one of them
    assert same <= trials / deck + 6, f"the preview named the real card in {same} of {trials} games"


async def test_keep_that_draws_a_loot_card_cannot_be_undone(quiet, dice):
    """The Flinger's drop draws the top loot card without any die rolled: the platform sees the face-down deck
    change and makes the move a barrier, so the card never goes back for another try."""
    await _ruby_kept_roll_pending(quiet, "u1", 3, dice)
    r = await quiet.dispatch(ctx("u1"), "dungeon", "keep", {})
    assert "drops at C10" in r.text, r.text
    before = await quiet.storage.live_game("u1")
    undo = await quiet.dispatch(ctx("u1"), "game", "undo", {})
    assert undo.ephemeral and "cannot be undone" in undo.text, undo.text
    after = await quiet.storage.live_game("u1")
    assert after.version == before.version and after.state == before.state
    log = await quiet.storage.log(after.id)
    assert log[-1].action == "keep" and log[-1].barrier


async def test_undo_refuses_an_old_log_entry_that_revealed_a_card(quiet, dice):
    """A log written before the platform marked barriers (the entry says `barrier: false`) is still safe: undo
    compares the hidden parts of the state before and after the action it would take back."""
    await _ruby_kept_roll_pending(quiet, "u2", 4, dice)
    await quiet.dispatch(ctx("u2"), "dungeon", "keep", {})
    rec = await quiet.storage.live_game("u2")
    store = quiet.storage
    if hasattr(store, "db"):  # SQLite: write the old, unmarked entry the way the bug left it
        await store.db.execute("UPDATE actions SET barrier = 0 WHERE game_id = ?", (rec.id,))
        await store.db.commit()
    assert not (await store.log(rec.id))[-1].barrier
    undo = await quiet.dispatch(ctx("u2"), "game", "undo", {})
    assert undo.ephemeral and "cannot be undone" in undo.text, undo.text
