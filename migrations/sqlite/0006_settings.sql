-- A seat's settings and the daily digests: see migrations/postgres/0007_settings.sql.
ALTER TABLE seat_channels ADD COLUMN reminders BOOLEAN NOT NULL DEFAULT 1;
ALTER TABLE seat_channels ADD COLUMN digest BOOLEAN NOT NULL DEFAULT 0;

CREATE TABLE digests (
    email TEXT NOT NULL,
    day   TEXT NOT NULL,
    PRIMARY KEY (email, day)
);
