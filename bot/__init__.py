"""The Belote bot process: settings, logging, the Bot class and the table service."""

from .bot import BeloteBot, create_bot
from .settings import Settings

__all__ = ["BeloteBot", "Settings", "create_bot"]
