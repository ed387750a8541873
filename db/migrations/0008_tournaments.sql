-- Tournaments (game/tournament.py): the tournament, its entrants, its rounds and the tables of
-- each round, linked to the bot's tables. Enough to resume a tournament after a restart: the
-- draws are stored as drawn, each table's winning team once its match ends.

CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                      -- the sign-up message, once posted
    host_id       INTEGER NOT NULL,             -- the moderator who created it
    format        TEXT    NOT NULL CHECK (format IN ('quick', 'classic')),
    variant       TEXT    NOT NULL,
    seed          INTEGER NOT NULL,             -- the draws of every round come from it
    stage         TEXT    NOT NULL DEFAULT 'sign_up'
                  CHECK (stage IN ('sign_up', 'running', 'finished', 'cancelled')),
    starts_at     TEXT,                         -- ISO 8601, UTC; NULL: starts when full
    entry_fee     INTEGER NOT NULL DEFAULT 0 CHECK (entry_fee >= 0),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at      TEXT
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, stage);

-- ``status``: 'in' (signed up, playing), 'left' (left at sign-up: no place, cannot join
-- again), 'computer' (left or did not come once it started: a computer plays on for them).
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    position      INTEGER NOT NULL,             -- sign-up order
    status        TEXT    NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'left', 'computer')),
    joined_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    started_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, round)
);

-- One row per table of a round: the entrants drawn into seats 0-3 (0+2 against 1+3), the
-- bot's table once created (no foreign key, as matches: the record outlives the table), its
-- thread, and the winning team once the match ends.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    seat0         INTEGER NOT NULL,
    seat1         INTEGER NOT NULL,
    seat2         INTEGER NOT NULL,
    seat3         INTEGER NOT NULL,
    table_id      INTEGER UNIQUE,
    thread_id     INTEGER,
    winner_team   INTEGER CHECK (winner_team IS NULL OR winner_team IN (0, 1)),
    PRIMARY KEY (tournament_id, round, position),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
        ON DELETE CASCADE
)
