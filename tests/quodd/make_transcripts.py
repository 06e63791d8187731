"""Writes the scenario transcripts: a small greedy planner plays each scenario with a fixed seed.

Run from the repository root: `.venv/bin/python tests/quodd/make_transcripts.py [NAME ...]` (names of `JOBS`;
default all). The planner follows the rules of the day: a transcript recorded under older rules comes out
differently when written again, so write again only the ones a change concerns. The planner
searches each movement phase (tumble, skill, decisions) for the best position by the
scenario's goal; the resulting action log is written as `name> /quodd ...` lines.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.core import Action, Seat  # noqa: E402
from games.core.grid import manhattan  # noqa: E402
from games.quodd import ENGINE as E  # noqa: E402
from games.quodd.board import is_drop, squares, xy  # noqa: E402

HERE = Path(__file__).parent / "transcripts"
NODE_CAP = 2500


def score(st, player: str) -> float:
    if st.phase == "over":
        return 1e7 if player in st.winners else -1e7
    h = next(x for x in st.heroes if x.player == player)
    if h.pos is None:
        return -1e6
    p = xy(h.pos)
    if st.objective in ("race", "trial"):
        goal = xy(st.rally[str(h.progress + 1)])
        return h.progress * 1000 - manhattan(p, goal) * 10
    crystals = [xy(lab) for lab, items in st.ground.items() if items] + [xy(s.at) for s in st.sheep]  # flock
    drops = [q for q in squares(st) if is_drop(st, q)]
    if h.carrying and (len(h.carrying) >= 2 or not crystals):
        d = min(manhattan(p, q) for q in drops)
    elif crystals:
        d = min(manhattan(p, q) for q in crystals)
    else:
        d = 0
    return len(h.banked) * 2000 + len(h.carrying) * 700 - d * 10


def candidates(st, player):
    acts = [a for a in E.legal_actions(st, player) if a.cmd != "rearrange"]
    return acts


def best_turn(st, player):
    """Depth-first over this player's movement phase; returns the best action sequence."""
    best = (-1e9, [])
    nodes = 0

    def dfs(s, seq):
        nonlocal best, nodes
        nodes += 1
        status = E.status(s)
        if status.finished or s.phase != "move" or player not in status.to_act or nodes > NODE_CAP:
            val = score(s, player)
            if val > best[0]:
                best = (val, seq)
            return
        for a in candidates(s, player):
            if a.cmd in ("drop",):
                continue
            new, _ = E.apply(s, player, a)
            dfs(new, seq + [a])

    dfs(st, [])
    return best[1]


def play(scenario: str, names: list[str], heroes: dict[str, str], seed: int, cap: int = 3000,
         teams: dict[str, str] | None = None, share: bool = False):
    """`share`: draw the cards phase 4 offers (from the deck), and pass one to a teammate once each."""
    teams = teams or {}
    seats = [Seat(player=n, name=n, choices={**({"hero": heroes[n]} if n in heroes else {}),
                                             **({"team": teams[n]} if n in teams else {})}) for n in names]
    st = E.setup({"scenario": scenario}, seats, seed)
    log = []
    gave: set[str] = set()
    for _ in range(cap):
        status = E.status(st)
        if status.finished:
            break
        player = status.to_act[0]
        if st.pending is not None and st.pending.kind == "place":
            action = max(E.legal_actions(st, player), key=lambda a: -_start_dist(st, a.get("option")))
            seq = [action]
        elif st.pending is not None and st.pending.kind == "sheep_facing":  # the flock heads into the map
            seq = [E.pending(st).default]
        elif st.phase == "move" and st.pending is None and st.heroes[st.turn].player == player:
            seq = best_turn(st, player) or [E.legal_actions(st, player)[0]]
        else:
            acts = E.legal_actions(st, player)
            gives = [a for a in acts if a.cmd == "give"]
            draw = Action.of("draw", card="deck")
            if gives and player not in gave:  # co-op and teams: each player passes one card to a teammate once
                gave.add(player)
                seq = [gives[0]]
            elif share and draw in acts:  # cards to share: explore from the deck
                seq = [draw]
            else:
                seq = [next((a for a in acts if a.cmd in ("done", "choose")), acts[0])]
        for a in seq:
            who = E.status(st).to_act[0] if st.pending is None else st.pending.player
            st, _ = E.apply(st, who, a)
            log.append((who, a))
            if E.status(st).finished:
                break
    return seats, st, log


def _start_dist(st, lab):
    p = xy(lab)
    if st.objective in ("race", "trial"):
        return manhattan(p, xy(st.rally["1"]))
    return min(manhattan(p, xy(q)) for q in st.ground)


def result_text(st) -> str:
    result = E.status(st).result
    return result.text if result is not None else "unfinished"


def write(path: Path, scenario: str, names, heroes, seed: int, teams: dict[str, str] | None = None,
          export: bool = False, head: str = "") -> None:
    """`export`: end with `/game export` (the mode transcripts: its summary names the scenario and mode)."""
    teams = teams or {}
    seats, st, log = play(scenario, names, heroes, seed, teams=teams, share=export and scenario != "trial")
    lines = [f"# {head}{scenario}: {result_text(st)}",
             f"{names[0]}> /game new game:quodd seed:{seed} scenario:{scenario} thread:false"]
    for n in names:
        lines.append(f"{n}> /game join" + (f" hero:{heroes[n]}" if n in heroes else "")
                     + (f" team:{teams[n]}" if n in teams else ""))
    lines.append(f"{names[0]}> /game start")
    state = E.setup({"scenario": scenario}, seats, seed)
    for who, a in log:
        if E.forced_action(state, who) != a:  # a move with nothing to choose plays itself: no line for it
            lines.append(f"{who}> /quodd {a.text()}")
        state, _ = E.apply(state, who, a)
    if export:
        lines.append(f"{names[0]}> /game export")
    path.write_text("\n".join(lines) + "\n")
    print(path.name, len(log), "actions;", result_text(st))


JOBS = {
    "tutorial": lambda: write(HERE / "tutorial.txt", "tutorial", ["ann", "bob"], {"ann": "rok"}, 7),
    "heist": lambda: write(HERE / "heist.txt", "heist", ["ann", "bob", "cat"], {"ann": "trixie", "bob": "aang"}, 3),
    "trial": lambda: write(HERE / "trial.txt", "trial", ["ann"], {"ann": "forest"}, 5),
    "pasture": lambda: write(HERE / "pasture.txt", "pasture", ["ann", "bob"], {"ann": "rok"}, 1),
    "foundry": lambda: write(HERE / "foundry.txt", "foundry", ["ann", "bob"], {"ann": "bramble"}, 2),
    "flock": lambda: write(HERE / "flock.txt", "flock", ["ann", "bob"], {"ann": "rok"}, 3),
    # the play modes, each ending with its export (ffa: ffa_full.txt, make_ffa_transcript.py)
    "solo": lambda: write(HERE / "solo.txt", "trial", ["ann"], {"ann": "forest"}, 5, export=True,
                          head="mode solo, "),
    "coop": lambda: write(HERE / "coop.txt", "rescue", ["ann", "bob"], {"ann": "trixie", "bob": "rok"}, 2,
                          export=True, head="mode coop, "),
    "teams": lambda: write(HERE / "teams.txt", "teamheist", ["ann", "bob", "cat", "dan"], {"ann": "aang"}, 4,
                           teams={"ann": "Red", "bob": "Blue"}, export=True, head="mode teams, "),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(JOBS):
        JOBS[name]()
