-- Players and their games (issue 21; docs/web.md, "Signing in"). A game's name, and what signing
-- in by email keeps: one-time login tokens and sessions, each only as the SHA-256 of its token.
-- The login tables carry no game_id: they belong to an email address, not to a game, and are
-- small and short-lived (a Citus deployment keeps them as local tables on the coordinator).
-- Times are seconds since the Unix epoch, read from the service's clock, so tests move them.

-- Empty for a game made before games had names: its name is then made from its ruleset and
-- seats when it is shown (games::players::display_name).
ALTER TABLE games ADD COLUMN name text NOT NULL DEFAULT '';

-- "Every game whose seat has that email": found by the address, in any case.
CREATE INDEX seats_email ON seats (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE login_tokens (
    token_hash text PRIMARY KEY,
    email      text NOT NULL,
    expires_at bigint NOT NULL,
    -- Set when the link is followed: a token opens one session, once.
    used_at    bigint
);

CREATE TABLE sessions (
    session_hash text PRIMARY KEY,
    email        text NOT NULL,
    expires_at   bigint NOT NULL
);
