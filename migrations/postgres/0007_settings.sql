-- A seat's settings (issue 21; docs/notifications.md, "Settings"): reminders on or off, and a
-- daily digest in place of one email per turn. Both sit beside the seat's channels; a seat with
-- no row has the defaults (email, webhooks and reminders on, no digest).
ALTER TABLE seat_channels ADD COLUMN reminders boolean NOT NULL DEFAULT true;
ALTER TABLE seat_channels ADD COLUMN digest boolean NOT NULL DEFAULT false;

-- The days an address was sent its digest: one row per (address, UTC day), so that of several
-- schedulers deciding at once exactly one queues it. It belongs to an address, not to a game,
-- as the login tables do (a Citus deployment keeps it on the coordinator).
CREATE TABLE digests (
    email text NOT NULL,
    day   text NOT NULL,
    PRIMARY KEY (email, day)
);
