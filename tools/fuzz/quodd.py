"""Quodd Heroes under the fuzzer: heroes head for the next rally marker, pick up crystals and bank them."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Event, Seat
from games.core.grid import chebyshev
from games.quodd import data
from games.quodd.board import is_drop, on_map, xy
from games.quodd.state import QState

from .spec import NAMES, GameFuzz


def collectibles(st: QState) -> Counter[str]:
    """Every collectible wherever it is: on the ground, carried, banked, dropped by a fallen hero and waiting
    for its place (a queued job or the pending decision), or a sheep wandering the board."""
    out: Counter[str] = Counter()
    jobs = [*st.queue, *([st.pending.job] if st.pending is not None and st.pending.job is not None else [])]
    out.update(j.item for j in jobs if j.kind == "drop_fallen" and j.item)
    for items in st.ground.values():
        out.update(items)
    for h in st.heroes:
        out.update(h.carrying)
        out.update(h.banked)
    out.update(f"{s.colour}-sheep" for s in st.sheep)  # a sheep on the board is a collectible too (sheep.py)
    return out


class QuoddFuzz(GameFuzz):
    game_id = "quodd"
    passive = ("done", "rearrange")
    weight = 1.5

    def seats(self, pick: random.Random, options: dict[str, str]) -> list[Seat]:
        sc = data.scenarios()[options["scenario"]]
        n = pick.randint(max(self.engine.min_seats, sc.min_players), min(self.engine.max_seats, sc.max_players))
        heroes = [h.id for h in data.heroes().values()]
        chosen = pick.sample(heroes, min(n, len(heroes)))
        return [Seat(player=p, name=p, choices={"hero": chosen[i]} if pick.random() < 0.3 else {})
                for i, p in enumerate(NAMES[:n])]

    def score(self, state: Any, player: str) -> float:
        st: QState = state
        if player in st.winners:
            return 1e9
        h = next(x for x in st.heroes if x.player == player)
        value = 1000.0 * h.progress + 800.0 * len(h.banked) + 300.0 * len(h.carrying)
        if st.phase == "skills":  # the setup of skills: get it done
            value += 50.0 * (player in st.ready)
        if h.pos is None:
            return value - 500.0
        here = xy(h.pos)
        goals: list[tuple[int, int]] = []
        if st.objective == "heist":
            if h.carrying:
                goals = [(x, y) for y in range(st.height) for x in range(st.width)
                         if on_map(st, (x, y)) and is_drop(st, (x, y))]
            else:
                goals = [xy(sq) for sq, items in st.ground.items() if items]
        elif str(h.progress + 1) in st.rally:
            goals = [xy(st.rally[str(h.progress + 1)])]
        if goals:
            value -= 30.0 * min(chebyshev(here, g) for g in goals)
        return value

    def hidden(self, state: Any) -> Any:
        st: QState = state
        # the kinds still face down, not where they lie: moving a face-down token (a turned board) reveals nothing
        return (st.rng.seed, st.rng.counter, sorted(t.hidden for t in st.tokens.values() if t.hidden))

    def perturb(self, state: Any, pick: random.Random) -> Any:
        """Another generator, and other real kinds under the face-down secret tokens (from the scenario's pool)."""
        other: QState = super().perturb(state, pick)
        pool = list(data.scenarios()[other.scenario].secret_pool)
        for k, t in list(other.tokens.items()):
            if t.kind == "secret" and t.hidden:  # tokens are frozen: a new one in the copy's dict
                other.tokens[k] = t.model_copy(update={"hidden": pick.choice(pool)})
        return other

    def deal_again(self, state: Any, pick: random.Random) -> Any:
        """Every hand dealt anew from the hands and the exploration deck together (each keeps its size)."""
        other: QState = state.model_copy(deep=True)
        pool = [c for h in other.heroes for c in h.hand] + list(other.deck)
        pick.shuffle(pool)
        for h in other.heroes:
            h.hand, pool = pool[:len(h.hand)], pool[len(h.hand):]
        other.deck = pool
        return other

    def invariants(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        st: QState = after
        out = []
        spots = [h.pos for h in st.heroes if h.pos is not None]
        if len(set(spots)) != len(spots):
            out.append(f"two heroes on one square: {sorted(spots)}")
        for h in st.heroes:
            if h.pos is not None and not on_map(st, xy(h.pos)):
                out.append(f"{h.name} stands off the map at {h.pos}")
            if len(h.carrying) > st.carry_limit:
                out.append(f"{h.name} carries {len(h.carrying)}, more than {st.carry_limit}")
            if not 0 <= h.progress <= len(st.rally):
                out.append(f"{h.name} has reached {h.progress} of {len(st.rally)} rally markers")
        lost = any(" is lost" in e.text for e in events)  # nowhere safe beside a pit: the rules drop it
        if collectibles(st) != collectibles(before) and not (lost and collectibles(st) < collectibles(before)):
            out.append(f"collectibles changed: {dict(collectibles(before))} became {dict(collectibles(st))}")
        for sq, t in st.tokens.items():
            if (t.kind == "secret") != bool(t.hidden):
                out.append(f"the token at {sq} is {t.kind!r} with hidden {t.hidden!r}")
        if st.round > st.round_limit + 1:
            out.append(f"round {st.round} is past the limit {st.round_limit}")
        return out

    def milestones(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        st: QState = after
        out = []
        if st.phase != before.phase:
            out.append(f"phase {st.phase}")
        if st.phase == "over" and before.phase != "over":
            out.append(f"{st.scenario} won by goal" if st.winners and st.round <= st.round_limit
                       and "round" not in st.result_text.lower() else f"{st.scenario} over")
        for e in events:
            if "reveals a secret token" in e.text:
                out.append("secret revealed")
            if "delivers" in e.text:
                out.append("crystals delivered")
            if "steals" in e.text:
                out.append("steal")
        if any(h.progress > o.progress for h, o in zip(st.heroes, before.heroes, strict=True)):
            out.append("rally marker reached")
        if st.pending is not None and (before.pending is None or before.pending.kind != st.pending.kind):
            out.append(f"decision {st.pending.kind}")
        return out

    def required(self) -> tuple[str, ...]:
        return ("rally marker reached", "crystals delivered", "phase over")
