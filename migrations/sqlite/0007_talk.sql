-- Table talk: see migrations/postgres/0008_talk.sql.
CREATE TABLE talk (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL,
    after_seq   INTEGER NOT NULL,
    from_seat   TEXT NOT NULL,
    to_seat     TEXT,
    body        TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);

CREATE INDEX talk_game ON talk (game_id, id);
