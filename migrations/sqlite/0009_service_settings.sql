-- What the running service tells the commands beside it: see
-- migrations/postgres/0010_service_settings.sql.
CREATE TABLE service_settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
