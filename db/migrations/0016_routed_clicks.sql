-- Sharded processes on one PostgreSQL (db/routing.py): a click on a direct message arrives at
-- shard 0's process; when its table lives in another process, the interaction is put here and
-- its owner told with NOTIFY; the owner takes the row (deletes it) and answers the click. Rows
-- live for a second or two. A SQLite database (one process) never fills it; it is here so
-- that both backends keep the same schema and migrate-db moves between them.
CREATE TABLE routed_clicks (
    id            INTEGER PRIMARY KEY,
    shard         INTEGER NOT NULL,
    table_id      INTEGER NOT NULL,
    payload       TEXT    NOT NULL,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
