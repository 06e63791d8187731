"""Issue 18, animated replay: `playpost replay FILE --gif OUT` and `/game replay` draw a game one frame per turn,
the turn's moves as the caption, as one animated GIF under Discord's 10 MB limit (speed: `playpost bench`)."""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.cli import main
from games.core import Seat, get_game
from games.core.playout import random_playout
from render.replay import replay_gif, turn_ends, turn_frames

SEATS = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")]


def _game(game: str, cap: int):
    engine = get_game(game)
    p = random_playout(engine, {}, SEATS, 7, cap=cap)
    return engine, p.log


def test_one_frame_per_turn_with_the_moves_as_caption():
    engine, log = _game("heroball", 40)
    frames = list(turn_frames(engine, {}, SEATS, 7, log))
    assert len(frames) == 1 + len(turn_ends(engine, {}, SEATS, 7, log)) and len(frames) > 3
    assert frames[0].caption[0] == "Heroball: the start"
    assert all(f.caption[0].startswith("Round") for f in frames[1:])
    assert any("Ann" in " ".join(f.caption) or "ann" in " ".join(f.caption) for f in frames[1:])
    gif = replay_gif(frames)
    img = Image.open(io.BytesIO(gif))
    assert gif[:6] == b"GIF89a" and img.n_frames == len(frames) and img.width == 600
    assert len(gif) < 10 * 1024 * 1024


def test_a_long_game_shows_several_turns_per_frame_and_always_the_last():
    engine, log = _game("heroball", 60)
    ends = turn_ends(engine, {}, SEATS, 7, log)
    frames = list(turn_frames(engine, {}, SEATS, 7, log, max_frames=4))
    assert len(ends) > 4 and len(frames) <= 4 + 1
    last = list(turn_frames(engine, {}, SEATS, 7, log))[-1]
    assert frames[-1].png == last.png


def test_playpost_replay_gif_from_a_transcript(tmp_path: Path, capsys):
    script = tmp_path / "game.txt"
    script.write_text("ann> /game new game:heroball\nbob> /game join\nann> /game start\n", encoding="utf-8")
    out = tmp_path / "replay.gif"
    assert main(["replay", str(script), "--gif", str(out)]) == 0
    assert out.read_bytes()[:6] == b"GIF89a"
    assert "Replay of heroball game #1" in capsys.readouterr().out


async def test_game_replay_command_posts_the_gif_only_once_the_game_is_over(tmp_path: Path):
    from bot.console import play_transcript

    lines = ["ann> /game new game:heroball", "bob> /game join", "ann> /game start", "ann> /game replay",
             "ann> /game abandon", "ann> /game replay"]
    printed: list[str] = []
    await play_transcript(lines, tmp_path / "out", render=True, write=printed.append)
    text = "\n".join(printed)
    assert "A replay is drawn once the game is over." in text
    assert "Replay of Heroball game #1, one frame per turn." in text
    gifs = list((tmp_path / "out").glob("*replay.gif"))
    assert len(gifs) == 1 and gifs[0].read_bytes()[:6] == b"GIF89a"


async def test_the_end_replay_covers_a_game_ended_by_vote_once_it_has_moves(manager):
    """Issue 18: a game the players voted to end gets its replay posted like a finished one (the transport side
    is in tests/e2e/test_pace.py); one ended before any move has nothing to replay."""
    from bot.reply import Context
    from games.core import Action

    async def game(channel: str, moves: int) -> int:
        host = Context(channel_id=channel, user_id="ann", user_name="Ann", can_manage=True)
        await manager.dispatch(host, "game", "new", {"game": "heroball"})
        await manager.dispatch(Context(channel_id=channel, user_id="bob", user_name="Bob"), "game", "join", {})
        reply = await manager.dispatch(host, "game", "start", {})
        for _ in range(moves):
            rec = await manager.storage.live_game(channel)
            engine = get_game(rec.kind)
            state = manager.state_of(rec, engine)
            player = engine.status(state).to_act[0]
            action = engine.legal_actions(state, player)[0]
            who = Context(channel_id=channel, user_id=player, user_name=player)
            reply = await manager.dispatch(who, "heroball", action.cmd, dict(Action.parse(action.text()).args))
            assert not reply.ephemeral, reply.text
        await manager.dispatch(host, "game", "abandon", {})
        return int(reply.game_id)

    played, empty = await game("c1", 2), await game("c2", 0)
    replay = await manager.end_replay(played)
    assert replay is not None and replay.files[0].data[:6] == b"GIF89a"
    assert "ended before its result" in replay.text
    assert await manager.end_replay(empty) is None
