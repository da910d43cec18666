-- The store of Despatch on PostgreSQL: games, seats, the event log, secrets, idempotency keys
-- and the outbox. Every table carries game_id and leads its primary key with it, so the data
-- shards by game (Citus distributes on game_id). JSON is kept as text, never jsonb: jsonb
-- rewrites JSON (key order, duplicates) and events must come back as the bytes that were hashed.

CREATE TABLE games (
    game_id    text PRIMARY KEY,
    ruleset    text NOT NULL,
    scenario   text NOT NULL,
    created_at text NOT NULL,
    -- The seq the next event will have; an append moves it on only from the seq it expected.
    next_seq   bigint NOT NULL CHECK (next_seq >= 0),
    ended      boolean NOT NULL DEFAULT false
);

CREATE TABLE seats (
    game_id    text NOT NULL REFERENCES games (game_id),
    seat       text NOT NULL,
    -- The seat's place in the list the game was created with.
    position   integer NOT NULL,
    name       text NOT NULL,
    email      text,
    -- SHA-256 hex of the seat's token; the token itself is never stored.
    token_hash text NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, token_hash)
);

-- Events, secrets, outbox and idempotency rows carry no foreign key to games: they are written
-- only by the statement that has just moved the game's next_seq on, so the game exists, and the
-- append stays cheap on the hot path.
CREATE TABLE events (
    game_id   text NOT NULL,
    seq       bigint NOT NULL CHECK (seq >= 0),
    kind      text NOT NULL,
    seat      text NOT NULL,
    hash      text NOT NULL,
    prev_hash text NOT NULL,
    -- The event exactly as serialised when it was hashed.
    body      text NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE secrets (
    game_id text NOT NULL,
    name    text NOT NULL,
    seat    text,
    value   text NOT NULL,
    PRIMARY KEY (game_id, name)
);

CREATE TABLE idempotency (
    game_id    text NOT NULL,
    seat       text NOT NULL,
    key        text NOT NULL,
    response   text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, key)
);

CREATE TABLE outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY,
    game_id         text NOT NULL,
    seq             bigint NOT NULL,
    channel         text NOT NULL,
    seat            text,
    payload         text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- Delivery bookkeeping for the dispatcher (retries with backoff, SKIP LOCKED).
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    last_error      text,
    PRIMARY KEY (game_id, id)
);

-- What the dispatcher scans: unsent rows by due time.
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
