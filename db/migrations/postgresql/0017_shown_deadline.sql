-- PostgreSQL's 0017 (db/migrations/0017_shown_deadline.sql): the turn deadline a table message
-- was confirmed to show, with the step of the game it was shown at.
ALTER TABLE shown ADD COLUMN turn_seq BIGINT;
ALTER TABLE shown ADD COLUMN deadline DOUBLE PRECISION;
