"""Autocomplete: the values an option may take for this user now, best first, with the game's labels."""
from __future__ import annotations

from typing import Any

from games.core import Action, PlaypostError, all_games, get_game

from .defaults import seats_of, squash
from .reply import Context
from .table import Table


class Suggestions:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def labelled(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any],
                       typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs: the label is what the list shows (the game may add detail)."""
        values = await self._suggest(ctx, group, name, option, given)
        labels = {v: v for v in values}
        if group in all_games() or (group, name) == ("game", "preview"):
            rec = await self.table.storage.live_game(ctx.channel_id)
            if rec is not None and rec.status == "active" and group in (rec.kind, "game"):
                engine = get_game(rec.kind)
                state = await self.table.load(rec, engine)
                labels = {v: engine.value_label(state, ctx.user_id, name, option, v) or v for v in values}
        t = squash(typed)
        starts = [v for v in values if squash(v).startswith(t) or squash(labels[v]).startswith(t)]
        contains = [v for v in values if v not in starts and (t in squash(v) or t in squash(labels[v]))]
        return [(labels[v], v) for v in (starts + contains)[:25]]

    async def _suggest(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any]) -> list[str]:
        if group == "rules" and option == "topic":
            try:
                return list(get_game(str(given.get("game", ""))).rules_topics())
            except PlaypostError:
                return []
        if group == "game" and name == "new":
            game = given.get("game")
            if game in all_games():
                return get_game(game).option_choices(option)
            return []
        rec = await self.table.storage.live_game(ctx.channel_id)
        if rec is None:
            return []
        engine = get_game(rec.kind)
        if group == "game" and name == "join":
            return engine.seat_choices(rec.options, [s for s in seats_of(rec) if s.player != ctx.user_id], option)
        if group == "game" and name == "computer" and option == "hero":
            return engine.seat_choices(rec.options, seats_of(rec), option)
        if group == "game" and name in ("kick", "computer"):
            return [s.name for s in rec.seats]
        if group not in (rec.kind, "game") or rec.status != "active" or ctx.user_id not in self.table.names(rec):
            return []
        state = await self.table.load(rec, engine)
        if name == "preview" and option == "action":  # any legal action can be previewed
            return [a.text() for a in engine.legal_actions(state, ctx.user_id) if a.cmd not in engine.anytime_commands]
        try:
            partial = Action(cmd=name, args=tuple((k, str(v)) for k, v in given.items()
                                                  if v is not None and k != option))
        except (PlaypostError, ValueError):  # a half-typed option that is no action yet
            return []
        if group == "game":
            return []
        seen: list[str] = []
        for a in engine.legal_actions(state, ctx.user_id):
            if a.matches(partial):
                v = a.get(option)
                if v is not None and v not in seen:
                    seen.append(v)
        return seen
