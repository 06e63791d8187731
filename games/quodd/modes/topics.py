"""The `/rules` topics of the overlord, buddies, the player board's B-side and multi-part scenarios."""
from __future__ import annotations

from .. import data


def mode_topics() -> dict[str, str]:
    mine = [c for c in data.cards().values() if c.overlord]
    return {
        "overlord": (
            "Overlord scenarios are one against all. One seat is the overlord (join with `role:overlord`; if nobody "
            "does, the first seat is): its hero explores from the top of its own deck of stronger cards (the sword "
            f"deck, {sum(c.copies for c in mine)} cards) or from the common lineup, and plays with the scenario's "
            "overlord bonus. The overlord and the heroes each have their own objective (the scenario says); the "
            "heroes play as one side and share cards within 4 spaces. If time runs out, the overlord wins.\n"
            "Overlord deck: " + ", ".join(f"{c.name}{f' x{c.copies}' if c.copies > 1 else ''}" for c in mine)
        ),
        "buddies": (
            "In a buddies scenario each player runs more than one hero: their own and a buddy (join with "
            "`buddy:` to choose it, else it is dealt). A buddy has its own turn, but no hand: cards it draws go to "
            "its controller's hand, nobody plays a card during a buddy's turn, and it never holds an item or pet. "
            "It carries at most 2 collectibles. A player's heroes win together."
        ),
        "board b": (
            "`/game new ... board:b` plays the player board's B-side: each upgrade tile goes onto one face of your "
            "hero (`/quodd upgrade tile: side: face:`), any free face in any order, and stays there. It helps only "
            "the skill on that face: +1 movement moves that skill further, +1 explore draws one more card in phase "
            "4 after you used that skill, the gold icon upgrades whichever skill is on that face (rearranging moves "
            "the upgrade with the face, not the skill). Abilities work as on the A-side. On the Q face only "
            "abilities and explore count. Every skill's base movement on the B-side is 2."
        ),
        "multi-part": (
            "A multi-part scenario leads straight into its next part when its objective is reached: the heroes "
            "start the next map from its start zone, keep every upgrade (track, B-side faces, upgraded skills), "
            "their hands and the cards they have in play, and may set their skills on their faces anew."
        ),
    }
