-- PostgreSQL's 0021 (db/migrations/0021_web_tokens.sql): each server's web pages sit under an
-- unguessable token; renewing it replaces the row, so the old links answer 404.
CREATE TABLE web_tokens (
    guild_id   BIGINT  PRIMARY KEY,
    token      TEXT    NOT NULL UNIQUE,
    created_at TEXT    NOT NULL DEFAULT (to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
