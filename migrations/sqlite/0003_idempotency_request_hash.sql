-- Idempotency keys remember a digest of the request they came with (see
-- migrations/postgres/0004_idempotency_request_hash.sql); keys saved before have none.
ALTER TABLE idempotency ADD COLUMN request_hash TEXT;
