"""Autocomplete of attack targets shows the dice (issue: `/dungeon attack target:` ... showing dice)."""
from __future__ import annotations

from games.core import Seat
from games.dungeon import ENGINE


def test_attack_target_autocomplete_names_the_target_and_its_dice():
    state = ENGINE.setup({}, [Seat(player="a", name="A", choices={"hero": "ruby"})], 1)
    # walk random legal play until an attack is legal, then check its target's label
    import random

    pick = random.Random(3)
    for _ in range(400):
        st = ENGINE.status(state)
        if st.finished:
            break
        player = st.to_act[0]
        legal = ENGINE.legal_actions(state, player)
        attacks = [a for a in legal if a.cmd == "attack"]
        if attacks:
            target = attacks[0].get("target")
            label = ENGINE.value_label(state, player, "attack", "target", target)
            assert label.startswith(f"{target}: ") and "(" in label and ENGINE.label(state, attacks[0]) in label
            return
        state, _ = ENGINE.apply(state, player, pick.choice(legal))
    raise AssertionError("no attack came up in 400 random actions")
