-- The pairs board read from its index alone (index-only scans): as SQLite's 0010, the index
-- carries the columns the page shows and its condition names.
DROP INDEX skills_pairs_board;
CREATE INDEX skills_pairs_page ON skills (guild_id, variant, score DESC, user_id, partner_id)
    INCLUDE (matches, wins) WHERE kind = 1 AND matches >= 5;
