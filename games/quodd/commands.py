"""What players type: the `/quodd` commands, the game options (scenario, events) and the seat options (hero, team)."""
from __future__ import annotations

from games.core import Action, CommandSpec, OptionSpec
from games.core.grid import DIRS8

from . import data
from .cube import SKILL_FACES
from .modes.bside import FACES
from .scenarios import scenarios

OPTIONS = (
    # every scenario, the server's own too: `QuoddHeroes.option_choices` (autocomplete), checked at `/game new`
    OptionSpec(name="scenario", description="Which scenario to play", choices=tuple(sorted(scenarios())),
               default="tutorial"),
    OptionSpec(name="events", description="Play a world event at the end of every round (the rulebook's optional "
               "deck)", choices=("off", "on"), default="off"),
    OptionSpec(name="board", description="Player board side: a (the upgrade track) or b (upgrades on faces)",
               choices=("a", "b"), default="a"),
    # no default: games made before edition 2 store no `deck` and keep their first-edition deals
    OptionSpec(name="deck", description="Exploration deck edition: 1 (46 cards, the default), 2 (adds Crystal "
               "Extract and Freeze-O-Tron) or 3 (edition 2 and the Cannon Rune)", choices=("1", "2", "3")),
)

SEAT_OPTIONS = (
    OptionSpec(name="hero", description="Your hero (assigned at random if left out)",
               choices=tuple(h.id for h in data.heroes().values())),
    OptionSpec(name="role", description="Overlord scenarios: hero or overlord (else the first seat is the overlord)",
               choices=("hero", "overlord")),
    OptionSpec(name="buddy", description="Buddies scenarios: the hero your buddy plays (dealt if left out)",
               choices=tuple(h.id for h in data.heroes().values())),
    OptionSpec(name="team", description="Teams scenarios: your team (dealt in seat order if left out)",
               autocomplete=True),
)

COMMANDS = (
    CommandSpec(name="tumble", description="Natural tumble: roll your hero one space",
                options=(OptionSpec(name="direction", description="N, E, S or W", required=True,
                                    choices=("N", "E", "S", "W")),)),
    CommandSpec(name="move", description="Use the skill on top: a direction and distance, or a dash path", options=(
        OptionSpec(name="direction", description="Direction of a slide, diagonal slide, tumble or jump",
                   choices=tuple(DIRS8)),
        OptionSpec(name="distance", description="How far (jump: spaces jumped over)", kind="int", autocomplete=True),
        OptionSpec(name="path", description='Dash: one direction per point, e.g. "N NE" (up to 3 per command)',
                   autocomplete=True),
    )),
    CommandSpec(name="choose", description="Answer the pending decision", options=(
        OptionSpec(name="option", description="What you choose", required=True, autocomplete=True),)),
    CommandSpec(name="steal", description="Take a collectible from an adjacent hero", options=(
        OptionSpec(name="from", description="The hero's player", required=True, kind="user"),
        OptionSpec(name="item", description="Which collectible", autocomplete=True),
        OptionSpec(name="card", description="From a hero with Flame Grip: the card you discard", autocomplete=True),
    )),
    CommandSpec(name="drop", description="Put a carried collectible on an adjacent space", options=(
        OptionSpec(name="item", description="Which collectible", autocomplete=True),
        OptionSpec(name="at", description="Adjacent square, e.g. C4", required=True, autocomplete=True),
    )),
    CommandSpec(name="rearrange", description="Assign skills to faces (setup, Q-power, tokens)", options=tuple(
        OptionSpec(name=f, description=f"Skill on the {f} face", choices=tuple(data.skills()))
        for f in SKILL_FACES)),
    CommandSpec(name="play", description="Play a card from your hand (impulse cards also on others' turns)", options=(
        OptionSpec(name="card", description="The card (see /game hand)", required=True, autocomplete=True),
        OptionSpec(name="at", description="Target square within the card's range, e.g. C4", autocomplete=True),
        OptionSpec(name="to", description="Where a moved token goes (within range)", autocomplete=True),
    )),
    CommandSpec(name="impulse", description="Play an impulse card on another player's turn (not during a movement)",
                options=(
        OptionSpec(name="card", description="The impulse card (see /game hand)", required=True, autocomplete=True),
        OptionSpec(name="at", description="Target square within the card's range, e.g. C4", autocomplete=True),
        OptionSpec(name="to", description="Where a moved token goes (within range)", autocomplete=True),
    )),
    CommandSpec(name="use", description="Activate an item or pet you have in play (once a turn each)", options=(
        OptionSpec(name="card", description="The item or pet", required=True, autocomplete=True),
        OptionSpec(name="at", description="Target square within the card's range, e.g. C4", autocomplete=True),
        OptionSpec(name="to", description="Where a moved token goes (within range)", autocomplete=True),
    )),
    CommandSpec(name="draw", description="Phase 4: take a card from the lineup, or deck for the top of the deck",
                options=(OptionSpec(name="card", description="A lineup card, or deck", required=True,
                                    autocomplete=True),)),
    CommandSpec(name="discard", description="Discard down to the hand limit at the end of phase 4", options=(
        OptionSpec(name="card", description="The card to discard", required=True, autocomplete=True),)),
    CommandSpec(name="upgrade", description="End of round: take an upgrade tile on the side you choose", options=(
        OptionSpec(name="tile", description="Which of your tiles (1-6)", required=True, autocomplete=True),
        OptionSpec(name="side", description="a or b", required=True, choices=("a", "b")),
        OptionSpec(name="skill", description="Gold side: the skill to upgrade", choices=tuple(data.skills())),
        OptionSpec(name="face", description="Board B-side: the face the tile goes on", choices=FACES),
    )),
    CommandSpec(name="qpower",
                description="With the Q on top: use your hero's own Q-power (once a turn, besides rearranging)",
                options=(
        OptionSpec(name="at", description="Placing powers: a square within range 7, e.g. C4", autocomplete=True),
        OptionSpec(name="token", description="Placing powers: what your Q-power places", autocomplete=True),
        OptionSpec(name="direction", description="Bomb: fire it N, E, S or W", choices=("N", "E", "S", "W")),
        OptionSpec(name="way", description="Rotate board: cw or ccw", choices=("cw", "ccw")),
        OptionSpec(name="copy", description="Copy Q-power: the hero whose power you use", autocomplete=True),
        OptionSpec(name="tile", description="Flip Upgrade / Upgrade: which of your tiles (1-6)", autocomplete=True),
        OptionSpec(name="side", description="Flip Upgrade / Upgrade: the side it shows, a or b", choices=("a", "b")),
        OptionSpec(name="skill", description="A gold side: the skill to upgrade", choices=tuple(data.skills())),
        OptionSpec(name="face", description="Upgrade on the board's B-side: the face the tile goes on",
                   choices=FACES),
    )),
    CommandSpec(name="ability", description="Use an upgrade ability (phases 1 and 3; builders and teleport: movement)",
                options=(
        OptionSpec(name="name", description="The ability, e.g. mind-push", required=True, autocomplete=True),
        OptionSpec(name="card", description="The card you discard to pay for it", autocomplete=True),
        OptionSpec(name="card2", description="Timely Removal: the second card you discard", autocomplete=True),
        OptionSpec(name="hero", description="The other hero's player", kind="user"),
        OptionSpec(name="direction", description="Mind-Push or Strong Wind: which way", choices=tuple(DIRS8)),
        OptionSpec(name="at", description="Target square, e.g. C4", autocomplete=True),
        OptionSpec(name="target", description="Timely Removal: the item or pet in play", autocomplete=True),
        OptionSpec(name="spin", description="Twister: cw or ccw", choices=("cw", "ccw")),
        OptionSpec(name="faces", description='Swap Skills: two faces, e.g. "left right"', autocomplete=True),
        OptionSpec(name="item", description="Crystal Bomb: the crystal you give up", autocomplete=True),
    )),
    CommandSpec(name="give", description="Co-op and teams: pass a card to a teammate within 4 spaces (phases 1 and 3)",
                options=(
        OptionSpec(name="card", description="The card from your hand (see /game hand)", required=True,
                   autocomplete=True),
        OptionSpec(name="hero", description="The teammate's player", required=True, kind="user"),
    )),
    CommandSpec(name="done", description="Finish this phase (or the setup of your skills)"),
    # the platform's `/game preview` will take this over (issue 10); kept until then
    CommandSpec(name="preview", description="Only you see where a tumble or move would take you; nothing changes",
                options=(OptionSpec(name="action", description='The move to try, e.g. "tumble direction:E"',
                                    required=True, autocomplete=True),)),
)


def arg(action: Action, key: str) -> str:
    """An argument of a legal action: the legal set guarantees it is there."""
    value = action.get(key)
    assert value is not None, (action, key)
    return value
