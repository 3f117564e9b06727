"""A whole chronicle (the prologue and 13 chapters) played through the bot's real client against the fake
Discord by built-in seats and the stand-in, checked against the issue's "Done when":

- 14 chapters, a restart of the bot between every two and once in the middle of one;
- the chronicle at the end lists every chapter with its haunt, its winner and every seat's member and fate;
- no haunt repeats (the chronicle picks each chapter's haunt);
- the heirloom limits (Betrayal Legacy rulebook L500-L506): once a game a family, only an item drawn from
  the item deck (never one picked up, given or taken), at most 9 a family; checked on every chapter's
  game replayed from its stored actions, offer by offer (to see the limit of 9 bite, the red family is
  handed 8 heirlooms before chapter 9: an arrangement of the record, said in the figures);
- the catch-up rule (L847): a family that missed more than half of the chapters is dealt three items;
- a seat handed over mid-chapter keeps its family;
- each person seated is asked privately for their family member (the form behind the ask's button),
  and a fate names a killing seat by its family member, never "Built-in 1".

Ann plays every chapter (her seat left to the stand-in), with two built-in seats; in chapter 1 a built-in
seat is handed to Bo mid-chapter; Bo's family then sits out chapters 2-5 and comes back in chapter 6,
having missed more than half. Prints one line a condition, `ok` or `FAILED` with its figures, the time of
each chapter and the total; exits 1 on any failure.

    python bench/chronicle_campaign.py [--mid 7] [--limit 900] [--top-up 9]
"""
import argparse
import asyncio
import copy
import dataclasses
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot import chronicle as ch  # noqa: E402
from bot.discord import turn_posts  # noqa: E402
from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine  # noqa: E402
from bot.games.babg.engine.specials import legacy  # noqa: E402
from bot.service.chronicle import book  # noqa: E402
from tests.fake_discord.server import FakeDiscord  # noqa: E402
from tests.test_chronicle_discord import channel_text, quick_table  # noqa: E402

CHAPTERS = ch.CHAPTERS + 1  # the prologue and 13
HANDOVER, BO_BACK = 1, 6  # Bo takes a seat mid-chapter 1, sits out 2-5 and comes back in 6 (missed 4 of 6)
ANN_NAMES = ("Seraphine", "Odile", "Maren", "Catrin", "Elsbeth", "Ysolde", "Bronwen", "Hild", "Ottilie", "Greer",
             "Liesel", "Ansa", "Rhoswen", "Tova")
ASK = "Name your family member"


class Run:
    def __init__(self, server, folder, engine, args):
        self.t = quick_table(server, folder)
        self.t.config = dataclasses.replace(self.t.config, builtin_pause=0.0)
        self.engine, self.args = engine, args
        self.times: list[float] = []
        self.restarts = {"between": 0, "mid": 0}
        self.asks = {"ann": 0, "bo": 0}
        self.handover: dict = {}

    @property
    def channel(self) -> str:
        return str(self.t.channel.id)

    async def slash(self, who: str, command: str, **options):
        await self.t.handled(await self.t.s.slash(self.t.users[who], self.t.channel, command, options=options))

    async def active(self):
        return await self.t.bot.service.active_game(self.channel)

    async def name_member(self, who: str, first_name: str, age: int) -> bool:
        """The private ask's button and its form (L291): True once the member is given."""
        s, user = self.t.s, self.t.users[who]
        asked = [m for m in s.ephemeral_messages(user) if ASK in m.content and m.custom_ids]
        if len(asked) <= self.asks[who]:
            return False  # no new ask for this chapter
        self.asks[who] = len(asked)
        button = next(c for c in asked[-1].custom_ids if c.startswith("chron:member:"))
        opened = await s.click(user, asked[-1], button)
        await self.t.handled(await s.submit_modal(opened, {"first_name": first_name, "age": str(age)}))
        return True

    async def ann_sends(self, number: int):
        record = (await self.t.bot.service.chronicles.campaign(self.channel)).record
        red = record["families"][ch.family_of_player(record, self.t.uid("ann"))]
        last = red["members"][-1] if red["members"] else None
        name = last["first_name"] if last and not last["died"] else ANN_NAMES[number]  # a survivor returns
        age = (last["age"] + 1) if last and not last["died"] else 20 + 2 * number
        await self.name_member("ann", name, age)

    async def top_up(self):
        """The red family handed 8 heirlooms (items nobody holds) so the limit of 9 must bite in play; an
        arrangement of the record, said in the figures, not a rule played."""
        chronicles = self.t.bot.service.chronicles
        row = await chronicles.campaign(self.channel)
        record = copy.deepcopy(row.record)
        red = record["families"]["red"]
        taken = {h["item"] for f in record["families"].values() for h in f["heirlooms"]}
        free = [i for i in sorted(book()["item_types"]) if i not in taken]
        while len(red["heirlooms"]) < ch.HEIRLOOM_LIMIT - 1:
            red["heirlooms"].append({"item": free.pop(0), "name": "a keepsake handed down", "chapter": 0})
        await chronicles._save(row, record)

    async def chapter(self, number: int):
        t0 = time.perf_counter()
        if number == self.args.top_up:
            await self.top_up()
        await self.slash("ann", "game new", builtin=2, map="request")  # the chronicle picks the haunt
        game = await self.active()
        assert game is not None and game.campaign_id is not None and game.chapter == number
        await self.slash("ann", "game join", adventurer=self.engine.free_adventurers(game.state)[0])
        await self.ann_sends(number)
        if number == BO_BACK:
            game = await self.active()
            await self.slash("bo", "game join", adventurer=self.engine.free_adventurers(game.state)[0])
            await self.name_member("bo", "Mira", 34)
        await self.slash("ann", "game start")
        await self.t.done()
        if number == HANDOVER:  # a built-in seat goes to Bo mid-chapter: its family follows the seat
            before = await self.active()
            index = before.state["seats"].index("builtin-1")
            family = before.state["chronicle"]["families"][index]
            await self.slash("ann", "game handover", to=self.t.users["bo"], builtin="builtin-1")
            await self.t.done()
            after = await self.active()
            self.handover = {"family": family, "index": index, "still_in_play": after is not None}
            if after is not None:
                self.handover["family_after"] = after.state["chronicle"]["families"][self.handover["index"]]
                self.handover["seat_after"] = after.state["seats"][self.handover["index"]]
        await self.away(number)
        if number == self.args.mid:
            assert await self.active(), "the chapter is still in play at the restart"
            await self.t.restart(self.engine)
            self.restarts["mid"] += 1
            await self.away(number)
        deadline = time.monotonic() + self.args.limit
        while await self.active() is not None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{ch.chapter_title(number)} did not end within {self.args.limit} s")
            await self.t.done()
        self.times.append(time.perf_counter() - t0)

    async def away(self, number: int):
        game = await self.active()
        if game is None:
            return
        for who in ("ann", "bo"):
            if self.t.uid(who) in game.state["seats"]:
                await self.slash(who, "game away")

    async def play(self):
        t = self.t
        await t.start(self.engine)
        await self.slash("ann", "chronicle start")
        await self.slash("ann", "chronicle family", pick="red", name="House Anvilheart")
        for number in range(CHAPTERS):
            await self.chapter(number)
            print(f"  {ch.chapter_title(number)}: {self.times[-1]:.1f} s", flush=True)
            if number < CHAPTERS - 1:
                await t.restart(self.engine)  # between every two chapters
                self.restarts["between"] += 1
        await self.slash("ann", "chronicle status")
        await t.done()


def replayed(engine, game, actions) -> dict:
    """One chapter's game replayed from its stored actions, its heirloom offers checked one by one."""
    options = dict(game.state.get("options") or {})
    state = engine.new_game(game.seed, options.pop("haunt", "play"), options)
    cards = engine.content.cards
    arrival: dict[tuple[str, str], str] = {}  # (seat, item) -> "deck" (drawn, or dealt to catch up) or "other"
    out = {"offers": 0, "moved": 0, "from_moved": [], "twice": [], "over": [], "dealt": []}
    for action in actions:
        before = state
        state, events = engine.apply(state, action)
        deck = set((before.get("decks") or {}).get("item") or [])
        pending = before.get("pending") or {}
        if pending.get("kind") == "legacy_catch_up":
            deck |= set(pending["data"]["cards"])
        for pid, player in state["players"].items():
            if pid not in before["players"]:
                continue  # a seat handed over: its cards did not change hands
            for cid in set(player["cards"]) - set(before["players"][pid]["cards"]):
                if cards[cid].deck == "item":
                    arrival[(pid, cid)] = "deck" if cid in deck else "other"
                    out["moved"] += cid not in deck
        asked = state.get("pending") or {}
        if asked.get("kind") == "legacy_heirloom" and asked is not before.get("pending") and asked != pending:
            pid, cid, how = asked["player"], asked["data"]["card"], asked["data"]["how"]
            out["offers"] += 1
            if arrival.get((pid, cid)) != "deck":
                out["from_moved"].append(cid)
            family = legacy.family_of(state, pid)
            if how == "deck" and family in (before.get("chronicle") or {}).get("used", []):
                out["twice"].append(cid)
            if len(legacy.heirlooms_of(before, family)) >= ch.HEIRLOOM_LIMIT:
                out["over"].append(cid)
        for e in events:
            if e.get("kind") == "take" and "is dealt" in e.get("text", "") and e.get("cards"):
                out["dealt"].append((e.get("player"), len(e["cards"])))
    out["state"] = state
    return out


def line(ok: bool, what: str, figures: str) -> bool:
    print(f"{'ok' if ok else 'FAILED'}: {what}: {figures}")
    return ok


async def check(run: Run) -> bool:
    t, engine = run.t, run.engine
    row = await t.bot.service.chronicles.campaign(run.channel)
    record = row.record
    chapters = record["chapters"]
    games = await t.bot.service.store.chapter_games(row.id)
    results = []
    results.append(line([c["number"] for c in chapters] == list(range(CHAPTERS)) and len(games) == CHAPTERS,
                        "14 chapters played through the real client",
                        f"{len(chapters)} chapters written down, {len(games)} games; restarts: "
                        f"{run.restarts['between']} between chapters, {run.restarts['mid']} mid-chapter"))
    complete = [c["number"] for c in chapters if c.get("haunt") and "winner" in c and c.get("won_by") and c["seats"]
                and all(s["member"]["first_name"] and s["member"]["age"] and s["fate"].get("line_by_bot")
                        for s in c["seats"])]
    winners = [c["winner"] for c in chapters]
    results.append(line(len(complete) == CHAPTERS,
                        "each chapter with its haunt, winner and every seat's member and fate",
                        f"{len(complete)} of {len(chapters)}; winners: heroes {winners.count('heroes')}, traitor "
                        f"{winners.count('traitor')}, nobody {winners.count(None)}; seats "
                        + "/".join(str(len(c["seats"])) for c in chapters)))
    await t.slash("ann", "chronicle status")
    await t.done()
    shown = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.embeds)
    embed_text = "".join(f["name"] + f["value"] for e in shown.embeds for f in e.get("fields", []))
    listed = [c["number"] for c in chapters if f"**{c['title'].capitalize()}**: haunt {c['haunt']}" in embed_text]
    results.append(line(len(listed) == CHAPTERS and "chronicle.png" in shown.files, "/chronicle status lists them all",
                        f"{len(listed)} chapters in the embed, timeline picture "
                        f"{len(shown.files.get('chronicle.png', b'')) // 1024} KiB"))
    haunts = [c["haunt"] for c in chapters]
    results.append(line(len(set(haunts)) == len(haunts), "no haunt repeats", " ".join(map(str, haunts))))

    offers = moved = 0
    from_moved, twice, over, dealt, deck_made_twice, mismatched = [], [], [], {}, [], []
    for game in games:
        r = replayed(engine, game, await t.bot.service.store.actions(game.id))
        if (r["state"].get("result") or {}) != (game.state.get("result") or {}):
            mismatched.append(game.chapter)
        offers += r["offers"]
        moved += r["moved"]
        from_moved += r["from_moved"]
        twice += r["twice"]
        over += r["over"]
        dealt[game.chapter] = r["dealt"]
        made = (r["state"].get("chronicle") or {}).get("made", [])
        for fam in {m["family"] for m in made}:
            if sum(1 for m in made if m["family"] == fam and m["how"] == "deck") > 1:
                deck_made_twice.append((game.chapter, fam))
    made_all = [m for c in chapters for m in c["heirlooms_made"]]
    held = {fid: len(f["heirlooms"]) for fid, f in record["families"].items() if f["player"]}
    results.append(line(not mismatched, "each chapter's game replays from its stored actions",
                        f"{len(games) - len(mismatched)} of {len(games)}"))
    results.append(line(not twice and not deck_made_twice, "an heirloom once a game a family (L502)",
                        f"{offers} offers, {len(made_all)} heirlooms made ("
                        f"{sum(m['how'] == 'deck' for m in made_all)} drawn, "
                        f"{sum(m['how'] == 'catch_up' for m in made_all)} catch-up); second offers after one made: "
                        f"{len(twice)}; games with two made from the deck: {len(deck_made_twice)}"))
    results.append(line(not from_moved and all(m["how"] in ("deck", "catch_up") for m in made_all),
                        "never through a pickup, gift or take (L504)",
                        f"items that changed hands: {moved}; offered as an heirloom after changing hands: "
                        f"{len(from_moved)}"))
    ninth = next((c["title"] for c in chapters if any(m["family"] == "red" for m in c["heirlooms_made"])
                  and c["number"] >= run.args.top_up), None)
    results.append(line(all(n <= ch.HEIRLOOM_LIMIT for n in held.values()) and not over,
                        "at most 9 heirlooms a family (L500)",
                        "held at the end: " + ", ".join(f"{fid} {n}" for fid, n in held.items())
                        + f"; red topped up to 8 before {ch.chapter_title(run.args.top_up)}, its 9th made in "
                        f"{ninth or '(none made)'}; offers to a family already holding 9: {len(over)}"))

    bo = t.uid("bo")
    blue = ch.family_of_player(record, bo)
    back = chapters[BO_BACK]
    bo_seat = next((s for s in back["seats"] if s["seat"] == bo), None)
    games_by = {g.chapter: g for g in games}
    seat_info = games_by[BO_BACK].state["options"]["chronicle"]["seats"].get(bo, {})
    missed = sum(1 for c in chapters[:BO_BACK] if all(s["family"] != blue for s in c["seats"]))
    bo_dealt = [n for pid, n in dealt.get(BO_BACK, []) if pid == bo]
    results.append(line(bool(bo_seat) and seat_info.get("catch_up") and bo_dealt == [3] and missed * 2 > BO_BACK,
                        "the catch-up rule deals three items to a family that missed more than half (L847)",
                        f"{blue} family missed {missed} of {BO_BACK} chapters; {ch.chapter_title(BO_BACK)}: catching "
                        f"up {bool(seat_info.get('catch_up'))}, dealt {bo_dealt}; every deal of the campaign: "
                        + ", ".join(f"{ch.chapter_title(n)} {[k for _, k in d]}" for n, d in dealt.items() if d)))
    h = run.handover
    in_record = next((s["family"] for s in chapters[HANDOVER]["seats"] if s["seat"] == bo), None)
    results.append(line(h.get("family") == h.get("family_after", h.get("family")) == in_record == blue
                        and h.get("seat_after", bo) == bo,
                        "a handover mid-chapter keeps the family",
                        f"the seat had {h.get('family')} before, {h.get('family_after', '(chapter over)')} after; "
                        f"{ch.chapter_title(HANDOVER)} records Bo's seat as {in_record}; Bo plays {blue} from then on"))
    text = channel_text(t, t.channel)
    ann_named = sum(1 for c in chapters for s in c["seats"] if s["seat"] == t.uid("ann")
                    and s["member"]["first_name"] in ANN_NAMES)
    begun = [m.content for m in t.s.channel_messages(t.channel) if "begins.**" in m.content]
    introduced = sum(1 for c, b in zip(chapters, begun) for s in c["seats"] if s["seat"] == t.uid("ann")
                     and f"Ann plays {s['member']['first_name']}, {s['member']['age']}," in b)
    mira = back["seats"] and "Bo plays Mira, 34," in text
    seen_by_others = [m for m in t.s.messages.values() if ASK in m.content
                      and any(m.visible_to(u) for n, u in t.users.items() if u is not m.ephemeral_to)]
    results.append(line(run.asks["ann"] == CHAPTERS and run.asks["bo"] == 1 and ann_named == CHAPTERS
                        and introduced == CHAPTERS and mira and not seen_by_others,
                        "each person asked privately for a first name and an age, then announced (L291-L292)",
                        f"asks answered: Ann {run.asks['ann']}, Bo {run.asks['bo']}; Ann's members as given: "
                        f"{ann_named}; asks seen by anyone else: {len(seen_by_others)}; introduced at the "
                        f"chapter's start: {introduced}; Bo's Mira announced: {bool(mira)}"))
    fates = [s["fate"]["line_by_bot"] for c in chapters for s in c["seats"]]
    killed = [f for f in fates if f.startswith("fell to ")]
    by_seat = [f for f in fates if "Built-in" in f or "builtin" in f]
    results.append(line(not by_seat, "a fate names the killer by the family member, never the seat",
                        f"{sum(s['fate']['died'] for c in chapters for s in c['seats'])} deaths, {len(killed)} with a "
                        f"killer; by a seat's name: {len(by_seat)}" + (f"; e.g. \"{killed[0]}\"" if killed else "")))
    errors = list(t.s.client_errors)
    results.append(line(not errors, "no error in the bot's log",
                        f"{len(errors)}" + (f": {errors[:1]}" if errors else "")))
    total = sum(run.times)
    print(f"time per chapter: {', '.join(f'{x:.1f}' for x in run.times)} s; total {total:.0f} s "
          f"(mean {total / max(1, len(run.times)):.1f} s, longest {max(run.times, default=0):.1f} s)")
    return all(results)


async def main_async(args) -> int:
    turn_posts.QUIET = 0.05  # turn messages edited without waiting for more of the same turn (bots play at once)
    engine = Engine(load_content())
    started = time.perf_counter()
    async with FakeDiscord() as server:
        with tempfile.TemporaryDirectory() as folder:
            run = Run(server, pathlib.Path(folder), engine, args)
            await run.play()
            ok = await check(run)
    print(f"whole run {time.perf_counter() - started:.0f} s")
    return 0 if ok else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mid", type=int, default=7, help="the chapter restarted in its middle")
    ap.add_argument("--limit", type=float, default=900, help="seconds a chapter may take at most")
    ap.add_argument("--top-up", type=int, default=9, help="the chapter before which the red family is handed "
                    "8 heirlooms, so the limit of 9 bites in play")
    return asyncio.run(main_async(ap.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
