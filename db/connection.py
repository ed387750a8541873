"""The database a process uses: SQLite (the default, db/sqlite.py) or PostgreSQL
(db/postgres.py), behind one interface, with its repositories (``db.credits``...).

Repositories see only :class:`~db.queries.Queries` and :class:`~db.queries.Transaction`
(db/queries.py), and write SQLite's SQL with ``?`` placeholders. The SQLite implementation runs
it as it is; the PostgreSQL one rewrites the few SQLite idioms the repositories use
(db/dialect.py says which) before running it.

:meth:`Database.open` picks the implementation from what it is given: a path, ``:memory:`` or
``sqlite:///path`` opens SQLite; ``postgresql://...`` opens PostgreSQL.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

from .analyses import AnalysisRepo
from .audit import AuditRepo
from .challenge import ChallengeRepo
from .credits import CreditsRepo
from .guild_settings import GuildSettingsRepo
from .guilds import GuildRepo
from .log import ActionLog
from .queries import Queries, Row, Transaction
from .readers import MemberLanguagesRepo
from .results import ResultRepo
from .seasons import SeasonRepo
from .tables import TableRepo
from .tournaments import TournamentRepo
from .web_tokens import WebTokenRepo

__all__ = ["Database", "Row", "Transaction", "is_postgres_url", "redact", "sqlite_path",
           "url_passwords"]

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str | Path) -> str:
    """The file a SQLite target names: a path, ``:memory:`` or ``sqlite:///path``."""
    text = str(target)
    if text.startswith(SQLITE_PREFIX):
        text = text[len(SQLITE_PREFIX):] or ":memory:"
    elif "://" in text:
        raise ValueError(f"not a database URL this bot knows: {redact(text)!r} (use "
                         "sqlite:///path or postgresql://user@host/database)")
    return text


# The forms a database password takes in text (issue 48): a URL's userinfo
# (``scheme://user:pass@host``; greedy up to the last ``@`` before a ``/`` or a space, as a raw
# ``@`` in a password is common), and ``password=`` (also ``sslpassword=``, ``PGPASSWORD=``...)
# as a URL query parameter or a libpq ``key=value`` connection string, quoted or not.
_USERINFO = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*):[^\s/]*@")
_PASSWORD_KEY = re.compile(r"(?i)(\w*password\s*=\s*)(?:'(?:\\.|[^'\\])*'|[^\s&#;]*)")


def redact(text: str) -> str:
    """``text`` (a database URL, a libpq connection string, a log line) without any database
    password in it, fit for a log line: each password becomes ``***``."""
    text = _USERINFO.sub(r"\1:***@", text)
    return _PASSWORD_KEY.sub(r"\1***", text)


def url_passwords(url: str) -> list[str]:
    """The passwords a database URL holds (userinfo, ``password=`` in its query), as written and
    percent-decoded: what a log filter must scrub wherever it appears, even out of its URL."""
    found: list[str] = []
    parts = urlsplit(url)
    if parts.password:
        found.append(parts.password)
    for pair in parts.query.split("&"):
        key, _, value = pair.partition("=")
        if key.lower().endswith("password") and value:
            found.append(value)
    found += [unquote(p) for p in found]
    # A password of one or two characters would scrub unrelated text: the patterns above
    # still catch it where it is written as a password.
    return sorted({p for p in found if len(p) > 2}, key=len, reverse=True)


class Database(Queries):
    """The process's database. Open with :meth:`open`; repositories hang off it."""

    # The repositories, one per concern, every one reached the same way: ``db.credits``.
    # They keep no state of their own (the database is the state), so one of each is enough.
    tables: TableRepo
    log: ActionLog
    results: ResultRepo
    guilds: GuildRepo
    settings: GuildSettingsRepo
    languages: MemberLanguagesRepo
    audit: AuditRepo
    credits: CreditsRepo
    tournaments: TournamentRepo
    seasons: SeasonRepo
    challenge: ChallengeRepo
    web_tokens: WebTokenRepo
    analyses: AnalysisRepo

    def _repositories(self) -> None:
        self.tables = TableRepo(self)
        self.log = ActionLog(self)
        self.results = ResultRepo(self)
        self.guilds = GuildRepo(self)
        self.settings = GuildSettingsRepo(self)
        self.languages = MemberLanguagesRepo(self)
        self.audit = AuditRepo(self)
        self.credits = CreditsRepo(self)
        self.tournaments = TournamentRepo(self)
        self.seasons = SeasonRepo(self)
        self.challenge = ChallengeRepo(self)
        self.web_tokens = WebTokenRepo(self)
        self.analyses = AnalysisRepo(self)

    # The backends, each a subclass that says which targets it opens (``opens``); they
    # register themselves as they are defined (db/__init__.py imports both), so that this
    # module names neither.
    _backends: ClassVar[list[type[Database]]] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "connect" in cls.__dict__:
            Database._backends.append(cls)

    @classmethod
    def opens(cls, target: str | Path) -> bool:
        """Whether this backend opens ``target`` (a path, ``:memory:`` or a URL)."""
        return False

    @classmethod
    async def connect(cls, target: str) -> Database:
        """Open and migrate ``target``, which :meth:`opens` accepted."""
        raise NotImplementedError

    @staticmethod
    async def open(target: str | Path) -> Database:
        """Open (creating if need be) and migrate the database ``target`` names (a path is
        always a SQLite file)."""
        for backend in Database._backends:
            if backend.opens(target):
                return await backend.connect(str(target))
        raise ValueError(f"not a database URL this bot knows: {redact(str(target))!r} (use "
                         "sqlite:///path or postgresql://user@host/database)")

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def reset_sequences(self) -> None:
        """After rows were copied in with their ids (db/transfer.py): new rows get ids above
        them."""
