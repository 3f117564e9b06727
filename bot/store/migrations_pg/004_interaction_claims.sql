-- Discord sends an interaction to every connection of its shard: during a rolling restart both the
-- old and the new process of a shard are connected, and only the one that claims it first handles it.
-- Rows older than Discord's 15 minutes are of no more use and are deleted as the timers are polled.
CREATE TABLE interaction_claims (
    id BIGINT PRIMARY KEY,
    claimed_at DOUBLE PRECISION NOT NULL
);
