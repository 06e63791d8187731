"""Quodd Heroes: the game object. The phase table, the lobby, the setup, and the hooks every phase shares
(view, summary, canonical spellings, previews, the rules reference). What happens in a phase is in `phases/`."""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from games.core import Action, Event, IllegalAction, Pending, PhasedGame, Rng, Seat, Status, UniqueChoice
from games.core.phases import copy_state
from games.core.play import public_rng, resolve

from . import data, scenarios
from .beams import light
from .board import active
from .cards import IMPULSE_PHASES, card_actions, play_card
from .commands import COMMANDS, OPTIONS, SEAT_OPTIONS
from .cube import facing
from .deck import DECK_EDITIONS, HAND_LIMIT, card_name, new_decks, new_overlord_deck
from .events import event_name, new_event_deck
from .goals import objective
from .modes import play_mode
from .modes.buddies import acting, any_buddies, buddy_problem, buddy_turn, controller, make_buddy, players
from .modes.campaign import advance
from .modes.overlord import make_overlord, overlord_seat, role_problem
from .modes.summary import game_fields, mode_fields
from .modes.teams import check_team_choice, deal_teams
from .phases import PHASES, ask_placement, pass_empty_phases
from .phases.base import QuoddPhase
from .skills import complete_layout, top_face, top_skill
from .state import BeamPiece, Hero, Platform, QState, Sheep, Token, action_copy, from_before_modes
from .turns import placement_order
from .view import build_view, rules_text, upgrade_name


def hero_id(text: str) -> str | None:
    """The hero a player named: by id, full name or first name."""
    t = text.strip().casefold()
    for h in data.heroes().values():
        if t in (h.id, h.name.casefold(), h.name.split()[0].casefold()):
            return h.id
    return None


def card_id(text: str) -> str | None:
    """The card a player named: by id or shown name, in any case, with spaces, hyphens or underscores
    (`Feast Loaf`, `feast loaf`, `FEAST-LOAF` are all `feast-loaf`)."""
    t = "-".join(text.replace("_", " ").replace("-", " ").casefold().split())
    for cid, c in data.cards().items():
        if t == cid or t == "-".join(c.name.replace("-", " ").casefold().split()):
            return cid
    return None


HAND_COMMANDS = ("play", "impulse", "discard")  # actions that take a card from the player's hand
PUBLIC_CARD_COMMANDS = ("use", "draw")  # a `card:` in play (face up) or in the lineup / the deck: public

HERO = UniqueChoice("hero", lambda: ((h.id, h.name) for h in data.heroes().values()), hero_id)


class QuoddHeroes(PhasedGame[QState]):
    id = "quodd"
    name = "Quodd Heroes"
    min_seats = 1
    max_seats = 6
    rules_version = 1
    state_model = QState
    options = OPTIONS
    seat_options = SEAT_OPTIONS
    commands = COMMANDS
    phases = PHASES
    anytime_commands = ("impulse",)  # an impulse card on another player's turn

    def phase_of(self, state: QState) -> str:
        """The stored phase; a decision waiting in the middle of a movement is the `decide` phase."""
        if state.pending is not None and state.phase != "place":
            return "decide"
        return state.phase

    # ---- lobby -------------------------------------------------------------
    def _scenario(self, options: dict[str, str]) -> scenarios.ScenarioDef:
        sid = (options.get("scenario") or "tutorial").lower()
        found = scenarios.scenarios().get(sid)
        if found is None:
            raise IllegalAction(f"There is no Quodd scenario `{sid}`.",
                                "Scenarios: " + ", ".join(sorted(scenarios.scenarios())) + ".")
        return found

    def check_options(self, options: dict[str, str]) -> None:
        self._scenario(options)
        if (options.get("events") or "off").lower() not in ("off", "on"):
            raise IllegalAction(f"`events:{options['events']}` is not a choice.",
                                "World events are `events:on` or `events:off` (the default).")
        if (options.get("board") or "a").lower() not in ("a", "b"):
            raise IllegalAction(f"`board:{options['board']}` is not a side of the player board.",
                                "`board:a` (the upgrade track, the default) or `board:b` (upgrades on faces).")
        if (options.get("deck") or "1") not in DECK_EDITIONS:
            raise IllegalAction(f"`deck:{options['deck']}` is not an edition of the exploration deck.",
                                "`deck:1` (the first 46 cards, the default), `deck:2` (adds Crystal Extract and "
                                "Freeze-O-Tron) or `deck:3` (edition 2 and the Cannon Rune).")

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        sc = self._scenario(options)
        seats = [s for s in seats if s.player != new.player]  # re-joining replaces your own seat
        if len(seats) >= sc.max_players:
            raise IllegalAction(f"{sc.name} seats at most {sc.max_players}.", "Watch this one, or start another game.")
        if new.choices.get("team"):
            check_team_choice(sc, new.choices["team"])
        want = new.choices.get("hero")
        if want:
            hid = hero_id(want)
            free = HERO.free_ids(seats)
            if hid is None:
                raise IllegalAction(f"There is no hero called `{want}`.", "Heroes: " + ", ".join(free) + ".")
            if hid not in free or hid in _buddies_chosen(seats):
                raise IllegalAction(f"{data.heroes()[hid].name} is taken.", "Free heroes: " + ", ".join(free) + ".")
        why = role_problem(sc.mode, seats, new)
        if why:
            raise IllegalAction(f"`role:{new.choices.get('role')}` is refused.", why)
        if new.choices.get("buddy"):
            bid = hero_id(new.choices["buddy"]) or ""
            taken = [*_buddies_chosen(seats), *(h for h in (hero_id(s.choices.get("hero", "")) for s in [*seats, new])
                                                 if h)]
            why = buddy_problem(sc.mode if sc.buddies else "", taken, bid)
            if why:
                raise IllegalAction(f"`buddy:{new.choices['buddy']}` is refused.", why)

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option == "team":
            try:
                return list(self._scenario(options).teams)
            except IllegalAction:
                return []
        if option in ("role", "buddy"):  # only what this scenario and these seats accept (overlord, buddies)
            offered = []
            for value in super().seat_choices(options, seats, option):
                try:
                    self.check_seat(options, seats, Seat(player="\0offer", name="", choices={option: value}))
                except IllegalAction:
                    continue
                offered.append(value)
            return offered
        if option != "hero":
            return super().seat_choices(options, seats, option)
        return HERO.free_ids(seats)

    def option_choices(self, option: str) -> list[str]:
        """Every scenario, the server's own included (`PLAYPOST_QUODD_SCENARIOS`), for `/game new scenario:`."""
        if option == "scenario":
            return sorted(scenarios.scenarios())
        return super().option_choices(option)

    # ---- setup -------------------------------------------------------------
    def load(self, text: str) -> QState:
        """A stored state; a game saved before play modes (no `objective` key: it can only appear as a key,
        a quote inside a JSON string is escaped) is converted first (`state.from_before_modes`)."""
        if '"objective":' in text:
            return QState.model_validate_json(text)
        return QState.model_validate(from_before_modes(json.loads(text)))

    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> QState:
        sc = self._scenario(options)
        if not sc.min_players <= len(seats) <= sc.max_players:
            raise IllegalAction(f"{sc.name} is for {sc.min_players}-{sc.max_players} players.",
                                "Pick another scenario with `/game new`.")
        layout = scenarios.check_scenario(sc)
        teams = deal_teams(sc, seats)
        rng = Rng(seed=seed)
        hv = data.house()
        chosen = [hero_id(s.choices.get("hero", "")) for s in seats]
        # heroes `by_name_only` are never dealt, so the draws of games saved before they came replay unchanged
        free = [h for h in HERO.free_ids(seats) if not data.heroes()[h].by_name_only
                and h not in _buddies_chosen(seats)]
        if (options.get("board") or "a").lower() == "b":
            hv = hv.model_copy(update={"base_movement": hv.bside_movement})
        heroes: list[Hero] = []
        for i, (seat, hid) in enumerate(zip(seats, chosen, strict=True)):
            if hid is None:
                hid = free.pop(rng.below(len(free)))
            hd = data.heroes()[hid]
            heroes.append(Hero(player=seat.player, name=seat.name, hero=hid, seat=i, team=teams[i],
                               skills=dict(hd.default_skills),
                               movement=hv.base_movement, explore=hv.base_explore))
        for _ in range(sc.buddies if sc.mode == "buddies" else 0):  # each player's buddies, after every own hero
            for seat, own in zip(seats, heroes[:len(seats)], strict=True):
                bid = hero_id(seat.choices.get("buddy", "")) if len(heroes) < 2 * len(seats) else None
                if bid is None or bid in [h.hero for h in heroes]:
                    left = [h for h in free if h not in [x.hero for x in heroes]]
                    bid = left[rng.below(len(left))]
                bd = data.heroes()[bid]
                heroes.append(make_buddy(own, bid, bd.name, len(heroes), hv.base_movement, hv.base_explore,
                                         bd.default_skills))
        tokens: dict[str, Token] = {}
        ground: dict[str, list[str]] = {}
        rally: dict[str, str] = {}
        pool = list(sc.secret_pool)
        rng.shuffle(pool)
        for t in sc.tokens:
            lab = t.at.upper()
            if t.kind == "crystal":
                ground.setdefault(lab, []).append(f"{t.colour or 'plain'}-crystal")
                continue
            tok = Token(kind=t.kind, group=t.group, number=t.number, dir=t.dir, hero=t.hero)
            if t.kind == "secret":
                tok = tok.model_copy(update={"hidden": pool.pop()})  # tokens are frozen
            if t.kind == "rally":
                rally[str(t.number)] = lab
            tokens[lab] = tok
        first = rng.below(len(heroes))
        st = QState(
            scenario=sc.id, objective=sc.objective, mode=play_mode(sc.mode, len(heroes)),
            round_limit=sc.round_limit, target=sc.target, carry_limit=sc.carry_limit or hv.carry_limit,
            pass_coin=sc.pass_coin, start_facing=sc.facing or "", width=layout.width, height=layout.height,
            rows=layout.rows, links=layout.links, board_of=layout.board_of, tokens=tokens, ground=ground,
            rally=rally, heroes=heroes, first=first, turn=first, rng=rng,
            placing=placement_order(len(heroes), first),
            sheep=[Sheep(at=sh.at.upper(), colour=sh.colour, facing="" if sh.facing == "choose" else sh.facing)
                   for sh in sc.sheep],
            sheep_ask=sc.sheep_pickup == "ask",
            platforms=[Platform(cells=[c.upper() for c in pl.cells], kind=pl.kind, dir=pl.dir, pivot=pl.pivot.upper())
                       for pl in sc.platforms],
            beams=[BeamPiece(at=b.at.upper(), kind=b.kind, dir=b.dir, on=b.on, group=b.group) for b in sc.beams],
        )
        light(st, [])  # the beams as the scenario lays them out
        st.board = "b" if (options.get("board") or "a").lower() == "b" else ""
        st.part, st.next_part = (1, sc.next_part) if sc.next_part else (0, "")
        if sc.mode == "overlord":  # the overlord's deck: a stream of its own, so the other decks deal as ever
            make_overlord(st, st.heroes[overlord_seat(seats)], sc.overlord_movement, sc.overlord_target,
                          new_overlord_deck(Rng(seed=(seed * 15485863 + 7) & (2**63 - 1))))
        # a stream of its own, so the decks do not shift the dice of the game's rng
        st.deck, st.lineup, st.treasure = new_decks(Rng(seed=(seed * 7919 + 17) & (2**63 - 1)),
                                                    edition=int(options.get("deck") or 1))
        if (options.get("events") or "off").lower() == "on":  # the world event deck: a stream of its own too
            st.events_on = True
            st.event_deck = new_event_deck(Rng(seed=(seed * 104729 + 31) & (2**63 - 1)))
        ask_placement(st)
        return st

    # ---- what every phase shows the same way ----------------------------------
    def view(self, state: QState, player: str | None) -> BaseModel:
        status = super().status(state)  # the heroes' keys: a buddy's turn marks the buddy, not its controller
        return build_view(state, status.waiting_for, status.to_act)

    def summary(self, state: QState) -> dict[str, Any]:
        st = state
        players = []
        for h in st.heroes:
            players.append({
                "name": h.name, "hero": data.heroes()[h.hero].name, **({"team": h.team} if h.team else {}),
                "position": h.pos or "",
                "top_face": top_face(h), "top_skill": top_skill(h), "facing": facing(h.head, h.front),
                "collectibles": list(h.carrying), "banked": list(h.banked),
                "objective": objective(st, h),
                "movement": h.movement, "explore": h.explore, "hand_size": len(h.hand),
                "items": [card_name(c) for c in h.items], "pets": [card_name(c) for c in h.pets],
                "upgrades": [upgrade_name(h, u) for u in h.upgrades],
                **mode_fields(h),
            })
        return {"round": st.round, "first_player": st.heroes[st.first].name, "scenario": st.scenario,
                "mode": st.mode, "objective": st.objective,
                "players": players, "world_events": [event_name(e) for e in st.events_played],
                "ongoing_events": [event_name(e) for e in st.ongoing], **game_fields(st)}

    def canonical(self, state: QState, player: str, action: Action) -> Action:
        """Upper-case directions and squares, a choice as offered, a hero by name, a partial rearrange."""
        st = state
        player = self._as(state, player)
        args = dict(action.args)
        up = {"direction", "at", "to"}
        for k in list(args):
            if k in up:
                args[k] = args[k].upper()
        if action.cmd == "move" and "path" in args:
            args["path"] = " ".join(args["path"].upper().replace(",", " ").split())
        if action.cmd == "choose" and "option" in args:
            o = args["option"]
            if st.pending and o.upper() in [x.upper() for x in st.pending.options]:
                args["option"] = next(x for x in st.pending.options if x.upper() == o.upper())
        for key in ("from", "hero"):  # steal from:, ability hero: a hero by its player or display name
            if action.cmd in ("steal", "ability", "give") and key in args:
                f = args[key].casefold().lstrip("@")
                for h in st.heroes:
                    if f in (h.player.casefold(), h.name.casefold()):
                        args[key] = h.player
        for key in ("card", "card2"):  # a card by its id or its shown name, wherever a command names one
            if key in args and args[key].casefold() != "deck":
                args[key] = card_id(args[key]) or args[key]
            elif key in args:
                args[key] = "deck"
        if action.cmd == "ability":  # ids are lower case; Twister's spin too; faces in any case
            args.update({k: args[k].lower() for k in ("name", "spin", "faces", "card", "card2", "target", "item")
                         if k in args})
        if action.cmd == "qpower" and "copy" in args:
            args["copy"] = hero_id(args["copy"]) or args["copy"]
        if action.cmd == "qpower":
            args.update({k: args[k].lower() for k in ("way", "side", "skill") if k in args})
        if action.cmd == "rearrange":
            owner = [h for h in st.heroes if h.player == (st.pending.hero if st.pending else player)]
            if not owner:
                return action
            args = complete_layout(owner[0], args)
        return Action.of(action.cmd, **args)

    # ---- buddies: a player runs several heroes (`modes/buddies.py`) ----------------------------
    def _as(self, state: QState, player: str) -> str:
        """The hero key `player` acts as now: the first of their heroes the phase waits for (buddies), else
        `player` itself."""
        if not any_buddies(state):
            return player
        return acting(state, player, self.phase(state).status(self, state).to_act)

    def status(self, state: QState) -> Status:
        """The phase's status, with buddies' keys read as the players who run them."""
        s = super().status(state)
        if not any_buddies(state):
            return s
        update: dict[str, Any] = {"to_act": players(state, s.to_act)}
        if s.result is not None:
            merged: dict[str, int] = {}
            for key, n in s.result.scores.items():
                who = players(state, [key])[0]
                merged[who] = merged.get(who, 0) + n
            update["result"] = s.result.model_copy(update={"winners": players(state, s.result.winners),
                                                          "scores": merged})
        return s.model_copy(update=update)

    def pending(self, state: QState) -> Pending | None:
        p = super().pending(state)
        if p is None or not any_buddies(state):
            return p
        return dataclasses.replace(p, player=players(state, [p.player])[0])

    def legal_actions(self, state: QState, player: str) -> list[Action]:
        """As `PhasedGame.legal_actions`, with the player acting as the hero of theirs the phase waits for."""
        if not any_buddies(state):
            return super().legal_actions(state, player)
        inner = self.phase(state).status(self, state)
        key = acting(state, player, inner.to_act)
        out: list[Action] = []
        if not inner.finished and key in inner.to_act:
            out = self.phase(state).legal(self, state, key)
        if not inner.finished:
            out += self.common_actions(state, player)
        return out

    def forced_action(self, state: QState, player: str) -> Action | None:
        """As `PhasedGame.forced_action`, with the player acting as the hero of theirs the phase waits for."""
        if not any_buddies(state):
            return super().forced_action(state, player)
        status = self.status(state)
        if status.finished or player not in status.to_act:
            return None
        return self.phase(state).forced(self, state, self._as(state, player), status.to_act == [player])

    def explain(self, state: QState, player: str, action: Action) -> str:
        return super().explain(state, self._as(state, player), action)

    def button_actions(self, state: QState, player: str, legal: list[Action]) -> list[Action]:
        return super().button_actions(state, self._as(state, player), legal)

    def label(self, state: QState, action: Action, player: str | None = None) -> str:
        """A button's label; given the button's owner (`player`), said for that player's hero where heroes act at
        once and the same action means something else for each (upgrade tiles, skill setups): `label_for`."""
        phase = self.phase(state)
        if player is not None and isinstance(phase, QuoddPhase):
            text = phase.label_for(self, state, action, self._as(state, player))
            if text is not None:
                return text
        return super().label(state, action)

    def skip_action(self, state: QState, player: str) -> Action | None:
        return super().skip_action(state, self._as(state, player))

    def apply(self, state: QState, player: str, action: Action) -> tuple[QState, list[Event]]:
        """The phase's effect, then any phase 1 or 3 left without a choice passes by itself."""
        if action.cmd not in self.anytime_commands:
            player = self._as(state, player)
        if action.cmd == "rearrange" and state.phase == "skills" and state.pending is None:
            new, events = _setup_rearrange(self, state, player, action)
        else:  # `PhasedGame.apply`, with the copy that shares the (frozen) tokens
            new, events = action_copy(state), []
            if not self.apply_common(new, player, action, events):
                self.phase(new).apply(self, new, player, action, events)
        pass_empty_phases(self, new, events, dict(PHASES))
        if new.phase == "over" and new.next_part:  # a part of a multi-part scenario is won: on to the next
            advance(new, events)
        rolled = (state.rng.seed, state.rng.counter) != (new.rng.seed, new.rng.counter)
        if events and not any(e.irreversible for e in events) and (
                rolled or not _same_hidden(state, new) and self.hidden_digest(state) != self.hidden_digest(new)):
            # a roll or a reveal deep in a chain (a world event's wind moving a hero onto a teleporter, say) makes
            # the whole action a barrier to undo, whichever mechanism rolled
            events[-1] = events[-1].model_copy(update={"irreversible": True})
        return new, events

    # ---- cards: impulse plays off-turn, the private hand ----------------------------------
    def common_actions(self, state: QState, player: str) -> list[Action]:
        """Impulse cards of the players whose turn it is not (never during a movement)."""
        st = state
        if st.phase not in IMPULSE_PHASES or st.pending is not None or controller(active(st)) == player:
            return []
        if buddy_turn(st):  # no card is played during a buddy's turn (rulebook: buddy cards)
            return []
        mine = [h for h in st.heroes if h.player == player]
        if not mine or not mine[0].hand:
            return []
        return [Action.of("impulse", **a.argdict) for a in card_actions(st, mine[0]) if a.cmd == "play"]

    def apply_common(self, state: QState, player: str, action: Action, events: list[Event]) -> bool:
        if action.cmd != "impulse":
            return False
        play_card(state, player, action, events)
        return True

    def private_action(self, state: QState, player: str, action: Action) -> bool:
        """A hand is private (rulebook: each player's hand is theirs alone): playing, discarding or an impulse from
        it, and any action that pays with a card of it (an ability's cost, a steal past Flame Grip) name that card,
        so their buttons go to the player alone. Cards in play (`use`) and the lineup (`draw`) are public."""
        if action.cmd in HAND_COMMANDS:
            return True
        return action.cmd not in PUBLIC_CARD_COMMANDS and bool(action.get("card") or action.get("card2"))

    def value_label(self, state: QState, player: str, command: str, option: str, value: str) -> str:
        """Card ids in autocomplete read as the card's name and what it does."""
        if option != "card" or value not in data.cards():
            return value
        c = data.cards()[value]
        return f"{value}: {c.name} ({c.kind}{f', range {c.range}' if c.range else ''}) - {c.text}"[:100]

    def private_text(self, state: QState, player: str) -> str:
        """The player's hand: only they see it (`/game hand`, ephemeral on Discord)."""
        mine = [h for h in state.heroes if h.player == player]
        if not mine:
            return ""
        h = mine[0]
        if not h.hand:
            return f"Your hand is empty (limit {HAND_LIMIT} at the end of your exploration)."
        lines = [f"Your hand ({len(h.hand)}, limit {HAND_LIMIT} at the end of your exploration):"]
        for cid in h.hand:
            c = data.cards()[cid]
            tags = [c.kind] + (["impulse"] if c.impulse else []) + ([f"range {c.range}"] if c.range else [])
            lines.append(f"- `{cid}` {c.name} ({', '.join(tags)}): {c.text}")
        return "\n".join(lines)

    def rules_topics(self) -> dict[str, str]:
        return rules_text()

    def redact(self, state: QState, player: str, rng: Rng) -> QState:
        """Stand-in dice, every secret token blank (a preview landing there says it would reveal one), and the
        cards `player` cannot see re-dealt: the deck's order, the treasure deck, the other players' hands."""
        out = _blank_secrets(super().redact(state, player, rng))
        others = [h for h in out.heroes if h.player != player]
        unseen = list(out.deck) + [c for h in others for c in h.hand]
        rng.shuffle(unseen)
        for h in others:
            h.hand, unseen = unseen[:len(h.hand)], unseen[len(h.hand):]
        out.deck = unseen
        rng.shuffle(out.treasure)
        rng.shuffle(out.event_deck)
        rng.shuffle(out.overlord_deck)
        return out

    def hidden_digest(self, state: QState) -> str:
        """What is hidden besides the dice: the secret tokens, the order of the decks (exploration, treasure, world
        events) and every hand.
        A reveal, a draw or a card leaving a hand changes it."""
        # the kinds still hidden, not where they lie: a token moved face down (a rotated board, a platform)
        # tells nothing, so only a reveal changes this part
        secrets = ",".join(sorted(t.hidden for t in state.tokens.values() if t.hidden))
        if not (state.deck or state.treasure or state.event_deck or any(h.hand for h in state.heroes)):
            return secrets
        hands = ";".join(f"{h.player}:{','.join(h.hand)}" for h in state.heroes)
        events = f"|events:{','.join(state.event_deck)}" if state.event_deck else ""
        mine = f"|overlord:{','.join(state.overlord_deck)}" if state.overlord_deck else ""
        return f"{secrets}|deck:{','.join(state.deck)}|treasure:{','.join(state.treasure)}|{hands}{events}{mine}"

    def preview(self, state: QState, player: str, action: Action) -> tuple[QState, list[Event]]:
        """Apply `action` to a copy of what the player may know (the platform `redact`s first: stand-in
        dice, secret tokens blank), so a preview never tells the real rolls or a secret."""
        # the platform `redact`s first; redacting again here keeps a direct call as safe
        trial = self.redact(state, player, public_rng(self, state, player, action))
        act = resolve(self, trial, player, action)
        new, ev = self.apply(trial, player, act)
        if any(e.irreversible for e in ev):
            ev.append(Event(text="(Preview: dice here are stand-ins, not the real roll.)"))
        return new, ev


def _setup_rearrange(game: QuoddHeroes, state: QState, player: str, action: Action) -> tuple[QState, list[Event]]:
    """A rearrange in the setup (`phases.skills`) gives one hero a new skills dict and changes nothing else, so the
    new state gets its own list of heroes and its own copy of that hero and shares every other part with `state`
    (a state is a value: every later action copies what it changes, `games.core.phases.apply_copy`). Random play
    spends most of its actions here (a hero keeps its layout only when `done` comes up among 120 choices), and the
    whole-state copy was most of each one's cost."""
    new = state.model_copy()  # shallow: the fields are the same objects
    heroes = list(state.heroes)
    i = next(k for k, h in enumerate(heroes) if h.player == player)
    heroes[i] = copy_state(heroes[i])
    new.__dict__["heroes"] = heroes
    events: list[Event] = []
    game.phases["skills"].apply(game, new, player, action, events)
    return new, events


def _buddies_chosen(seats: Sequence[Seat]) -> list[str]:
    """The heroes seats chose as their buddies."""
    return [h for h in (hero_id(s.choices.get("buddy", "")) for s in seats) if h]


def _same_hidden(a: QState, b: QState) -> bool:
    """True when everything `hidden_digest` reads is the same in both (so their digests are equal), found without
    building the digests; False says nothing (the digests decide). Lists compare at C speed (an entry that is the
    same object is equal at once: an action copy shares the frozen tokens it leaves alone)."""
    return (a.deck == b.deck and a.treasure == b.treasure and a.event_deck == b.event_deck
            and a.overlord_deck == b.overlord_deck
            and [(h.player, h.hand) for h in a.heroes] == [(h.player, h.hand) for h in b.heroes]
            and (list(a.tokens.values()) == list(b.tokens.values())
                 or [t.hidden for t in a.tokens.values()] == [t.hidden for t in b.tokens.values()]))


def _blank_secrets(st: QState) -> QState:
    """`st` (a private copy) with what every secret token hides forgotten."""
    st.tokens = {k: t.model_copy(update={"hidden": ""}) if t.hidden else t for k, t in st.tokens.items()}
    return st
