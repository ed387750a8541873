"""The Belote service: everything the bot does that is not talking to Discord.

The live tables (``tables``), tournaments, seasons, the daily deal, server settings, credits,
the records of finished matches, the audit log and the computer players' seats. It imports no
discord (tests/service/test_no_discord.py checks it): the bot (bot/, cogs/) calls it and
tells Discord what it answers. A request it turns down raises ``Refusal``.
"""

from .refusals import Refusal, said

__all__ = ["Refusal", "said"]
