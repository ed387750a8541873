-- PostgreSQL's 0024 (db/migrations/0024_match_analyses.sql).
-- The double-dummy analysis of finished matches (issue 42; bot/analysis.py runs it).
-- One row per match asked for: where its analysis stands. ``state``: 'queued' (waiting its
-- turn), 'running' (``done`` of ``deals`` finished deals analysed and stored), 'done', or
-- 'failed' (``error`` says why; asking again queues it anew). ``starts``: how many times a
-- run of it began, so that a restart resumes what was running once, not forever.
CREATE TABLE match_analyses (
    table_id      BIGINT  PRIMARY KEY,          -- the match (matches.table_id)
    guild_id      BIGINT  NOT NULL,
    state         TEXT    NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'running', 'done', 'failed')),
    deals         BIGINT  NOT NULL DEFAULT 0 CHECK (deals >= 0),
    done          BIGINT  NOT NULL DEFAULT 0 CHECK (done >= 0),
    starts        BIGINT  NOT NULL DEFAULT 0 CHECK (starts >= 0),
    error         TEXT,
    asked_at      TEXT    NOT NULL,             -- ISO 8601, UTC: the queue's order
    finished_at   TEXT
);
CREATE INDEX match_analyses_state ON match_analyses (state, asked_at);

-- Each deal's analysis as `belote analyse` prints it (docs/game-record.md), JSON.
CREATE TABLE deal_analyses (
    table_id      BIGINT  NOT NULL,
    deal          BIGINT  NOT NULL CHECK (deal >= 0),
    analysis      TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal)
);

-- What each player's chosen cards cost over the match, written with its 'done': ``user_id``
-- 0 for a computer's choices. ``cards``: their cards that had an alternative (forced cards,
-- and cards played for them, are not counted), ``exact``: those that cost nothing,
-- ``cost``/``cost_points``: the sums of what the others cost (deal's score, card points).
CREATE TABLE analysis_players (
    table_id      BIGINT  NOT NULL,
    seat          BIGINT  NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id       BIGINT  NOT NULL,
    guild_id      BIGINT  NOT NULL,
    variant       TEXT    NOT NULL,
    cards         BIGINT  NOT NULL CHECK (cards >= 0),
    exact         BIGINT  NOT NULL CHECK (exact >= 0),
    cost          BIGINT  NOT NULL CHECK (cost >= 0),
    cost_points   BIGINT  NOT NULL CHECK (cost_points >= 0),
    PRIMARY KEY (table_id, seat, user_id)
);
CREATE INDEX analysis_players_user ON analysis_players (guild_id, user_id, variant);
