"""Settings from the environment (see .env.example)."""
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    token: str
    data_dir: str
    dev_guild_id: int | None
    poll_seconds: float

    @property
    def database(self) -> str:
        return os.path.join(self.data_dir, "games.db")


def from_env(env=os.environ) -> Config:
    guild = env.get("DEV_GUILD_ID", "").strip()
    return Config(token=env.get("DISCORD_TOKEN", "").strip(), data_dir=env.get("DATA_DIR", "./data"),
                  dev_guild_id=int(guild) if guild.isdigit() else None,
                  poll_seconds=float(env.get("POLL_SECONDS", "60")))
