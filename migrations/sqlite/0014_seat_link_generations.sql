-- Seat links that can be revoked, and an outbox that keeps no credential: see
-- migrations/postgres/0016_seat_link_generations.sql.
ALTER TABLE seats ADD COLUMN link_generation INTEGER NOT NULL DEFAULT 0;

UPDATE outbox SET payload = '{"scrubbed":"sent before links were rendered at sending"}'
WHERE sent_at IS NOT NULL AND channel IN ('email', 'webhook', 'sign_in', 'seat_links', 'claim');

DELETE FROM server_keys WHERE name = 'links';
