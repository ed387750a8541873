-- Each server's web pages sit under an unguessable token (bot/web_links.py): renewing it
-- replaces the row, so the old links answer 404. One token per server, one server per token.
CREATE TABLE web_tokens (
    guild_id   INTEGER PRIMARY KEY,
    token      TEXT    NOT NULL UNIQUE,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
