"""The dungeon's phases, one module each: who acts, what is legal, what it does, and the words about it.

`heroes` (choose who activates) -> `activation` (the hero's AP actions) -> `attack` (a reroll or hearts
decision inside an attack) -> back to `activation`; `intermission` between levels; `over` at the end.
"""
