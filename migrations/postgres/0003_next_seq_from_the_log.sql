-- The events' primary key refuses a stale append; the game's next seq is read from the log
-- (its last seq + 1), so appends no longer update the games row. The column goes, so that nothing
-- reads a figure that is no longer kept.
ALTER TABLE games DROP COLUMN next_seq;
