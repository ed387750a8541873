-- The daily deal (issue 45): each member's one try a day at a day's deals, per board (a
-- server's, or 0: the world's, shared by every server) and variant. ``score``: the points
-- their team made over the deals, NULL until the try is over (then ``finished_at``).
CREATE TABLE challenge_tries (
    scope         BIGINT  NOT NULL,
    day           TEXT    NOT NULL,             -- '2026-12-01', UTC
    variant       TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL,
    guild_id      BIGINT  NOT NULL,             -- where it was played
    table_id      BIGINT,
    score         BIGINT,
    against       BIGINT,                      -- the computers' points
    started_at    TEXT    NOT NULL,
    finished_at   TEXT,
    PRIMARY KEY (scope, day, variant, user_id)
);
CREATE INDEX challenge_tries_table ON challenge_tries (table_id);
CREATE INDEX challenge_tries_user ON challenge_tries (scope, user_id, day);

-- A server's board of a day posted at the day's end (once).
CREATE TABLE challenge_posts (
    guild_id      BIGINT  NOT NULL,
    day           TEXT    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
