-- Notifications and time: every delivery attempt, webhooks, each seat's channels, each game's
-- clock policy, and server keys (the key that signs links, shared by every server process).

-- Who holds a claim on an outbox row: a dispatcher's id, for the attempts log and for telling
-- apart two dispatchers racing for the same rows.
ALTER TABLE outbox ADD COLUMN claimed_by text;

-- One row per finished delivery attempt, kept for the record (an attempt cut short by a crash
-- leaves only the claim's attempts count behind).
CREATE TABLE outbox_attempts (
    game_id     text NOT NULL,
    outbox_id   bigint NOT NULL,
    attempt     integer NOT NULL,
    dispatcher  text NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    ok          boolean NOT NULL,
    error       text,
    PRIMARY KEY (game_id, outbox_id, attempt, dispatcher)
);

CREATE TABLE webhooks (
    game_id    text NOT NULL,
    hook_id    text NOT NULL,
    -- NULL: the hook hears about every seat's notices (without their magic links).
    seat       text,
    url        text NOT NULL,
    -- The HMAC key of X-Despatch-Signature; shown once when the hook is registered.
    secret     text NOT NULL,
    -- `json` or `discord`.
    format     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, hook_id)
);

CREATE TABLE seat_channels (
    game_id  text NOT NULL,
    seat     text NOT NULL,
    email    boolean NOT NULL,
    webhooks boolean NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE clocks (
    game_id text PRIMARY KEY,
    -- The policy as JSON text; the same policy opens the game's log as a Clock event.
    policy  text NOT NULL
);

CREATE TABLE server_keys (
    name  text PRIMARY KEY,
    value text NOT NULL
);
