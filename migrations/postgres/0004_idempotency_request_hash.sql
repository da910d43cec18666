-- Idempotency keys behave as Stripe's do: a key remembers a digest of the request it came with
-- (expected_seq, command, client_entropy), so the same key with a different request is refused
-- instead of being answered with the first request's answer; and a key is remembered for
-- 24 hours from created_at (now written by the service's clock). Keys saved before this
-- migration have no digest and are answered as before until they expire.
ALTER TABLE idempotency ADD COLUMN request_hash text;
