"""What `/game undo` works out before it writes anything: which actions go back and the state before them.

It is rules work (states parsed, checked and dumped; after a restart, or when the turn's states were not kept,
the game replayed from its log, which for a long game takes a good part of a second), so it runs in a rules
worker thread, never on the event loop: `plan` is pure and raises `IllegalAction` when nothing may be undone.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from games.core import Action, Game, IllegalAction, Status
from games.core.play import hint_for, replay, secrets_mark
from storage import GameRecord, LogEntry

from .defaults import seats_of

# what a barrier is, in a player's words (a card played from a hand is hidden information made public)
BARRIER = ("`{action}` rolled dice or revealed something hidden (a card from a hand or a deck, a draw), so it cannot "
           "be undone.")

Kept = Sequence[tuple[int, str, str]]  # (log seq, turn key, the state before that action as saved JSON)


@dataclass(frozen=True)
class UndoPlan:
    """The undo to write: `last` taken back, and before it (undone first, newest last) the actions the table
    played by itself after it, each with the dump of the state before it; the state rebuilt before `last`."""

    last: LogEntry
    tail: list[tuple[LogEntry, str]]
    status: Status  # the game's status before the undo (of the state before the forced tail, if any)
    rebuilt: BaseModel
    rebuilt_text: str
    after: Status


def plan(rec: GameRecord, engine: Game, state: BaseModel, entries: Sequence[LogEntry], kept: Kept,
         player: str) -> UndoPlan:
    """The undo of `player`'s last action in `rec` (whose state is `state`, whose log is `entries`, and whose
    kept states are `kept`), or `IllegalAction` saying why it may not be taken back."""
    if not entries:
        raise IllegalAction("There is nothing to undo yet.", "No move has been made.")
    st = engine.status(state)
    last = entries[-1]
    # the moves the table played by themselves (nothing left to choose) go back with the move that led to them
    tail = forced_tail(rec, engine, entries, kept, player)
    if tail:
        entries = entries[:-len(tail)]
        last, st = entries[-1], engine.status(tail[0][1])
    if last.player != player:
        raise IllegalAction("The last action was not yours.", "You can undo only your own actions.")
    if last.turn_key != st.turn_key:
        if not tail and not last.barrier and engine.forced_action(
                state_before(rec, engine, entries, len(entries) - 1, kept), player) == Action.parse(last.action):
            # e.g. the first move of a game, played for its player: nothing they chose
            raise IllegalAction(f"There is nothing of yours to undo: `{last.action}` was your only move, so it "
                                "played itself.", hint_for(engine, state, player))
        if player in st.to_act:  # still theirs to play: the move began a new part of the turn (a hero's activation)
            raise IllegalAction(f"`{last.action}` began a new turn or a new part of your turn (a hero's activation), "
                                "and undo goes back only within the current one.", hint_for(engine, state, player))
        raise IllegalAction("Your turn has passed on; undo works only within your current turn.",
                            hint_for(engine, state, player))
    if last.barrier:
        raise IllegalAction(BARRIER.format(action=last.action), hint_for(engine, state, player))
    rebuilt = state_before(rec, engine, entries, len(entries) - 1, kept)
    if secrets_mark(engine, rebuilt) != secrets_mark(engine, state):  # also for logs written before barriers
        raise IllegalAction(BARRIER.format(action=last.action), hint_for(engine, state, player))
    return UndoPlan(last=last, tail=[(entry, engine.dump(before)) for entry, before in tail], status=st,
                    rebuilt=rebuilt, rebuilt_text=engine.dump(rebuilt), after=engine.status(rebuilt))


def state_before(rec: GameRecord, engine: Game, entries: Sequence[LogEntry], i: int, kept: Kept) -> BaseModel:
    """The state before log entry `i`: kept from its commit, or rebuilt from the log after a restart."""
    for seq, _turn, text in kept:
        if seq == entries[i].seq:
            return engine.load(text)
    return replay(engine, rec.options, seats_of(rec), rec.seed,
                  [(e.player, Action.parse(e.action)) for e in entries[:i]], trusted=True)


def forced_tail(rec: GameRecord, engine: Game, entries: Sequence[LogEntry], kept: Kept,
                player: str) -> list[tuple[LogEntry, BaseModel]]:
    """The moves at the end of the log the table played for `player` (each the lone move they had, none rolling
    dice or revealing anything), each with the state before it, when they follow a move of `player`'s in the
    turn of the first of them; else none."""
    tail: list[tuple[LogEntry, BaseModel]] = []
    for i in range(len(entries) - 1, 0, -1):
        entry = entries[i]
        if entry.player != player or entry.barrier:
            break
        before = state_before(rec, engine, entries, i, kept)
        if engine.forced_action(before, player) != Action.parse(entry.action):
            break
        tail.insert(0, (entry, before))
    if not tail:
        return []
    lead = entries[len(entries) - len(tail) - 1]
    return tail if lead.player == player and lead.turn_key == tail[0][0].turn_key else []
