"""Inside a hero's attack: a reroll to take or keep, then the hearts a hit rolled to use.

The stored `AttackCtx.stage` says which; the decision is a `Pending` derived from it. Once the
attack needs nothing more, play returns to the activation.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from games.core import Action
from games.core.pending import Pending

from .. import dice, marks
from ..combat import advance_attack, resolve_hero_attack
from ..data import content
from ..hero_actions import BACK_UP
from ..state import AttackCtx, DungeonState, HeroState
from ..stats import hero, hero_stats, is_incap
from ..turns import settle
from .base import DungeonPhase, activation_key, active_hero

KEEP = Action.of("keep")
NO_HEART = Action.of("heart", use="none")


def attack_of(st: DungeonState) -> AttackCtx:
    assert st.attack is not None
    return st.attack


class AttackPhase(DungeonPhase):
    name = "attack"
    skips = (KEEP, NO_HEART)

    def pending(self, game: Any, state: DungeonState) -> Pending:
        ctx = attack_of(state)
        h = active_hero(state)
        if ctx.stage == "reroll":
            question, default = "reroll or keep", KEEP
        else:
            n = ctx.hearts_left
            question, default = f"use {n} heart{'s' if n != 1 else ''}", NO_HEART
        return Pending(kind="activation", player=h.player, name=f"{h.name} ({hero_stats(h).name})",
                       question=question, round=state.turn, round_name="turn", turn_key=activation_key(state),
                       default=default)

    def legal(self, game: Any, state: DungeonState, player: str) -> list[Action]:
        ctx = attack_of(state)
        h = active_hero(state)
        if h.player != player:
            return []
        if ctx.stage == "reroll":
            return reroll_choices(ctx) + [KEEP]
        return heart_options(state, h)

    def act(self, game: Any, st: DungeonState, player: str, action: Action, lines: list[str]) -> None:
        h = active_hero(st)
        a = action.argdict
        if action.cmd == "reroll":
            reroll(st, reroll_dice(a), lines)
        elif action.cmd == "keep":
            lines.append(f"{hero_stats(h).name} keeps the roll.")
            keep_roll(st, lines)
        elif action.cmd == "heart":
            use_heart(st, a["use"], a.get("hero", ""), a.get("debuff", ""), lines)
        settle(st, h, lines)

    def explain(self, game: Any, state: DungeonState, player: str, action: Action) -> str:
        ctx = attack_of(state)
        if ctx.stage != "reroll":
            return "Finish the attack first: use the hearts."
        also = "reroll a die that is there or `keep` the roll."
        if action.cmd == "reroll":
            return f"{reroll_refusal(ctx, action.argdict)}: {also}"
        return f"Finish the attack first: {also}"

    def label(self, game: Any, state: DungeonState, action: Action) -> str | None:
        a = action.argdict
        if action.cmd == "heart":
            who = content().heroes[a["hero"]].name if a.get("hero") in content().heroes else ""
            return {"heal": f"Heal {who}", "cure": f"Cure {a.get('debuff', '')} ({who})",
                    "potion": "Gain a potion", "none": "Skip heart"}[a["use"]]
        if action.cmd == "reroll":
            offence = attack_of(state).offence
            picked = [i for i in reroll_dice(a) if 0 <= i < len(offence)]
            if picked:
                return "Reroll " + " and ".join(f"die {i + 1} ({dice.die_text(offence[i])})" for i in picked)
        if action.cmd == "keep":
            return "Keep the roll"
        return None

    def buttons(self, game: Any, state: DungeonState, player: str, legal: list[Action]) -> list[Action]:
        return legal[:20]


def reroll_dice(args: dict[str, str]) -> list[int]:
    """The 0-based dice a `reroll` names: `die` and any `also` ("2 3"), each once, in order."""
    picked = [args.get("die", "")] + args.get("also", "").replace(",", " ").split()
    out: list[int] = []
    for p in picked:
        if p.isdigit() and int(p) - 1 not in out:
            out.append(int(p) - 1)
    return sorted(out)


def reroll_refusal(ctx: AttackCtx, args: dict[str, str]) -> str:
    """Why a `reroll` the player wrote is not one of the choices: a die that is not in the roll, one rerolled
    already (a die is rerolled once), more dice than the attack allows, or no die named."""
    n = len(ctx.offence)
    dice_are = ", ".join(f"die {i + 1} {dice.die_text(d)}" for i, d in enumerate(ctx.offence))
    picked = reroll_dice(args)
    missing = [i + 1 for i in picked if not 0 <= i < n]
    if not picked:
        return f"Name the die to reroll by its number ({dice_are})"
    if missing:
        some = " and ".join(f"die {i}" for i in missing)
        return f"There is no {some}: the roll has {n} {'die' if n == 1 else 'dice'} ({dice_are})"
    done = [i + 1 for i in picked if ctx.offence[i].rerolled]
    if done:
        return f"Die {done[0]} has been rerolled already (a die is rerolled once)"
    k = ctx.rerolls_left
    return f"Only {k} {'die' if k == 1 else 'dice'} may be rerolled in this attack"


def reroll_choices(ctx: AttackCtx) -> list[Action]:
    """Every set of up to `rerolls_left` dice not yet rerolled, chosen at once (rule: rerolls - a player who
    rerolls only some of the dice they may cannot go back and reroll the others after)."""
    free = [i + 1 for i, d in enumerate(ctx.offence) if not d.rerolled]
    out = []
    for size in range(1, min(ctx.rerolls_left, len(free)) + 1):
        for combo in combinations(free, size):
            extra = {"also": " ".join(str(n) for n in combo[1:])} if size > 1 else {}
            out.append(Action.of("reroll", die=str(combo[0]), **extra))
    return out


def heart_options(st: DungeonState, me: HeroState) -> list[Action]:
    """Each heart heals a wound or cures a debuff on any hero, or becomes a potion for the attacker."""
    out = []
    for h in st.heroes:
        if h.wounds > 0:
            out.append(Action.of("heart", use="heal", hero=h.id))
    for h in st.heroes:
        for d in h.debuffs:
            out.append(Action.of("heart", use="cure", hero=h.id, debuff=d))
    if me.potions < hero_stats(me).potions:
        out.append(Action.of("heart", use="potion", hero=me.id))
    out.append(NO_HEART)
    return out


# ---- effects -----------------------------------------------------------------------------------
def reroll(st: DungeonState, indexes: list[int], lines: list[str]) -> None:
    """Reroll the chosen dice together; the reroll decision is then over (no going back for the others)."""
    ctx = attack_of(st)
    for index in indexes:
        d = ctx.offence[index]
        before = dice.die_text(d)
        d.face = dice.roll_dice(st, [d.colour])[0].face
        d.rerolled = True
        lines.append(f"Reroll of die {index + 1}: {before} -> {dice.die_text(d)}.")
    ctx.rerolls_left = 0
    ctx.stage = ""
    resolve_hero_attack(st, lines)
    advance_attack(st, lines)


def keep_roll(st: DungeonState, lines: list[str]) -> None:
    ctx = attack_of(st)
    ctx.stage = ""
    ctx.rerolls_left = 0
    resolve_hero_attack(st, lines)
    advance_attack(st, lines)


def use_heart(st: DungeonState, use: str, target: str, debuff: str, lines: list[str]) -> None:
    ctx = attack_of(st)
    me = hero(st, ctx.hero)
    if use == "heal":
        t = hero(st, target)
        was = is_incap(t)
        t.wounds = max(0, t.wounds - 1)
        name = hero_stats(t).name
        marks.healed(st, hero_stats(me).name, (me.x, me.y), name, (t.x, t.y), 1)
        lines.append(f"A heart heals 1 wound on {name}" + (f"; {name} {BACK_UP}." if was and not is_incap(t) else "."))
    elif use == "cure":
        t = hero(st, target)
        if debuff in t.debuffs:
            t.debuffs.remove(debuff)
        if debuff in t.expiring:
            t.expiring.remove(debuff)
        lines.append(f"A heart removes {debuff} from {hero_stats(t).name}.")
    elif use == "potion":
        t = hero(st, target)
        t.potions = min(hero_stats(t).potions, t.potions + 1)
        lines.append(f"A heart becomes a potion for {hero_stats(t).name}.")
    elif heart_options(st, me) == [NO_HEART]:  # nothing to spend it on: say why, as the move played itself
        lines.append(f"{hero_stats(me).name}'s heart goes unused: no hero is wounded or suffers a debuff, and "
                     f"{hero_stats(me).name} carries all the potions they can.")
    else:
        lines.append(f"{hero_stats(me).name} lets a heart go unused.")
    ctx.hearts_left -= 1
    if ctx.hearts_left <= 0:
        ctx.stage = ""
        advance_attack(st, lines)
