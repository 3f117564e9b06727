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
                  shard_id=_whole(env.get("SHARD_ID")), shard_count=_whole(env.get("SHARD_COUNT")))


def _whole(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else None
