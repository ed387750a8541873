"""Backups of the live database with SQLite's online backup API.

The bot keeps its database in WAL mode: recent commits live in the ``-wal`` file until a
checkpoint, so copying the main file alone gives a stale or torn database. The backup API reads
a consistent snapshot through SQLite itself, while the bot keeps running and writing.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

PAGES_PER_STEP = 1024  # copy in steps so a running bot's writers are never held up for long


class BackupError(Exception):
    """Why a backup was not made; nothing was written."""


def backup_database(source: str | Path, target: str | Path) -> int:
    """Copy the database at ``source`` to the new file ``target``; returns its size in bytes.

    The copy is a single self-contained file (rollback journal, no ``-wal`` beside it), written
    under a temporary name and renamed at the end, so ``target`` is never half a database.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.exists():
        raise BackupError(f"{target} already exists: give a new file name")
    if not target.parent.is_dir():
        raise BackupError(f"no directory {target.parent}")
    partial = target.with_name(target.name + ".partial")
    # mode=rw: a missing or mistyped file is an error, never a new empty database.
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=PAGES_PER_STEP)
            dst.execute("PRAGMA journal_mode=DELETE")
            if dst.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError("the copy failed its integrity check")
        finally:
            dst.close()
    except sqlite3.Error as e:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source}: {e}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, target)
    return target.stat().st_size
