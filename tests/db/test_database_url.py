"""DATABASE_URL picks the backend: unset or sqlite:///path, the SQLite file; postgresql://...,
PostgreSQL. Its password never shows in a log line or a repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError
from db.connection import redact, sqlite_path

URL = "postgresql://belote:s3cret@db.example:5432/belote"


def test_unset_means_the_sqlite_file(tmp_path: Path) -> None:
    s = Settings.from_env({"DATABASE_PATH": str(tmp_path / "b.sqlite3")}, None)
    assert s.database_url is None and s.database == str(tmp_path / "b.sqlite3")


def test_a_sqlite_url_names_the_file(tmp_path: Path) -> None:
    s = Settings.from_env({"DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite3"}, None)
    assert s.database_url is None and s.database == str(tmp_path / "x.sqlite3")
    assert sqlite_path(f"sqlite:///{tmp_path}/x.sqlite3") == f"{tmp_path}/x.sqlite3"


def test_a_postgresql_url_is_used_and_its_password_never_shown() -> None:
    s = Settings.from_env({"DATABASE_URL": URL, "DATABASE_PATH": "/ignored.sqlite3"}, None)
    assert s.database == URL
    assert "s3cret" not in repr(s) and "s3cret" not in s.database_shown
    assert s.database_shown == "postgresql://belote:***@db.example:5432/belote"
    assert redact(URL) == s.database_shown


def test_another_scheme_is_refused_with_the_forms_it_takes() -> None:
    with pytest.raises(SettingsError, match="postgresql://"):
        Settings.from_env({"DATABASE_URL": "mysql://x@y/z"}, None)


@pytest.mark.parametrize(("written", "shown"), [
    ("postgresql://belote:s3cret@db.example:5432/belote",
     "postgresql://belote:***@db.example:5432/belote"),
    ("postgresql://belote@db.example/belote?password=s3cret&sslmode=require",
     "postgresql://belote@db.example/belote?password=***&sslmode=require"),
    ("postgres://db.example/belote?user=belote&PASSWORD=s3cret",
     "postgres://db.example/belote?user=belote&PASSWORD=***"),
    ("postgresql://belote:p@ss:w0rd@db.example/belote",
     "postgresql://belote:***@db.example/belote"),
    ("host=db.example user=belote password=s3cret dbname=belote",
     "host=db.example user=belote password=*** dbname=belote"),
    ("host=db.example password = 'it\\'s s3cret' dbname=belote",
     "host=db.example password = *** dbname=belote"),
    ("postgresql://belote@db.example/belote?sslpassword=s3cret",
     "postgresql://belote@db.example/belote?sslpassword=***"),
    ("postgresql://belote@db.example:5432/belote", "postgresql://belote@db.example:5432/belote"),
])
def test_every_form_of_a_database_password_is_redacted(written: str, shown: str) -> None:
    assert redact(written) == shown
    if written.startswith("postgres"):
        s = Settings.from_env({"DATABASE_URL": written}, None)
        assert s.database_shown == shown and "s3cret" not in repr(s)
