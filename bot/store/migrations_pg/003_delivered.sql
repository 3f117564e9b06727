-- The last action whose private messages (secret rules, hidden tokens) went out to their players:
-- after a crash, the bot sends those of later actions when it starts again.
-- Games already stored count as delivered up to now.
ALTER TABLE games ADD COLUMN delivered BIGINT NOT NULL DEFAULT 0;
UPDATE games SET delivered = seq;
