"""Seat choices that must be unique at the table (a hero, a god, a colour): what is free, who took what."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .contract import Seat


@dataclass(frozen=True)
class UniqueChoice:
    """A seat option whose values no two seats may share.

    `values` lists (id, display name) in the order offered; `resolve` turns what a player typed
    into an id (None when it names nothing).
    """

    option: str
    values: Callable[[], Iterable[tuple[str, str]]]
    resolve: Callable[[str], str | None]

    def taken(self, seats: Sequence[Seat], *, besides: str | None = None) -> set[str]:
        """Ids chosen by the seats (except the player `besides`, who is re-joining)."""
        out: set[str] = set()
        for s in seats:
            if s.player == besides or not s.choices.get(self.option):
                continue
            got = self.resolve(s.choices[self.option])
            if got is not None:
                out.add(got)
        return out

    def free(self, seats: Sequence[Seat], *, besides: str | None = None) -> list[str]:
        """Display names still free, in the order offered."""
        taken = self.taken(seats, besides=besides)
        return [name for vid, name in self.values() if vid not in taken]

    def free_ids(self, seats: Sequence[Seat], *, besides: str | None = None) -> list[str]:
        taken = self.taken(seats, besides=besides)
        return [vid for vid, _ in self.values() if vid not in taken]
