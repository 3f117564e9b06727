"""The chronicle's rules inside one Baldur's Gate game: a chapter of a *Betrayal
Legacy* style campaign (the record itself is bot.chronicle, kept by the
service beside the games). Everything here is gated on
`state["options"]["chronicle"]`, the dict a chapter's options carry
(bot.chronicle.chapter_options):

    {"campaign", "chapter", "seats": {player id: {"family", "name", "colour", "crest",
     "traits", "member", "heirlooms": [{"item", "name"}], "catch_up"}},
     "item_types": {item id: heirloom type}, "effects": {type: text},
     "heirloomed": [every item any family has heirloomed], "limit": 9}

What it does (each rule with its line in the Legacy rulebook):

- L278, our design: each family's slight trait differences, as steps on the
  adventurer's tracks when the game begins.
- L847: a family that missed more than half of the chapters is dealt three
  random items after setup and keeps one; the other two are shuffled back.
  It may heirloom that item without spending its once-a-game chance.
- L502-L506: once per game, when a player draws an item card from the item
  deck (not a pickup, gift or take), they are asked at once whether to make
  it their family's heirloom (at most 9 per family, L500). A yes is kept in
  `state["chronicle"]["made"]`; the service copies it into the chronicle at
  the end and asks the player for the heirloom's name.
- L492, our design: an heirloom held by its family gives its item type's
  extra effect (rules_data/chronicle.toml, [heirloom.*]).
- L625: a tie for the traitor is broken by drawing one of the tied
  families' crest tokens (two per family, L63).
- Deaths are kept with who caused them and where, for the chronicle's fates.

The game's own record, made when the first turn begins:
    state["chronicle"] = {"families": [family per seat, by seat index], "used": [families that spent
    their chance], "made": [{family, item, how, chapter}], "deaths": [{seat, player, killer, killer_name,
    tile, round}], "refilled": [...], "steadied": [...]}
Seats are kept by index, so a handed-over seat keeps its family.
"""
from .. import cards as cd
from .. import effects, hooks, rng
from .. import state as st
from .. import traits as tr
from ..content import TRAITS

HEIRLOOM_LIMIT = 9  # L500: nine Heirloom stickers for each family
CREST_TOKENS = 2  # L63: two crest tokens for each family
CATCH_UP_DEAL = 3  # L847: three random items, keep one
YES, NO = "Yes, make it the heirloom", "No"


def options(s: dict) -> dict | None:
    return (s.get("options") or {}).get("chronicle") or None


def record(s: dict) -> dict | None:
    return s.get("chronicle")


def family_of(s: dict, pid: str) -> str | None:
    """The family playing the seat `pid` now holds (by seat index: a handover keeps it)."""
    rec = record(s)
    if rec is None or pid not in s["seats"]:
        return None
    families = rec["families"]
    i = s["seats"].index(pid)
    return families[i] if i < len(families) else None


def _seat_info(s: dict, family: str) -> dict:
    for info in (options(s) or {}).get("seats", {}).values():
        if info.get("family") == family:
            return info
    return {}


def family_called(s: dict, family: str) -> str:
    info = _seat_info(s, family)
    return info.get("name") or str(info.get("colour") or family).capitalize()


def heirlooms_of(s: dict, family: str) -> list[str]:
    """The items the family has heirloomed: before this game and in it."""
    held = [h["item"] for h in _seat_info(s, family).get("heirlooms", [])]
    return held + [m["item"] for m in (record(s) or {}).get("made", []) if m["family"] == family]


def heirloom_type(ctx, pid: str, cid: str) -> str | None:
    """The heirloom type of a card `pid` holds, when it is their family's heirloom."""
    s = ctx.s
    family = family_of(s, pid)
    if family is None or cid not in s["players"][pid]["cards"] or cid not in heirlooms_of(s, family):
        return None
    return (options(s) or {}).get("item_types", {}).get(cid, "keepsake")


def held_types(ctx, pid: str) -> set[str]:
    if pid not in ctx.s["players"] or family_of(ctx.s, pid) is None:
        return set()
    return {t for cid in ctx.s["players"][pid]["cards"] if (t := heirloom_type(ctx, pid, cid))}


def may_heirloom(s: dict, family: str | None, cid: str, how: str) -> bool:
    """L500-L504: a card drawn from the item deck (or the catch-up item,
    L847), the family's chance not spent this game unless catching up, fewer
    than nine, and the card nobody's heirloom yet."""
    opts = options(s)
    rec = record(s)
    if not opts or rec is None or family is None or how not in ("deck", "catch_up"):
        return False
    if how == "deck" and family in rec["used"]:
        return False
    if len(heirlooms_of(s, family)) >= opts.get("limit", HEIRLOOM_LIMIT):
        return False
    taken = set(opts.get("heirloomed", [])) | {m["item"] for m in rec["made"]}
    return cid not in taken


# --- the game begins: the families' traits, the catch-up items -------------------------------

@hooks.on("turn_started", order=10)
def _begin(ctx, pid: str):
    s = ctx.s
    opts = options(s)
    if not opts or record(s) is not None:
        return None
    seats = opts.get("seats", {})
    s["chronicle"] = {"families": [(seats.get(p) or {}).get("family") for p in s["seats"]], "used": [], "made": [],
                      "deaths": [], "refilled": [], "steadied": [], "chapter": opts.get("chapter")}
    for p in s["seats"]:
        info = seats.get(p) or {}
        nudges = {t: n for t, n in (info.get("traits") or {}).items() if t in TRAITS and n}
        for trait, n in sorted(nudges.items()):
            tr.change(ctx, p, trait, n, quiet=True)
        if nudges:
            shown = ", ".join(f"{t.capitalize()} {n:+d}" for t, n in sorted(nudges.items()))
            ctx.say(f"{ctx.name(p)} plays for {family_called(s, info['family'])} (crest: {info.get('crest')}): "
                    f"{shown} on their tracks.", kind="setup", player=p)
    for p in s["seats"]:
        if (seats.get(p) or {}).get("catch_up"):
            effects.queue(ctx, p, [{"do": "_legacy_catch_up"}])
    return None


@effects.step("_legacy_catch_up")
def _catch_up(ctx, task, item):
    """L847: three random items; keep one, the other two go back into the deck."""
    s, pid = ctx.s, task["player"]
    deck = s["decks"]["item"]
    dealt = []
    for _ in range(min(CATCH_UP_DEAL, len(deck))):
        dealt.append(deck.pop(rng.below(s, len(deck))))
    if not dealt:
        return
    ctx.say(f"{family_called(s, family_of(s, pid))} has missed more than half of the chapters: {ctx.name(pid)} "
            f"is dealt {', '.join(ctx.card_name(c) for c in dealt)} and keeps one.", kind="take", player=pid,
            cards=dealt)
    effects.ask(ctx, pid, "legacy_catch_up", "which item to keep?", [ctx.card_name(c) for c in dealt], cards=dealt)


@effects.decision("legacy_catch_up")
def _decide_catch_up(ctx, pending, index):
    s, pid = ctx.s, pending["player"]
    dealt = pending["data"]["cards"]
    kept = dealt[index]
    s["decks"]["item"] = rng.shuffle(s, s["decks"]["item"] + [c for c in dealt if c != kept])
    cd.gain(ctx, pid, kept)
    ctx.say(f"{ctx.name(pid)} keeps {ctx.card_name(kept)}; the others are shuffled back into the item deck.",
            kind="take", player=pid, card=kept)
    offer(ctx, pid, kept, "catch_up")


# --- heirlooms --------------------------------------------------------------------------------

@hooks.on("card_gaining", order=90)
def _drawn(ctx, pid: str, cid: str):
    """L502: a card about to be drawn from the top of the item deck (a
    pickup, a gift or a steal takes it from elsewhere, L504). The question
    waits in the queue until the draw is done, then comes at once."""
    s = ctx.s
    deck = s.get("decks", {}).get("item") or []
    if not options(s) or not deck or deck[0] != cid or ctx.c.cards[cid].deck != "item":
        return None
    if may_heirloom(s, family_of(s, pid), cid, "deck"):
        effects.queue(ctx, pid, [{"do": "_legacy_heirloom", "card": cid, "how": "deck"}], front=True)
    return None


@effects.step("_legacy_heirloom")
def _offer_step(ctx, task, item):
    offer(ctx, task["player"], item["card"], item["how"])


def offer(ctx, pid: str, cid: str, how: str):
    s = ctx.s
    family = family_of(s, pid)
    if s["phase"] == "over" or cid not in s["players"][pid]["cards"] or not may_heirloom(s, family, cid, how):
        return
    effects.ask(ctx, pid, "legacy_heirloom", f"make {ctx.card_name(cid)} the {family_called(s, family)} heirloom?",
                [YES, NO], card=cid, how=how)


@effects.decision("legacy_heirloom")
def _decide_heirloom(ctx, pending, index):
    s, pid = ctx.s, pending["player"]
    cid, how = pending["data"]["card"], pending["data"]["how"]
    family = family_of(s, pid)
    if index != 0:
        ctx.say(f"{ctx.name(pid)} keeps {ctx.card_name(cid)} as it is; that moment is lost.", kind="heirloom",
                player=pid, card=cid)
        return
    rec = record(s)
    if how == "deck":
        rec["used"].append(family)  # L502: once per game (the catch-up item does not count, L847)
    rec["made"].append({"family": family, "item": cid, "how": how, "chapter": rec.get("chapter")})
    effect = (options(s) or {}).get("effects", {}).get((options(s) or {}).get("item_types", {}).get(cid, "keepsake"))
    ctx.say(f"{ctx.name(pid)} makes {ctx.card_name(cid)} the {family_called(s, family)} heirloom; it will be named "
            f"when the chapter is written down." + (f" {effect}" if effect else ""), kind="heirloom", player=pid,
            card=cid, family=family)


# --- heirloom effects (our design, rules_data/chronicle.toml) ----------------------------------

@hooks.on("attack_dice")
def _weapon(ctx, pid: str, trait: str, weapon, reckless):
    if not options(ctx.s) or not weapon or pid not in ctx.s["players"]:
        return None
    return 1 if heirloom_type(ctx, pid, weapon) == "weapon" else None


@hooks.on("defence_dice")
def _armour(ctx, defender: str, trait: str):
    if not options(ctx.s) or defender not in ctx.s["players"]:
        return None
    return 1 if "armour" in held_types(ctx, defender) else None


@hooks.on("leave_cost")
def _tool(ctx, pid: str):
    if not options(ctx.s):
        return None
    return -1 if "tool" in held_types(ctx, pid) else None


@hooks.on("discarding", order=40)
def _potion(ctx, cid: str):
    """A heirloomed potion used by its family stays in hand the first time in a game."""
    s, task = ctx.s, ctx.task
    rec = record(s)
    if not options(s) or rec is None or task is None or task.get("source") != cid:
        return None
    pid = task["player"]
    family = family_of(s, pid)
    if pid not in s["players"] or not s["players"][pid]["alive"] or family in rec["refilled"] \
            or cid not in heirlooms_of(s, family) or cid in s["players"][pid]["cards"] \
            or (options(s).get("item_types", {}).get(cid) != "potion"):
        return None
    rec["refilled"].append(family)
    cd.gain(ctx, pid, cid)
    ctx.say(f"{ctx.card_name(cid)} is a {family_called(s, family)} heirloom: the family recipe fills it again, and "
            f"{ctx.name(pid)} keeps it.", kind="heirloom", player=pid, card=cid)
    return True


@hooks.on("turn_started", order=60)
def _keepsake(ctx, pid: str):
    s = ctx.s
    rec = record(s)
    if not options(s) or rec is None or "keepsake" not in held_types(ctx, pid):
        return None
    family = family_of(s, pid)
    if family in rec["steadied"]:
        return None
    adv = ctx.c.adventurers[s["players"][pid]["adventurer"]]
    low = [(s["players"][pid]["traits"][t] - adv.tracks[t].start, t) for t in TRAITS
           if s["players"][pid]["traits"][t] < adv.tracks[t].start]
    if not low:
        return None
    trait = min(low)[1]
    rec["steadied"].append(family)
    ctx.say(f"{ctx.name(pid)} holds the {family_called(s, family)} keepsake and remembers who they are.",
            kind="heirloom", player=pid)
    tr.change(ctx, pid, trait, 1)
    return None


# --- the traitor's tie and the deaths ---------------------------------------------------------

def crest_draw(families: list[str], state: dict) -> str:
    """L625, L63: shuffle the tied families' crest tokens (two each) face
    down and draw one. The same draw as bot.chronicle.break_traitor_tie."""
    tokens = [f for f in sorted(set(families)) for _ in range(CREST_TOKENS)]
    return tokens[rng.below(state, len(tokens))]


@hooks.on("traitor_tie", order=40)
def _crest_tie(ctx, revealer: str, tied: list[str]):
    s = ctx.s
    if not options(s) or record(s) is None or len(tied) < 2:
        return None
    families = {p: family_of(s, p) for p in tied}
    if None in families.values() or len(set(families.values())) < len(tied):
        return None  # a seat without a family: the other tie-breaks decide
    drawn = crest_draw(list(families.values()), s)
    chosen = next(p for p, f in families.items() if f == drawn)
    ctx.say(f"{', '.join(ctx.name(p) for p in tied)} tie to become the traitor; a crest token is drawn from their "
            f"families': {family_called(s, drawn)}'s. {ctx.name(chosen)} is the one.", kind="haunt", tied=tied)
    return chosen


@hooks.on("death", order=10)
def _death(ctx, pid: str, killer):
    s = ctx.s
    rec = record(s)
    if not options(s) or rec is None:
        return None
    name = None
    if killer in s["players"]:
        name = s["players"][killer]["name"]
    elif killer:
        m = next((m for m in s.get("monsters", []) if m.get("id") == killer), None)
        name = st.monster_called(m) if m else None
    tile = s["players"][pid]["tile"]
    rec["deaths"].append({"seat": s["seats"].index(pid), "player": pid, "killer": killer, "killer_name": name,
                          "tile": tile, "tile_name": ctx.tile_name(tile) if tile in ctx.c.tiles else None,
                          "round": s.get("round")})
    return None
