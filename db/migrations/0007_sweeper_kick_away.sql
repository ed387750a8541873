-- The sweeper, kicks, leavers and turns away (issue 10): what a table needs to close itself when
-- nobody plays it, to keep a kicked player out, to record who left, and to count the turns a
-- player let run out.

-- When the sweeper closes the table if nothing happens first (Unix seconds): a lobby not
-- started in time, a game without any person's action for too long. NULL: none set yet (a table
-- opened before this migration gets one when the bot next starts).
ALTER TABLE tables ADD COLUMN sweep_at REAL;
-- The server's settings when the table opened (NULL: the defaults): minutes a lobby may wait,
-- minutes a game may go without a person's action, turns run out in a row before a takeover.
ALTER TABLE tables ADD COLUMN lobby_minutes INTEGER CHECK (lobby_minutes IS NULL OR lobby_minutes > 0);
ALTER TABLE tables ADD COLUMN idle_minutes INTEGER CHECK (idle_minutes IS NULL OR idle_minutes > 0);
ALTER TABLE tables ADD COLUMN away_turns INTEGER CHECK (away_turns IS NULL OR away_turns > 0);

-- Why this seat's person no longer plays it: 'left' (they may take it back) or 'kicked' (they
-- may not). NULL: neither. A match they left counts as a loss for them.
ALTER TABLE seats ADD COLUMN departed TEXT CHECK (departed IS NULL OR departed IN ('left', 'kicked'));
-- The turns in a row this seat's person let their timer run out.
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);

-- The people kicked from a table: they may not sit there again.
CREATE TABLE kicked (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
