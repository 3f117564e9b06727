"""The chronicle inside a Baldur's Gate game (bot/games/babg/engine/specials/legacy.py),
gated on state["options"]["chronicle"], and a whole campaign of auto-played
chapters. Each seed rule names its line in the Legacy rulebook
(/work/shared/seeds/004_2627a2c7c178fe54.txt)."""
import json
import pathlib
import random
import time


from bot import chronicle as ch
from bot.games.babg import autoplay
from bot.games.babg.content import load_content
from bot.games.babg.engine import Engine
from bot.games.babg.engine import cards as cd
from bot.games.babg.engine import death, effects, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.game import clone
from bot.games.babg.engine.specials import legacy

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ch.parse((ROOT / ch.FILE).read_text())
CONTENT = load_content()
ENGINE = Engine(CONTENT)
PLAYERS = ("ann", "bo", "cy", "dee")
FAMILIES = ("blue", "green", "red", "yellow")


def campaign():
    c = ch.new_campaign("c1", BOOK)
    for player, family in zip(PLAYERS, FAMILIES):
        c = ch.choose_family(c, player, family, f"House {family}")
    return c


def adventurers(n: int) -> list[str]:
    picked, cards = [], set()
    for a in CONTENT.adventurers.values():
        if a.card not in cards:
            picked.append(a.id)
            cards.add(a.card)
    return picked[:n]


def new_game(opts: dict, seed: int = 3, change=None) -> dict:
    """A game made from a chapter's options: the chronicle is set in the
    state after new_game, since check_options does not take it yet."""
    game, chron = ch.game_options(opts)
    chron = json.loads(json.dumps(chron))
    if change:
        change(chron)
    s = ENGINE.new_game(seed, options=game)
    s["options"]["chronicle"] = chron
    for pid, adv in zip(chron["seats"], adventurers(len(chron["seats"]))):
        s, _ = ENGINE.apply(s, {"type": "join", "player": pid, "name": pid.capitalize(), "adventurer": adv})
    return s


def started(change=None, present=PLAYERS[:3], seed=3):
    opts = ch.chapter_options(campaign(), seed, book=BOOK, present=list(present))
    s = new_game(opts, seed, change)
    s, events = ENGINE.apply(s, {"type": "start", "player": present[0]})
    return s, events


def draw(s: dict, pid: str, card: str):
    """`pid` draws `card` from the top of the item deck."""
    s = clone(s)
    if card in s["decks"]["item"]:
        s["decks"]["item"].remove(card)
    s["decks"]["item"].insert(0, card)
    ctx = Ctx(CONTENT, s)
    cd.draw(ctx, pid, "item")
    effects.run(ctx)
    return ctx.s, ctx.ev


def answer(s: dict, choice: int):
    return ENGINE.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": choice})


# --- the families at the start ------------------------------------------------------------------

def test_each_family_starts_with_its_slight_trait_differences():
    # Betrayal Legacy rulebook L278: the five families' traits are slightly different (ours: steps on the tracks)
    s, events = started()
    for pid in PLAYERS[:3]:
        p = s["players"][pid]
        tracks = CONTENT.adventurers[p["adventurer"]].tracks
        nudges = s["options"]["chronicle"]["seats"][pid]["traits"]
        for trait, n in nudges.items():
            assert p["traits"][trait] == tracks[trait].start + n
    assert s["chronicle"]["families"] == ["blue", "green", "red"]
    assert sum("plays for House" in e["text"] for e in events) == 3


def test_nothing_happens_without_a_chronicle():
    s = ENGINE.new_game(3)
    for pid, adv in zip(PLAYERS[:3], adventurers(3)):
        s, _ = ENGINE.apply(s, {"type": "join", "player": pid, "name": pid, "adventurer": adv})
    s, _ = ENGINE.apply(s, {"type": "start", "player": "ann"})
    assert "chronicle" not in s
    s, _ = draw(s, s["turn"]["player"], "crossbow")
    assert s["pending"] is None


# --- heirlooms ---------------------------------------------------------------------------------

def test_drawing_an_item_from_the_deck_asks_at_once_and_yes_is_recorded():
    # Betrayal Legacy rulebook L502: once per game, decided at once when the item is drawn from the deck
    s, _ = started()
    pid = s["turn"]["player"]
    s, events = draw(s, pid, "crossbow")
    assert s["pending"]["kind"] == "legacy_heirloom" and s["pending"]["player"] == pid
    assert s["pending"]["prompt"].startswith("make Crossbow the House ")
    assert [e["kind"] for e in events].index("draw") < [e["kind"] for e in events].index("decision")
    s, events = answer(s, 0)
    family = legacy.family_of(s, pid)
    assert s["chronicle"]["made"] == [{"family": family, "item": "crossbow", "how": "deck", "chapter": 0}]
    assert s["chronicle"]["used"] == [family]
    # the chance is spent for this game
    s, _ = draw(s, pid, "locket")
    assert s["pending"] is None


def test_declining_keeps_the_chance_for_a_later_draw():
    # Betrayal Legacy rulebook L506: the moment is lost for that item, but a future item may be heirloomed
    s, _ = started()
    pid = s["turn"]["player"]
    s, _ = draw(s, pid, "crossbow")
    s, _ = answer(s, 1)
    assert s["chronicle"]["made"] == [] and s["chronicle"]["used"] == []
    s, _ = draw(s, pid, "locket")
    assert s["pending"]["kind"] == "legacy_heirloom"


def test_no_heirloom_from_a_pickup_or_a_gift():
    # Betrayal Legacy rulebook L504: not when picked up from a tile, nor through a GIVE or TAKE action
    s, _ = started()
    pid = s["turn"]["player"]
    tile = s["players"][pid]["tile"]
    s["decks"]["item"].remove("crossbow")
    s["piles"][tile] = ["crossbow"]
    s, _ = ENGINE.apply(s, {"type": "pickup", "player": pid, "card": "crossbow"})
    assert "crossbow" in s["players"][pid]["cards"] and s["pending"] is None
    other = next(p for p in s["seats"] if p != pid)
    s["decks"]["item"].remove("locket")
    cd.gain(Ctx(CONTENT, s), pid, "locket")
    s, _ = ENGINE.apply(s, {"type": "trade", "player": pid, "card": "locket", "to": other})
    s, _ = answer(s, 0)  # accepted
    assert "locket" in s["players"][other]["cards"] and s["pending"] is None
    assert s["chronicle"]["made"] == []


def test_at_most_nine_heirlooms_and_none_on_an_item_already_heirloomed():
    # Betrayal Legacy rulebook L500: nine heirloom stickers a family, no more
    def nine(chron):
        seat = next(iter(chron["seats"].values()))
        seat["heirlooms"] = [{"item": f"old_{n}", "name": f"Old {n}"} for n in range(9)]
        chron["heirloomed"] = ["locket"]
    s, _ = started(nine)
    first = next(iter(s["options"]["chronicle"]["seats"]))
    s, _ = draw(s, first, "crossbow")
    assert s["pending"] is None
    other = s["seats"][1]
    s, _ = draw(s, other, "locket")  # another family's heirloom already (L508: no space left on it)
    assert s["pending"] is None
    s, _ = draw(s, other, "crossbow")
    assert s["pending"]["kind"] == "legacy_heirloom"


def test_a_catch_up_family_is_dealt_three_items_keeps_one_and_may_heirloom_it_freely():
    # Betrayal Legacy rulebook L847: three random items after setup, keep one, shuffle two back;
    # heirlooming it does not count toward the once-per-game limit
    def late(chron):
        chron["seats"]["cy"]["catch_up"] = True
    s, events = started(late)
    total = len(CONTENT.deck("item"))
    assert s["pending"]["kind"] == "legacy_catch_up" and s["pending"]["player"] == "cy"
    assert len(s["pending"]["options"]) == 3 and len(s["decks"]["item"]) == total - 3
    dealt = s["pending"]["data"]["cards"]
    s, _ = answer(s, 1)
    assert dealt[1] in s["players"]["cy"]["cards"] and len(s["decks"]["item"]) == total - 1
    assert {dealt[0], dealt[2]} <= set(s["decks"]["item"])
    assert s["pending"]["kind"] == "legacy_heirloom" and s["pending"]["data"]["how"] == "catch_up"
    s, _ = answer(s, 0)
    assert s["chronicle"]["made"][0]["how"] == "catch_up" and s["chronicle"]["used"] == []
    s, _ = draw(s, "cy", next(c for c in ("crossbow", "locket") if c != dealt[1]))
    assert s["pending"]["kind"] == "legacy_heirloom"  # the once-per-game chance is still there


# --- heirloom effects (our design) ---------------------------------------------------------------

HEIRLOOMS = ["crossbow", "chain_mail", "ten_foot_pole", "potion_of_healing", "locket"]


def holding():
    def give(chron):
        chron["seats"]["ann"]["heirlooms"] = [{"item": i, "name": None} for i in HEIRLOOMS]
    s, _ = started(give)
    ctx = Ctx(CONTENT, s)
    for pid in ("ann", "bo"):
        for cid in HEIRLOOMS:
            if pid == "ann" or cid in ("crossbow", "chain_mail", "ten_foot_pole"):
                if cid in s["decks"]["item"]:
                    s["decks"]["item"].remove(cid)
                if not any(cid in s["players"][p]["cards"] for p in s["seats"]):
                    cd.gain(ctx, pid, cid)
    return ctx


def test_an_heirloom_held_by_its_family_gives_its_type_s_extra_effect():
    # Betrayal Legacy rulebook L492: carrying your family's heirloom gives the extra effect (ours: per type)
    ctx = holding()
    assert legacy.heirloom_type(ctx, "ann", "crossbow") == "weapon"
    assert hooks.total("attack_dice", ctx, "ann", "speed", "crossbow", False) == 1
    assert hooks.total("defence_dice", ctx, "ann", "might") == 1
    assert hooks.total("leave_cost", ctx, "ann") == -1
    assert legacy.held_types(ctx, "bo") == set()  # bo holds none of ann's family's heirlooms


def test_an_heirloom_potion_stays_once_and_a_keepsake_steadies_once():
    ctx = holding()
    s = ctx.s
    ctx.task = {"source": "potion_of_healing", "player": "ann", "steps": []}
    cd.discard(ctx, "potion_of_healing")
    assert "potion_of_healing" in s["players"]["ann"]["cards"]
    cd.discard(ctx, "potion_of_healing")
    assert "potion_of_healing" not in s["players"]["ann"]["cards"]
    ctx.task = None
    start = CONTENT.adventurers[s["players"]["ann"]["adventurer"]].tracks["sanity"].start
    s["players"]["ann"]["traits"]["sanity"] = start - 2
    hooks.fire("turn_started", ctx, "ann")
    assert s["players"]["ann"]["traits"]["sanity"] == start - 1
    hooks.fire("turn_started", ctx, "ann")
    assert s["players"]["ann"]["traits"]["sanity"] == start - 1  # once a game


# --- the traitor's tie, deaths -----------------------------------------------------------------

def test_a_traitor_tie_is_broken_by_a_crest_of_the_tied_families():
    # Betrayal Legacy rulebook L625: draw a random Crest token from the tied families
    s, _ = started()
    seen = set()
    for seed in range(30):
        s["rng"] = seed
        ctx = Ctx(CONTENT, clone(s))
        chosen = hooks.first("traitor_tie", ctx, "ann", ["bo", "cy"])
        expected = ch.break_traitor_tie(campaign(), ["green", "red"], {"rng": seed})
        assert legacy.family_of(s, chosen) == expected
        assert "crest" in ctx.ev[-1]["text"]
        seen.add(chosen)
    assert seen == {"bo", "cy"}


def test_a_death_is_kept_with_its_cause_and_place():
    s, _ = started()
    s["haunt"] = {"number": 4, "last_attacker": "bo", "hidden_tokens": None, "traitors": ["bo"], "kind": "traitor"}
    ctx = Ctx(CONTENT, s)
    death.die(ctx, "ann", "a test")
    d = s["chronicle"]["deaths"][0]
    assert d["seat"] == 0 and d["killer"] == "bo" and d["killer_name"] == "Bo"
    assert d["tile"] == "elfsong_tavern" and d["tile_name"] == "Elfsong Tavern"


# --- a whole campaign ---------------------------------------------------------------------------

def test_a_whole_campaign_of_fourteen_auto_played_chapters():
    # Betrayal Legacy rulebook L126: a prologue and 13 chapters; L845: families may skip chapters
    t0 = time.monotonic()
    c = campaign()
    rnd = random.Random(2024)
    played, finished = [], 0
    for number in range(14):
        present = list(PLAYERS[:3]) if number < 6 else list(PLAYERS)
        members = {p: ch.member_for(c, ch.family_of_player(c, p), f"{p.capitalize()}{number}", 20 + number)
                   for p in present if number % 3 == 0}
        opts = ch.chapter_options(c, 1000 + number, book=BOOK, present=present, members=members)
        catching_up = [p for p, seat in opts["chronicle"]["seats"].items() if seat["catch_up"]]
        assert catching_up == (["dee"] if 6 <= number < 12 else [])
        s = new_game(opts, 500 + number)
        s, events = ENGINE.apply(s, {"type": "start", "player": present[0]})
        events = list(events)
        for _, s, ev in autoplay.play(ENGINE, s, rnd, max_actions=3000):
            events.extend(ev)
        assert s["haunt"]["number"] == opts["chosen_haunt"]
        finished += s["phase"] == "over"
        played.append(s["haunt"]["number"])
        c = ch.record_chapter_end(c, opts, s, events, book=BOOK, tile_names={t: CONTENT.tiles[t].name
                                                                              for t in CONTENT.tiles})
        chapter = c["chapters"][-1]
        for seat in chapter["seats"]:
            pid = seat["seat"]
            assert seat["fate"]["died"] == (not s["players"][pid]["alive"])
            assert seat["fate"]["traitor"] == (pid in s["haunt"]["traitors"])
            assert seat["fate"]["line_by_bot"].endswith(chapter["title"]) or "survived" in seat["fate"]["line_by_bot"] \
                or "lived through" in seat["fate"]["line_by_bot"]
        if s["phase"] == "over" and chapter["winners"]:
            assert chapter["ending"]
        made = s["chronicle"]["made"]
        assert sum(m["how"] == "deck" for m in made) <= len(present)
        assert len({m["family"] for m in made if m["how"] == "deck"}) == sum(m["how"] == "deck" for m in made)
    assert len(set(played)) == 14  # no haunt twice
    assert finished >= 12
    assert [x["number"] for x in c["chapters"]] == list(range(14)) and ch.next_chapter(c) == 14
    assert all(len(f["heirlooms"]) <= ch.HEIRLOOM_LIMIT for f in c["families"].values())
    found = [t["tile"] for x in c["chapters"] for t in x["tiles_first_found"]]
    assert found and len(found) == len(set(found))
    json.loads(json.dumps(c))
    assert len(ch.summary_lines(c)) > 14
    assert time.monotonic() - t0 < 60
