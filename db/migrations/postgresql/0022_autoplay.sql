-- PostgreSQL's 0022 (db/migrations/0022_autoplay.sql).
-- Forced cards (issue 46): whether the bot plays a person's only legal card for them after a
-- short beat. NULL: on (a table opened before this migration plays them too); 0: off.
ALTER TABLE tables ADD COLUMN autoplay BIGINT CHECK (autoplay IS NULL OR autoplay IN (0, 1));
