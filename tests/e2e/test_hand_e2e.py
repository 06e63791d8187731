"""Issues 11 and 14: a hand is private, never in public text, images or exports during play.

On Discord every button and menu under a channel message is visible to everyone, so a move that names a
card of the hand ("Play Pocket Wall Kit") must not sit under the public board. The player who must act gets a
"Your hand" button there instead; pressing it answers ephemerally with those moves, which work when pressed.
"""
from __future__ import annotations

import copy
import re
from pathlib import Path

from bot.discord_adapter.components import HAND_TEMPLATE
from games.core import get_game
from games.quodd import data

from .conftest import USERS
from .discord_double import CHANNEL_ID, EPHEMERAL, Message
from .replay import Replay

TRANSCRIPT = Path(__file__).parent.parent / "quodd" / "transcripts" / "ffa_full.txt"
# dan ends round 1 with an upgrade; round 2 opens with dan's power-up phase and Pocket Wall Kit in his hand
UNTIL = "dan> /quodd upgrade side:a tile:1"
DAN = "1100000000000000104"  # the transcript's fourth player (the harness seats three by default)


def readable(msg: Message) -> str:
    """Everything anyone reads on a message: its text, button labels, menu placeholders, options and values."""
    parts = [msg.content]
    for row in msg.components:
        for c in row.get("components", ()):
            parts += [str(c.get("label", "")), str(c.get("placeholder", "")), str(c.get("custom_id", ""))]
            for o in c.get("options", ()):
                parts += [str(o.get("label", "")), str(o.get("value", "")), str(o.get("description", ""))]
    return "\n".join(parts)


def hand_names(state) -> set[str]:  # noqa: ANN001
    """The names and ids of every card in every hero's hand."""
    cards = data.cards()
    return {n for h in state.heroes for cid in h.hand for n in (cid, cards[cid].name)}


async def play_until(harness, monkeypatch) -> Replay:  # noqa: ANN001
    monkeypatch.setitem(USERS, "dan", DAN)
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    upto = next(i for i, ln in enumerate(lines) if ln.strip() == UNTIL)
    r = Replay(harness)
    await r.run(lines[:upto + 1])
    return r


async def test_quodd_hand_moves_are_only_in_the_ephemeral_answer_of_your_hand(harness, monkeypatch):
    """Rulebook: each player's hand is theirs alone; the public board offers "Your hand", not the cards."""
    r = await play_until(harness, monkeypatch)
    rec = await r.live()
    assert rec is not None
    engine = get_game("quodd")
    state = engine.load(rec.state)
    dan = next(h for h in state.heroes if h.player == DAN)
    assert engine.status(state).to_act == [DAN] and state.phase == "power" and dan.hand == ["wall-kit"]
    secret = hand_names(state)
    board = r.board
    assert board is not None and not board.ephemeral
    shown = readable(board)
    leaked = [n for n in secret if re.search(rf"\b{re.escape(n)}\b", shown, re.IGNORECASE)]
    assert not leaked, f"hand cards {leaked} under the public board:\n{shown}"
    hand_id = f"pp:hand:{CHANNEL_ID}:{rec.version}"
    assert hand_id in board.custom_ids and re.fullmatch(HAND_TEMPLATE, hand_id)

    # dan presses "Your hand": an ephemeral answer with his cards and their moves
    shown_hand = await harness.click("dan", board, hand_id)
    assert shown_hand.callback["data"]["flags"] & EPHEMERAL
    assert not shown_hand.public
    private = shown_hand.private[-1]
    assert private.ephemeral and "Pocket Wall Kit" in private.content
    play = f"pp:{CHANNEL_ID}:{rec.version}:play card:wall-kit"
    assert play in private.custom_ids, private.custom_ids
    assert "Play Pocket Wall Kit" in readable(private)

    # ann presses it: she sees only her own hand, never dan's moves
    ann_view = await harness.click("ann", board, hand_id)
    assert not ann_view.public and all("wall-kit" not in readable(m) for m in ann_view.private)

    # the private button plays the card: a public move, the game one version on (copies of both messages as
    # they were kept: the bot takes the used controls away, a client that still shows them gets "out of date")
    old_board, old_private = copy.deepcopy(board), copy.deepcopy(private)
    played = await harness.click("dan", private, play)
    assert any("plays Pocket Wall Kit" in m.content for m in played.public + played.edited), \
        [m.content for m in played.messages]
    after = await r.live()
    assert after is not None and after.version == rec.version + 1

    # the old "Your hand" and its private button are out of date now
    stale = await harness.click("dan", old_board, hand_id)
    assert not stale.public and "out of date" in "\n".join(m.content for m in stale.private)
    again = await harness.click("dan", old_private, play)
    assert not again.public and "out of date" in "\n".join(m.content for m in again.private)
    assert (await r.live()).version == after.version


async def test_game_hand_shows_the_same_private_buttons(harness, monkeypatch):
    """`/game hand` answers with the same private moves as the "Your hand" button, ephemerally."""
    r = await play_until(harness, monkeypatch)
    rec = await r.live()
    assert rec is not None
    typed = await harness.cmd("dan", "game", "hand")
    assert not typed.public and typed.private and all(m.ephemeral for m in typed.private)
    msg = typed.private[-1]
    assert f"pp:{CHANNEL_ID}:{rec.version}:play card:wall-kit" in msg.custom_ids
    assert "Play Pocket Wall Kit" in readable(msg)
