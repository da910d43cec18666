-- A seat's time zone: see migrations/postgres/0009_time_zones.sql.
ALTER TABLE seat_channels ADD COLUMN time_zone TEXT;
