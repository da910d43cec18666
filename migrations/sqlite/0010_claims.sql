-- A seat claimed by an email address, confirmed by that address: see
-- migrations/postgres/0011_claims.sql.
CREATE TABLE claim_tokens (
    game_id    TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    seat       TEXT NOT NULL,
    email      TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,
    PRIMARY KEY (game_id, token_hash)
);
