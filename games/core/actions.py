"""Actions: small hashable values whose text form is the command a player types.

`step to:C4`, `move path:"N N E"`, `choose option:2`. The same text travels in
button custom_ids, transcripts and the action log, and parses back to an equal value.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from .errors import MalformedAction

ECHO_LIMIT = 40  # characters of a user's value a reply may quote back

_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.,/=@!?'")


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """A user's value as a refusal may quote it: at most `limit` characters, the rest cut with `...`.

    Every message that repeats what a player typed goes through this, so a 10,000-character value
    never comes back as a 10,000-character reply.
    """
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def tokenize(text: str) -> list[str]:
    """Split on spaces, keeping `key:"a b"` and `"a b"` together; quotes removed."""
    out: list[str] = []
    cur: list[str] = []
    quote = False
    had_token = False
    for ch in text.strip():
        if ch == '"':
            quote = not quote
            had_token = True
        elif ch.isspace() and not quote:
            if cur or had_token:
                out.append("".join(cur))
                cur, had_token = [], False
        else:
            cur.append(ch)
    if quote:
        raise MalformedAction("A quote is not closed.", 'Write values with spaces as key:"a b".')
    if cur or had_token:
        out.append("".join(cur))
    return out


def parse_pairs(tokens: list[str]) -> dict[str, str]:
    """`["to:C4", 'path:N N E']` -> {"to": "C4", "path": "N N E"}; each key once.

    A bare word after a value continues it, so `hero:Von Wilding` means "Von Wilding"
    (quotes work too: `hero:"Von Wilding"`).
    """
    out: dict[str, str] = {}
    seen: set[str] = set()  # option names ignore case, so `to:` and `TO:` are the same option
    last: str | None = None
    for tok in tokens:
        key, sep, value = tok.partition(":")
        if not sep and last is not None:
            out[last] = f"{out[last]} {tok}"
            continue
        if not sep or not key:
            raise MalformedAction(f"`{echo(tok)}` is not written as option:value.",
                                  'Example: `to:C4`; quote values with spaces: `hero:"Von Wilding"`.')
        last = key
        if key.casefold() in seen:
            raise MalformedAction(f"`{echo(key)}` is given twice.", "Give each option once.")
        seen.add(key.casefold())
        out[key] = value
    return out


def _quote(value: str) -> str:
    return value if value and all(c in _SAFE for c in value) else f'"{value}"'


class Action(BaseModel):
    """One move or decision: a command name and its named arguments."""

    model_config = ConfigDict(frozen=True)

    cmd: str
    args: tuple[tuple[str, str], ...] = ()

    @field_validator("args", mode="before")
    @classmethod
    def _sorted(cls, v: Any) -> tuple[tuple[str, str], ...]:
        if isinstance(v, dict):
            v = v.items()
        return tuple(sorted((str(k), str(val)) for k, val in v))

    @classmethod
    def of(cls, cmd: str, **args: Any) -> Action:
        """The action `cmd` with these arguments (None values left out).

        Actions are frozen values, so one shared instance per distinct call is safe: building one (pydantic
        validation) was the largest cost of listing legal moves. The key holds each value's type, so `1`,
        `True` and `"1"` (equal or equal-hashing keys) still give their own texts."""
        try:
            key = (cls, cmd, tuple(args.items()), tuple(map(type, args.values())))
            found = _OF.get(key)
        except TypeError:  # an unhashable value: built every time
            return cls(cmd=cmd, args=tuple((k, str(v)) for k, v in args.items() if v is not None))
        if found is None:
            if len(_OF) > 1 << 16:
                _OF.clear()
            found = _OF[key] = cls(cmd=cmd, args=tuple((k, str(v)) for k, v in args.items() if v is not None))
        return found

    def __eq__(self, other: object) -> bool:
        """pydantic's comparison, short for two plain actions (the same command and arguments): every move checks
        `action in legal` against each legal action, and pydantic's general comparison was most of that."""
        if type(other) is Action and type(self) is Action:
            return self.cmd == other.cmd and self.args == other.args
        return super().__eq__(other)

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.args:
            if k == key:
                return v
        return default

    @property
    def argdict(self) -> dict[str, str]:
        return dict(self.args)

    def text(self) -> str:
        parts = [self.cmd] + [f"{k}:{_quote(v)}" for k, v in self.args]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def parse(cls, text: str) -> Action:
        tokens = tokenize(text)
        if not tokens:
            raise MalformedAction("Empty action.", "Write a command such as `end`.")
        cmd, rest = tokens[0], tokens[1:]
        if ":" in cmd or not cmd:
            raise MalformedAction(f"`{echo(cmd)}` is not a command name.",
                                  "Start with the command, then key:value pairs.")
        return cls(cmd=cmd.lower(), args=tuple(parse_pairs(rest).items()))

    def matches(self, partial: Action) -> bool:
        """True when this action has the command and every argument `partial` names."""
        if self.cmd != partial.cmd:
            return False
        mine = {k: v.casefold() for k, v in self.args}
        return all(mine.get(k) == v.casefold() for k, v in partial.args)


_OF: dict[tuple[object, ...], Action] = {}


@lru_cache(maxsize=1 << 16)
def _made(cmd: str, args: tuple[tuple[str, Any], ...]) -> Action:
    return Action.of(cmd, **dict(args))


def action_of(cmd: str, **args: Any) -> Action:
    """`Action.of` remembered. Actions are frozen values, so one shared instance per distinct action is safe;
    building them (pydantic validation) was the largest cost of listing legal moves."""
    return _made(cmd, tuple(args.items()))
