"""Multi-part scenarios: a scenario whose `next_part` names the scenario it leads into.

When a part's objective is reached (the game would be won), the game goes on with the next part instead of
ending: its map, tokens and living board replace the old ones, every hero comes off the board (what they carried
or banked stays behind with the old map) and is placed again in the next part's start zone, and the skills setup
comes again, so skills may be rearranged between parts (FAQ). Everything a hero earned stays as it was (FAQ:
upgrades remain): the upgrade track and its bonuses, B-side faces, upgraded skills, the hand and the items and pets
in play; the decks, the lineup and the first player go on too. The round count starts again at 1 under the next
part's round limit. If time runs out in any part, the whole scenario is lost (`goals.game_over_at_limit` clears
`next_part`). The engine calls `advance` after an action that ended a part (`QuoddHeroes.apply`).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import label

from .. import data
from ..beams import light
from ..board import hero_at
from ..jobs import decide
from ..state import BeamPiece, MoveCtx, Platform, QState, Sheep, Token


def lay_out(st: QState, sc: data.ScenarioDef) -> None:
    """The map, tokens and living board of `sc` replace what `st` had (the secret pool shuffled by `st.rng`)."""
    layout = data.check_scenario(sc)
    st.width, st.height, st.rows, st.links, st.board_of = (layout.width, layout.height, layout.rows, layout.links,
                                                            layout.board_of)
    st.tokens, st.ground, st.rally = {}, {}, {}
    pool = list(sc.secret_pool)
    st.rng.shuffle(pool)
    for t in sc.tokens:
        lab = t.at.upper()
        if t.kind == "crystal":
            st.ground.setdefault(lab, []).append(f"{t.colour or 'plain'}-crystal")
            continue
        tok = (Token(kind=t.kind, group=t.group, number=t.number, hidden=pool.pop()) if t.kind == "secret"
               else Token(kind=t.kind, group=t.group, number=t.number))
        if t.kind == "rally":
            st.rally[str(t.number)] = lab
        st.tokens[lab] = tok
    st.sheep = [Sheep(at=sh.at.upper(), colour=sh.colour, facing="" if sh.facing == "choose" else sh.facing)
                for sh in sc.sheep]
    st.sheep_ask = sc.sheep_pickup == "ask"
    st.platforms = [Platform(cells=[c.upper() for c in pl.cells], kind=pl.kind, dir=pl.dir, pivot=pl.pivot.upper())
                    for pl in sc.platforms]
    st.beams = [BeamPiece(at=b.at.upper(), kind=b.kind, dir=b.dir, on=b.on, group=b.group) for b in sc.beams]
    st.bombs, st.lit = [], []
    light(st, [])


def advance(st: QState, ev: list[Event]) -> None:
    """The part just won leads into the next: lay it out and set the heroes up again, keeping their upgrades."""
    sc = data.scenarios()[st.next_part]
    done = st.part or 1
    for e in ev:  # the part's win is not the game's result
        if e.kind == "result":
            e.kind = "round"
    lay_out(st, sc)
    st.scenario, st.part, st.next_part = sc.id, done + 1, sc.next_part
    st.round_limit, st.target = sc.round_limit, sc.target
    st.carry_limit = sc.carry_limit or data.house().carry_limit
    st.start_facing = sc.facing or ""
    st.round, st.winners, st.result_text = 1, [], ""
    st.queue.clear()
    st.pending, st.m, st.ready, st.last_path, st.last_mover = None, MoveCtx(), [], [], ""
    st.eor, st.marks = 0, []  # the old map's paths mean nothing on the new one
    for h in st.heroes:  # off the old map; what they carried and banked stays behind with it
        h.pos, h.carrying, h.banked, h.progress, h.revealed, h.finished_round, h.iced = None, [], [], 0, [], 0, []
        h.head, h.front, h.explores_earned = "U", h.home_front, 0
    n = len(st.heroes)
    st.placing = [(st.first - k) % n for k in range(1, n + 1)]
    st.turn = st.first
    st.phase = "place"
    ev.append(Event(text=f"Part {done} is done! On to part {done + 1}: {sc.name}. Every upgrade stays; place "
                         "your heroes again and set your skills anew.", kind="round"))
    h = st.heroes[st.placing[0]]
    free = [label(x, y) for y in range(st.height) for x in range(st.width)
            if st.rows[y][x] == "s" and hero_at(st, (x, y)) is None]
    decide(st, "place", h.player, h, free, f"{h.name}: choose a start space for {data.heroes()[h.hero].name}")
