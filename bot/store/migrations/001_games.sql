-- One row per game; a channel has at most one active game.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id TEXT NOT NULL,
    guild_id TEXT,
    creator_id TEXT NOT NULL,
    seed INTEGER NOT NULL,
    state TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    summary_message_id TEXT,
    active INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX one_active_game_per_channel ON games(channel_id) WHERE active = 1;

-- The action log: with the seed it reproduces the game exactly.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Event texts, for /log.
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    audience TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX events_by_game ON events(game_id, seq);

-- Reminders and deadlines, polled by one task.
CREATE TABLE timers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    due_at REAL NOT NULL
);
CREATE INDEX timers_due ON timers(due_at);

-- Skip votes against an absent player's turn.
CREATE TABLE skip_votes (
    game_id INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    voter_id TEXT NOT NULL,
    PRIMARY KEY (game_id, turn, voter_id)
);
