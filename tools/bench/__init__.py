"""`playpost bench` (or `python -m tools.bench`): how fast the bot answers a click and how many
channels one process carries.

One run measures everything (so ratios hold on a noisy machine) and prints one table;
`--json PATH` writes the same rows (plus raw details) as JSON. Seeds are fixed, warm-up
runs are discarded, and figures are medians and p95/p99 over repeated runs. This is a
report, not a test: nothing here fails on a slow machine.

Sections (one module each; `run.py` runs them in order, `report.py` formats the table)
- image (`images.py`): each game's representative mid-game board (the option combination giving
  the largest image, all seats, halfway through a seeded random game): render time, PNG size,
  pixels; the *floor* (the same image decoded and re-encoded with `render.common.encode_png`)
  and the *peer* (python-chess's SVG board at 800 px rendered by cairosvg), interleaved.
- pipeline (`pipeline.py`): `GameManager.dispatch` for C concurrent channels playing random legal
  moves of every game in turn. `closed` = each channel's player clicks again as soon as the reply
  arrives (saturation: moves/s is capacity, latency includes queueing); `paced` = each
  channel waits a think time (uniform, mean PACE seconds) before each move. Event-loop lag
  is measured by a task ticking every 5 ms. With and without rendering. Moves still queued 5 s
  after the window are cut off and counted at their wait so far (the table then shows `>=`).
- scale (`scale.py`, `child.py`): a database of N stored games (finished and active, real states
  and logs, written through the storage interface), a fresh process (`child.py`) started on it:
  time to the first answered command, cold game open, size per game, resident memory per cached
  active game.
- undo/export (`undo.py`): `/game undo` and `/game export` of a game with a 500-action log.
- engines (`engines.py`, `engine_child.py`, `baseline.json`): random legal actions per CPU second
  (pure engine: legal_actions + apply, `games.core.playout.random_playout`) and the rules CPU per
  move, for the current tree and the baseline commit timed alternately in the same run (fresh
  processes), with the speed-up against issue 12's targets.

This package imports nothing itself: `python -m tools.bench.child` times its own imports.
"""
