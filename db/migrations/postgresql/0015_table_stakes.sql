-- A table's stake in virtual credits, per player (0: none): each person's stake is taken when
-- the match starts (db/credits.py, in the start's transaction) and the pot paid with the
-- match's result, or every stake returned when the match is abandoned or ended early.
ALTER TABLE tables ADD COLUMN stake BIGINT NOT NULL DEFAULT 0;
