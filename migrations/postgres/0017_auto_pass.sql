-- A seat's "pass reactive windows for me when I hold no card that can answer" (issue 38;
-- docs/notifications.md, "Settings"): when a window opens and the seat holds nothing that can
-- answer it, the server plays `pass` for it at once, as the seat's own event. Off by default.
ALTER TABLE seat_channels ADD COLUMN auto_pass boolean NOT NULL DEFAULT false;
