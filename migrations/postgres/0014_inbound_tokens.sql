-- The tokens of signed inbound posts already delivered (Mailgun's route: src/http/inbound.rs).
-- Mailgun signs only a timestamp and a random token, not the message, so a captured signature
-- would carry any other message while its timestamp is accepted; a token is therefore taken
-- once, by the first post that carries it, in the database so that every server process on it
-- sees the same tokens. `used_at` (Unix seconds) lets the rows be forgotten once no timestamp
-- that could carry them is accepted any more (a few minutes). Not a game's: no game_id (a Citus
-- deployment keeps it on the coordinator, as the login tables).
CREATE TABLE inbound_tokens (
    token   text PRIMARY KEY,
    used_at bigint NOT NULL
);
CREATE INDEX inbound_tokens_used_at ON inbound_tokens (used_at);
