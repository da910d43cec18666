-- What the running service tells the commands that run beside it (docs/mail.md): `base_url`,
-- the address players reach it at, stored by `despatch serve` when it starts, so that
-- `despatch mail-in` (run by the mail server, often without DESPATCH_BASE_URL) writes the same
-- links as the notices. Not a game's: no game_id (a Citus deployment keeps it on the
-- coordinator, as the login tables).
CREATE TABLE service_settings (
    name  text PRIMARY KEY,
    value text NOT NULL
);
