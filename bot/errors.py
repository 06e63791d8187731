"""The one place where errors become replies.

Domain errors (`PlaypostError`: illegal, malformed, ambiguous, not found) carry their own reason
and hint. A `StaleVersion` from storage means the game moved on while a command ran; what that
tells the caller depends on what they did (typed a command, pressed a button, voted), so the
entry point names the wording. A `StorageUnavailable` means the database refused the read or
write (disk full, read-only, damaged page): nothing changed, the storage logged the cause once,
and the player is told to try again later. Anything else is a bug: logged with its traceback, answered with
a generic reply, never passed off as the user's mistake.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass

from games.core import PlaypostError
from storage import StaleVersion, StorageUnavailable

from .reply import Reply

log = logging.getLogger("playpost.manager")


class NotFound(PlaypostError):
    """No game where the command expects one."""


class StaleBoard(PlaypostError):
    """A button or menu of a board the game has moved past."""


@dataclass(frozen=True)
class Stale:
    """What a caller is told when the game moved on under their command."""

    reason: str
    hint: str
    board: bool = False  # they used a board's control: the reply is flagged stale (the transport links the new board)


MOVED_MEANWHILE = Stale("Someone else moved at the same moment; nothing was changed.",
                        "Look at the new board and try again.")
BOARD_OUT_OF_DATE = Stale("This board is out of date.", "Use `/game status` to see the current one.", board=True)
VOTE_OVERTAKEN = Stale("The game moved on before the vote was counted; nothing was skipped.",
                       "`/game status` shows the current board.")
NOT_SAVED = ("The move was not saved; nothing changed.",
             "The bot cannot write to its database right now. Try again later.")
NOT_READ = ("The game could not be read from the database; nothing changed.", "Try again later.")
BUG = ("Something went wrong on my side; it has been logged.", "`/game status` shows the game as it stands.")


def reply_for(exc: Exception, stale: Stale = MOVED_MEANWHILE) -> Reply:
    """The reply for an error a command raised."""
    if isinstance(exc, PlaypostError):
        reply = Reply.error(exc.reason, exc.hint)
        reply.stale = isinstance(exc, StaleBoard)
        return reply
    if isinstance(exc, StaleVersion):
        reply = Reply.error(stale.reason, stale.hint)
        reply.stale = stale.board
        return reply
    if isinstance(exc, StorageUnavailable):  # logged once by the storage, not per command
        return Reply.error(*(NOT_SAVED if exc.writing else NOT_READ))
    log.error("event=bug error=%r", exc, exc_info=exc)
    return Reply.error(*BUG)


async def guarded(work: Awaitable[Reply], stale: Stale = MOVED_MEANWHILE) -> Reply:
    """Run a command; whatever it raises becomes its reply (see `reply_for`)."""
    try:
        return await work
    except Exception as exc:
        return reply_for(exc, stale)
