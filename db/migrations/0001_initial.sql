-- Tables, seats, invites, the append-only action log, results, ratings, guild settings.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,              -- the table's thread; NULL when it lives in the channel
    message_id    INTEGER,              -- the table message (lobby, then the table image)
    host_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL CHECK (variant IN ('classic', 'coinche', 'bulgarian')),
    options       TEXT    NOT NULL,     -- JSON: the game options (game.rules.Options.to_json)
    private       INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'playing', 'finished', 'ended')),
    seed          INTEGER NOT NULL,     -- the decks of every deal follow from it
    first_dealer  INTEGER NOT NULL DEFAULT 0 CHECK (first_dealer BETWEEN 0 AND 3),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at      TEXT
);
CREATE INDEX tables_open ON tables (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_guild ON tables (guild_id, status);

-- A seat is held by a person (user_id), a computer (computer = its level), or both: a computer
-- playing for a person who left, who may come back and reclaim it.
CREATE TABLE seats (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id       INTEGER,
    name          TEXT    NOT NULL,
    computer      TEXT,
    dm_channel_id INTEGER,              -- where the hand message is (NULL: not sent yet)
    dm_message_id INTEGER,
    dm_closed     INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
    PRIMARY KEY (table_id, seat),
    CHECK (user_id IS NOT NULL OR computer IS NOT NULL)
) WITHOUT ROWID;
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE invites (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

-- The game record of docs/game-record.md, one row per step: kind 'deal' holds
-- {"dealer": n, "deck": [...]}, kind 'action' holds {"seat": n, "action": ...}.
CREATE TABLE actions (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    kind          TEXT    NOT NULL CHECK (kind IN ('deal', 'action')),
    payload       TEXT    NOT NULL,
    user_id       INTEGER,              -- who clicked (NULL for computers and deals)
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE results (
    table_id      INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    winner_team   INTEGER NOT NULL CHECK (winner_team IN (0, 1)),
    score0        INTEGER NOT NULL,
    score1        INTEGER NOT NULL,
    deals         INTEGER NOT NULL,
    finished_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE result_players (
    table_id      INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id       INTEGER,
    computer      TEXT,
    team          INTEGER NOT NULL CHECK (team IN (0, 1)),
    won           INTEGER NOT NULL CHECK (won IN (0, 1)),
    rating_before REAL,
    rating_after  REAL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    rating        REAL    NOT NULL,
    matches       INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, variant, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, variant, rating DESC);

CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    settings      TEXT    NOT NULL DEFAULT '{}'   -- JSON
);

-- Small facts about the process, e.g. the hash of the synced command tree.
CREATE TABLE meta (
    key           TEXT PRIMARY KEY,
    value         TEXT NOT NULL
) WITHOUT ROWID;
