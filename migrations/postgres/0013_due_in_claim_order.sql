-- The claim takes due rows oldest first, `ORDER BY next_attempt_at, id` (store::outbox). On
-- `next_attempt_at` alone the index gave rows of one instant in no order, and every row
-- written by one statement shares its instant (a bulk insert, a batch of moves, a backlog):
-- with 50,000 due at one instant each claim read and sorted all of them (14 ms, spilling to
-- disk) to return 32. With `id` in the index a claim reads the 32 it returns (issue 16,
-- BENCHMARKS.md). On SQLite `id` is the rowid, which every index already ends with.
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE sent_at IS NULL;
