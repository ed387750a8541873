"""Every control (button or select) of the bot, one class each: its custom_id template, the
typed fields read from it, who may press it and what a press does.

- :mod:`bot.controls.base`: the custom_id format, the shared machinery, and the one place
  refusals and errors of a press are answered.
- :mod:`bot.controls.lobby`: the table message's controls (sit, add a computer, start, leave,
  rules, take my seat back).
- :mod:`bot.controls.play`: a player's controls (bid, play, My hand, announcements, belote).
- :mod:`bot.controls.tournament`: a tournament's (join, leave).
- :mod:`bot.controls.pages`: the stats commands' page buttons (a board's pages, a replay's
  deals, a history's "open").
- :mod:`bot.controls.analysis`: a replay's Analysis button (its page, the analysis's progress).

Their labels are words of the catalogue (``controls.*`` in messages.po); bot/messages.py lays
them out on the messages.
"""

from __future__ import annotations

from typing import Any

import discord

from .base import (
    UNKNOWN_CONTROL,
    BadControl,
    ButtonControl,
    Look,
    SelectControl,
    button_id,
    let_go,
    select_id,
    unknown_control,
)
from .codes import decode_action, encode_action
from .lobby import (
    LOBBY_CONTROLS,
    ComputerButton,
    LeaveButton,
    RulesButton,
    SitButton,
    StartButton,
    TakeBackButton,
)
from .pages import PAGE_CONTROLS
from .play import (
    PLAY_CONTROLS,
    ActButton,
    AheadButton,
    AnnounceSelect,
    BeloteButton,
    BidSelect,
    ClaimButton,
    HandButton,
    UnaheadButton,
)
from .tournament import TOURNAMENT_CONTROLS

# isort: split
# Last: its page's words need bot/messages.py, which needs the controls above.
from .analysis import ANALYSIS_CONTROLS, AnalysisButton

# What the bot registers with discord.py (bot/bot.py): a click is answered by the one whose
# template matches its custom_id; cogs/fallback.py answers any other.
CONTROLS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*LOBBY_CONTROLS, *PLAY_CONTROLS,
                                                          *TOURNAMENT_CONTROLS, *PAGE_CONTROLS,
                                                          *ANALYSIS_CONTROLS)


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id is one our controls answer."""
    return any(control.__discord_ui_compiled_template__.fullmatch(custom_id)
               for control in CONTROLS)


__all__ = [
    "CONTROLS",
    "UNKNOWN_CONTROL",
    "ActButton",
    "AheadButton",
    "AnalysisButton",
    "AnnounceSelect",
    "BadControl",
    "BeloteButton",
    "BidSelect",
    "ButtonControl",
    "ClaimButton",
    "ComputerButton",
    "HandButton",
    "LeaveButton",
    "Look",
    "RulesButton",
    "SelectControl",
    "SitButton",
    "StartButton",
    "TakeBackButton",
    "UnaheadButton",
    "button_id",
    "decode_action",
    "encode_action",
    "is_ours",
    "let_go",
    "select_id",
    "unknown_control",
]
