-- The double-dummy analysis of finished matches (issue 42; bot/analysis.py runs it).
-- One row per match asked for: where its analysis stands. ``state``: 'queued' (waiting its
-- turn), 'running' (``done`` of ``deals`` finished deals analysed and stored), 'done', or
-- 'failed' (``error`` says why; asking again queues it anew). ``starts``: how many times a
-- run of it began, so that a restart resumes what was running once, not forever.
CREATE TABLE match_analyses (
    table_id      INTEGER PRIMARY KEY,          -- the match (matches.table_id)
    guild_id      INTEGER NOT NULL,
    state         TEXT    NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'running', 'done', 'failed')),
    deals         INTEGER NOT NULL DEFAULT 0 CHECK (deals >= 0),
    done          INTEGER NOT NULL DEFAULT 0 CHECK (done >= 0),
    starts        INTEGER NOT NULL DEFAULT 0 CHECK (starts >= 0),
    error         TEXT,
    asked_at      TEXT    NOT NULL,             -- ISO 8601, UTC: the queue's order
    finished_at   TEXT
) WITHOUT ROWID;
CREATE INDEX match_analyses_state ON match_analyses (state, asked_at);

-- Each deal's analysis as `belote analyse` prints it (docs/game-record.md), JSON.
CREATE TABLE deal_analyses (
    table_id      INTEGER NOT NULL,
    deal          INTEGER NOT NULL CHECK (deal >= 0),
    analysis      TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal)
) WITHOUT ROWID;

-- What each player's chosen cards cost over the match, written with its 'done': ``user_id``
-- 0 for a computer's choices. ``cards``: their cards that had an alternative (forced cards,
-- and cards played for them, are not counted), ``exact``: those that cost nothing,
-- ``cost``/``cost_points``: the sums of what the others cost (deal's score, card points).
CREATE TABLE analysis_players (
    table_id      INTEGER NOT NULL,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id       INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    cards         INTEGER NOT NULL CHECK (cards >= 0),
    exact         INTEGER NOT NULL CHECK (exact >= 0),
    cost          INTEGER NOT NULL CHECK (cost >= 0),
    cost_points   INTEGER NOT NULL CHECK (cost_points >= 0),
    PRIMARY KEY (table_id, seat, user_id)
) WITHOUT ROWID;
CREATE INDEX analysis_players_user ON analysis_players (guild_id, user_id, variant);
