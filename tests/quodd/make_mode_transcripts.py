"""Writes the transcripts of the overlord, buddies and multi-part scenarios with a small greedy planner.

Run from the repository root: `.venv/bin/python tests/quodd/make_mode_transcripts.py`. Like `make_transcripts.py`,
each movement phase is searched for the best position by the acting hero's goal; the difference is that a player
may run several heroes (buddies), so the search follows the hero whose turn it is, and a part of a multi-part
scenario won counts above everything else in it. The log is written as `name> /quodd ...` lines.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.core import Seat  # noqa: E402
from games.core.grid import manhattan  # noqa: E402
from games.quodd import ENGINE as E  # noqa: E402
from games.quodd.board import is_drop, squares, xy  # noqa: E402
from games.quodd.modes.buddies import controller  # noqa: E402

HERE = Path(__file__).parent / "transcripts"
NODE_CAP = 1500


def _heist(st, h) -> float:
    p = xy(h.pos)
    crystals = [xy(lab) for lab, items in st.ground.items() if items]
    drops = [q for q in squares(st) if is_drop(st, q)]
    if h.carrying and (len(h.carrying) >= 2 or not crystals):
        d = min(manhattan(p, q) for q in drops)
    elif crystals:
        d = min(manhattan(p, q) for q in crystals)
    else:
        d = 0
    return len(h.banked) * 2000 + len(h.carrying) * 700 - d * 10


def score(st, key: str, part: int) -> float:
    """The hero `key`'s position by its goal; a part won or the game won beats everything."""
    h = next(x for x in st.heroes if x.player == key)
    if st.phase == "over":
        return 1e7 if controller(h) in E.status(st).result.winners else -1e7
    if st.part > part:
        return 1e6
    if h.pos is None:
        return -1e6
    if st.objective == "heist":
        return _heist(st, h)
    if h.progress >= len(st.rally):
        return 5000.0
    return h.progress * 1000 - manhattan(xy(h.pos), xy(st.rally[str(h.progress + 1)])) * 10


def best_turn(st, player: str, key: str):
    """Depth-first over the movement phase of the hero `key` (run by `player`); the best action sequence."""
    best = (-1e9, [])
    nodes = 0
    part = st.part

    def dfs(s, seq):
        nonlocal best, nodes
        nodes += 1
        status = E.status(s)
        if (status.finished or s.phase != "move" or s.part != part or s.heroes[s.turn].player != key
                or player not in status.to_act or nodes > NODE_CAP):
            val = score(s, key, part)
            if val > best[0]:
                best = (val, seq)
            return
        for a in E.legal_actions(s, player):
            if a.cmd in ("drop", "rearrange", "impulse"):
                continue
            new, _ = E.apply(s, player, a)
            dfs(new, seq + [a])

    dfs(st, [])
    return best[1]


def _start_dist(st, lab: str) -> int:
    p = xy(lab)
    if st.objective == "heist":
        return min(manhattan(p, xy(q)) for q in st.ground)
    return manhattan(p, xy(st.rally["1"]))


def play(options: dict[str, str], seats: list[Seat], seed: int, cap: int = 4000):
    st = E.setup(options, seats, seed)
    log = []
    for _ in range(cap):
        status = E.status(st)
        if status.finished:
            break
        player = status.to_act[0]
        acts = E.legal_actions(st, player)
        if st.pending is not None and st.pending.kind == "place":
            seq = [min(acts, key=lambda a: _start_dist(st, a.get("option")))]
        elif st.phase == "move" and st.pending is None:
            seq = best_turn(st, player, st.heroes[st.turn].player) or [acts[0]]
        else:
            plain = [a for a in acts if a.cmd in ("done", "choose")]
            first = [a for a in acts if a.cmd == "upgrade" or a.text() == "draw card:deck"]  # explore from the deck
            seq = [first[0] if first else plain[0] if plain else acts[0]]
        for a in seq:
            who = E.status(st).to_act[0]
            st, _ = E.apply(st, who, a)
            log.append((who, a))
            if E.status(st).finished:
                break
    return st, log


def result_text(st) -> str:
    result = E.status(st).result
    return result.text if result is not None else "unfinished"


def write(name: str, options: dict[str, str], seats: list[Seat], seed: int) -> None:
    st, log = play(options, seats, seed)
    opts = " ".join(f"{k}:{v}" for k, v in options.items())
    lines = [f"# {name}: {result_text(st)}", f"{seats[0].player}> /game new game:quodd seed:{seed} {opts} thread:false"]
    for s in seats:
        lines.append(f"{s.player}> /game join" + "".join(f" {k}:{v}" for k, v in s.choices.items()))
    lines.append(f"{seats[0].player}> /game start")
    state = E.setup(options, seats, seed)
    for who, a in log:
        if E.forced_action(state, who) != a:  # a move with nothing to choose plays itself: no line for it
            lines.append(f"{who}> /quodd {a.text()}")
        state, _ = E.apply(state, who, a)
    lines.append(f"{seats[0].player}> /game export")  # the export's summary names the scenario and its mode
    (HERE / f"{name}.txt").write_text("\n".join(lines) + "\n")
    print(name, len(log), "actions;", result_text(st))


def seat(player: str, **choices: str) -> Seat:
    return Seat(player=player, name=player, choices=choices)


if __name__ == "__main__":
    which = set(sys.argv[1:])
    if not which or "expedition" in which:
        write("expedition", {"scenario": "expedition", "board": "b"}, [seat("ann", hero="rok")], 4)
    if not which or "overlord" in which:
        write("overlord", {"scenario": "overlord"},
              [seat("ann", hero="trixie"), seat("bob", hero="aang", role="overlord"), seat("cat", hero="forest")], 3)
    if not which or "buddies" in which:
        write("buddies", {"scenario": "buddies"},
              [seat("ann", hero="rok", buddy="forest"), seat("bob", hero="trixie", buddy="aang")], 2)
