-- Routed clicks are signed (db/routing.py): an HMAC of the row's shard, table and payload under
-- a key every process of the bot derives from its token (or CLICK_SECRET), so a row written
-- by anyone without it is never taken for an interaction. Rows queued before this migration
-- have no signature: the owner ignores them, and their sender takes them back after its wait
-- and tells the member the click could not be carried.
ALTER TABLE routed_clicks ADD COLUMN signature TEXT;
