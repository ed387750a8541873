-- The audit log: every moderator action (a settings change, a table ended by a moderator) and
-- every table the bot closed by itself (an expired lobby, an abandoned game), one row each.
-- Server settings stay in guild_settings (0001): one JSON object per server holding only the
-- values a moderator changed; the defaults live in the code (bot/guild_settings.py).

CREATE TABLE audit_log (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    action        TEXT    NOT NULL,     -- 'config', 'end', 'closed', ...
    actor_id      INTEGER,              -- the moderator; NULL: the bot by itself
    table_id      INTEGER,              -- the table concerned, if any (no foreign key: the
                                        -- record outlives a deleted table)
    details       TEXT    NOT NULL DEFAULT '{}',  -- JSON: what changed, why it closed
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX audit_log_guild ON audit_log (guild_id, id)
