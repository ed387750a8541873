-- What each of a table's messages last showed, as Discord confirmed it: a digest of the state
-- it shows (bot/delivery.py). At a restart, a message whose digest matches the state now is
-- neither edited nor rendered again. No row: unknown, so the message is shown again.

CREATE TABLE shown (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    slot          INTEGER NOT NULL CHECK (slot BETWEEN -1 AND 3),  -- -1: the table message;
                                                                   -- 0-3: that seat's hand
    digest        TEXT    NOT NULL,
    PRIMARY KEY (table_id, slot)
) WITHOUT ROWID
