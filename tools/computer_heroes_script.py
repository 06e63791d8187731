"""Re-record `tests/dungeon/transcripts/computer_heroes.txt` (issue 17): Ann plays Ruby with three computer heroes
(normal) on Crystal Caverns, seed 2, until level 2 opens.

    .venv/bin/python -m tools.computer_heroes_script [--out FILE]

The computers' moves come from the bot's own computer players, so when their play changes Ann's old lines no
longer fit the board. This plays the transcript's set-up lines through `playpost script`'s console, then lets a
greedy player (the `normal` level, its generator seeded from the line number) choose each of Ann's commands from
the game as it stands, until level 2 opens; every command is written as Ann's line, so replaying the file gives
the same game.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
from pathlib import Path

from bot.console import ScriptClock, run_script
from bot.manager import GameManager
from games.core.ai import make_player
from games.dungeon import ENGINE as E
from storage import open_storage

OUT = Path("tests/dungeon/transcripts/computer_heroes.txt")
HEAD = [
    "# Crystal Caverns, seed 2: Ann plays Ruby with three computer heroes (normal) through the first level:",
    "# the computers activate, move, attack and heal with the team until the spawn point falls and level 2 opens.",
    "# The host picks the computers' heroes (`/game computer hero:`), so the story keeps when the roster grows.",
    "# Ann's lines were chosen by tools/computer_heroes_script.py (rerun it when the computers' play changes).",
]
SETUP = [
    "ann> /game new game:dungeon seed:2",
    "ann> /game join hero:Ruby",
    "ann> /game computer level:normal hero:Jacques",
    "ann> /game computer level:normal hero:Von Wilding",
    "ann> /game computer level:normal hero:Emerald",
    "ann> /game start",
]


async def record(limit: int = 400) -> list[str]:
    lines = list(SETUP)
    with tempfile.TemporaryDirectory() as tmp:
        clock = ScriptClock()
        seeds = itertools.count(1)
        store = await open_storage(str(Path(tmp) / "script.sqlite3"))
        manager = GameManager(store, clock=clock, seed_source=lambda: next(seeds), render=False)
        try:
            console = await run_script(lines, manager, Path(tmp) / "out", write=lambda _: None, clock=clock)
            player = make_player("normal")
            for n in range(limit):
                rec = await store.get_game(1)
                assert rec is not None and rec.state is not None
                state = E.load(rec.state)
                if E.view(state, None).level >= 1 or E.status(state).finished:
                    break
                if "ann" not in E.status(state).to_act:
                    raise SystemExit("the computers stopped while Ann is not to act")
                action = player.decide(E, state, "ann", random.Random(n))
                line = f"ann> /dungeon {action.text()}"
                lines.append(line)
                await console.line(line)
                clock.tick()
        finally:
            manager.close()
            await store.close()
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    lines = asyncio.run(record())
    args.out.write_text("\n".join(HEAD + lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(lines)} lines")


if __name__ == "__main__":
    main()
