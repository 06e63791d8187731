"""A scripted dungeon party that writes `playpost script` transcripts (issue 16: the long dungeon transcripts).

    .venv/bin/python -m tools.dungeon_script --dungeon gloom_keep --seed 5 --out tests/dungeon/transcripts/x.txt
    .venv/bin/python -m tools.dungeon_script --dungeon gloom_keep --try-seeds 1-40   # which seeds win or lose

The party plays through the engine directly, as the platform does (`games.core.play.step`), choosing among the
legal actions with plain rules of thumb and no look at the dice to come: drink when badly hurt, heal a friend
who is down or badly hurt, attack (the spawn point first, then the monster nearest to falling, with the style
that rolls most), pick a chest's lock, equip what lies on the tile, else move towards the spawn point (or the
nearest monster) preferring a square from which an attack is legal, else end. Between levels it equips what it
may and is ready. `--passive` heroes only end their activations (a party that loses). Every choice is written
as the player's command, so replaying the transcript gives the same game while the engine plays as it does
now; when the rules change, regenerate with the same command line (the header records it).
"""
from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from games.core import Action, IllegalAction, Seat
from games.core.grid import parse_label
from games.core.play import step
from games.dungeon import ENGINE as E
from games.dungeon.board import board
from games.dungeon.data import content
from games.dungeon.sight import route
from games.dungeon.state import DungeonState, HeroState
from games.dungeon.stats import hero, hero_stats, is_incap, mfp

STYLE_STAT = {"melee": "str", "ranged": "dex", "magic": "will"}


@dataclass
class Party:
    """Who plays which hero: (player, hero name) in seat order."""

    seats: list[tuple[str, str]]
    passive: bool = False
    lines: list[str] = field(default_factory=list)


def mean_stars(dice: object) -> float:
    faces = content().rules.dice
    spec = getattr(dice, "dice", ())
    return sum(sum(f[0] for f in faces[c]) / 6 for c in spec) + getattr(dice, "stars", 0)


def objective(st: DungeonState, sq: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Where the party heads: the active spawn point, else the nearest monster."""
    lv = st.levels[st.level]
    if lv.active and not lv.destroyed:
        return (board(st.dungeon).spawns[st.level],)
    if not st.monsters:
        return ()
    m = min(st.monsters, key=lambda m: (max(abs(m.x - sq[0]), abs(m.y - sq[1])), m.uid))
    return mfp(m)


def attack_priority(st: DungeonState, a: Action) -> tuple[float, ...]:
    """Lower is better: the spawn point, then the monster nearest to falling; the style that rolls most."""
    args = a.argdict
    h = hero(st, st.activation.hero) if st.activation else None
    style = args.get("with", "melee")
    dice = hero_stats(h).dice.get(STYLE_STAT.get(style, "str")) if h else None
    power = mean_stars(dice) if dice is not None else 0.0
    target = args.get("target", "")
    b = board(st.dungeon)
    sp = b.spawns[st.level]
    p = parse_label(target)
    if p == sp:
        return (0, -power)
    m = next((m for m in st.monsters if p in mfp(m)), None)
    left = (content().monsters[m.kind].life - m.wounds) if m else 9
    return (1, left, -power)


def choose(st: DungeonState, player: str, legal: list[Action], party: Party) -> Action:
    by = {a.cmd: [x for x in legal if x.cmd == a.cmd] for a in legal}
    phase = E.phase_of(st)
    if phase == "heroes":
        return by["activate"][0]
    if phase == "intermission":
        return (by.get("equip") or by.get("ready") or legal)[0]
    if phase == "attack":
        if "keep" in by:
            return by["keep"][0]
        hurt = sorted((h for h in st.heroes if h.wounds), key=lambda h: (-h.wounds, h.seat))
        for h in hurt:
            heal = [a for a in by.get("heart", []) if a.get("use") == "heal" and a.get("hero") == h.id]
            if heal:
                return heal[0]
        pot = [a for a in by.get("heart", []) if a.get("use") == "potion"]
        none = [a for a in by.get("heart", []) if a.get("use") == "none"]
        return (pot or none or legal)[0]
    if party.passive:
        return by["end"][0]
    assert st.activation is not None
    me = hero(st, st.activation.hero)
    life = hero_stats(me).life
    if "potion" in by and me.wounds >= life - 2:
        return by["potion"][0]
    stand = [a for a in by.get("act", []) if a.get("action") == "stand"]
    if stand:
        return stand[0]
    for other in sorted(st.heroes, key=lambda h: (not is_incap(h), -h.wounds, h.seat)):
        if is_incap(other) or other.wounds >= hero_stats(other).life - 2:
            heal = [a for a in by.get("act", []) if a.get("target") == other.id
                    and content().unique.get(a.get("action") or "") is not None
                    and content().unique[a.get("action") or ""].kind == "heal"]
            heal += [a for a in by.get("act", []) if a.get("action") == "heal" and a.get("target") == other.id]
            if heal and other.wounds:
                return heal[0]
    if "attack" in by:
        return min(by["attack"], key=lambda a: (attack_priority(st, a), a.text()))
    pick = [a for a in by.get("act", []) if a.get("action") == "picklock"]
    if pick:
        return pick[0]
    if "equip" in by:
        return by["equip"][0]
    if "move" in by:
        best = best_move(st, player, by["move"], me)
        if best is not None:
            return best
    return by["end"][0]


def best_move(st: DungeonState, player: str, moves: list[Action], me: HeroState) -> Action | None:
    goal = objective(st, (me.x, me.y))
    if not goal:
        return None
    b = board(st.dungeon)

    def dist(sq: tuple[int, int]) -> int:
        return route(st, (sq,), goal, 99)

    here = dist((me.x, me.y))
    scored = []
    for a in moves:
        sq = parse_label(a.get("to") or "")
        if sq is None or b.terrain_at(sq) in ("lava", "brambles"):
            continue
        scored.append((dist(sq), a.text(), a, sq))
    scored.sort(key=lambda t: (t[0], t[1]))
    for _d, _, a, _sq in scored[:12]:  # the closest squares: one from which an attack is legal wins
        try:
            after, _ = E.apply(st, player, a)
        except IllegalAction:  # a refused move is simply not taken
            continue
        if any(x.cmd == "attack" for x in E.legal_actions(after, player)):
            return a
    if scored and scored[0][0] < here:
        return scored[0][2]
    return None


def play(dungeon: str, seed: int, party: Party, options: dict[str, str] | None = None,
         stop: Callable[[DungeonState], bool] | None = None, cap: int = 6000) -> DungeonState:
    """Play until the game ends, `stop` says so, or `cap` actions; the commands land in `party.lines`."""
    opts = {"dungeon": dungeon, **(options or {})}
    seats = [Seat(player=p, name=p, choices={"hero": h}) for p, h in party.seats]
    st = E.setup(opts, seats, seed)
    for _ in range(cap):
        status = E.status(st)
        if status.finished or (stop is not None and stop(st)):
            break
        player = status.to_act[0]
        forced = E.forced_action(st, player)  # the table plays it by itself: no line for it
        legal = E.legal_actions(st, player)
        action = forced or choose(st, player, legal, party)
        action, new, _ = step(E, st, player, action)
        st = cast(DungeonState, new)
        if forced is None:
            party.lines.append(f"{player}> /dungeon {action.text()}")
    return st


def header(dungeon: str, seed: int, party: Party, options: dict[str, str]) -> list[str]:
    opts = "".join(f" {k}:{v}" for k, v in options.items())
    out = [f"ann> /game new game:dungeon dungeon:{dungeon} seed:{seed}{opts}"]
    out += [f"{p}> /game join hero:{h}" for p, h in party.seats]
    out.append("ann> /game start")
    return out


PARTY = [("ann", "Nyan-Nyan"), ("ann", "Emerald"), ("bob", "Ruby"), ("bob", "Candy")]


def outcome(st: DungeonState) -> str:
    return st.result or f"level {st.level + 1} open"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--dungeon", default="crystal_caverns")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--try-seeds", default="", help="e.g. 1-40: play each seed (with --want: the first that ends so)")
    ap.add_argument("--want", default="", help="victory, defeat or level (reaching --until-level)")
    ap.add_argument("--reach", type=int, default=1, help="with --want: the game must get to this level (1-4)")
    ap.add_argument("--passive", action="store_true")
    ap.add_argument("--difficulty", default="")
    ap.add_argument("--until-level", type=int, default=0, help="stop once this level (1-4) is open")
    ap.add_argument("--heroes", default=",".join(h for _, h in PARTY))
    ap.add_argument("--out", default="")
    ap.add_argument("--comment", action="append", default=[])
    ap.add_argument("--regenerate", nargs="*", default=None,
                    help="transcripts to write again from their own `# regenerate:` line (none named: all three)")
    return ap


TRANSCRIPTS = Path(__file__).parents[1] / "tests" / "dungeon" / "transcripts"
GENERATED = ("victory.txt", "defeat.txt", "random_level_one.txt")


def regenerate(paths: list[Path]) -> int:
    """Each file again from its recorded arguments and comments (after a rules change changed the games)."""
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        spec = next(ln for ln in lines if ln.startswith("# regenerate: "))[len("# regenerate: "):]
        comments = [ln[2:] for ln in lines if ln.startswith("# ") and not ln.startswith(("# regenerate:",
                                                                                          "# Written by"))]
        argv = [*shlex.split(spec), "--out", str(path)]
        for c in comments:
            argv += ["--comment", c]
        if main(argv):
            return 1
        print(path.name, "written:", path.read_text(encoding="utf-8").splitlines()[len(comments)], flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.regenerate is not None:
        return regenerate([Path(p) for p in args.regenerate] or [TRANSCRIPTS / n for n in GENERATED])
    names = args.heroes.split(",")
    seats = [(PARTY[i][0], n) for i, n in enumerate(names)]
    options = {"difficulty": args.difficulty} if args.difficulty else {}
    stop = (lambda st: st.level + 1 >= args.until_level) if args.until_level else None
    seeds = [args.seed]
    if args.try_seeds:
        lo, _, hi = args.try_seeds.partition("-")
        seeds = list(range(int(lo), int(hi or lo) + 1))
    for seed in seeds:
        party = Party(seats=seats, passive=args.passive)
        st = play(args.dungeon, seed, party, options, stop)
        got = "level" if not st.result and args.until_level and st.level + 1 >= args.until_level else st.result
        if args.try_seeds and not args.want:
            print(seed, st.dungeon, outcome(st), "turn", st.turn, len(party.lines), "commands", flush=True)
            continue
        if args.want and (got != args.want or st.level + 1 < args.reach):
            continue
        spec = [a for a in (argv if argv is not None else sys.argv[1:])]
        spec = [a for k, a in enumerate(spec) if a not in ("--comment", "--out")
                and (k == 0 or spec[k - 1] not in ("--comment", "--out"))]
        text = [f"# {c}" for c in args.comment]
        text.append(f"# Written by the scripted party of tools/dungeon_script.py: seed {seed}, ends {outcome(st)} "
                    f"on turn {st.turn}. After a rules change: python -m tools.dungeon_script --regenerate")
        text.append("# regenerate: " + shlex.join(spec))
        text += header(args.dungeon, seed, party, options) + party.lines
        if args.out:
            Path(args.out).write_text("\n".join(text) + "\n", encoding="utf-8")
        else:
            print("\n".join(text))
        return 0
    if args.want:
        print(f"no seed of {args.try_seeds or args.seed} ends in {args.want}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
