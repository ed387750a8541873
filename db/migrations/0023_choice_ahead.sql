-- Choose ahead (issue 46): the action a person chose ahead of their turn (an action code,
-- bot/controls/codes.py: "play.JH" or "pass"; NULL: none) and how many actions that seat had
-- taken in the deal when they chose it. It is played when their turn comes while the seat's
-- count is still that one; a count that moved on means it was played (or dropped) already.
ALTER TABLE seat_choices ADD COLUMN ahead TEXT;
ALTER TABLE seat_choices ADD COLUMN ahead_at INTEGER NOT NULL DEFAULT 0 CHECK (ahead_at >= 0);
