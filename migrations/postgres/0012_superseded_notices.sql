-- A seat's pending notices of one game say one thing (issue 16; docs/notifications.md, "One
-- mail for many moves"): a `turn` or `reminder` notice with a later `turn` notice for the same
-- seat still waiting is let go unsent, and names the notice that says it all. The index finds a
-- seat's waiting notices latest first, without reading the game's delivered ones.
ALTER TABLE outbox ADD COLUMN superseded_by bigint;
CREATE INDEX outbox_waiting_by_seat ON outbox (game_id, seat, seq, id) WHERE sent_at IS NULL;
