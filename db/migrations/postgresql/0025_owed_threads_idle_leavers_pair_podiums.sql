-- PostgreSQL's 0025 (db/migrations/0025_owed_threads_idle_leavers_pair_podiums.sql).
-- Three things a table's end leaves behind (issues 45 and 48).
--
-- The threads owed an archive and lock: a table over whose thread is not archived and locked
-- yet. Written in the transaction that ends the table, deleted once Discord archived the
-- thread (or it is gone), so a bot stopped or crashed between the two, or Discord out then,
-- archives it at its next start. Tables that ended in the last day before this migration, with
-- a thread, are owed too: the version before archived a thread only from the process that
-- closed its table. A thread idle for a day is archived by Discord (auto_archive_duration
-- 1440), so older ones are not open any more.
CREATE TABLE threads_owed (
    table_id      BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    guild_id      BIGINT  NOT NULL,
    thread_id     BIGINT  NOT NULL
);
INSERT INTO threads_owed (table_id, guild_id, thread_id)
SELECT id, guild_id, thread_id FROM tables
WHERE status IN ('finished', 'ended') AND thread_id IS NOT NULL
  AND ended_at >= to_char(clock_timestamp() AT TIME ZONE 'UTC' - INTERVAL '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

-- The rating rules a match was recorded under. 1: before this migration, when an abandoned
-- match moved nobody; 2: since, when its leavers (its idle players among them) each lose it
-- alone. A ratings rebuild follows each match's own rules, so it gives the matches recorded
-- before the numbers they had.
ALTER TABLE matches ADD COLUMN rating_rules BIGINT  NOT NULL DEFAULT 1 CHECK (rating_rules >= 1);

-- The three first pairs of each variant played in an ended season (season_podiums holds the
-- players'), the pair as (lower user id, higher). Filled here for the seasons ended already,
-- from the season gains, as a ratings rebuild fills it.
CREATE TABLE season_pair_podiums (
    guild_id      BIGINT  NOT NULL,
    number        BIGINT  NOT NULL,
    variant       TEXT    NOT NULL,
    place         BIGINT  NOT NULL CHECK (place BETWEEN 1 AND 3),
    user_id       BIGINT  NOT NULL,
    partner_id    BIGINT  NOT NULL,
    gain          DOUBLE PRECISION NOT NULL,
    matches       BIGINT  NOT NULL,
    wins          BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, number, variant, place)
);
INSERT INTO season_pair_podiums (guild_id, number, variant, place, user_id, partner_id, gain,
                                 matches, wins)
SELECT guild_id, number, variant, place, user_id, partner_id, gain, matches, wins FROM (
    SELECT s.guild_id AS guild_id, s.number AS number, p.variant AS variant,
           ROW_NUMBER() OVER (PARTITION BY s.guild_id, s.number, p.variant
                              ORDER BY p.gain DESC, p.user_id, p.partner_id) AS place,
           p.user_id AS user_id, p.partner_id AS partner_id, p.gain AS gain,
           p.matches AS matches, p.wins AS wins
    FROM seasons s JOIN period_skills p ON p.guild_id = s.guild_id AND p.period = s.period
    WHERE s.ended_at IS NOT NULL AND p.kind = 1 AND p.matches >= 3) AS ranked
WHERE place <= 3;
