"""Equipment cards' own actions (2nd-edition card semantics): whom an assist card action reaches, the buff it
bestows and the risk of a dangerous action. Their legality lives in `phases/activation.py`, the attack and
heal machinery they share with heroes' unique actions in `combat.py` and `hero_actions.py`."""
from __future__ import annotations

from . import dice
from .combat import give_buff, wound_hero
from .data import UniqueAction, content
from .state import DungeonState, HeroState
from .stats import hero_stats, is_incap


def card_of_action(h: HeroState, uid: str) -> str | None:
    """The name of the carried card that gives this action (None: the hero's own unique action)."""
    for cid in h.equipment:
        if uid in content().cards[cid].actions:
            return content().cards[cid].name
    return None


def action_card(uid: str) -> str | None:
    """The name of the first card (any hero's) that gives this action."""
    return next((c.name for c in content().cards.values() if uid in c.actions), None)


def danger(st: DungeonState, h: HeroState, ua: UniqueAction, lines: list[str]) -> bool:
    """House reading of a dangerous action (the rule text names the attribute without saying what it does): the
    user rolls one blue die first and takes a wound on a blank face. False when that wound takes them down,
    and the action is lost."""
    rolled = dice.roll_dice(st, ["B"])[0]
    stars, heart = dice.face(rolled)
    name = hero_stats(h).name
    if stars or heart:
        lines.append(f"{ua.name} is dangerous: {name} rolls {dice.die_text(rolled)} and comes to no harm.")
        return True
    lines.append(f"{ua.name} is dangerous: {name} rolls {dice.die_text(rolled)} and is hurt.")
    wound_hero(st, h, 1, lines)
    if is_incap(h):
        lines.append(f"{ua.name} is lost.")
        return False
    return True


def buff_action(st: DungeonState, targets: list[HeroState], ua: UniqueAction, lines: list[str]) -> None:
    """An assist card action whose effect is a buff: it always succeeds (assist actions roll nothing here)."""
    for t in targets:
        if not is_incap(t):
            give_buff(t, ua.buff, ua.name, lines)
