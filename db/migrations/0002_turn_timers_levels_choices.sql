-- Turn timers and the computer level of a table, seats taken over for running out of time,
-- and each player's choices ahead of their cards (kept across restarts).

-- Seconds a person has to act on their turn; NULL: no timer.
ALTER TABLE tables ADD COLUMN turn_timer INTEGER CHECK (turn_timer IS NULL OR turn_timer > 0);
-- The level of the computers that fill seats or take over; NULL: the bot's COMPUTER_LEVEL.
ALTER TABLE tables ADD COLUMN computer_level TEXT;

-- 1 when the computer standing in for this seat's person took over because they ran out of
-- time (0: they left, or no computer stands in).
ALTER TABLE seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1));

-- What a player chose for their coming cards in one deal: the announcements with their first
-- card (JSON list of card lists; NULL: the best) and whether they announce belote.
CREATE TABLE seat_choices (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    deal          INTEGER NOT NULL CHECK (deal >= 1),
    declare       TEXT,
    belote        INTEGER NOT NULL DEFAULT 1 CHECK (belote IN (0, 1)),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID
