-- What a server's admins choose for all its games: where each player's secrets go
-- ('dm': direct messages; 'threads': a private thread of the game's channel).
CREATE TABLE guild_settings (
    guild_id TEXT PRIMARY KEY,
    secrets TEXT NOT NULL DEFAULT 'dm' CHECK (secrets IN ('dm', 'threads'))
);

-- Each player's private thread for one game's secrets: made on first need, then reused
-- for the rest of the game (after a restart too).
CREATE TABLE secret_threads (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
