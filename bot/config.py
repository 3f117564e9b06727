"""Settings from the environment (see .env.example)."""
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    token: str
    data_dir: str
    dev_guild_id: int | None
    poll_seconds: float
    builtin_pause: float = 2.0  # seconds between two stretches the bot plays for its seats: a pace people can follow
    database_url: str = ""  # a PostgreSQL server (postgresql://...) instead of the SQLite file in data_dir
    shard_id: int | None = None  # with shard_count: this process runs that one of Discord's shards (the
    shard_count: int | None = None  # servers whose id maps to it); the other processes on the database run the rest
    shard_ids: tuple[int, ...] | None = None  # with shard_count: this process runs these shards (instead of shard_id)

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shards this process runs (None: all of them, Discord unsharded)."""
        if not self.shard_count:
            return None
        return self.shard_ids or (self.shard_id or 0,)

    @property
    def database(self) -> str:
        return self.database_url or os.path.join(self.data_dir, "games.db")


def from_env(env=os.environ) -> Config:
    guild = env.get("DEV_GUILD_ID", "").strip()
    return Config(token=env.get("DISCORD_TOKEN", "").strip(), data_dir=env.get("DATA_DIR", "./data"),
                  dev_guild_id=int(guild) if guild.isdigit() else None,
                  poll_seconds=float(env.get("POLL_SECONDS", "60")),
                  builtin_pause=float(env.get("BUILTIN_PAUSE", "2")),
                  database_url=env.get("DATABASE_URL", "").strip(),
                  shard_id=_whole(env.get("SHARD_ID")), shard_count=_whole(env.get("SHARD_COUNT")),
                  shard_ids=shard_list(env.get("SHARD_IDS")))


def shard_problem(config: Config) -> str | None:
    """What is wrong with the shard settings, in a line (None: nothing)."""
    if (config.shard_ids or config.shard_id is not None) and not config.shard_count:
        return "SHARD_ID or SHARD_IDS needs SHARD_COUNT, the number of shards all the processes share"
    if config.shard_count and any(i >= config.shard_count for i in config.shards):
        return f"shard numbers run from 0 to {config.shard_count - 1} (SHARD_COUNT {config.shard_count})"
    return None


def shard_list(text: str | None) -> tuple[int, ...] | None:
    """SHARD_IDS: "0,1", "0-3" or "0-1,4" (ranges include both ends)."""
    ids: list[int] = []
    for part in (text or "").replace(" ", "").split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ValueError(f"SHARD_IDS: {part!r} is neither a shard number nor a range like 0-3")
        ids += range(int(low), int(high or low) + 1)
    return tuple(sorted(set(ids))) or None


def _whole(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else None
