-- migrations/005_campaigns.sql for PostgreSQL: Betrayal Legacy campaigns (bot.chronicle), one active per
-- channel, the record kept as JSON text; a game played as a chapter names its campaign and chapter.
CREATE TABLE campaigns (
    id BIGSERIAL PRIMARY KEY,
    channel_id TEXT NOT NULL,
    guild_id TEXT,
    creator_id TEXT NOT NULL,
    record TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX one_active_campaign_per_channel ON campaigns(channel_id) WHERE active = 1;
ALTER TABLE games ADD COLUMN campaign_id BIGINT REFERENCES campaigns(id);
ALTER TABLE games ADD COLUMN chapter INTEGER;
CREATE INDEX games_by_campaign ON games(campaign_id) WHERE campaign_id IS NOT NULL;
