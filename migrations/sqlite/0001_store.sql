-- The store of Despatch on SQLite, the embedded default: the same tables as on PostgreSQL
-- (see migrations/postgres), with SQLite's types. Timestamps are RFC 3339 UTC text; JSON is
-- text, kept byte for byte.

CREATE TABLE games (
    game_id    TEXT PRIMARY KEY NOT NULL,
    ruleset    TEXT NOT NULL,
    scenario   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    next_seq   INTEGER NOT NULL CHECK (next_seq >= 0),
    ended      INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games (game_id),
    seat       TEXT NOT NULL,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    email      TEXT,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, token_hash)
);

CREATE TABLE events (
    game_id   TEXT NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    kind      TEXT NOT NULL,
    seat      TEXT NOT NULL,
    hash      TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE secrets (
    game_id TEXT NOT NULL,
    name    TEXT NOT NULL,
    seat    TEXT,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, name)
) WITHOUT ROWID;

CREATE TABLE idempotency (
    game_id    TEXT NOT NULL,
    seat       TEXT NOT NULL,
    key        TEXT NOT NULL,
    response   TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seat, key)
) WITHOUT ROWID;

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    channel         TEXT NOT NULL,
    seat            TEXT,
    payload         TEXT NOT NULL,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    sent_at         TEXT,
    last_error      TEXT
);

CREATE INDEX outbox_game ON outbox (game_id, id);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
