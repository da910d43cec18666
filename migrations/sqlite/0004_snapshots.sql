-- Snapshots of folded games: see migrations/postgres/0005_snapshots.sql.
CREATE TABLE snapshots (
    game_id       TEXT NOT NULL,
    seq           INTEGER NOT NULL CHECK (seq > 0),
    event_hash    TEXT NOT NULL,
    ruleset       TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    state_hash    TEXT NOT NULL,
    body          TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
