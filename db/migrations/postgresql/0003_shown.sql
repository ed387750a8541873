-- PostgreSQL's 0003 (db/migrations/0003_shown.sql): what each of a table's messages last showed.

CREATE TABLE shown (
    table_id      BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    slot          BIGINT  NOT NULL CHECK (slot BETWEEN -1 AND 3),
    digest        TEXT    NOT NULL,
    PRIMARY KEY (table_id, slot)
)
