"""Choosers for `random_playout`: uniform, and guided (one action of lookahead, rated by the game's `score`)."""
from __future__ import annotations

import random
from typing import Any

from games.core import Action

from .spec import GameFuzz

LOOKAHEAD = 12  # legal actions rated per decision (a sample when there are more)
MODES = ("guided", "mixed", "random", "late")  # late: guided, from a constructed later position (GameFuzz.late_start)
EPSILON = {"guided": 0.1, "mixed": 0.5, "random": 1.0, "late": 0.05}


class Chooser:
    """Picks an action; remembers the last pick (a crash inside `apply` is reported with it) and, when it
    looked ahead, the state the chosen action led to (apply must be deterministic: the real step is compared)."""

    def __init__(self, fuzz: GameFuzz, mode: str) -> None:
        self.fuzz = fuzz
        self.epsilon = EPSILON[mode]
        self.last: tuple[str, Action] | None = None
        self.predicted: Any = None
        self.calls = 0
        self.plan: list[tuple[Action, Any]] = []  # the rest of the best rollout: actions and the states they lead to
        self.plan_for = ""  # whose turn the plan is for
        self.predicted_before: Any = None  # where the plan's last step led (the plan goes on only from there)

    def __call__(self, pick: random.Random, state: Any, player: str, legal: list[Action]) -> Action:
        self.predicted = None
        self.calls += 1
        if pick.random() < self.epsilon:
            self.plan = []
            action = pick.choice(legal)
        elif self.fuzz.rollouts:
            action = self._planned(pick, state, player, legal)
        else:
            action = self._best(pick, state, player, legal)
        self.last = (player, action)
        return action

    def _best(self, pick: random.Random, state: Any, player: str, legal: list[Action]) -> Action:
        rated = [a for a in legal if a.cmd not in self.fuzz.skip_in_lookahead] or legal
        if len(rated) > LOOKAHEAD:
            rated = pick.sample(rated, LOOKAHEAD)
        best: tuple[float, Action, Any] | None = None
        for a in rated:
            after, _ = self.fuzz.engine.apply(state, player, a)
            value = self.fuzz.score(after, player) + pick.random() * 1e-3  # ties broken at random
            if best is None or value > best[0]:
                best = (value, a, after)
        assert best is not None
        self.predicted = best[2]
        return best[1]

    def _planned(self, pick: random.Random, state: Any, player: str, legal: list[Action]) -> Action:
        """Follow the best of a few random rollouts of the rest of this turn (until the turn passes on), rated by
        `score` where it ends. The rollouts see the real generator: the fuzzer may replay its luck, a player can't."""
        engine = self.fuzz.engine
        if self.plan and self.plan_for == player and self.plan[0][0] in legal and self.predicted_before is not None \
                and engine.dump(self.predicted_before) == engine.dump(state):
            action, self.predicted = self.plan.pop(0)
            self.predicted_before = self.predicted
            return action
        key = engine.status(state).turn_key
        best: tuple[float, list[tuple[Action, Any]]] | None = None
        for _ in range(self.fuzz.rollouts):
            s, seq = state, []
            for depth in range(self.fuzz.rollout_depth):
                moves = legal if depth == 0 else engine.legal_actions(s, player)
                a = self.fuzz.policy(s, player, moves, pick) if pick.random() < self.fuzz.policy_rate else None
                if a is None:
                    doing = [a for a in moves if a.cmd not in self.fuzz.skip_in_lookahead + self.fuzz.passive] or moves
                    a = pick.choice(doing if pick.random() < 0.8 else moves)
                s, _ = engine.apply(s, player, a)
                seq.append((a, s))
                st = engine.status(s)
                if st.finished or st.turn_key != key or player not in st.to_act:
                    break
            value = self.fuzz.score(s, player) + pick.random() * 1e-3
            if best is None or value > best[0]:
                best = (value, seq)
        assert best is not None
        self.plan, self.plan_for = best[1], player
        action, self.predicted = self.plan.pop(0)
        self.predicted_before = self.predicted
        return action
