-- A seat's automatic pass in reactive windows: see migrations/postgres/0017_auto_pass.sql.
ALTER TABLE seat_channels ADD COLUMN auto_pass BOOLEAN NOT NULL DEFAULT 0;
