-- The processes that seal secrets at rest (serve, dispatch, mail-in, new-game), so that
-- `despatch rotate-key` can tell whether every live one can read the new key (issue 35;
-- docs/operations.md, "Rotating the key"). Each process writes its row at start, refreshes
-- `heartbeat_at` every 10 s and deletes the row when it stops; a row not refreshed for 30 s is
-- a process that is gone. Times are Unix seconds by the database's clock.
CREATE TABLE processes (
    process_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    host TEXT NOT NULL,
    pid BIGINT NOT NULL,
    -- The id of the key it seals with, and of every key it opens (comma-separated, the primary
    -- first): public ids (`store::sealing::key_id`), never the keys.
    primary_key_id TEXT NOT NULL,
    key_ids TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
