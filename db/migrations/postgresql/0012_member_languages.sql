-- The language of each member's Discord client, as their last interaction said (when the bot
-- speaks it): what the bot sends one member unasked (their DM hand) is written in it, and a
-- restart must not turn a French player's hand into the table's language until they click.
CREATE TABLE member_languages (
    user_id       BIGINT  PRIMARY KEY,
    language      TEXT    NOT NULL
);
