"""The hit path's shortcuts give what the plain way gives: a hero's moves in one activation grow one mark
without building a new one each time."""
from __future__ import annotations

from dhelpers import scene, sq

from games.core.marks import Mark, extend
from games.dungeon import ENGINE, combat, marks, stats
from games.dungeon import dice as dice_module
from games.dungeon.data import content
from games.dungeon.state import Activation, Die


def _plain_moved(st, who, start, path):
    """The move mark as built before the shortcut: a new mark every time, handed to `extend`."""
    from games.core.grid import label
    labels = [label(*start)] + [label(*s) for s in path if s != start]
    m = Mark(kind="move", by=marks._by(st), who=who, path=labels[:1], key=f"{st.activations}:{who}",
             text=f"{who} moves", turn=st.turn)  # (a mark carries its game turn: the legend groups by turn)
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


def _old_side_key(st):
    """The heroes' part of `nearest.hero_side`'s key as it was written before `stats.hero_side_key`."""
    return tuple([(h.id, h.x, h.y, h.seat, stats.is_incap(h), h.profile, tuple(h.equipment)) for h in st.heroes])


def _playout_states(n_games: int = 3) -> list:
    from games.core import Seat
    from games.core.playout import random_playout

    opts = {o.name: o.default for o in ENGINE.options if o.default is not None}
    seats = [Seat(player=f"b{i}", name=f"Bench {i}") for i in range(1, 7)]
    states: list = []
    for seed in range(n_games):
        random_playout(ENGINE, opts, seats, 900 + seed, cap=400, checked=False,
                       each=lambda before, player, action, after, events: states.append(after))
    return states


def test_hero_side_key_tells_apart_exactly_what_the_plain_key_did():
    st = scene("kumiko@E5 candy@H8")
    base = stats.hero_side_key(st.heroes)
    assert base == stats.hero_side_key(st.model_copy(deep=True).heroes)
    h = st.heroes[0]
    life = stats.stat_line(h).life
    changes = [("x", h.x + 1), ("y", h.y + 1), ("seat", h.seat + 5), ("profile", 1), ("wounds", life),
               ("equipment", ["iron_sword"])]
    for field, value in changes:
        other = st.model_copy(deep=True)
        setattr(other.heroes[0], field, value)
        assert stats.hero_side_key(other.heroes) != base, field
        assert _old_side_key(other) != _old_side_key(st), field
    other = st.model_copy(deep=True)
    other.heroes[0].wounds = life - 1  # still standing: the same side, as before
    assert stats.hero_side_key(other.heroes) == base and _old_side_key(other) == _old_side_key(st)


def test_hero_side_key_over_played_states_partitions_them_as_the_plain_key():
    states = _playout_states()
    old = [_old_side_key(st) for st in states]
    new = [stats.hero_side_key(st.heroes) for st in states]
    assert len(set(old)) > 20  # the heroes moved, fell and picked up cards
    assert len(set(zip(old, new, strict=True))) == len(set(old)) == len(set(new))


def test_remembered_moves_follow_the_levels_as_fresh_searches_do():
    from games.dungeon import hero_actions as ha

    def fresh(st, h):
        saved = dict(ha._MOVES)
        ha._MOVES.clear()
        try:
            return dict(ha.move_costs(st, h))
        finally:
            ha._MOVES.clear()
            ha._MOVES.update(saved)

    changed: set[str] = set()
    compared = 0
    for st in _playout_states(2)[::3]:
        if st.activation is None or st.phase != "heroes":
            continue
        h = stats.hero(st, st.activation.hero)
        base = dict(ha.move_costs(st, h))  # remembered from here on
        assert base == fresh(st, h)
        for i in range(len(st.levels)):
            for field, value in (("active", not st.levels[i].active), ("destroyed", not st.levels[i].destroyed),
                                 ("chest", "closed" if st.levels[i].chest != "closed" else "open")):
                other = st.model_copy(deep=True)
                setattr(other.levels[i], field, value)
                oh = stats.hero(other, h.id)
                want = fresh(other, oh)
                assert dict(ha.move_costs(other, oh)) == want, (field, i)
                compared += 1
                if want != base:
                    changed.add(field)
    assert compared > 100
    assert changed == {"active", "destroyed", "chest"}  # each of the levels' fields changed some hero's moves


def _plain_large_spot(st, level, kind):
    """Where `levels.spawn_one` put a large model before its per-board list of anchors (the same rules, written
    as they were): (row, column) of the anchor, or None."""
    from games.dungeon import levels, sight
    from games.dungeon.board import board, footprint

    md = content().monsters[kind]
    b = board(st.dungeon)
    srcs = (b.spawns[level],)
    occ = sight.occupancy(st)
    structs = sight.structures(st)
    danger = set()
    for h in st.heroes:
        if not stats.is_incap(h):
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    danger.add((h.x + dx, h.y + dy))
    ambush = "ambush" in md.attributes
    block, src_n = sight.blockers(st, "monsters", (), set(md.attributes)), b.numbers(srcs)
    dist = b.route_table(srcs, structs | set(srcs), 14)
    cands = []
    for at, d in dist.items():
        if d == 0 or at in srcs:
            continue
        fp = footprint(at[0], at[1], True)
        if b.internal_walls(*at):
            continue
        if not all(b.inside(s) and s not in structs and s not in b.chasms and s not in occ for s in fp):
            continue
        dd = min(dist.get(s, 99) for s in fp)
        in_danger = any(s in danger for s in fp)
        cands.append((not in_danger if ambush else in_danger, dd, at[1], at[0]))
    cands.sort()
    found = next((c for c in cands if b.sight_table.sight(src_n, b.numbers(footprint(c[3], c[2], True)), block,
                                                           False)), None)
    assert levels is not None
    return None if found is None else (found[2], found[3])


def test_large_models_spawn_where_they_did_before_the_anchor_lists():
    from games.dungeon import levels

    large = [k for k, md in content().monsters.items() if md.large]
    placed = differ_from_nearest = 0
    for st in _playout_states(3)[::7]:
        if st.phase != "heroes":
            continue
        for level in range(len(st.levels)):
            for kind in large[:3]:
                want = _plain_large_spot(st, level, kind)
                other = st.model_copy(deep=True)
                other.levels[level].destroyed = False
                done = levels.spawn_one(other, level, [], kind=kind)
                got = (other.monsters[-1].y, other.monsters[-1].x) if done else None
                assert got == want, (level, kind)
                placed += done
                differ_from_nearest += done and got != levels._large_spawn_squares(
                    levels.board(st.dungeon), (levels.board(st.dungeon).spawns[level],),
                    levels.structures(st))[0][2]
    assert placed > 30 and differ_from_nearest > 0  # some nearest anchors were taken, near a hero or unseen


def test_spawn_square_memos_are_bounded(monkeypatch):
    from games.dungeon import levels
    from games.dungeon.board import board

    monkeypatch.setattr(levels, "_SPAWN_MEMO", 3)
    st = scene("ruby@E5")
    b = board(st.dungeon)
    squares = [at for at in b.squares if at not in b.chasms][:12]
    for at in squares:
        levels._large_spawn_squares(b, (at,), frozenset())
        levels._spawn_squares(b, (at,), frozenset())
        assert len(levels._LARGE_SPAWN_SQUARES) <= 4 and len(levels._SPAWN_SQUARES) <= 4


def _plain_hero_blockers(st, both_small):
    """The heroes' squares that stop a monster's sight, as `sight.blockers` found them before `stats.hero_lines`."""
    from games.dungeon.board import board

    hgt = board(st.dungeon).height
    block = 0
    for h in st.heroes:
        if stats.is_incap(h) or ("small" in stats.hero_attributes(h) and not both_small):
            continue
        block |= 1 << (h.x * hgt + h.y)
    return block


def test_heroes_blocking_monsters_sight_are_those_the_plain_loop_found():
    from games.dungeon import sight

    kinds = set()
    for st in _playout_states(2)[::5]:
        for both_small in (False, True):
            src = ("small",) if both_small else ()
            for dst in ((), ("small",)):
                plain = _plain_hero_blockers(st, both_small and "small" in dst)
                structures = sight._structures_mask(st, both_small and "small" in dst)
                assert sight.blockers(st, "monsters", src, dst) == plain | structures
                kinds.add(plain)
        lines = stats.hero_lines(st.heroes)
        assert [(line, w, x, y) for line, w, x, y in lines] == [
            (stats.stat_line(h), h.wounds, h.x, h.y) for h in st.heroes]
        assert [w >= line.life for line, w, _x, _y in lines] == [stats.is_incap(h) for h in st.heroes]
    assert len(kinds) > 20  # heroes moved and fell


def test_a_small_hero_blocks_a_monsters_sight_only_when_both_ends_are_small(monkeypatch):
    import dataclasses

    from games.dungeon import sight

    st = scene("ruby@E5 candy@H8")
    ruby = st.heroes[0]
    small = dataclasses.replace(stats.stat_line(ruby), attributes=stats.stat_line(ruby).attributes | {"small"})
    monkeypatch.setitem(stats._STATS, (ruby.id, ruby.profile, *ruby.equipment), small)  # no hero is small today
    for src, dst in (((), ()), (("small",), ("small",)), (("small",), ())):
        both = "small" in src and "small" in dst
        assert sight.blockers(st, "monsters", src, dst) == _plain_hero_blockers(st, both) | sight._structures_mask(
            st, both)
    hgt = sight.board(st.dungeon).height
    assert not sight.blockers(st, "monsters", (), ()) & 1 << (ruby.x * hgt + ruby.y)


def _plain_monster_blockers(st, both_small):
    """The monsters' squares that stop a hero's sight, as `sight.blockers` found them before `_kind_flags`."""
    from games.dungeon.board import board

    hgt = board(st.dungeon).height
    block = 0
    for m in st.monsters:
        md = content().monsters[m.kind]
        if "small" in md.attributes and not both_small:
            continue
        for x, y in stats.mfp(m):
            block |= 1 << (x * hgt + y)
    return block


def test_monsters_blocking_heroes_sight_are_those_the_plain_loop_found():
    from games.dungeon import sight

    seen_small = seen_large = False
    for st in [scene("ruby@E5", "ruby_slime@E8 rex@H8 knucklehead@J9")] + _playout_states(3)[::4]:
        for src, dst in (((), ()), (("small",), ("small",)), (("small",), ())):
            both = "small" in src and "small" in dst
            assert sight.blockers(st, "heroes", src, dst) == _plain_monster_blockers(st, both) | sight._structures_mask(
                st, both)
        seen_small |= _plain_monster_blockers(st, True) != _plain_monster_blockers(st, False)
        seen_large |= any(content().monsters[m.kind].large for m in st.monsters)
    assert seen_small and seen_large  # small and large monsters were on the board


def test_per_content_tables_hold_one_content_only():
    from games.dungeon import sight

    st = scene("ruby@E5", "knucklehead@E6")
    sight.blockers(st, "heroes", (), ())
    dice_module.face(dice_module.roll_dice(st, ["B"])[0])
    c = content()
    flags, faces = sight._kind_flags.held, dice_module._faces.held
    assert flags is not None and flags[0] is c and len(flags[1]) == len(c.monsters)
    assert faces is not None and faces[0] is c
    assert len(faces[1]) == sum(len(f) for f in c.rules.dice.values())


def test_a_per_content_table_is_worked_out_afresh_for_another_content(monkeypatch):
    from games.dungeon import data

    made = []
    table = data.per_content(lambda c: made.append(c) or len(made))
    assert table() == table() == 1  # once for one content
    other = data.Content.model_construct()
    monkeypatch.setattr(data, "content", lambda: other)
    assert table() == table() == 2 and made[-1] is other


def test_a_monster_never_ends_its_move_on_any_square_of_a_large_base():
    from games.dungeon import monsters

    assert stats.large_kinds() == {k for k, md in content().monsters.items() if md.large}
    st = scene("ruby@A1", "knucklehead@E5 rex@F5")
    rex = st.monsters[1]
    opts, _path = monsters.monster_moves(st, st.monsters[0])
    assert opts and not set(opts) & set(stats.mfp(rex))  # F5 and the three squares east and south of it
    assert any(max(abs(x - rex.x), abs(y - rex.y)) <= 2 for x, y in opts)  # yet it reaches the squares around
