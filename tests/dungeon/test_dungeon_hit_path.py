"""The hit path's shortcuts give what the plain way gives: a hero's moves in one activation grow one mark
without building a new one each time."""
from __future__ import annotations

from dhelpers import scene, sq

from games.core.marks import Mark, extend
from games.dungeon import combat, marks
from games.dungeon import dice as dice_module
from games.dungeon.data import content
from games.dungeon.state import Activation, Die


def _plain_moved(st, who, start, path):
    """The move mark as built before the shortcut: a new mark every time, handed to `extend`."""
    from games.core.grid import label
    labels = [label(*start)] + [label(*s) for s in path if s != start]
    m = Mark(kind="move", by=marks._by(st), who=who, path=labels[:1], key=f"{st.activations}:{who}",
             text=f"{who} moves")
    for lab in labels[1:]:
        m = extend(st.marks, m, lab)


def test_moves_of_one_activation_grow_one_mark_without_a_new_one(monkeypatch):
    built: list[object] = []

    def counted(**kw):
        built.append(kw)
        return Mark(**kw)

    st = scene("ruby@E5 candy@H8")
    st.activation = Activation(hero="ruby", ap=2)
    plain = st.model_copy(deep=True)
    moves = [("Ruby", "E5", ["E6", "E7"]), ("Ruby", "E7", ["F7"]), ("Candy", "H8", ["H9"]), ("Ruby", "F7", ["F8"])]
    monkeypatch.setattr(marks, "Mark", counted)
    for who, start, path in moves:
        marks.moved(st, who, sq(start), [sq(p) for p in path])
    for who, start, path in moves:
        _plain_moved(plain, who, sq(start), [sq(p) for p in path])
    assert [m.model_dump() for m in st.marks] == [m.model_dump() for m in plain.marks]
    assert [m.path for m in st.marks if m.kind == "move"] == [["E5", "E6", "E7", "F7"], ["H8", "H9"], ["F7", "F8"]]
    assert len(built) == 3  # Ruby's second move went on in her mark; Candy's and Ruby's after it are new
    st.activations += 1  # a new activation starts a new mark even for the same hero
    marks.moved(st, "Ruby", sq("F8"), [sq("F9")])
    assert len(built) == 4 and st.marks[-1].path == ["F8", "F9"]


def test_dice_rolled_for_the_moment_match_kept_dice_and_score_alike():
    dice = dice_module
    st = scene("ruby@E5")
    other = st.model_copy(deep=True)
    colours = ["B", "R", "G", "B", "R", "G"] * 5
    kept = dice.roll_dice(st, colours)
    light = dice.roll_dice(other, colours, kept=False)
    assert all(isinstance(d, Die) for d in kept) and all(isinstance(d, dice.Rolled) for d in light)
    assert [(d.colour, d.face) for d in kept] == [(d.colour, d.face) for d in light]
    assert st.rng == other.rng  # the same draws from the generator
    table = content().rules.dice
    assert [dice.face(d) for d in light] == [tuple(table[d.colour][d.face]) for d in kept]  # type: ignore[index]
    for hex_ in (False, True):
        a, b = dice.score(kept, 1, hex_, True), dice.score(light, 1, hex_, True)
        assert a == b
        assert dice.roll_text(kept, 1, a[0], a[1]) == dice.roll_text(light, 1, b[0], b[1])


def test_a_monsters_attack_builds_no_die_model(dice, monkeypatch):
    st = scene("ruby@E5", "knucklehead@E6")
    built: list[object] = []
    real = dice_module.Die

    def counted(**kw):
        built.append(kw)
        return real(**kw)

    monkeypatch.setattr(dice_module, "Die", counted)
    lines: list[str] = []
    dice.push("B2 B2", "B0")
    combat.monster_attack(st, st.monsters[0], st.heroes[0], lines)
    assert built == [] and dice.rolled  # rolled through the scripted seam, as plain tuples
    assert "attacks" in lines[-1]
