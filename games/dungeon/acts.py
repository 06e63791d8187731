"""`action_of(cmd, **args)`: `Action.of` remembered. Actions are frozen values, so one shared instance per
distinct action is safe; building them (pydantic validation) was the largest cost of listing legal moves."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import Action


@lru_cache(maxsize=1 << 16)
def _made(cmd: str, args: tuple[tuple[str, Any], ...]) -> Action:
    return Action.of(cmd, **dict(args))


def action_of(cmd: str, **args: Any) -> Action:
    return _made(cmd, tuple(args.items()))
