"""One message per turn (issue 18), end to end on the Discord double: the moves of one player's turn edit
that turn's message (text appended, board replaced), a new message with the ping comes only when who must
act changes, it opens with a recap of what happened since the pinged player's last move, and moves that do
not fit in buttons come in a select menu."""
from __future__ import annotations

import re

from bot.discord_adapter.components import SELECT_TEMPLATE

from .conftest import USERS
from .replay import PNG, Replay
from .test_games_e2e import transcript


async def test_a_turn_is_one_message_edited_move_by_move_and_the_next_player_is_pinged_with_a_recap(harness):
    r = Replay(harness)
    lines = [ln for ln in transcript("heroball", "two_player.txt") if ln.strip() and not ln.startswith("#")]
    first_turn = lines.index("ann> /heroball step to:G2")
    await r.run(lines[:first_turn])
    turn = r.board  # Bob's last seed handed the turn to Ann: a new message that pings her
    assert turn is not None and turn.posted_mentions["users"] == [int(USERS["ann"])]
    assert f"<@{USERS['ann']}>" in turn.content
    posted = len([m for m in harness.double.messages.values() if not m.ephemeral])
    before = turn.files["board.png"]

    for ln in lines[first_turn:first_turn + 2]:  # step, run: Ann's turn goes on
        await r.line(ln)
        assert r.board is turn
    assert len([m for m in harness.double.messages.values() if not m.ephemeral]) == posted  # no new message
    assert turn.edits >= 2 and turn.files["board.png"].startswith(PNG) and turn.files["board.png"] != before
    for said in ("Gorgo (ann) steps G1 → G2.", "Gorgo (ann) runs G2 → H2."):
        assert said in turn.content  # each move's text appended to the turn's message
    assert turn.content.count("waiting for ann") == 1  # the status line replaced, not repeated
    assert not turn.content.endswith("left.") and "AP left" in turn.content

    # ann sprints: with nothing left to choose her turn ends by itself, and Bob is pinged in a new message
    await r.line(lines[first_turn + 2])
    handed = r.board
    assert handed is not turn and handed.posted_mentions["users"] == [int(USERS["bob"])]
    # each move as the table read it, but the sprint and the `end` that played itself after it: the message
    # tells those in full below the recap
    assert handed.content.startswith("**Since your last move:**\n- Gorgo (ann) steps G1 → G2.\n"
                                     "- Gorgo (ann) runs G2 → H2.\nGorgo (ann) sprints H2 → H3."), handed.content
    assert "Nothing left to choose for ann: `end` plays itself." in handed.content
    assert turn.components == []  # the finished turn's message keeps no controls

    await r.run(lines[first_turn + 3:])  # the rest of the game, every move checked by the replayer
    assert r.edits > 20  # most moves edited their turn's message
    pings = [m for m in harness.double.messages.values() if not m.ephemeral and m.allowed_mentions
             and m.allowed_mentions.get("users")]
    assert all(f"<@{u}>" in m.content for m in pings for u in m.allowed_mentions["users"])
    sent = [call.json for call in harness.double.calls if isinstance(call.json, dict) and call.json.get("components")]
    menus = [c for body in sent for row in body["components"] for c in row["components"]
             if c["type"] == 3 and re.fullmatch(SELECT_TEMPLATE, c["custom_id"])]
    assert menus and all(2 <= len(c["options"]) <= 25 for c in menus)  # throws without a button: a select menu
    rec = await r.live() or (await harness.bot.manager.storage.history(r.channel, 1))[0]
    assert rec.status == "finished"
