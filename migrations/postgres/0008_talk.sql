-- Table talk (issue 21; docs/web.md, "Table talk"): what seats say to the table (`say`) or to
-- one seat (`tell`). Kept outside the game's hash chain, in a table of its own: talk changes
-- nothing in the game, and a log that is evidence of the play is not a chat log. A message sits
-- after the event `after_seq` (the game's last event when it was said); the complete export
-- after the end carries it, marked as talk.
CREATE TABLE talk (
    game_id     text NOT NULL,
    id          bigint GENERATED ALWAYS AS IDENTITY,
    after_seq   bigint NOT NULL,
    from_seat   text NOT NULL,
    -- NULL: said to the whole table.
    to_seat     text,
    body        text NOT NULL,
    recorded_at text NOT NULL,
    PRIMARY KEY (game_id, id)
);
