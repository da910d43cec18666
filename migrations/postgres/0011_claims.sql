-- A seat claimed by an email address, confirmed by that address (issue 21; docs/web.md,
-- "Signing in"): claiming mails a link to the address, and the seat's email is set only when
-- the link is followed — so nobody can point a seat's notices, or its place in a player's list,
-- at an address that did not agree. Each token kept only as its SHA-256, used once, for
-- `players::CLAIM_LIFETIME`. Times are seconds since the Unix epoch on the service's clock.
CREATE TABLE claim_tokens (
    game_id    text NOT NULL,
    token_hash text NOT NULL,
    seat       text NOT NULL,
    email      text NOT NULL,
    expires_at bigint NOT NULL,
    -- Set when the link is followed: a token sets the address once.
    used_at    bigint,
    PRIMARY KEY (game_id, token_hash)
);
