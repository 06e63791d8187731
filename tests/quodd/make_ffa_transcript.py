"""Writes tests/quodd/transcripts/ffa_full.txt: four players (Nyx, Trixie, Aang, Bramble) race the tutorial with
world events on, driven through the bot's console so the lines are exactly what `playpost script` accepts.

Run from the repository root: `.venv/bin/python tests/quodd/make_ffa_transcript.py [SEED] [OUT] [SCENARIO]`
(defaults 4, the transcript, tutorial). Movement uses the greedy planner of make_transcripts.py
the rest of the
policy makes sure the transcript shows what issue 14 asks for: each hero's Q-power (the natural tumble brings the Q
up when it can), items and pets put in play and used, runes placing tokens, one impulse card on another player's
turn, draws from the lineup and the deck, both sides of upgrade tiles, and discards down to the hand limit.
"""
import asyncio
import itertools
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_transcripts as mt  # noqa: E402

from bot.console import Console, ScriptClock  # noqa: E402
from bot.manager import GameManager  # noqa: E402
from games.quodd import ENGINE as E  # noqa: E402
from games.quodd import data  # noqa: E402
from games.quodd.cube import tumble  # noqa: E402
from storage import open_storage  # noqa: E402

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 4
SCEN = sys.argv[3] if len(sys.argv) > 3 else "tutorial"
OUT = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent / "transcripts" / "ffa_full.txt"
HEROES = {"ann": "nyx", "bob": "trixie", "cat": "aang", "dan": "bramble"}
mt.candidates = lambda st, p: [a for a in E.legal_actions(st, p) if a.cmd not in ("rearrange", "qpower", "drop")]
used_power: set[str] = set()
did = {"impulse": 0, "use_item": 0, "use_pet": 0, "rune": 0}
sides: dict[str, set[str]] = {p: set() for p in HEROES}


def kind_of(cid):
    return data.cards()[cid].kind


def pick_power(st, who, acts):
    best, val = None, -1e18
    for a in acts:
        if a.get("token"):  # a placing power: a few squares only
            if a.get("token") not in ("teleporter", "tunnel") or abs(hash(a.get("at"))) % 7:
                continue
        new, _ = E.apply(st, who, a)
        v = mt.score(new, who) if new.phase != "over" else 0
        if v > val:
            best, val = a, v
    return best or acts[0]


def pick(st, who):
    acts = E.legal_actions(st, who)
    h = next(x for x in st.heroes if x.player == who)
    active = st.heroes[st.turn].player == who
    if st.pending is not None:
        if st.pending.kind == "place":
            return max(acts, key=lambda a: -mt._start_dist(st, a.get("option")))
        return acts[0]
    if st.phase == "skills":
        return next(a for a in acts if a.cmd == "done")
    if st.phase in ("power", "recovery") and active:
        for a in acts:  # put items and pets in play
            if a.cmd != "play":
                continue
            slot = h.items if kind_of(a.get("card")) == "item" else h.pets
            if kind_of(a.get("card")) in ("item", "pet") and not slot:
                return a
        for a in acts:
            if a.cmd == "use":
                k = kind_of(a.get("card"))
                key = "use_item" if k == "item" else "use_pet"
                if did[key] < 2:
                    did[key] += 1
                    return a
        for a in acts:
            rune = a.cmd == "play" and kind_of(a.get("card")) == "rune"
            if rune and data.cards()[a.get("card")].effect.do == "place" and did["rune"] < 2:
                did["rune"] += 1
                return a
        if st.phase == "power":
            for a in acts:
                if a.cmd == "play" and kind_of(a.get("card")) == "food":
                    return a
        return next(a for a in acts if a.cmd == "done")
    if st.phase == "move" and active:
        m = st.m
        if m.ready == "q" and not m.q_used and who not in used_power:
            q = [a for a in acts if a.cmd == "qpower"]
            if q:
                used_power.add(who)
                return pick_power(st, who, q)
        if not m.tumbled and who not in used_power:
            for a in acts:
                if a.cmd == "tumble":
                    head, _ = tumble(h.head, h.front, a.get("direction"))
                    if head == "U":
                        return a
        seq = mt.best_turn(st, who)
        if seq:
            return seq[0]
        return next((a for a in acts if a.cmd == "done"), acts[0])
    if st.phase == "explore" and active:
        draws = [a for a in acts if a.cmd == "draw"]
        if draws:
            deck = [a for a in draws if a.get("card") == "deck"]
            lineup = [a for a in draws if a.get("card") != "deck"]
            return (deck if (st.turn_no % 2 and deck) or not lineup else lineup)[0]
        disc = [a for a in acts if a.cmd == "discard"]
        if disc:
            return disc[0]
        return next((a for a in acts if a.cmd == "done"), acts[0])
    if st.phase == "upgrade":
        if "a" not in sides[who]:
            want = "a"
        elif "b" not in sides[who]:
            want = "b"
        else:
            want = "a" if st.round % 2 else "b"
        pref = ([a for a in acts if a.get("side") == want and not a.get("skill")]
                or [a for a in acts if a.get("side") == want] or acts)
        sides[who].add(pref[0].get("side"))
        return pref[0]
    return acts[0]


async def main():
    head = ["# A four-player free-for-all race with world events: cards from the lineup and the deck, an impulse",
            "# card on another player's turn, items and pets used, runes placing tokens, world events, upgrades on",
            "# both sides, every hero's Q-power, hands discarded to the limit; ends with the export.",
            "# Written by tests/quodd/make_ffa_transcript.py.",
            f"ann> /game new game:quodd seed:{SEED} scenario:{SCEN} events:on thread:false"]
    head += [f"{p}> /game join hero:{h}" for p, h in HEROES.items()]
    head += ["ann> /game start"]
    out = list(head)
    with tempfile.TemporaryDirectory() as tmp:
        clock = ScriptClock()
        seeds = itertools.count(1)
        store = await open_storage(str(Path(tmp) / "s.sqlite3"))
        m = GameManager(store, clock=clock, seed_source=lambda: next(seeds), render=False)
        con = Console(manager=m, out_dir=Path(tmp) / "o", write=lambda s: None)
        for ln in head:
            if ln.strip() and not ln.startswith("#"):
                await con.line(ln)
                clock.tick()
        for _ in range(3000):
            rec = await store.live_game("local")
            if rec is None:
                break
            st = m.state_of(rec)
            status = E.status(st)
            if status.finished:
                break
            who = st.pending.player if st.pending is not None else status.to_act[0]
            a = None
            if did["impulse"] < 1 and st.phase in ("recovery", "explore") and st.pending is None:
                for o in st.heroes:
                    if o.player != st.heroes[st.turn].player:
                        imp = E.common_actions(st, o.player)
                        if imp:
                            who, a = o.player, imp[0]
                            did["impulse"] += 1
                            break
            if a is None:
                a = pick(st, who)
            line = f"{who}> /quodd {a.text()}"
            out.append(line)
            await con.line(line)
            clock.tick()
        out.append("ann> /game export")
        m.close()
        await store.close()
    OUT.write_text("\n".join(out) + "\n")
    print(len(out), "lines", used_power, did, sides)

if __name__ == "__main__":
    asyncio.run(main())
