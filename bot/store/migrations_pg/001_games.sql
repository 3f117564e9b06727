-- migrations/001_games.sql for PostgreSQL. States and settings stay JSON text exactly as written:
-- jsonb would reorder an object's keys, and a game's dicts must come back in the order they were saved.
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    channel_id TEXT NOT NULL,
    guild_id TEXT,
    creator_id TEXT NOT NULL,
    seed BIGINT NOT NULL,
    state TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    summary_message_id TEXT,
    active INTEGER NOT NULL DEFAULT 1,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    -- Actions recorded so far. Several bot processes may share this database: each writes an action
    -- only over the seq it read, so a process holding an old copy of the game is refused.
    seq BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX one_active_game_per_channel ON games(channel_id) WHERE active = 1;

-- The action log: with the seed it reproduces the game exactly.
CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    action TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Event texts, for /log; id keeps the order they were written in (SQLite's rowid).
CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    audience TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX events_by_game ON events(game_id, seq);

-- Reminders and deadlines, claimed by whichever bot process polls first.
CREATE TABLE timers (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    due_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX timers_due ON timers(due_at);

-- Skip votes against an absent player's turn.
CREATE TABLE skip_votes (
    game_id BIGINT NOT NULL,
    turn INTEGER NOT NULL,
    voter_id TEXT NOT NULL,
    PRIMARY KEY (game_id, turn, voter_id)
);

-- The state as jsonb for the statistics' queries, or NULL when the text is not JSON: one damaged
-- row must not fail a whole server's history (it is set aside when the game itself is read).
CREATE FUNCTION jsonb_or_null(text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN $1::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$;
