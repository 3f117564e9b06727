-- Betrayal Legacy campaigns (bot.chronicle): one active per channel, its record kept as JSON text.
CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id TEXT NOT NULL,
    guild_id TEXT,
    creator_id TEXT NOT NULL,
    record TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX one_active_campaign_per_channel ON campaigns(channel_id) WHERE active = 1;
-- A game played as a chapter of a campaign: which campaign, which chapter (NULL: a plain game).
ALTER TABLE games ADD COLUMN campaign_id INTEGER REFERENCES campaigns(id);
ALTER TABLE games ADD COLUMN chapter INTEGER;
CREATE INDEX games_by_campaign ON games(campaign_id) WHERE campaign_id IS NOT NULL;
