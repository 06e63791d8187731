"""What the manager answers: transport-neutral, so Discord and the console show the same thing."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pipeline import Board

Ack = Callable[[], Awaitable[None]]
# a press that carries `#<n>` instead of an action text stands for the n-th button of its board
# (a transport uses it when the action text does not fit in what a button can carry)
INDEX_MARK = "#"


@dataclass(frozen=True)
class Context:
    """Who typed a command, and where."""

    channel_id: str
    user_id: str
    user_name: str
    guild_id: str | None = None
    can_manage: bool = False  # holds Manage Channel (may abandon and remove players)
    game_id: int | None = None  # the game a button was made for (a vote, a rematch); None: this channel's game
    # called once a command has passed its quick checks and the slow part (applying, drawing) begins:
    # a button click acknowledges here, so a refusal can still be answered privately at once
    ack: Ack | None = field(default=None, compare=False)
    # a move's reply may leave before its board is drawn (`Reply.board` brings it): a transport that can
    # post the image afterwards says so; the console and scripts wait for the whole reply
    image_later: bool = False

    async def acknowledge(self) -> None:
        if self.ack is not None:
            await self.ack()


@dataclass(frozen=True)
class Button:
    """A button carrying one legal action; the bot stamps channel and version into it."""

    label: str
    action: str  # action text, e.g. "react kind:defend"
    player: str  # the only user allowed to press it


@dataclass(frozen=True)
class Menu:
    """A menu under the board: one command's legal actions that have no button, for one player."""

    player: str  # the only user allowed to choose from it
    cmd: str
    options: tuple[tuple[str, str], ...]  # (label, action text)
    part: int = 0  # a command with more than one menu's worth of moves: which 25 (1, 2, ...; 0: the only menu)
    of: int = 0  # and how many moves it has in all

    @property
    def placeholder(self) -> str:
        """"More: throw (17)"; one of a command's several menus says which of its moves it holds ("1-25 of 38")."""
        if self.part:
            first = (self.part - 1) * 25 + 1  # Discord's 25 options to a menu (bot/hand.py MAX_MENU_OPTIONS)
            return f"More: {self.cmd} ({first}-{first + len(self.options) - 1} of {self.of})"
        return f"More: {self.cmd} ({len(self.options)})"


@dataclass(frozen=True)
class StatusMessage:
    """A game's standing status message: its text now, and where it stands (once posted)."""

    text: str
    channel_id: str | None = None  # None: not posted yet
    message_id: str | None = None
    pinned: bool = False
    over: bool = False  # the game has ended: the message loses its button and its pin


@dataclass
class Attachment:
    name: str
    data: bytes


@dataclass
class Reply:
    text: str = ""
    image: bytes | None = None  # the board, as board.png
    files: list[Attachment] = field(default_factory=list)
    ephemeral: bool = False  # the whole reply only for the caller
    private: dict[str, str] = field(default_factory=dict)  # user id -> text only they may read
    ping: list[str] = field(default_factory=list)  # user ids to mention (who must act now)
    buttons: list[Button] = field(default_factory=list)
    menus: list[Menu] = field(default_factory=list)
    game_id: int | None = None
    version: int | None = None
    status_text: str = ""  # the game's standing status line (for the pinned status message)
    finished: bool = False
    thread_name: str | None = None  # the bot may open a thread with this name for the game
    opened: bool = False  # a new game was opened (the bot posts its status message)
    stale: bool = False  # refused: the button or menu used belongs to a board the game has moved past
    board_url: str = ""  # with `stale`: a link to the newest board, when one of the current version was posted
    status_message: StatusMessage | None = None  # with a public reply about a game: its status message now
    # with `Context.image_later`: the board still being drawn (`image` is None until then); it may be
    # superseded by a newer board of the channel, which then shows this move too
    board: Board | None = field(default=None, compare=False, repr=False)
    # the same players still act in the same turn: a transport that can edits the turn's message (appends
    # this text, replaces its board and controls) instead of posting a new one; a new message pings
    continues: bool = False
    # player -> the moves only they may see (their hand's cards: bot/hand.py), with their buttons and menus; a
    # public reply shows them a "Your hand" button, `/game hand` answers with them
    hand_controls: dict[str, tuple[list[Button], list[Menu]]] = field(default_factory=dict)
    recap: str = ""  # with a ping: the moves since the pinged player's last one (it opens `text`)
    # this move (or a deadline's answer, or a vote to end) ended the game: a transport that can posts the animated
    # replay after the final board (`GameManager.end_replay`); never set for a game the host abandoned or a board
    # shown again
    replay_due: bool = False
    # where the transport said the turn's message is (`GameManager.remember_turn`, kept in the game's meta): a
    # transport that restarted edits that message again instead of posting a new one
    turn_message: dict[str, Any] | None = None

    @classmethod
    def error(cls, reason: str, hint: str = "") -> Reply:
        text = reason if not hint else f"{reason}\n{hint}"
        return cls(text=text, ephemeral=True)
