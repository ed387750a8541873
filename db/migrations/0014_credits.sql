-- Virtual credits (no money value; they cannot be bought). Kept like money: an append-only
-- ledger where every movement of a member's balance in a server says why and, when it has
-- one, for which table or tournament; the balance after it is stored with it. ``key`` makes a
-- movement happen once: a payout retried after a crash finds its key and moves nothing.
CREATE TABLE credit_ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount <> 0),
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    reason        TEXT    NOT NULL,
    table_id      INTEGER,
    tournament_id INTEGER,
    key           TEXT    NOT NULL,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, key)
);
CREATE INDEX credit_ledger_member ON credit_ledger (guild_id, user_id, id);

-- Each member's balance, written in the same transaction as its ledger row; it never goes
-- below zero.
CREATE TABLE credit_balances (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX credit_balances_board ON credit_balances (guild_id, balance DESC, user_id);
