r"""What a person typed (a display name, a server nickname) shown as itself in a message.

Discord reads a message's content (and an embed's description, fields and title) as markdown:
``**x**``, ``||x||``, ``[x](url)``, ``# x``, ``> x``, and it makes mentions, custom emoji and
timestamps of ``<@123>``, ``<@&456>``, ``<#789>``, ``<:e:1>``, ``<t:0>``. A name put in such
text goes through ``as_text`` first: each ASCII character that begins (or closes) markup there
gets a backslash before it, which Discord's markdown shows as the character alone — its one
escape, the same in every client (``\*`` shows ``*``, ``\<@1>`` shows ``<@1>``, a mention of
nobody). What Discord shows is the name as typed, character for character.

Only text Discord reads as markdown is escaped: button labels, select options, thread names
and the images (rendering/) show text as it is, and keep the name raw. Nobody is ever pinged
by a name: the bot's messages allow no mentions (bot/bot.py), and a notice that pings names
its one member by id (bot/delivery.py).
"""

from __future__ import annotations

from collections.abc import Sequence

# ``\`` the escape itself; ``* _ ~ ` |`` emphasis, strike, code, spoilers; ``< >`` mentions,
# emoji, timestamps, links without preview, and quotes; ``@`` @everyone and @here; ``#``,
# ``-``, ``+`` and ``.`` headings, subtext and lists at a line's start (``1. x``), and the dot
# of a bare invite (discord.gg/x); ``[`` masked links; ``:`` the scheme of a link
# (http://...) and emoji codes.
MARKUP = "\\*_~`|<>@#-+.[:"

_ESCAPES = str.maketrans({c: "\\" + c for c in MARKUP} | {"\n": " ", "\r": " "})


def as_text(text: str) -> str:
    r"""``text`` escaped so that Discord shows it as typed, on one line (a line break becomes
    a space): ``as_text("**x** <@1>") == r"\*\*x\*\* \<\@1\>"``."""
    return text.translate(_ESCAPES)


def names_as_text(names: Sequence[str]) -> list[str]:
    """Each name of a table's seats (``TableView.players``) as text."""
    return [as_text(n) for n in names]
