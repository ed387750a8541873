-- The turn deadline a table message was confirmed to show (bot/delivery.py), with the step of
-- the game it was shown at: a restart keeps that deadline for that very turn when it is still
-- far enough ahead (bot/tables/restore.py), so the message needs no edit. NULL: no deadline.
ALTER TABLE shown ADD COLUMN turn_seq INTEGER;
ALTER TABLE shown ADD COLUMN deadline REAL;
