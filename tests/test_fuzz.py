"""The fuzzer (tools/fuzz, `playpost fuzz`): a small fixed budget of guided, mixed and random games per game,
every action checked; the checks themselves catch what they claim to; a failing case replays as a transcript."""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from bot.computers import forced_move
from bot.console import Console, ScriptClock
from bot.manager import GameManager
from games.core import Event, Seat, all_games
from games.core.playout import random_playout
from games.dungeon.board import board
from games.heroball.engine import Heroball
from games.quodd.engine import QuoddHeroes
from storage import open_storage
from tools.fuzz.cases import recheck
from tools.fuzz.checks import hand_problems, hidden_problems, lobby_problems, step_problems
from tools.fuzz.games import fuzzers
from tools.fuzz.guide import Chooser
from tools.fuzz.heroball import HeroballFuzz
from tools.fuzz.known import KNOWN, known
from tools.fuzz.quodd import QuoddFuzz
from tools.fuzz.runner import Case, Report, play_one

# games per game id in CI (a count, never seconds: the suite must not depend on the machine's speed);
# one guided, one mixed and one random playout each round; the dungeon's guided play rates whole activations by
# rollouts, the costly part, so CI rates fewer of them than `playpost fuzz` does
BUDGET = {"heroball": 6, "quodd": 3, "dungeon": 3}
ROLLOUTS = {"dungeon": 3}


# each of those games is a test of its own (the games `fuzz_game(seed=1000, games=BUDGET)` plays, seed by seed),
# so the workers share them out instead of one worker playing a game's whole budget at the end of the suite
FUZZ_CASES = [(game_id, i) for game_id in sorted(all_games()) for i in range(BUDGET.get(game_id, 3))]


@pytest.mark.parametrize(("game_id", "index"), FUZZ_CASES)
def test_fuzz_games_break_no_invariant(game_id: str, index: int) -> None:
    fuzz = fuzzers()[game_id]
    fuzz.rollouts = ROLLOUTS.get(game_id, fuzz.rollouts)
    report = Report(game_id)
    case = play_one(fuzz, 1000 + index, fuzz.modes[index % len(fuzz.modes)], report, hidden_rate=0.2)
    assert case is None, f"seed {case.seed} ({case.mode}): {case.problems}\n{case.transcript()}"
    assert report.finished == report.games == 1 and report.actions > 0
    assert report.hidden_checks > 0, "the hidden-information differential ran"


def test_guided_fuzzer_reaches_dungeon_victory_and_a_level_transition() -> None:
    """Issue 11: random play dies on level 1, so the fuzzer plays guided from constructed late starts too (the
    engine's own `open_level` after the earlier levels are cleared, invariants checked): from fixed seeds it wins
    the dungeon and clears a level in play (the break between levels, the next level opening)."""
    fuzz = fuzzers()["dungeon"]
    report = Report("dungeon")
    transition = ("level 3 reached", "level 4 reached")
    for seed in (210, 215, *range(208, 222)):  # late games: 210 starts at level 4 and wins, 215 at 2 and clears it
        case = play_one(fuzz, seed, "late", report, hidden_rate=0.0)
        assert case is None, f"seed {seed}: {case.problems}\n{case.transcript()}"
        if "victory" in report.milestones and any(m in report.milestones for m in transition):
            break
    assert report.milestones["victory"] > 0, dict(report.milestones)
    assert any(report.milestones[m] for m in transition) and report.milestones["phase intermission"] > 0
    assert report.finished == report.games


def test_a_late_start_is_the_engines_own_level_opening() -> None:
    """A late start has the earlier spawn points destroyed, the new level open with its monsters spawned by the
    engine, every hero in its area and restored, and no card made up; a case names it and rebuilds it."""
    fuzz = fuzzers()["dungeon"]
    pick = random.Random(5)
    options = fuzz.options(pick)
    seats = fuzz.seats(pick, options)
    setup = fuzz.engine.setup(options, seats, 5)
    st = fuzz.rebuild_start(setup, "level 4 weakened")
    assert st.phase == "intermission" and st.level == 3 and all(lv.destroyed for lv in st.levels[:3])
    assert st.levels[3].active and st.levels[3].spawn_wounds == 2 and len(st.levels[3].pool) < 3
    assert st.monsters and all(m.level == 3 for m in st.monsters)
    assert all(h.wounds == 0 and h.equipment for h in st.heroes)
    assert all(board(st.dungeon).tile_of((h.x, h.y)) == 3 for h in st.heroes)
    assert fuzz.invariants(setup, st, []) == []
    assert fuzz.engine.dump(fuzz.rebuild_start(setup, "level 4 weakened")) == fuzz.engine.dump(st)
    with pytest.raises(ValueError):
        fuzz.rebuild_start(setup, "level 9")
    text = Case("dungeon", 5, "late", ["(a test)"], options, seats, [], start="level 4 weakened").transcript()
    assert "# start: level 4 weakened (" in text
    assert recheck(text) == []


CASES = sorted((Path(__file__).parent / "fuzz_cases").glob("*.txt"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
@pytest.mark.xfail(strict=True, reason="a defect the fuzzer found, being fixed on another branch (issue 11: dungeon "
                                       "and Quodd previews depend on the hidden generator and decks; dungeon `keep` "
                                       "draws a card without marking the move irreversible). Once the fix is merged "
                                       "this passes: delete the case file and its entry in tools/fuzz/known.py")
def test_fuzz_case_is_fixed(path: Path) -> None:
    assert recheck(path.read_text(encoding="utf-8")) == []


def test_every_known_defect_has_a_case_transcript() -> None:
    texts = [p.read_text(encoding="utf-8") for p in CASES]
    for name, (game_id, _) in KNOWN.items():
        fails = [ln[len("# fails: "):] for t in texts for ln in t.splitlines() if ln.startswith("# fails: ")]
        assert any(known(game_id, f) == name for f in fails), f"no case in tests/fuzz_cases/ shows {name}"


# ---- the checks catch what they claim to --------------------------------------------------------------------------
def _heroball_step(seed: int = 3):
    engine = all_games()["heroball"]
    fuzz = HeroballFuzz(engine)
    seats = fuzz.seats(random.Random(seed), {})
    state = engine.setup({}, seats, seed)
    player = engine.status(state).to_act[0]
    action = engine.legal_actions(state, player)[0]
    return fuzz, seats, state, player, action


def test_step_checks_catch_apply_mutating_its_input() -> None:
    fuzz, seats, state, player, action = _heroball_step()
    before = fuzz.engine.dump(state)
    after, events = fuzz.engine.apply(state, player, action)
    assert step_problems(fuzz, state, before, after, events, seats) == []
    state.heroes[0].ap += 1  # as if apply had changed the state it was given
    assert any("apply changed the state it was given" in p for p in
               step_problems(fuzz, state, before, after, events, seats))


def test_step_checks_catch_an_undoable_action_that_used_the_generator() -> None:
    fuzz, seats, state, player, action = _heroball_step()
    before = fuzz.engine.dump(state)
    after, events = fuzz.engine.apply(state, player, action)
    after.rng.next64()  # a die rolled, but no event says the move cannot be taken back
    problems = step_problems(fuzz, state, before, after, events, seats)
    assert any("without an irreversible event changed hidden parts" in p for p in problems)
    marked = [*events, Event(text="A die is rolled.", irreversible=True)]
    assert step_problems(fuzz, state, before, after, marked, seats) == []


def test_step_checks_catch_a_broken_game_invariant() -> None:
    fuzz, seats, state, player, action = _heroball_step()
    before = fuzz.engine.dump(state)
    after, events = fuzz.engine.apply(state, player, action)
    after.heroes[1].pos = after.heroes[0].pos
    after.heroes[0].ap = -1
    problems = step_problems(fuzz, state, before, after, events, seats)
    assert any("two heroes on one hex" in p for p in problems) and any("-1 AP" in p for p in problems)


class LeakyHeroball(Heroball):
    """Heroball whose status line shows the generator's counter: hidden information in a public output."""

    def status(self, state):  # type: ignore[no-untyped-def]
        st = super().status(state)
        return st.model_copy(update={"waiting_for": f"{st.waiting_for} (dice drawn: {state.rng.counter})"})


def test_hidden_differential_catches_a_leak_and_passes_the_real_game() -> None:
    fuzz, seats, state, _, _ = _heroball_step()
    assert hidden_problems(fuzz, state, seats, {}, random.Random(1)) == []
    leaky = HeroballFuzz(LeakyHeroball())
    problems = hidden_problems(leaky, state, seats, {}, random.Random(1))
    assert any("`status`" in p for p in problems)


class CarelessHeroball(Heroball):
    """Heroball whose lobby looks a hero up without checking the name first."""

    def check_seat(self, options, seats, new):  # type: ignore[no-untyped-def]
        if new.choices.get("hero"):
            self.rules.hero(new.choices["hero"])


def test_lobby_check_catches_a_join_that_crashes() -> None:
    fuzz, seats, _, _, _ = _heroball_step()
    assert lobby_problems(fuzz.engine, {}, seats) == []
    problems = lobby_problems(CarelessHeroball(), {}, seats)
    assert any(p.startswith("seat option `hero:no-such-thing` makes check_seat crash: KeyError") for p in problems)


# ---- a failing case is a transcript that plays the same game -----------------------------------------------------
async def test_a_case_transcript_replays_the_same_game(tmp_path: Path) -> None:
    """Ann runs two heroes, Bob one (assigned at start): the transcript seats them in the same order, and its
    action lines, run by the console as `playpost script` does, rebuild exactly the state the fuzzer reached (with
    any move the table then plays by itself)."""
    fuzz = fuzzers()["dungeon"]
    seats = [Seat(player="ann", name="ann", choices={"hero": "Ruby"}), Seat(player="bob", name="bob"),
             Seat(player="ann", name="ann", choices={"hero": "Candy"})]
    options = fuzz.options(random.Random(0))
    out = random_playout(fuzz.engine, options, seats, 7, cap=25, choose=Chooser(fuzz, "mixed"))
    lines = Case("dungeon", 7, "mixed", ["(a test)"], options, seats, out.log).transcript().splitlines()
    assert lines[0].startswith("# fuzz case: dungeon seed 7") and lines[1] == "# fails: (a test)"
    assert lines[2].startswith("ann> /game new ") and "game:dungeon" in lines[2] and "seed:7" in lines[2]

    store = await open_storage(str(tmp_path / "t.sqlite3"))
    seeds = itertools.count(1)
    manager = GameManager(store, clock=ScriptClock(), seed_source=lambda: next(seeds), render=False)
    console = Console(manager=manager, out_dir=tmp_path / "out", write=lambda _: None)
    game_id = None
    try:
        for ln in lines:
            reply = await console.line(ln)
            if reply is None:
                continue
            assert not reply.ephemeral, f"{ln!r} was refused: {reply.text}"
            game_id = game_id or reply.game_id
        assert game_id is not None
        rec = await store.get_game(game_id)
        reached = out.state  # and the moves the table then plays by itself (the last hero left to activate, say)
        while not fuzz.engine.status(reached).finished and (
                forced := forced_move(fuzz.engine, reached, fuzz.engine.status(reached))) is not None:
            reached, _ = fuzz.engine.apply(reached, *forced)
        assert rec is not None and rec.state == fuzz.engine.dump(reached)
    finally:
        manager.close()
        await store.close()


def test_computer_mode_plays_the_computer_players_under_every_check() -> None:
    """The fuzzer's `computer` mode seats the game's computer player everywhere (Heroball: `hard`), so the
    computer players' code runs under the same invariants and hidden-information checks."""
    fuzz = fuzzers()["heroball"]
    report = Report("heroball")
    case = play_one(fuzz, 4, "computer", report, hidden_rate=0.3)
    assert case is None, f"{case.problems}\n{case.transcript()}"
    assert report.finished == 1 and report.modes["computer"] == 1 and report.hidden_checks > 0


class LeakyQuodd(QuoddHeroes):
    """Quodd that marks nothing private: its card moves sit under the public board, naming the hand."""

    def private_action(self, state, player, action):  # type: ignore[no-untyped-def]
        return False


def test_hand_differential_catches_cards_under_the_board_and_passes_the_real_game() -> None:
    """Issues 11, 14: dealing the hands anew must not change the public board's buttons and menus."""
    engine = all_games()["quodd"]
    seats = [Seat(player=p, name=p) for p in ("ann", "bob")]
    found: list = []

    def each(before, player, action, after, events) -> None:  # type: ignore[no-untyped-def]
        for p in engine.status(after).to_act:
            if not found and any(a.cmd == "play" for a in engine.legal_actions(after, p)):
                found.append(after)

    for seed in range(10):
        random_playout(engine, {}, seats, seed, cap=400, each=each)
        if found:
            break
    assert found, "random play reaches a move with a card to play"
    state = found[0]
    real, leaky = fuzzers()["quodd"], QuoddFuzz(LeakyQuodd())
    assert all(hand_problems(real, state, {}, random.Random(i)) == [] for i in range(5))
    problems = [p for i in range(5) for p in hand_problems(leaky, state, {}, random.Random(i))]
    assert any("`board buttons`" in p or "`board menus`" in p for p in problems), problems


def test_computer_heroes_do_not_drop_and_pick_up_a_card_for_ever() -> None:
    """Found by a 10-minute fuzz run (dungeon seed 41, computer mode): four computer heroes dropped a card and
    equipped it again, turn after turn, and the game never ended (5,000 actions). Computer heroes no longer drop;
    the same game now ends."""
    fuzz = fuzzers()["dungeon"]
    report = Report("dungeon")
    case = play_one(fuzz, 41, "computer", report, hidden_rate=0.0)
    assert case is None and report.finished == 1 and report.actions < 5000


def test_a_late_start_never_puts_a_hero_on_the_new_levels_chest() -> None:
    """Found by a 10-minute fuzz run (dungeon seed 109, a late start at level 4 of a random dungeon): the fuzzer's
    late start placed a hero on the square where level 4's chest appears when the level opens. The start now
    leaves every level's chest square free, and that game plays from it."""
    report = Report("dungeon")
    case = play_one(fuzzers()["dungeon"], 109, "late", report, hidden_rate=0.0)
    assert case is None and report.finished == 1


def test_a_roll_deep_in_a_chain_makes_the_quodd_action_irreversible() -> None:
    """Found by a 10-minute fuzz run (Quodd seed 56, pasture with world events): choosing a wind's direction slid
    heroes into an element that rolled a die, and no event of that action said so. Quodd now marks an action that
    rolled or revealed anything as irreversible, whichever mechanism did it; the same game plays through."""
    report = Report("quodd")
    case = play_one(fuzzers()["quodd"], 56, "guided", report, hidden_rate=0.0)
    assert case is None and report.finished == 1


def test_quodd_computer_heroes_do_not_bounce_between_two_springs_for_ever() -> None:
    """Found by a 10-minute fuzz run (Quodd seed 67, computer mode): two springs two squares apart threw a computer's
    hero back and forth, choosing the other spring each time, and the game never ended. Computer players leave out a
    throw onto another spring when another throw is open; the same game now ends."""
    report = Report("quodd")
    case = play_one(fuzzers()["quodd"], 67, "computer", report, hidden_rate=0.0)
    assert case is None and report.finished == 1


def test_fuzz_game_plays_its_budget_from_the_seed_cycling_the_modes(tmp_path: Path) -> None:
    """`playpost fuzz`'s loop (tools.fuzz.runner.fuzz_game): `games` games from `seed` on, one mode after another,
    each finished, no failure written."""
    from tools.fuzz.runner import fuzz_game

    fuzz = fuzzers()["count"]
    report = fuzz_game(fuzz, seed=1000, games=len(fuzz.modes) + 1, hidden_rate=0.2, out_dir=tmp_path)
    assert report.games == report.finished == len(fuzz.modes) + 1 and not report.cases
    assert report.actions > 0 and report.hidden_checks > 0 and not list(tmp_path.iterdir())
