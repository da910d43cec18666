-- Seat links that can be revoked, and an outbox that keeps no credential (issue 35; docs/web.md,
-- "Seat links"; docs/operations.md, "What a copy of the database opens").
--
-- A seat link is signed over the seat's link generation: claiming the seat for another address,
-- asking for a new link and signing out everywhere move the generation on, and every link signed
-- over an earlier one stops opening the seat. Links of before (`s1.`) are generation 0.
ALTER TABLE seats ADD COLUMN link_generation bigint NOT NULL DEFAULT 0;

-- Links are now rendered when a message is sent, never stored. Messages an older build sent
-- still hold theirs in clear: they are scrubbed, keeping what the attempts log reads.
UPDATE outbox SET payload = '{"scrubbed":"sent before links were rendered at sending"}'
WHERE sent_at IS NOT NULL AND channel IN ('email', 'webhook', 'sign_in', 'seat_links', 'claim');

-- Older databases kept the key that signs links in the database itself, where a copy of it
-- opened every seat. Links are signed with the operator's secret now (DESPATCH_SECRET_KEY or the
-- key file), kept outside the database; links signed with the old key stop opening.
DELETE FROM server_keys WHERE name = 'links';
