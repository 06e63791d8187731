"""The hit path's shortcuts give what the plain way gives: a hero's moves in one activation grow one mark
without building a new one each time."""
from __future__ import annotations

from dhelpers import scene, sq

from games.core.marks import Mark, extend
from games.dungeon import marks
from games.dungeon.state import Activation


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
