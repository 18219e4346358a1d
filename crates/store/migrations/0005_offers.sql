-- Released migrations are never edited: add a new file instead.

-- A standing draw offer and take-back request, by the side that made it: kept so that
-- they survive a restart (and, on PostgreSQL, reach the other server processes).
ALTER TABLE games ADD COLUMN draw_offer TEXT CHECK (draw_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_request TEXT CHECK (takeback_request IN ('white', 'black'));
