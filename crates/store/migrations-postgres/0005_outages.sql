-- Released migrations are never edited: add a new file instead.

-- The times when no server process was alive (from the last heartbeat to the start of
-- the first process after it): the clocks of the games in progress do not run then,
-- as on SQLite. One row per outage, written by the first process that starts after it.
CREATE TABLE outages (
    started TIMESTAMPTZ PRIMARY KEY,
    ended   TIMESTAMPTZ NOT NULL
);
