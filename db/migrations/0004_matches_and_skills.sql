-- Every finished match in detail, OpenSkill ratings (Weng-Lin) per server and variant for
-- players and for pairs, each rated match's rating changes (for charts), and rating gains per
-- month and week (for the period leaderboards). The Elo tables of 0001 (results,
-- result_players, ratings) stay as they are, readable, and are no longer written.

-- One row per finished match. ``seq`` orders matches for a rebuild of the ratings.
CREATE TABLE matches (
    seq           INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL UNIQUE,  -- no foreign key: the history outlives the table
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',  -- JSON, as the table had them
    ending        TEXT    NOT NULL DEFAULT 'played'
                  CHECK (ending IN ('played', 'ended', 'abandoned')),
    winner_team   INTEGER CHECK (winner_team IS NULL OR winner_team IN (0, 1)),
    score0        INTEGER NOT NULL,
    score1        INTEGER NOT NULL,
    deals         INTEGER NOT NULL,
    computers     INTEGER NOT NULL DEFAULT 0,   -- seats a computer played
    rated         INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    started_at    TEXT,
    finished_at   TEXT    NOT NULL,             -- ISO 8601, UTC
    duration      REAL                          -- seconds
);
CREATE INDEX matches_guild ON matches (guild_id, variant, seq);

-- Who sat where, and what they did. ``left``: 1 for a player who left the match.
CREATE TABLE match_players (
    seq           INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id       INTEGER,
    computer      TEXT,
    team          INTEGER NOT NULL CHECK (team IN (0, 1)),
    won           INTEGER NOT NULL CHECK (won IN (0, 1)),
    left_match    INTEGER NOT NULL DEFAULT 0 CHECK (left_match IN (0, 1)),
    taken         INTEGER NOT NULL DEFAULT 0,   -- contracts this seat took
    made          INTEGER NOT NULL DEFAULT 0,   -- of which made
    sweeps        INTEGER NOT NULL DEFAULT 0,   -- capots / valats of this seat's team
    belotes       INTEGER NOT NULL DEFAULT 0,   -- belotes this seat announced
    PRIMARY KEY (seq, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_user ON match_players (user_id, seq) WHERE user_id IS NOT NULL;

-- The score of each deal: JSON list of {"contract", "taker", "made", "sweep", "score": [a, b]}.
CREATE TABLE match_deals (
    seq           INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
    sheet         TEXT    NOT NULL
);

-- Current ratings. kind 0: a player (partner_id 0); kind 1: a pair (user_id < partner_id).
-- ``score``: the shown, conservative rating (game.rating.shown), kept for the board's order.
CREATE TABLE skills (
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    kind          INTEGER NOT NULL CHECK (kind IN (0, 1)),
    user_id       INTEGER NOT NULL,
    partner_id    INTEGER NOT NULL DEFAULT 0,
    mu            REAL    NOT NULL,
    sigma         REAL    NOT NULL,
    score         REAL    NOT NULL,
    matches       INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, variant, kind, user_id, partner_id)
) WITHOUT ROWID;
CREATE INDEX skills_board ON skills (guild_id, variant, score DESC, user_id) WHERE kind = 0;
-- The pairs board lists pairs with at least 5 rated matches together (db/results.PAIR_MIN):
-- with people pairing at random there are as many pairs as pairs of people.
CREATE INDEX skills_pairs_board ON skills (guild_id, variant, score DESC, user_id, partner_id)
    WHERE kind = 1 AND matches >= 5;
CREATE INDEX skills_partner ON skills (guild_id, variant, partner_id) WHERE kind = 1;
-- A person's best pair on the board, as either member.
CREATE INDEX skills_pair_user ON skills (guild_id, variant, user_id, score DESC)
    WHERE kind = 1 AND matches >= 5;
CREATE INDEX skills_pair_partner ON skills (guild_id, variant, partner_id, score DESC)
    WHERE kind = 1 AND matches >= 5;

-- A player's rating after each rated match, for the charts.
CREATE TABLE skill_history (
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    kind          INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    partner_id    INTEGER NOT NULL DEFAULT 0,
    seq           INTEGER NOT NULL,
    mu            REAL    NOT NULL,
    sigma         REAL    NOT NULL,
    score         REAL    NOT NULL,
    before        REAL    NOT NULL,               -- the shown rating before the match
    PRIMARY KEY (guild_id, variant, kind, user_id, partner_id, seq)
) WITHOUT ROWID;

-- Shown rating gained per month ('2026-11') and ISO week ('2026-W47'), with matches and wins.
CREATE TABLE period_skills (
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    kind          INTEGER NOT NULL,
    period        TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    partner_id    INTEGER NOT NULL DEFAULT 0,
    gain          REAL    NOT NULL DEFAULT 0,
    matches       INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, variant, kind, period, user_id, partner_id)
) WITHOUT ROWID;
CREATE INDEX period_board ON period_skills (guild_id, variant, kind, period, gain DESC, user_id);

-- The Elo era's matches, carried over (their deals' details were not kept): a rebuild
-- (`belote-bot rebuild-ratings`) rates them again with OpenSkill, in order.
INSERT INTO matches (table_id, guild_id, variant, options, ending, winner_team, score0, score1,
                     deals, computers, rated, started_at, finished_at, duration)
SELECT r.table_id, r.guild_id, r.variant, COALESCE(t.options, '{}'), 'played', r.winner_team,
       r.score0, r.score1, r.deals,
       (SELECT COUNT(*) FROM result_players p WHERE p.table_id = r.table_id
          AND p.user_id IS NULL),
       (SELECT COUNT(*) = 0 FROM result_players p WHERE p.table_id = r.table_id
          AND p.user_id IS NULL),
       t.created_at, r.finished_at, NULL
FROM results r LEFT JOIN tables t ON t.id = r.table_id
ORDER BY r.finished_at, r.table_id;

INSERT INTO match_players (seq, seat, user_id, computer, team, won)
SELECT m.seq, p.seat, p.user_id, p.computer, p.team, p.won
FROM result_players p JOIN matches m ON m.table_id = p.table_id;

-- Until a rebuild, each player keeps a strength from their Elo: 200 Elo points (a 76% chance)
-- are one beta (25/6) of OpenSkill, i.e. 48 Elo points per mu, with a newcomer's uncertainty.
INSERT INTO skills (guild_id, variant, kind, user_id, partner_id, mu, sigma, score, matches,
                    wins)
SELECT guild_id, variant, 0, user_id, 0, 25.0 + (rating - 1500.0) / 48.0, 25.0 / 3.0,
       1000.0 + 40.0 * ((rating - 1500.0) / 48.0), matches, wins
FROM ratings;
