"""The fuzzer (`playpost fuzz`): guided and random legal play with invariants checked after every action.

Each game has a module here (`heroball`, `dungeon`, `quodd`) with its guidance (what counts as progress),
its invariants and how to change only its hidden parts; `checks` holds the platform's invariants and the
hidden-information differential; `runner` plays the games; `transcript` writes a failing case as a
transcript that `playpost script` replays. It is a tool of the checkout, like `tools/bench`.
"""
