-- Players and their games: see migrations/postgres/0006_players.sql.
ALTER TABLE games ADD COLUMN name TEXT NOT NULL DEFAULT '';

CREATE INDEX seats_email ON seats (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE login_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    email      TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);

CREATE TABLE sessions (
    session_hash TEXT PRIMARY KEY NOT NULL,
    email        TEXT NOT NULL,
    expires_at   INTEGER NOT NULL
);
