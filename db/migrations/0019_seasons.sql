-- Seasons (issue 45). A season is a week (ISO), a month or a quarter, UTC; its board is the
-- rating gained in it, read from period_skills under the season's period key ('2026-W47',
-- '2026-11', '2026-Q4'). Quarters are new keys: filled here from the months already there (a
-- quarter's gain is its three months' gains); new matches write them (db/results.py).
INSERT INTO period_skills (guild_id, variant, kind, period, user_id, partner_id, gain, matches,
                           wins)
SELECT guild_id, variant, kind,
       substr(period, 1, 5) || 'Q' || CAST((CAST(substr(period, 6, 2) AS INTEGER) + 2) / 3
                                           AS TEXT),
       user_id, partner_id, SUM(gain), SUM(matches), SUM(wins)
FROM period_skills WHERE period NOT LIKE '%W%'
GROUP BY guild_id, variant, kind, substr(period, 1, 5) || 'Q' || CAST(
         (CAST(substr(period, 6, 2) AS INTEGER) + 2) / 3 AS TEXT), user_id, partner_id;

-- Each server's seasons, numbered from 1. The running one has no ``ended_at``; a season
-- ended keeps its podium (season_podiums) and ``posted`` says whether its post was sent (a
-- restart posts the ones not sent, once).
CREATE TABLE seasons (
    guild_id      INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    length        TEXT    NOT NULL CHECK (length IN ('week', 'month', 'quarter')),
    period        TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,
    ended_at      TEXT,
    posted        INTEGER NOT NULL DEFAULT 0 CHECK (posted IN (0, 1)),
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;

-- The three first players of each variant played in an ended season.
CREATE TABLE season_podiums (
    guild_id      INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    place         INTEGER NOT NULL CHECK (place BETWEEN 1 AND 3),
    user_id       INTEGER NOT NULL,
    gain          REAL    NOT NULL,
    matches       INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    PRIMARY KEY (guild_id, number, variant, place)
) WITHOUT ROWID;
