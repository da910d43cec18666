-- A seat's time zone (issue 21; docs/web.md, "Settings"): an IANA name (`Europe/Paris`) its
-- deadlines are written in, in its mail and on its page. NULL: UTC. Set from the seat's settings
-- page, or for every seat of an address from the player's.
ALTER TABLE seat_channels ADD COLUMN time_zone text;
