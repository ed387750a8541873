-- PostgreSQL's 0002 (db/migrations/0002_turn_timers_levels_choices.sql): turn timers, the
-- computer level of a table, seats taken over for running out of time, choices ahead of cards.

ALTER TABLE tables ADD COLUMN turn_timer BIGINT CHECK (turn_timer IS NULL OR turn_timer > 0);
ALTER TABLE tables ADD COLUMN computer_level TEXT;

ALTER TABLE seats ADD COLUMN timed_out BIGINT NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1));

CREATE TABLE seat_choices (
    table_id      BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat          BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    deal          BIGINT  NOT NULL CHECK (deal >= 1),
    declare       TEXT,
    belote        BIGINT  NOT NULL DEFAULT 1 CHECK (belote IN (0, 1)),
    PRIMARY KEY (table_id, seat)
)
