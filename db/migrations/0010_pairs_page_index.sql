-- The pairs board read from its index alone: the index of 0004 (skills_pairs_board) lacked
-- the columns the page shows and its condition names (matches, wins), so counting the board
-- and ranking a pair read every row of the board. This one carries them.
DROP INDEX skills_pairs_board;
CREATE INDEX skills_pairs_page ON skills
    (guild_id, variant, score DESC, user_id, partner_id, matches, wins)
    WHERE kind = 1 AND matches >= 5;
