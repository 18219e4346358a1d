-- Released migrations are never edited: add a new file instead.

-- Which server process looks after a game in progress: it runs the game's clock and
-- its computer seats, for as long as it renews its lease (every 250 ms, for a few
-- seconds ahead). A game whose lease ran out, its process gone, is taken over by
-- another process (`FOR UPDATE SKIP LOCKED`, so that exactly one takes it).
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN lease_until TIMESTAMPTZ;

CREATE INDEX games_to_look_after ON games (lease_until) WHERE status = 'playing';
