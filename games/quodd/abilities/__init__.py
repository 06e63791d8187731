"""The named upgrade abilities (`data/abilities.json`), one module per family:

- `track`: which abilities a hero has (its upgrade track); the passive checks other modules consult
- `moving`: abilities that act during movement (Crush, Wall Builder, Trench Digger, Jump Shockwave,
  Spring Jump, Tumble Spring, Push Bomb, Getaway, Teleport Skill), their jobs and questions
- `actions`: abilities used with `/quodd ability` in phases 1 and 3 (Mind-Push, Twister, Good Aim, winds, ...)
- `exploring`: abilities that add cards to phase 4 (Explore: Food/Item/Pet/Rune, Explore From Deck)
"""
