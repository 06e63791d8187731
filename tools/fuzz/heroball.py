"""Heroball under the fuzzer: heroes go for the Godball and carry or throw it into their own goal."""
from __future__ import annotations

import random
from typing import Any

from games.core import Event, Seat
from games.heroball.state import ORDER_VALUES, HeroballState

from .spec import NAMES, GameFuzz


def walk_distances(g: Any, targets: tuple[str, ...]) -> dict[str, int]:
    """Steps from every hex to the nearest of `targets` around the pillars (a straight line may be blocked)."""
    key = (id(g.board), targets)
    if key not in _WALKS:
        dist = {t: 0 for t in targets}
        frontier = list(targets)
        while frontier:
            nxt = []
            for hx in frontier:
                for n in g.board.neighbors(hx):
                    if n not in dist and n not in g.board.pillars:
                        dist[n] = dist[hx] + 1
                        nxt.append(n)
            frontier = nxt
        _WALKS[key] = dist
    return _WALKS[key]


_WALKS: dict[tuple[int, tuple[str, ...]], dict[str, int]] = {}


class HeroballFuzz(GameFuzz):
    game_id = "heroball"
    skip_in_lookahead = ("reactions",)
    computer_level = "hard"  # a few ms a decision

    def seats(self, pick: random.Random, options: dict[str, str]) -> list[Seat]:
        """2-4 players; now and then a chosen hero, god or standing order (they change who reacts)."""
        n = pick.randint(self.engine.min_seats, self.engine.max_seats)
        heroes = [o for o in self.engine.seat_options if o.name == "hero"][0].choices
        gods = list(self.engine.rules.playable_gods)  # type: ignore[attr-defined]
        pick.shuffle(gods)
        chosen = pick.sample(heroes, n)
        out = []
        for i, name in enumerate(NAMES[:n]):
            choices: dict[str, str] = {}
            if pick.random() < 0.4:
                choices["hero"] = chosen[i]
            if pick.random() < 0.3:
                choices["god"] = gods[i]
            for key in ("defend", "intercept"):
                if pick.random() < 0.3:
                    choices[key] = pick.choice(ORDER_VALUES)
            out.append(Seat(player=name, name=name, choices=choices))
        return out

    def score(self, state: Any, player: str) -> float:
        """Own points first, then the Godball near (or in hand) and near the own goal."""
        s: HeroballState = state
        g: Any = self.engine
        me = g.hero(s, player)
        value = 1000.0 * me.score - 300.0 * sum(h.score for h in s.heroes if h.player != player)
        ball = g.obj_hex(s, "ball")
        if ball is None:
            return value
        goals = tuple(sorted(hx for hx, owner in g.goal_owner(s).items() if owner == player))
        to_goal = walk_distances(g, goals).get(ball, 20)
        if s.objects["ball"].holder == player:
            return value + 50 - 10.0 * to_goal + me.ap
        return value - 6.0 * walk_distances(g, (ball,)).get(me.pos, 20) - 2.0 * to_goal + me.ap

    def invariants(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        s: HeroballState = after
        g: Any = self.engine
        out = []
        max_ap = g.rules.house.max_ap
        labels = set(g.board.labels)
        for h in s.heroes:
            if not 0 <= h.ap <= max_ap:
                out.append(f"{h.hero} has {h.ap} AP (0..{max_ap})")
            if h.pos not in labels or h.pos in g.board.pillars:
                out.append(f"{h.hero} stands on {h.pos}, not a free hex of the field")
            if h.holding is not None and s.objects.get(h.holding, None) is None:
                out.append(f"{h.hero} holds {h.holding}, which is not in the game")
            elif h.holding is not None and s.objects[h.holding].holder != h.player:
                out.append(f"{h.hero} holds {h.holding} but the object says it is elsewhere")
        spots = [h.pos for h in s.heroes]
        if len(set(spots)) != len(spots):
            out.append(f"two heroes on one hex: {sorted(spots)}")
        if "ball" not in s.objects:
            out.append("the Godball is gone")
        for name, o in s.objects.items():
            if (o.at is None) == (o.holder is None):
                out.append(f"{name} must be either on a hex or held: at={o.at} holder={o.holder}")
            if o.at is not None and o.at not in labels:
                out.append(f"{name} lies on {o.at}, off the field")
            if o.holder is not None and g.hero(s, o.holder).holding != name:
                out.append(f"{name} is held by {o.holder}, who holds {g.hero(s, o.holder).holding}")
        old = {h.player: h.score for h in before.heroes}
        for h in s.heroes:
            if h.score < old[h.player]:
                out.append(f"{h.hero}'s score went down from {old[h.player]} to {h.score}")
        if s.window is not None and s.phase != "play":
            out.append(f"a reaction window is open in phase {s.phase}")
        return out

    def milestones(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        out = []
        for e in events:
            if e.kind == "goal" and e.text.startswith("GOAL"):
                out.append("goal carried in" if "runs the Godball" in e.text else "goal by throw or push")
        if after.window is not None and (before.window is None or before.window.kind != after.window.kind):
            out.append(f"window {after.window.kind}")
        if after.phase == "over" and before.phase != "over":
            out.append("game over")
        return out

    def required(self) -> tuple[str, ...]:
        return ("goal carried in", "goal by throw or push", "window defend", "window intercept", "game over")
