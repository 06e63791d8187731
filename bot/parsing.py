"""Reading a typed command line (`/heroball step to:C4`) against the command definitions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import CommandSpec, MalformedAction, OptionSpec, tokenize
from games.core.actions import echo, parse_pairs

from . import commands

TRUE = {"true", "yes", "on", "1", "y"}
FALSE = {"false", "no", "off", "0", "n"}
INT_RANGE = (0, 2**63 - 1)  # an int option without its own range: what storage can hold, never negative
MAX_TEXT = 200  # characters of a text value (Discord's own limit is 6000; no legal value comes close)


@dataclass
class Invocation:
    group: str
    name: str
    options: dict[str, Any]


def convert(spec: OptionSpec, raw: str) -> Any:
    """A raw option value as the type the command definition gives it."""
    if spec.kind == "int":
        try:
            value = int(raw)
        except ValueError:
            raise MalformedAction(f"`{spec.name}` takes a whole number, not `{echo(raw)}`.",
                                  f"Example: `{spec.name}:3`.") from None
        return check_int(spec, value)
    if spec.kind == "bool":
        low = raw.casefold()
        if low in TRUE:
            return True
        if low in FALSE:
            return False
        raise MalformedAction(f"`{spec.name}` takes yes or no, not `{echo(raw)}`.", f"Example: `{spec.name}:yes`.")
    if len(raw) > MAX_TEXT:
        raise MalformedAction(f"`{spec.name}:` is {len(raw):,} characters long; no value is longer than {MAX_TEXT}.",
                              f"It began `{echo(raw)}`.")
    if spec.choices and raw not in spec.choices:
        folded = {c.casefold(): c for c in spec.choices}
        if raw.casefold() in folded:
            return folded[raw.casefold()]
        raise MalformedAction(f"`{echo(raw)}` is not a choice for `{spec.name}`.",
                              "Choices: " + ", ".join(spec.choices) + ".")
    return raw


def int_range(spec: OptionSpec) -> tuple[int, int]:
    """The whole numbers an int option accepts, both ends included."""
    lo, hi = INT_RANGE
    return (lo if spec.min is None else spec.min, hi if spec.max is None else spec.max)


def check_int(spec: OptionSpec, value: int) -> int:
    """`value` if it is in the option's range; otherwise a refusal naming the range (checked before any use)."""
    lo, hi = int_range(spec)
    if not lo <= value <= hi:
        raise MalformedAction(f"`{spec.name}` must be between {lo:,} and {hi:,}, not {echo(f'{value:,}')}.",
                              f"Example: `{spec.name}:{max(lo, min(hi, 3))}`.")
    return value


def check_ints(spec: CommandSpec, given: dict[str, Any]) -> None:
    """Every int option given to a command (by any transport) within its range."""
    for opt in spec.options:
        value = given.get(opt.name)
        if opt.kind == "int" and value is not None:
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise MalformedAction(f"`{opt.name}` takes a whole number, not `{echo(value)}`.",
                                      f"Example: `{opt.name}:3`.") from None
            check_int(opt, number)


def bind(spec: CommandSpec, pairs: dict[str, str], prefix: str, *, game_move: bool = False) -> dict[str, Any]:
    """Check option names and required options; convert values. A game move may leave a required option
    out: the game fills it in when only one legal move fits, or answers with the moves that do."""
    known = {o.name: o for o in spec.options}
    out: dict[str, Any] = {}
    for key, raw in pairs.items():
        if key not in known:
            names = ", ".join(f"`{n}:`" for n in known) or "no options"
            hint = f"It takes {names}."
            if list(known) == ["action"] and "action" in pairs:  # `preview action:seed to:G7`: the move needs quotes
                hint += f' Quote a move with options: `action:"{echo(pairs["action"])} {echo(key)}:{echo(raw)}"`.'
            raise MalformedAction(f"`{prefix}` has no option `{echo(key)}`.", hint)
        out[key] = convert(known[key], raw)
    missing = [o for o in spec.options if o.required and o.name not in out]
    if missing and not game_move:
        opt = missing[0]
        hint = ("One of: " + ", ".join(f"`{opt.name}:{c}`" for c in opt.choices) + "." if opt.choices
                else f"Say it as `{prefix} {opt.name}:...`; `/game help` describes it.")
        raise MalformedAction(f"`{prefix}` needs `{opt.name}:`.", hint)
    return out


def parse_command(text: str) -> Invocation:
    """`/game new game:heroball` -> Invocation('game', 'new', {'game': 'heroball'})."""
    tokens = tokenize(text)
    if not tokens or not tokens[0].startswith("/"):
        raise MalformedAction("Commands start with a slash.", "Example: `/game help`.")
    group = tokens[0][1:].lower()
    rest = tokens[1:]
    if group == "rules":
        spec = commands.rules_command()
        return Invocation("rules", "", bind(spec, _pairs(rest), "/rules"))
    table = commands.groups()
    if group not in table:
        raise MalformedAction(f"`/{echo(group)}` is not a command.",
                              "Commands: " + ", ".join(f"/{g}" for g in table) + ", /rules.")
    if not rest or ":" in rest[0]:
        names = ", ".join(c.name for c in table[group])
        raise MalformedAction(f"`/{group}` needs a subcommand.", f"One of: {names}.")
    name = rest[0].lower()
    found = next((c for c in table[group] if c.name == name), None)
    if found is None:
        names = ", ".join(c.name for c in table[group])
        raise MalformedAction(f"`/{group} {echo(name)}` is not a command.", f"`/{group}` takes: {names}.")
    return Invocation(group, name, bind(found, _pairs(rest[1:]), f"/{group} {name}", game_move=group != "game"))


def _pairs(tokens: list[str]) -> dict[str, str]:
    return {key.lower(): value for key, value in parse_pairs(tokens).items()}
