-- The tokens of signed inbound posts already delivered: see
-- migrations/postgres/0014_inbound_tokens.sql.
CREATE TABLE inbound_tokens (
    token   TEXT PRIMARY KEY NOT NULL,
    used_at INTEGER NOT NULL
);
CREATE INDEX inbound_tokens_used_at ON inbound_tokens (used_at);
