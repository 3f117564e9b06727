"""A channel's campaign (a Betrayal Legacy style chronicle, bot.chronicle) kept in the store beside
its games: what the service does with it, for Discord and the local table alike.

- `/chronicle start` opens a campaign in the channel; from then on each new game there (of a system
  that plays campaigns, `GameSystem.campaigns`) is its next chapter: the prologue, chapters 1-13,
  then free play. Its options come from `bot.chronicle.chapter_options` (a haunt not yet played, the
  Legacy house rules unless turned off, each seat's family, member and heirlooms); the game row
  names its campaign and chapter (`GameRow.campaign_id`, `chapter`).
- Families: a player picks one (`pick_family`) or, seated without one, takes the first free family
  when they join. The seat's family member (`set_member`, told privately) comes to the table at the
  start, else the family's survivor a year older, else a relative we name.
- The record follows a seat handed over: the new holder plays the family from then on.
- When a chapter's game is over, the chapter is written down (`record_chapter_end`) right after the
  action's commit; if the bot stops in between, it is written the next time the campaign is read.
  Writing is by chapter number, so it happens once.
- What the adapters tell the channel (a family taken, a member introduced, a chapter's start and end)
  waits in `news`, taken by `take_news` after the action's own messages; what they tell one player
  alone (the ask for a family member, when a person takes a seat in a chapter's lobby) waits in
  `asks`, taken by `take_asks`.
- L291-L292: each person seated for a chapter is asked privately for their member's first name and age;
  once given while the chapter is being set up, the table hears who they play ("Ann plays Mira, 34, of
  the Red family"), and the chapter's start introduces every seat's member.

What the adapters keep between chapters (members named ahead, heirloom names given before the
chapter is written down) lives in the record under "table"; bot.chronicle's functions leave it be.
"""
import copy
import functools
import hashlib
import logging
import pathlib

from bot import chronicle as ch
from bot.kit.errors import IllegalAction
from bot.store import CampaignRow, StoreError

log = logging.getLogger("bot.service.chronicle")
BOOK_FILE = pathlib.Path(__file__).resolve().parents[2] / ch.FILE
TABLE = "table"
HOUSE_RULES = "legacy-house-rules"
# First names for a family member nobody named (a built-in seat's, or a player who named none): ours.
FIRST_NAMES = ("Wren", "Osric", "Maelis", "Tobin", "Isolde", "Brann", "Corra", "Edric", "Fenna", "Garrick",
               "Hesper", "Ilse", "Jory", "Katrin", "Lorcan", "Mirela", "Niall", "Odette", "Perrin", "Quill",
               "Rowena", "Soren", "Tamsin", "Ulric", "Vesna", "Warin", "Yselle", "Zora", "Alder", "Briony")


@functools.cache
def book() -> dict:
    """rules_data/chronicle.toml, parsed once."""
    return ch.parse(BOOK_FILE.read_text())


def kept(record: dict) -> dict:
    """The adapters' part of the record (members named ahead, heirloom names waiting)."""
    table = record.setdefault(TABLE, {})
    table.setdefault("members", {})
    table.setdefault("names", {})
    return table


def pretty(item: str) -> str:
    return item.replace("_", " ")


def find_family(record: dict, words: str) -> str:
    """A family by its id, colour or the group's name for it."""
    wanted = " ".join(str(words).split()).casefold()
    for fid, f in record["families"].items():
        if wanted in (fid.casefold(), f["colour"].casefold(), (f["name"] or "").casefold()):
            return fid
    raise IllegalAction(f"There is no family {words!r}: the families are "
                        + ", ".join(f"{ch.family_called(record, fid)} ({f['colour']})"
                                    for fid, f in record["families"].items()) + ".")


def ask_line(record: dict, player: str) -> str:
    """The private ask for a seat's family member (L291), with who comes if the player names nobody."""
    fid = ch.family_of_player(record, player)
    number = ch.next_chapter(record)
    named = kept(record)["members"].get(player)
    fam = record["families"][fid]
    last = fam["members"][-1] if fam["members"] else None
    if named:
        then = f"You send {named['first_name']}, {named['age']}; press the button again to send someone else."
    elif last and not last["died"] and last["first_name"]:
        then = f"Name nobody and {last['first_name']} returns, a year older."
    else:
        then = "Name nobody and the bot names a relative for you."
    return (f"**The chronicle, {ch.chapter_title(number)}:** you play for {ch.family_words(record, fid)}. Who does "
            "your family send? Press **Name your family member** for a first name and an age (seen by you alone "
            f"until the chapter begins), or use `/chronicle member`. {then}")


def chapter_end_event(record: dict, chapter: dict) -> dict:
    """A chapter written down, as one event (the table's JSON line)."""
    return {"kind": "chapter_end", "to": "all", "chapter": chapter["number"], "title": chapter["title"],
            "haunt": chapter["haunt"], "haunt_title": chapter.get("haunt_title"), "winner": chapter["winner"],
            "winners": chapter["winners"], "won_by": chapter["won_by"], "ending": chapter["ending"],
            "seats": [{"seat": s["seat"], "family": s["family"], "family_name": ch.family_called(record, s["family"]),
                       "member": s["member"], "died": s["fate"]["died"], "traitor": s["fate"]["traitor"],
                       "fate": s["fate"].get("line_by_player") or s["fate"]["line_by_bot"]} for s in chapter["seats"]],
            "heirlooms_made": chapter["heirlooms_made"],
            "tiles_first_found": [t["name"] for t in chapter["tiles_first_found"]]}


def chapter_end_lines(record: dict, chapter: dict) -> list[str]:
    """What the channel is told when a chapter is written down."""
    haunt = f"haunt {chapter['haunt']}" + (f", {chapter['haunt_title']}" if chapter.get("haunt_title") else "")
    lines = [f"**The chronicle: {chapter['title']} is written down** ({haunt}; won by {chapter['won_by']})."]
    if chapter["ending"]:
        lines.append(f"> {chapter['ending']}")
    for s in chapter["seats"]:
        who = s["member"]["first_name"] or "An unnamed member"
        fate = s["fate"].get("line_by_player") or s["fate"]["line_by_bot"]
        lines.append(f"- {who} of {ch.family_called(record, s['family'])}: {fate}.")
    for m in chapter["heirlooms_made"]:
        named = next((h["name"] for h in record["families"][m["family"]]["heirlooms"] if h["item"] == m["item"]), None)
        lines.append(f"The {ch.family_called(record, m['family'])} family keeps the {pretty(m['item'])} as an heirloom"
                     + (f": {named}." if named else "; name it with `/chronicle heirloom name:`."))
    if chapter["tiles_first_found"]:
        lines.append("Found for the first time: " + ", ".join(t["name"] for t in chapter["tiles_first_found"]) + ".")
    left = ch.CHAPTERS + 1 - ch.next_chapter(record)
    lines.append(f"Next: {ch.chapter_title(ch.next_chapter(record))}, with `/game new`." if left > 0 else
                 "The thirteen chapters are told: every game from now on is free play, still kept in the chronicle.")
    return lines


class Chronicles:
    """The service's campaigns: one active campaign a channel, read once and then kept (every change goes
    through here, under the channel's lock)."""

    def __init__(self, service):
        self.service = service
        self.rows: dict[str, CampaignRow | None] = {}
        self.news: dict[str, list[str]] = {}
        self.ended: dict[str, list[dict]] = {}  # channel -> chapter_end events not yet taken (the table's)
        self.asks: dict[str, list[tuple[str, str]]] = {}  # channel -> (player, private line) not yet sent

    @property
    def store(self):
        return self.service.store

    def tell(self, channel_id: str, *lines: str):
        self.news.setdefault(channel_id, []).extend(lines)

    def take_news(self, channel_id: str) -> list[str]:
        return self.news.pop(channel_id, [])

    def take_ended(self, channel_id: str) -> list[dict]:
        return self.ended.pop(channel_id, [])

    def take_asks(self, channel_id: str) -> list[tuple[str, str]]:
        """(player, line) for each person to ask privately for their family member."""
        return self.asks.pop(channel_id, [])

    # --- reading ----------------------------------------------------------------------------------

    async def campaign(self, channel_id: str) -> CampaignRow | None:
        """The channel's active campaign, its finished chapters all written down."""
        if channel_id not in self.rows:
            row = await self.store.active_campaign(channel_id)
            self.rows[channel_id] = row
            if row is not None:
                await self._settle(row)
        return self.rows[channel_id]

    async def need(self, channel_id: str) -> CampaignRow:
        row = await self.campaign(channel_id)
        if row is None:
            raise IllegalAction("This channel keeps no chronicle. Start one with /chronicle start.")
        return row

    async def _of(self, game) -> CampaignRow | None:
        if getattr(game, "campaign_id", None) is None:  # a plain game: no campaign to look for on every action
            return None
        row = await self.campaign(game.channel_id)
        return row if row is not None and row.id == game.campaign_id else None

    async def _save(self, row: CampaignRow, record: dict, active: bool = True):
        await self.store.save_campaign(row.id, record, active)
        row.record, row.active = record, active
        if not active:
            self.rows[row.channel_id] = None

    async def _settle(self, row: CampaignRow):
        """Chapters whose game ended while the bot was stopping, written down now."""
        for game in await self.store.chapter_games(row.id):
            if game.chapter == ch.next_chapter(row.record) and self.service.system(game).phase(game.state) == "over":
                await self._write_chapter(row, game, game.state)

    # --- the campaign's commands ----------------------------------------------------------------

    async def start(self, channel_id: str, guild_id: str | None, by: str, rules_off: bool = False) -> CampaignRow:
        async with self.service.locks[channel_id]:
            if await self.campaign(channel_id):
                raise IllegalAction("This channel already keeps a chronicle: /chronicle status shows it, "
                                    "/chronicle end closes it.")
            try:
                row = await self.store.create_campaign(channel_id, guild_id, by, ch.new_campaign("0", book(), rules_off))
            except StoreError as e:
                if "already has an active campaign" in str(e):
                    self.rows.pop(channel_id, None)
                    raise IllegalAction("This channel already keeps a chronicle.") from None
                raise
            record = {**row.record, "id": str(row.id)}
            await self._save(row, record)
            self.rows[channel_id] = row
            return row

    async def adopt(self, channel_id: str, guild_id: str | None, by: str, record: dict) -> CampaignRow:
        """A campaign carried in from elsewhere (the local table's file) becomes the channel's."""
        async with self.service.locks[channel_id]:
            row = await self.store.create_campaign(channel_id, guild_id, by, record)
            self.rows[channel_id] = row
            return row

    async def end(self, channel_id: str, by: str, can_manage: bool) -> CampaignRow:
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            if by != row.creator_id and not can_manage:
                raise IllegalAction("Only who started the chronicle, or someone with Manage Channels, can end it.")
            await self._save(row, row.record, active=False)
            return row

    async def pick_family(self, channel_id: str, player: str, words: str, name: str | None = None) -> str:
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            record = copy.deepcopy(row.record)
            fid = find_family(record, words)
            mine = ch.family_of_player(record, player)
            if mine not in (None, fid):
                if record["families"][mine]["members"]:
                    raise IllegalAction(f"You play the {ch.family_called(record, mine)} family for the whole "
                                        "campaign: it has already sent someone to the city.")
                record["families"][mine]["player"] = None  # taken at a join, never played: changed freely
            try:
                record = ch.choose_family(record, player, fid, name)
            except ch.ChronicleError as e:
                raise IllegalAction(str(e)) from None
            await self._save(row, record)
            return (f"You play the {ch.family_called(record, fid)} family ({record['families'][fid]['colour']}, "
                    f"crest: {record['families'][fid]['crest']}).")

    async def set_member(self, channel_id: str, player: str, first_name: str, age: int) -> str:
        """The family member the player sends to the next chapter (told privately, announced at its start)."""
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            record = copy.deepcopy(row.record)
            fid = ch.family_of_player(record, player)
            if fid is None:
                raise IllegalAction("Pick a family first: /chronicle family pick:<family>, or join a game here.")
            game = await self.service.active_game(channel_id)
            if game is not None and game.campaign_id == row.id and self.service.system(game).phase(game.state) != "lobby":
                raise IllegalAction("This chapter has begun: name who comes to the next one after it ends.")
            try:
                member = ch.member_for(record, fid, first_name, age)
            except ch.ChronicleError as e:
                raise IllegalAction(str(e)) from None
            kept(record)["members"][player] = {"first_name": member["first_name"], "age": member["age"]}
            await self._save(row, record)
            who = f"{member['first_name']}, {member['age']}"
            if game is not None and game.campaign_id == row.id and player in game.state.get("seats", []):
                # L292: the chapter is being set up: the player introduces their member to the table
                self.tell(channel_id, ch.introduction(self.service.system(game).seat_name(game.state, player),
                                                      member, ch.family_words(record, fid)) + ".")
                return (f"{who}, of {ch.family_words(record, fid)}, comes to "
                        f"{ch.chapter_title(ch.next_chapter(record))}.")
            return (f"{who} returns for the {ch.family_called(record, fid)} family, older by a chapter."
                    if member["returning"] else f"{who}, of the {ch.family_called(record, fid)} family, will come to "
                    f"{ch.chapter_title(ch.next_chapter(record))}. The table learns the name when it begins.")

    async def name_heirloom(self, channel_id: str, player: str, name: str, item: str | None = None) -> str:
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            record = copy.deepcopy(row.record)
            fid = ch.family_of_player(record, player)
            if fid is None:
                raise IllegalAction("You play no family in this chronicle.")
            unnamed = [h["item"] for h in reversed(record["families"][fid]["heirlooms"]) if not h["name"]]
            game = await self.service.active_game(channel_id)
            made = [m["item"] for m in ((game.state.get("chronicle") or {}).get("made") or [])
                    if m["family"] == fid] if game is not None and game.campaign_id == row.id else []
            wanted = [i for i in unnamed + made if item is None or i == item or pretty(i) == item.casefold()]
            if not wanted:
                raise IllegalAction("Your family has no heirloom waiting for a name." if item is None else
                                    f"Your family has no unnamed heirloom {item!r}.")
            chosen = wanted[0]
            try:
                if chosen in unnamed:
                    record = ch.name_heirloom(record, fid, chosen, name)
                else:  # made in the chapter in play: the name waits until it is written down
                    kept(record)["names"].setdefault(fid, {})[chosen] = " ".join(str(name).split())[:60]
            except ch.ChronicleError as e:
                raise IllegalAction(str(e)) from None
            await self._save(row, record)
            return f"The {pretty(chosen)} of the {ch.family_called(record, fid)} family is now called {name.strip()}."

    async def add_note(self, channel_id: str, line: str, chapter: int | None = None) -> str:
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            if not row.record["chapters"]:
                raise IllegalAction("No chapter has been played yet: a note goes with a chapter.")
            number = row.record["chapters"][-1]["number"] if chapter is None else chapter
            try:
                record = ch.add_note(row.record, number, line)
            except ch.ChronicleError as e:
                raise IllegalAction(str(e)) from None
            await self._save(row, record)
            return f"Kept with {ch.chapter_title(number)}."

    async def set_fate(self, channel_id: str, player: str, line: str, chapter: int | None = None) -> str:
        async with self.service.locks[channel_id]:
            row = await self.need(channel_id)
            fid = ch.family_of_player(row.record, player)
            if fid is None or not row.record["chapters"]:
                raise IllegalAction("You have no family member's fate to write yet.")
            number = row.record["chapters"][-1]["number"] if chapter is None else chapter
            try:
                record = ch.set_fate(row.record, number, fid, line)
            except ch.ChronicleError as e:
                raise IllegalAction(str(e)) from None
            await self._save(row, record)
            return f"Written: the fate of your family member in {ch.chapter_title(number)}."

    # --- the games' side (called by the service, under the channel's lock) -----------------------

    async def chapter_options(self, channel_id: str, system, seed: int, options: dict):
        """(options, campaign, chapter) for a new game: the channel's campaign's next chapter, or the
        options as they were (campaign and chapter None) for a plain game."""
        row = await self.campaign(channel_id)
        if row is None or not getattr(system, "campaigns", False):
            return options, None, None
        record = row.record
        made = ch.chapter_options(record, seed, book=book(), present=[])
        wanted = options.get("chosen_haunt")
        if wanted:
            played = ch.played_haunts(record)
            if wanted in played and len(set(played)) < len(ch.HAUNTS):
                number = next(c["title"] for c in record["chapters"] if c["haunt"] == wanted)
                raise IllegalAction(f"This chronicle played haunt {wanted} in {number}: a chapter never repeats a "
                                    "haunt. Leave the haunt out, or choose another.")
            made["chosen_haunt"] = wanted
        rules = set(options.get("rules") or []) - {"baldurs-gate"}
        if not record["rules_off"]:
            rules.add(HOUSE_RULES)
        out = {**options, "chosen_haunt": made["chosen_haunt"], "rules": sorted(rules), "chronicle": made["chronicle"]}
        out.pop("avoid_repeats", None)
        number = ch.next_chapter(record)
        self.tell(channel_id, f"This game is {ch.chapter_title(number)} of the chronicle: its haunt is one the chronicle "
                  "has not played. Each seat plays for a family (the first free one, unless its player picked "
                  "another) and sends a member, named beforehand or else chosen for them.")
        return out, row, number

    def _members(self, record: dict, present: list[str], number: int) -> dict:
        members = {}
        for pid in present:
            fid = ch.family_of_player(record, pid)
            named = kept(record)["members"].get(pid)
            if named:
                members[pid] = ch.member_for(record, fid, named["first_name"], named["age"])
                continue
            fam = record["families"][fid]
            last = fam["members"][-1] if fam["members"] else None
            if last and not last["died"] and last["first_name"]:
                continue  # the survivor returns a year older (bot.chronicle's default)
            used = {m["first_name"] for f in record["families"].values() for m in f["members"]}
            used |= {m["first_name"] for m in members.values()}
            digest = int(hashlib.sha256(f"{record['id']}:{fid}:{number}".encode()).hexdigest(), 16)
            names = [n for n in FIRST_NAMES if n not in used] or list(FIRST_NAMES)
            members[pid] = {"first_name": names[digest % len(names)], "age": 17 + digest % 40, "returning": False}
        return members

    async def before(self, game):
        """Before an action of a chapter still in its lobby: the chapter's seats, as they stand, in the
        game's options (the engine reads them when the first turn begins)."""
        system = self.service.system(game)
        state = game.state
        if system.phase(state) != "lobby":
            return
        row = await self._of(game)
        if row is None:
            return
        record = row.record
        present = [p for p in state["seats"] if ch.family_of_player(record, p)]
        seats = ch.chapter_options(record, game.seed, book=book(), present=present,
                                   members=self._members(record, present, game.chapter))["chronicle"]["seats"]
        chronicle = (state.get("options") or {}).get("chronicle") or {}
        if chronicle.get("seats") != seats:
            game.state = {**state, "options": {**state["options"], "chronicle": {**chronicle, "seats": seats}}}

    async def after(self, game, outcome, rename: tuple[str, str] | None):
        """After an action's commit: a seat handed over takes its family along, a seat taken without a
        family gets the first free one, a chapter's start is announced and its end written down."""
        row = await self._of(game)
        if row is None:
            return
        system = self.service.system(game)
        before, state = outcome.before, outcome.state
        record, changed = copy.deepcopy(row.record), False
        if rename:
            old, new = rename
            fid = ch.family_of_player(record, old)
            if fid is not None and ch.family_of_player(record, new) is None:
                record["families"][fid]["player"] = new
                members = kept(record)["members"]
                if old in members:
                    members[new] = members.pop(old)
                changed = True
        if system.phase(state) == "lobby":
            for pid in state["seats"]:
                if ch.family_of_player(record, pid) is not None:
                    continue
                free = next((fid for fid, f in record["families"].items() if f["player"] is None), None)
                if free is None:
                    continue  # five families: a sixth seat plays for none
                record = ch.choose_family(record, pid, free)
                fam = record["families"][free]
                self.tell(game.channel_id, f"{system.seat_name(state, pid)} plays the {ch.family_called(record, free)} "
                          f"family ({fam['colour']}, crest: {fam['crest']}) in this chronicle.")
                changed = True
        if changed:
            await self._save(row, record)
        if system.phase(state) == "lobby":
            seated = [p for p in state["seats"] if p not in before.get("seats", []) and not system.is_builtin(state, p)]
            for pid in seated:  # L291: a person just seated is asked, privately, whom their family sends
                if ch.family_of_player(record, pid) is not None:
                    self.asks.setdefault(game.channel_id, []).append((pid, ask_line(record, pid)))
        if system.phase(before) == "lobby" and system.phase(state) != "lobby":
            seats = ((state.get("options") or {}).get("chronicle") or {}).get("seats") or {}
            said = []  # L292: every seat's member introduced
            for pid, seat in seats.items():
                m = seat.get("member") or {}
                words = ch.family_words(record, seat["family"]) if seat.get("family") in record["families"] else \
                    seat.get("name") or seat["colour"].capitalize()
                said.append(ch.introduction(system.seat_name(state, pid), m, words)
                            + (" (returning)" if m.get("returning") else "")
                            + (" (catching up)" if seat.get("catch_up") else ""))
            self.tell(game.channel_id, f"**The chronicle: {ch.chapter_title(game.chapter)} begins.** "
                      + "; ".join(said) + ".")
        if system.phase(state) == "over" and system.phase(before) != "over":
            await self._write_chapter(row, game, state)

    async def _write_chapter(self, row: CampaignRow, game, state: dict):
        if game.chapter != ch.next_chapter(row.record):
            return  # written down already (or not this campaign's next)
        system = self.service.system(game)
        try:  # the game's events, from its log: deaths and tiles found for the first time
            _, events = system.replay(game.seed, await self.store.actions(game.id), dict(state.get("options") or {}))
        except Exception:  # noqa: BLE001 - a game set up by hand does not replay: its end is written all the same
            log.info("game %s does not replay; its chapter is written from its last state", game.id)
            events = []
        try:
            record = ch.record_chapter_end(row.record, game.chapter, state, events, book=book())
        except ch.ChronicleError:
            log.exception("chapter of game %s not written", game.id)
            return
        chapter = record["chapters"][-1]
        table = kept(record)
        for m in chapter["heirlooms_made"]:
            name = table["names"].get(m["family"], {}).pop(m["item"], None)
            if name:
                record = ch.name_heirloom(record, m["family"], m["item"], name)
        table = kept(record)
        for s in chapter["seats"]:
            table["members"].pop(record["families"][s["family"]]["player"], None)
        await self._save(row, record)
        self.tell(game.channel_id, *chapter_end_lines(record, record["chapters"][-1]))
        self.ended.setdefault(game.channel_id, []).append(chapter_end_event(record, record["chapters"][-1]))
