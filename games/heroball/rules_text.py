"""The /rules reference for Heroball, in our own words; hero cards come from the data file."""
from __future__ import annotations

from .data import Rules


def topics(r: Rules) -> dict[str, str]:
    hv = r.house
    c = hv.cost
    gods = ", ".join(f"{g.name} ({g.terrain})" for g in r.gods if not g.excluded)
    out = {
        "overview": (
            f"Two to four heroes compete for the Godball on a hex field. Carry it into one of your own three goal "
            f"hexes for {hv.goal_points_carried} points; if it gets there any other way (a throw, a drop, a fumble) "
            f"you get {hv.goal_points_other}. After round {hv.rounds} the highest score wins; equal scores share the win.\n"
            "Your goal is the corner you start on plus the two rim hexes beside it."
        ),
        "setup": (
            "Join with `/game join hero: god:`; anything you leave open is drawn for you at the start. Hermes may not "
            "be chosen. Heroes start on the corners: opposite corners with 2 players, every second corner with 3, and "
            f"all but the north and south corners with 4.\nBefore round 1 each player in turn places {hv.seed_tokens} "
            "tokens of their god's terrain, one per turn (`/heroball seed to:HEX`), never on a hero, a pillar, the "
            f"centre post, a goal tile or other terrain. Favoured terrain: {gods}."
        ),
        "turn": (
            f"Your turn starts with a refresh: +{hv.refresh_ap} AP (at most {hv.max_ap}; everyone starts on "
            f"{hv.start_ap}) and every hero clears their spent tokens. Then take actions in any order while you can "
            f"pay for them, and `/heroball end`. If you spent nothing, you rest for +{hv.rest_ap} AP."
        ),
        "movement": (
            f"Step ({c.step} AP), then run ({c.run} AP), then sprint ({c.sprint} AP): each moves 1 hex, each once per "
            "turn, in that order. Pillars and hexes with a hero are closed. Terrain adds "
            f"{c.terrain} AP to the hex you enter; your favoured terrain takes {abs(c.favoured)} off instead.\n"
            "Moving towards a hex means every hex of movement brings you 1 closer; away means 1 further."
        ),
        "attacks": (
            f"Push ({c.push} AP): move a neighbouring opponent 1 hex straight away from you onto a free hex you pick. "
            f"Force fumble ({c.fumble} AP): a neighbouring opponent lets go of what they hold; you put it on a free hex "
            "next to them. A knocked-down hero lies flipped: a plain `step` stands them up, and until then they can only "
            "defend. Whatever they held is fumbled."
        ),
        "objects": (
            "Objects are the Godball and Achilles' pole. You hold at most one. On your turn, pick up an object in your "
            f"hex for free with `hold`. Throw ({c.throw} AP) up to {hv.throw_range} hexes; drop ({c.drop} AP) into your "
            "hex or next to it. Held objects travel with you."
        ),
        "reactions": (
            f"On other players' turns you may react. Defend ({c.defend} AP) stops an attack on you; the attacker's AP is "
            f"gone, but they may pay and try again. Intercept ({c.intercept} AP): when a throw, drop or fumble comes down "
            "next to you, catch it (never your own throw). A hero standing on the landing hex may simply take "
            "it. Several hopefuls are asked in order: the one on the landing hex, then the one nearest to whoever let "
            "go, then turn order after the active player.\nThe game waits only for the player being asked; "
            "`/heroball react` or `/heroball pass`."
        ),
        "standing orders": (
            "`/heroball reactions defend:always` (or intercept, and for Helen distract) answers for you: always "
            "reacts when you can pay, never skips, ask waits for you. You can also give defend: and intercept: when you "
            "join. Reactions that need a hex (Swat, Predict) still ask when there is more than one choice."
        ),
        "scoring": (
            "When the Godball reaches a goal the owner scores, the ball goes back to the centre post and the active "
            "player's turn ends at once (clean-up still applies)."
        ),
    }
    for h in r.heroes:
        lines = [f"{card.name} ({card.slot}{', house card' if card.house else ''}): {card.text}" for card in h.cards]
        out[h.name.lower()] = ("House hero. " if h.house else "") + "\n".join(lines)
    return out
