-- Snapshots of folded games (src/engine/snapshot.rs): a cold load restores the latest and folds
-- only the events after it. An optimisation only: the events stay the truth, verify and exports
-- never read this table, and a snapshot that does not match the log is ignored. `seq` is the
-- game's next_seq when it was taken (events 0..seq are folded in); `event_hash` is the hash of
-- event seq - 1. Only the latest snapshot of a game is kept.
CREATE TABLE snapshots (
    game_id       text NOT NULL,
    seq           bigint NOT NULL CHECK (seq > 0),
    event_hash    text NOT NULL,
    ruleset       text NOT NULL,
    rules_version text NOT NULL,
    state_hash    text NOT NULL,
    body          text NOT NULL,
    PRIMARY KEY (game_id, seq)
);
