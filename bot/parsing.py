"""Reading a typed command line (`/heroball step to:C4`) against the command definitions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import CommandSpec, MalformedAction, OptionSpec, tokenize
from games.core.actions import parse_pairs

from . import commands

TRUE = {"true", "yes", "on", "1", "y"}
FALSE = {"false", "no", "off", "0", "n"}


@dataclass
class Invocation:
    group: str
    name: str
    options: dict[str, Any]


def convert(spec: OptionSpec, raw: str) -> Any:
    """A raw option value as the type the command definition gives it."""
    if spec.kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise MalformedAction(f"`{spec.name}` takes a whole number, not `{raw}`.",
                                  f"Example: `{spec.name}:3`.") from None
    if spec.kind == "bool":
        low = raw.casefold()
        if low in TRUE:
            return True
        if low in FALSE:
            return False
        raise MalformedAction(f"`{spec.name}` takes yes or no, not `{raw}`.", f"Example: `{spec.name}:yes`.")
    if spec.choices and raw not in spec.choices:
        folded = {c.casefold(): c for c in spec.choices}
        if raw.casefold() in folded:
            return folded[raw.casefold()]
        raise MalformedAction(f"`{raw}` is not a choice for `{spec.name}`.",
                              "Choices: " + ", ".join(spec.choices) + ".")
    return raw


def bind(spec: CommandSpec, pairs: dict[str, str], prefix: str) -> dict[str, Any]:
    """Check option names and required options; convert values."""
    known = {o.name: o for o in spec.options}
    out: dict[str, Any] = {}
    for key, raw in pairs.items():
        if key not in known:
            names = ", ".join(f"`{n}:`" for n in known) or "no options"
            raise MalformedAction(f"`{prefix}` has no option `{key}`.", f"It takes {names}.")
        out[key] = convert(known[key], raw)
    missing = [o.name for o in spec.options if o.required and o.name not in out]
    if missing:
        raise MalformedAction(f"`{prefix}` needs `{missing[0]}:`.", f"Example: `{prefix} {missing[0]}:...`.")
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
        raise MalformedAction(f"`/{group}` is not a command.",
                              "Commands: " + ", ".join(f"/{g}" for g in table) + ", /rules.")
    if not rest or ":" in rest[0]:
        names = ", ".join(c.name for c in table[group])
        raise MalformedAction(f"`/{group}` needs a subcommand.", f"One of: {names}.")
    name = rest[0].lower()
    found = next((c for c in table[group] if c.name == name), None)
    if found is None:
        names = ", ".join(c.name for c in table[group])
        raise MalformedAction(f"`/{group} {name}` is not a command.", f"`/{group}` takes: {names}.")
    return Invocation(group, name, bind(found, _pairs(rest[1:]), f"/{group} {name}"))


def _pairs(tokens: list[str]) -> dict[str, str]:
    return {key.lower(): value for key, value in parse_pairs(tokens).items()}
