"""The application: game manager, local console and Discord adapter.

`from bot import build_bot, Settings` gives the factory `playpost run` uses.
"""
from .settings import Settings


def build_bot(settings: Settings):  # noqa: ANN201 - imported lazily: discord.py is heavy
    """Build the discord.py Bot for these settings (see bot/discord_adapter/app.py)."""
    from .discord_adapter.app import build_bot as _build

    return _build(settings)


__all__ = ["Settings", "build_bot"]
