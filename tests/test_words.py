"""What the bot says about players reads as English (issue 18): the console's player is called "you", so
possessives of a name go through `possessive` ("your turn", never "you's turn"), and a count of one is singular."""
from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from games.core import Action, Seat, get_game
from games.core.words import plural, possessive, says


def test_possessive_of_you_is_your_and_of_a_name_is_apostrophe_s():
    assert possessive("you") == "your" and possessive("You") == "Your"
    assert possessive("Ann") == "Ann's" and possessive("Youssef") == "Youssef's"


def test_a_count_of_one_is_singular():
    assert plural(1, "action") == "1 action" and plural(2, "action") == "2 actions"
    assert plural(0, "square") == "0 squares" and plural(1, "die", "dice") == "1 die"
    assert plural(3, "die", "dice") == "3 dice"


def test_no_game_says_you_s_when_the_console_player_is_called_you():
    """Heroball and Quodd name the player whose turn it is; with the console's default name that is "your turn"."""
    for game in ("heroball", "quodd"):

        def ends_first(legal: list[Action]) -> Action:
            ends = [a for a in legal if a.cmd in ("end", "pass", "done") and not a.args]
            return ends[0] if ends else legal[0]

        text = _played_as_you(game, 3, 60, ends_first)
        assert "you's" not in text.casefold(), game
        assert "your turn" in text.casefold(), (game, text[:400])


def test_a_verb_agrees_with_you_and_with_a_name():
    assert says("Ann", "takes back") == "Ann takes back" and says("you", "takes back") == "you take back"
    assert says("You", "leaves") == "You leave" and says("you", "is seated") == "you are seated"
    assert says("you", "was removed") == "you were removed" and says("you", "hands") == "you hand"
    assert says("you", "tries") == "you try" and says("you", "passes") == "you pass" and says("Bob", "is") == "Bob is"


async def test_the_console_player_called_you_is_answered_with_verbs_that_agree(manager, tmp_path):
    """The local console's player is "you": the bot's own sentences about them say "you take back", not "you takes
    back"; other players' names keep the third person ("cat leaves")."""
    from bot.console import Console

    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append)
    for line in ["you> /game new game:count", "cat> /game join", "cat> /game leave", "bob> /game join",
                 "you> /game start", "you> button 1", "you> /game undo"]:
        await con.line(line)
    text = "\n".join(out)
    assert "you take back `add" in text and "cat leaves" in text
    assert not re.search(r"\byou (takes|plays|joins|leaves|hands|is|has)\b", text), text


# A player's name as the subject of a verb that would take an -s after "Ann": "you plays", "you seeds", ...
# "you" followed by a verb in the third person ("you tumbles", "you is"); "(you)" in a listing is not a subject.
YOU_THIRD_PERSON = re.compile(r"(?<!\()\byou (([a-z]+s)|is|has|was)\b")


async def test_heroball_in_the_console_says_you_play_and_you_seed_not_you_plays(manager, tmp_path):
    """Heroball's texts whose subject is a player's name (who plays which hero, seeding terrain, standing orders)
    agree with the console's "you"; bob, a name, keeps the third person."""
    from bot.console import Console

    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append, default_channel="c1")
    for line in ["you> /game new game:heroball seed:7", "bob> /game join hero:Helen god:Athena", "you> /game start",
                 "you> /heroball seed to:H3", "bob> /heroball seed to:H10", "you> /heroball seed to:H5",
                 "bob> /heroball seed to:H8", "you> /heroball reactions defend:never", "you> /heroball step to:G2",
                 "you> /heroball end", "bob> /heroball reactions intercept:always", "bob> /heroball end"]:
        reply = await con.line(line)
        assert reply is not None and not reply.ephemeral, (line, reply.text if reply else None)
    text = "\n".join(out)
    assert "you play Herakles" in text and "bob plays Helen" in text
    assert "you seed forest terrain on H3." in text and "bob seeds populated terrain on H10." in text
    # standing orders are told to their player alone now, in the second person
    assert "(only you see this) Your standing orders now: defend never" in text
    assert "(only bob sees this) Your standing orders now:" in text and "sets standing orders" not in text
    assert not YOU_THIRD_PERSON.search(text), YOU_THIRD_PERSON.search(text)


def test_heroball_result_says_you_win_and_two_winners_win():
    """The final result agrees with its subject: "you win", "ann wins", "you and bob win"."""
    from games.heroball.turns import result

    engine = get_game("heroball")
    state = engine.setup({}, [Seat(player="you", name="you"), Seat(player="bob", name="bob")], 3)
    state.heroes[0].score = 2
    assert result(state).text.startswith("you win with 2 points.")
    state.heroes[0].name = "ann"
    assert result(state).text.startswith("ann wins with 2 points.")
    state.heroes[1].score, state.heroes[0].name = 2, "you"
    assert result(state).text.startswith("you and bob win with 2 points. Victory is shared.")


async def test_the_game_over_line_says_you_win_when_the_console_player_wins(manager, tmp_path):
    """The status line of a finished game: "Game over: you win.", not "you wins"."""
    from bot.console import Console

    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append, default_channel="c1")
    for line in ["you> /game new game:count seed:3", "bob> /game join", "you> /game start"]:
        await con.line(line)
    for _ in range(6):  # "you" adds 4 a round and bob nothing: 12 within three rounds
        for line in ["you> /count add n:2", "you> /count add n:2", "you> /count end", "bob> /count end"]:
            await con.line(line)
        if any("Game over:" in o for o in out):
            break
    text = "\n".join(out)
    assert "Game over: you win." in text, text[-600:]
    assert not YOU_THIRD_PERSON.search(text), YOU_THIRD_PERSON.search(text)


def test_dungeon_activation_and_ready_lines_agree_with_you():
    """The dungeon names the player who activates a hero and who is ready between levels: "you activate Candy",
    "you are ready"; any other name keeps the third person."""
    text = _played_as_you("dungeon", 3, 40, lambda legal: (
        [a for a in legal if a.cmd == "activate"] or [a for a in legal if a.cmd in ("end", "ready")] or legal)[0])
    assert re.search(r"^you activate \w+", text, re.M), text
    assert not YOU_THIRD_PERSON.search(text), text
    assert re.search(r"^bob activates \w+", text, re.M), text


def _played_as_you(game: str, seed: int, steps: int, choose: Callable[[list[Action]], Action]) -> str:
    """`steps` moves of `game` seated you/bob, each chosen by `choose` from the legal ones; every event text,
    waiting line and result, one a line."""
    engine = get_game(game)
    state = engine.setup({}, [Seat(player="you", name="you"), Seat(player="bob", name="bob")], seed)
    said: list[str] = []
    for _ in range(steps):
        st = engine.status(state)
        said.append(st.waiting_for)
        if st.finished or not st.to_act:
            said.append(st.result.text if st.result else "")
            break
        player = st.to_act[0]
        state, events = engine.apply(state, player, choose(engine.legal_actions(state, player)))
        said += [e.text for e in events]
    return "\n".join(said)


def _quodd_random_play(seed: int, steps: int = 300) -> str:
    """Random legal Quodd moves; rearranging (always legal, it would go on for ever) one time in ten."""
    rng = random.Random(seed)

    def choose(legal: list[Action]) -> Action:
        onward = [a for a in legal if a.cmd != "rearrange"]
        return rng.choice(legal if rng.random() < 0.1 or not onward else onward)

    return _played_as_you("quodd", seed, steps, choose)


def test_quodd_texts_about_the_console_player_agree_with_you():
    """Quodd's event texts and prompts whose subject is a player's name use `says`: "you tumble", "you are ready",
    "you have Jump on top"; bob, a name, keeps the third person ("bob is ready", "bob tumbles")."""
    seen_bob: set[str] = set()
    for seed in (1, 2, 3, 4):
        text = _quodd_random_play(seed)
        bad = YOU_THIRD_PERSON.search(text)
        assert bad is None, (seed, text[max(0, bad.start() - 200):bad.end() + 100])
        assert "you are ready." in text and "bob is ready." in text, seed
        seen_bob |= set(re.findall(r"^bob ((?:[a-z]+s)|is|has)\b", text, re.M))
    assert {"is", "has"} <= seen_bob and len(seen_bob) >= 4, seen_bob


def test_the_game_over_line_does_not_say_the_winner_twice_when_the_games_account_names_them():
    """"Game over: you win. you win with 2 points." read twice; a result text that names every winner stands alone,
    one that does not ("Highest total wins.") still follows the bot's "Game over: Ann wins."."""
    from bot.table import Table
    from games.core import Result, Status
    from storage import GameRecord

    table = Table.__new__(Table)
    rec = GameRecord.model_construct(seats=[], meta={}, settings={}, deadline_at=None)
    table.names = lambda rec: {"a": "you", "b": "Bob"}  # type: ignore[method-assign]
    def line(winners: list[str], text: str) -> str:
        st = Status(phase="over", finished=True, result=Result(winners=winners, text=text))
        return Table.status_line(table, rec, None, st)  # type: ignore[arg-type]
    assert line(["a"], "you win with 2 points.") == "Game over: you win with 2 points."
    assert line(["a", "b"], "you and Bob win with 2 points.") == "Game over: you and Bob win with 2 points."
    assert line(["b"], "Highest total wins.") == "Game over: Bob wins. Highest total wins."
    assert line(["b"], "Bobby reaches the marker.") == "Game over: Bob wins. Bobby reaches the marker."
    assert line([], "Every hero is incapacitated.") == "Game over. Every hero is incapacitated."


def test_a_refused_choice_says_an_before_a_vowel():
    """"`sometimes` is not a intercept in Heroball"."""
    from bot.defaults import pick
    from games.core import IllegalAction
    from games.core.contract import OptionSpec

    with pytest.raises(IllegalAction, match="is not an intercept in Heroball"):
        pick(OptionSpec(name="intercept", description="", choices=("ask", "always", "never")), "sometimes", "Heroball")
    with pytest.raises(IllegalAction, match="is not a dungeon in SDE-S"):
        pick(OptionSpec(name="dungeon", description="", choices=("gloom_keep",)), "x", "SDE-S")
