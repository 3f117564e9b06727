"""A store kept in memory, with the methods of bot.store.Store that the
service uses: the local table plays through the same GameService as Discord
without a database file.

A state is kept as the object it was given, not copied: the engine never
changes a state in place (it returns a new one), so holding it is safe and
keeps the table fast. Settings and actions are copied."""
import json
import time

from bot.store import GUILD_DEFAULTS, CampaignRow, GameRow, StoreError, finished_record


class MemoryStore:
    def __init__(self):
        self.games: dict[int, dict] = {}
        self.log: dict[int, list[dict]] = {}
        self.events: list[tuple[int, str, str]] = []   # (game id, audience, text)
        self.timers: list[dict] = []
        self.votes: set[tuple[int, int, str]] = set()
        self.next_timer = 1
        self.guilds: dict[str, dict] = {}  # guild id -> the settings set there
        self.threads: dict[tuple[int, str], str] = {}  # (game id, user id) -> secret thread id
        self.campaigns: dict[int, dict] = {}  # campaign id -> its row's fields

    async def open(self):
        return self

    async def close(self):
        pass

    # --- games ------------------------------------------------------------------

    def _row(self, game_id: int) -> GameRow:
        g = self.games[game_id]
        return GameRow(id=game_id, channel_id=g["channel_id"], guild_id=g["guild_id"], creator_id=g["creator_id"],
                       seed=g["seed"], state=g["state"], settings=dict(g["settings"]),
                       summary_message_id=g["summary_message_id"], active=g["active"], created_at=g["at"],
                       updated_at=g.get("updated", g["at"]), system=g.get("system", "babg"),
                       campaign_id=g.get("campaign_id"), chapter=g.get("chapter"),
                       turn_message_id=g.get("turn_message_id"))

    async def create_game(self, channel_id, guild_id, creator_id, seed, state, settings,
                          system: str = "babg", campaign_id: int | None = None,
                          chapter: int | None = None) -> GameRow:
        game_id = len(self.games) + 1
        self.games[game_id] = {"channel_id": channel_id, "guild_id": guild_id, "creator_id": creator_id,
                               "seed": seed, "state": state, "settings": dict(settings), "system": system,
                               "campaign_id": campaign_id, "chapter": chapter,
                               "summary_message_id": None, "active": True, "at": time.time()}
        self.log[game_id] = []
        return self._row(game_id)

    async def active_game(self, channel_id: str) -> GameRow | None:
        found = [i for i, g in self.games.items() if g["channel_id"] == channel_id and g["active"]]
        return self._row(found[-1]) if found else None

    async def latest_game(self, channel_id: str) -> GameRow | None:
        found = sorted((g["active"], i) for i, g in self.games.items() if g["channel_id"] == channel_id)
        return self._row(found[-1][1]) if found else None

    async def finished_games(self, guild_id: str | None, limit: int = 10) -> list[GameRow]:
        found = [i for i, g in self.games.items() if g["guild_id"] == guild_id and not g["active"]
                 and g["state"].get("phase") != "lobby"]
        return [self._row(i) for i in sorted(found, reverse=True)[:limit]]

    async def played_haunts(self, guild_id: str | None) -> list[int]:
        return sorted({g["state"]["haunt"]["number"] for g in self.games.values()
                       if g["guild_id"] == guild_id and g["state"].get("haunt")})

    async def finished_records(self, guild_id: str | None) -> list[dict]:
        found = []
        for i, g in sorted(self.games.items()):
            s = g["state"]
            if g["guild_id"] == guild_id and not g["active"] and s.get("phase") != "lobby":
                h = s.get("haunt") or {}
                found.append(finished_record(i, s.get("phase"), s.get("seats"), h.get("number"), h.get("traitors"),
                                             s.get("result"),
                                             {p: v.get("adventurer") for p, v in s.get("players", {}).items()},
                                             system=g.get("system", "babg")))
        return found

    async def ended_states(self, guild_id: str | None, system: str) -> list[dict]:
        return [g["state"] for _, g in sorted(self.games.items())
                if g["guild_id"] == guild_id and not g["active"] and g.get("system", "babg") == system
                and g["state"].get("phase") != "lobby"]

    async def game_by_id(self, game_id: int) -> GameRow | None:
        return self._row(game_id) if game_id in self.games else None

    async def active_games(self) -> list[GameRow]:
        return [self._row(i) for i, g in self.games.items() if g["active"]]

    def take_set_aside(self, channel_id: str) -> bool:
        return False  # nothing in memory is ever unreadable

    async def record(self, game: GameRow, action: dict, state: dict, events: list[dict],
                     rename: tuple[str, str] | None = None, finished: bool = False,
                     timers: list[tuple[str, str, int, float]] | None = None):
        g = self.games[game.id]
        self.log[game.id].append(dict(action))
        if rename:
            old, new = rename
            self.events = [(i, new if i == game.id and a == old else a, t) for i, a, t in self.events]
            for timer in self.timers:
                if timer["game_id"] == game.id and timer["user_id"] == old:
                    timer["user_id"] = new
            self.votes = {(i, turn, new if i == game.id and v == old else v) for i, turn, v in self.votes}
        g["state"], g["updated"] = state, time.time()
        if finished:
            g["active"] = False
            self.timers = [t for t in self.timers if t["game_id"] != game.id]
        self.events += [(game.id, e["to"], e["text"]) for e in events]
        if timers is not None and not finished:
            await self.replace_timers(game.id, timers)
        game.state = state
        if finished:
            game.active = False

    async def set_state(self, game_id: int, state: dict, active: bool):
        g = self.games[game_id]
        g["state"], g["active"] = state, active

    async def actions(self, game_id: int) -> list[dict]:
        return [dict(a) for a in self.log.get(game_id, [])]

    async def recent_events(self, game_id: int, audience: list[str], limit: int = 15) -> list[str]:
        return [t for i, a, t in self.events if i == game_id and a in audience][-limit:]

    async def undelivered(self, game_id: int, after_seq: int) -> list[tuple[int, str, str]]:
        return []  # games in memory never outlive the process: nothing is left to send after a restart

    async def set_delivered(self, game_id: int, seq: int):
        pass

    async def set_summary_message(self, game_id: int, message_id: str | None):
        self.games[game_id]["summary_message_id"] = message_id

    async def set_turn_message(self, game_id: int, message_id: str | None):
        self.games[game_id]["turn_message_id"] = message_id

    async def set_settings(self, game_id: int, settings: dict):
        self.games[game_id]["settings"] = dict(settings)

    async def finish(self, game_id: int):
        self.games[game_id]["active"] = False
        self.timers = [t for t in self.timers if t["game_id"] != game_id]

    # --- timers and votes -----------------------------------------------------------

    async def replace_timers(self, game_id: int, timers: list[tuple[str, str, int, float]]):
        self.timers = [t for t in self.timers if t["game_id"] != game_id]
        for kind, user_id, turn, due_at in timers:
            self.timers.append({"id": self.next_timer, "game_id": game_id, "kind": kind, "user_id": user_id,
                                "turn": turn, "due_at": due_at})
            self.next_timer += 1

    async def due_timers(self, now: float, shard: tuple[tuple[int, ...], int] | None = None) -> list[dict]:  # (one process)
        return sorted((dict(t) for t in self.timers if t["due_at"] <= now), key=lambda t: t["due_at"])

    async def moved_on(self, game) -> bool:  # (one process)
        return False

    async def claim_interaction(self, interaction_id: int, now: float) -> bool:  # (one process)
        return True

    async def forget_claims(self, before: float):
        return None

    async def delete_timer(self, timer_id: int):
        self.timers = [t for t in self.timers if t["id"] != timer_id]

    async def add_skip_vote(self, game_id: int, turn: int, voter: str) -> int:
        self.votes.add((game_id, turn, voter))
        return sum(1 for i, t, _ in self.votes if i == game_id and t == turn)

    # --- server settings and secret threads ---------------------------------------------

    async def guild_settings(self, guild_id: str) -> dict:
        return {**GUILD_DEFAULTS, **self.guilds.get(guild_id, {})}

    async def set_guild_settings(self, guild_id: str, **values):
        unknown = set(values) - set(GUILD_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        self.guilds.setdefault(guild_id, {}).update(values)

    async def secret_thread(self, game_id: int, user_id: str) -> str | None:
        return self.threads.get((game_id, user_id))

    async def set_secret_thread(self, game_id: int, user_id: str, thread_id: str):
        self.threads[(game_id, user_id)] = thread_id

    # --- campaigns (bot.chronicle) ------------------------------------------------------

    def _campaign(self, campaign_id: int) -> CampaignRow:
        c = self.campaigns[campaign_id]
        return CampaignRow(id=campaign_id, channel_id=c["channel_id"], guild_id=c["guild_id"],
                           creator_id=c["creator_id"], record=json.loads(c["record"]), active=c["active"],
                           created_at=c["at"], updated_at=c["updated"])

    async def create_campaign(self, channel_id, guild_id, creator_id, record: dict) -> CampaignRow:
        if await self.active_campaign(channel_id):
            raise StoreError(f"channel {channel_id} already has an active campaign")
        campaign_id = len(self.campaigns) + 1
        now = time.time()
        self.campaigns[campaign_id] = {"channel_id": channel_id, "guild_id": guild_id, "creator_id": creator_id,
                                       "record": json.dumps(record), "active": True, "at": now, "updated": now}
        return self._campaign(campaign_id)

    async def active_campaign(self, channel_id: str) -> CampaignRow | None:
        found = [i for i, c in self.campaigns.items() if c["channel_id"] == channel_id and c["active"]]
        return self._campaign(found[-1]) if found else None

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        return self._campaign(campaign_id) if campaign_id in self.campaigns else None

    async def save_campaign(self, campaign_id: int, record: dict, active: bool = True):
        self.campaigns[campaign_id].update(record=json.dumps(record), active=active, updated=time.time())

    async def chapter_games(self, campaign_id: int) -> list[GameRow]:
        return [self._row(i) for i, g in sorted(self.games.items())
                if g.get("campaign_id") == campaign_id and not g["active"]]
