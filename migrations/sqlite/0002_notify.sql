-- Notifications and time (see migrations/postgres/0002_notify.sql): delivery attempts, webhooks,
-- each seat's channels, each game's clock policy, server keys.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;

CREATE TABLE outbox_attempts (
    game_id     TEXT NOT NULL,
    outbox_id   INTEGER NOT NULL,
    attempt     INTEGER NOT NULL,
    dispatcher  TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    ok          INTEGER NOT NULL,
    error       TEXT,
    PRIMARY KEY (game_id, outbox_id, attempt, dispatcher)
) WITHOUT ROWID;

CREATE TABLE webhooks (
    game_id    TEXT NOT NULL,
    hook_id    TEXT NOT NULL,
    seat       TEXT,
    url        TEXT NOT NULL,
    secret     TEXT NOT NULL,
    format     TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, hook_id)
) WITHOUT ROWID;

CREATE TABLE seat_channels (
    game_id  TEXT NOT NULL,
    seat     TEXT NOT NULL,
    email    INTEGER NOT NULL,
    webhooks INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE clocks (
    game_id TEXT PRIMARY KEY NOT NULL,
    policy  TEXT NOT NULL
);

CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
