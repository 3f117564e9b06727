"""A campaign's record and the pure functions over it.

A campaign is plain JSON-able data, a record spanning games (never a game
system): the service keeps it beside the games, reads it when a chapter is
set up (families, members, heirlooms: `chapter_options`) and writes it when
the chapter ends (`record_chapter_end`). Every function returns a new record
and leaves the one given untouched.

    campaign = {
      "id": str, "version": 1,
      "rules_off": bool,                  # the Legacy house rules turned off at the start
      "families": {family id: {
          "id", "name" (the group's choosing, or None), "colour", "crest", "traits",
          "player" (who plays it, or None),
          "members": [{"first_name", "age", "chapters": [numbers], "died": bool, "fates": [lines]}],
          "heirlooms": [{"item", "name" (None until named), "chapter"}]}},
      "chapters": [{
          "number" (0 the prologue, 1-13, then free play), "title", "free_play": bool,
          "haunt", "haunt_title", "winner" (the first winning side or None), "winners" (every winning side),
          "won_by" (them as a line says them), "winning_players",
          "seats": [{"seat", "family", "member": {"first_name", "age"},
                     "fate": {"died", "where", "traitor", "line_by_bot", "line_by_player"?, "killer"?}}],
          "ending" (the winning side's passage, or None), "notes": [lines], "tiles_first_found": [
              {"tile", "name", "family", "seat"}], "heirlooms_made": [{"family", "item", "how"}]}]}

The rules come from the *Betrayal Legacy* rulebook (each function names its
lines); what the rulebook leaves to its own content (families' details,
heirloom effects, chapter endings) is ours, in rules_data/chronicle.toml.
"""
import copy
import re

from bot.kit import rng

VERSION = 1
CHAPTERS = 13  # L126: 13 chapters plus a prologue, then free play
HAUNTS = tuple(range(1, 51))  # our 50 Baldur's Gate haunts stand in for the Legacy deck's
HEIRLOOM_LIMIT = 9  # L189, L500
CREST_TOKENS = 2  # L63: two crest tokens for each family
HOUSE_RULES = "legacy-house-rules"
FROM_DECK, CATCH_UP = "deck", "catch_up"
NOT_DRAWN = ("pickup", "gift", "take", "trade", "steal")  # L504
NOTE_LENGTH = 300
_DISCOVERED = re.compile(r"discovers the (.+?) \(")  # the engine's line for a tile laid: "Ann discovers the X (street)."


class ChronicleError(ValueError):
    """A change the campaign's rules refuse; the message is for the players."""


def _copy(campaign: dict) -> dict:
    return copy.deepcopy(campaign)


def _family(campaign: dict, family: str) -> dict:
    if family not in campaign["families"]:
        raise ChronicleError(f"There is no {family} family; the families are {', '.join(campaign['families'])}.")
    return campaign["families"][family]


def family_called(campaign: dict, family: str) -> str:
    f = _family(campaign, family)
    return f["name"] or f["colour"].capitalize()


def family_words(campaign: dict, family: str) -> str:
    """The family as a line names it: the group's name ("House Anvilheart"), else "the Red family"."""
    f = _family(campaign, family)
    return f["name"] or f"the {f['colour'].capitalize()} family"


def introduction(who: str, member: dict, words: str) -> str:
    """L292: a player introduces their family member: "Ann plays Mira, 34, of the Red family"."""
    name = member.get("first_name") or "an unnamed member"
    return f"{who} plays {name}" + (f", {member['age']}," if member.get("age") else "") + f" of {words}"


def chapter_title(number: int) -> str:
    if number == 0:
        return "the prologue"
    if number <= CHAPTERS:
        return f"chapter {number}"
    return f"free play game {number - CHAPTERS}"


# --- starting and joining ----------------------------------------------------------------------

def new_campaign(campaign_id: str, book: dict, rules_off: bool = False) -> dict:
    """A campaign with the book's five families, none chosen yet (L278).
    `rules_off`: the Legacy house rules are turned off for the whole campaign."""
    families = {fid: {"id": fid, "name": None, "colour": f["colour"], "crest": f["crest"],
                      "traits": dict(f.get("traits", {})), "player": None, "members": [], "heirlooms": []}
                for fid, f in book["families"].items()}
    return {"id": str(campaign_id), "version": VERSION, "rules_off": bool(rules_off), "families": families,
            "chapters": []}


def choose_family(campaign: dict, player: str, family_id: str, name: str | None = None) -> dict:
    """L278, L300: a player takes a family for the whole campaign; `name` is
    the family's name, the group's choosing (given again: renamed)."""
    out = _copy(campaign)
    fam = _family(out, family_id)
    if fam["player"] not in (None, player):
        raise ChronicleError(f"The {family_called(out, family_id)} family is already played by someone else.")
    other = family_of_player(out, player)
    if other not in (None, family_id):
        raise ChronicleError(f"You already play the {family_called(out, other)} family.")
    fam["player"] = player
    if name is not None:
        name = " ".join(str(name).split())[:40]
        if not name:
            raise ChronicleError("Give the family a name.")
        fam["name"] = name
    return out


def family_of_player(campaign: dict, player: str) -> str | None:
    return next((fid for fid, f in campaign["families"].items() if f["player"] == player), None)


def member_for(campaign: dict, family: str, first_name: str, age: int) -> dict:
    """L138, L291: the family member for the next chapter: the survivor of an
    earlier chapter returning (same first name, alive), now older, or a new
    relative. Nothing is stored until the chapter is recorded."""
    first_name = " ".join(str(first_name).split())[:32]
    if not first_name:
        raise ChronicleError("Give your family member a first name.")
    if type(age) is not int or not 0 < age < 1000:
        raise ChronicleError("Give an age as a whole number.")
    members = _family(campaign, family)["members"]
    last = members[-1] if members else None
    if last and not last["died"] and (last["first_name"] or "").casefold() == first_name.casefold():
        return {"first_name": last["first_name"], "age": age if age > last["age"] else last["age"] + 1,
                "returning": True}
    return {"first_name": first_name, "age": age, "returning": False}


# --- the next chapter ----------------------------------------------------------------------------

def next_chapter(campaign: dict) -> int:
    """The number of the chapter to play next: 0 (the prologue), 1-13, then free play."""
    return len(campaign["chapters"])


def played_haunts(campaign: dict) -> list[int]:
    return [c["haunt"] for c in campaign["chapters"] if c.get("haunt")]


def pick_haunt(campaign: dict, seed_rng_value: int) -> int:
    """A haunt the campaign has not played, picked from the seed; once all 50
    have been played, one of those played fewest times (never the last)."""
    played = played_haunts(campaign)
    counts = {n: played.count(n) for n in HAUNTS}
    fewest = min(counts.values())
    pool = [n for n in HAUNTS if counts[n] == fewest]
    if len(pool) > 1 and played and played[-1] in pool:
        pool.remove(played[-1])
    return pool[rng.below({"rng": int(seed_rng_value) & rng.MASK}, len(pool))]


def catch_up(campaign: dict, family: str) -> bool:
    """L847: the family has missed MORE than half of the chapters played."""
    _family(campaign, family)
    played = len(campaign["chapters"])
    attended = sum(1 for c in campaign["chapters"] if any(s["family"] == family for s in c["seats"]))
    return (played - attended) * 2 > played


def chapter_options(campaign: dict, seed_rng_value: int, *, book: dict, members: dict | None = None,
                    present: list | None = None) -> dict:
    """The options for the next Baldur's Gate game: `chosen_haunt` (never one
    already played unless all have been), `rules` (the Legacy house rules
    unless turned off), and `chronicle`, what each seat brings for the
    engine (bot.games.babg.engine.specials.legacy). `present`: the players
    at the table (default every player with a family, L845); `members`:
    player -> member (member_for), default each family's survivor a year
    older, or nobody named."""
    number = next_chapter(campaign)
    if present is None:
        present = [f["player"] for f in campaign["families"].values() if f["player"]]
    members = members or {}
    heirloomed = sorted({h["item"] for f in campaign["families"].values() for h in f["heirlooms"]})
    seats = {}
    for player in present:
        fid = family_of_player(campaign, player)
        if fid is None:
            raise ChronicleError(f"{player} has not chosen a family yet.")
        fam = campaign["families"][fid]
        member = members.get(player) or _returning(fam)
        seats[player] = {"family": fid, "name": fam["name"], "colour": fam["colour"], "crest": fam["crest"],
                         "traits": dict(fam["traits"]), "member": dict(member),
                         "heirlooms": [{"item": h["item"], "name": h["name"]} for h in fam["heirlooms"]],
                         "catch_up": catch_up(campaign, fid)}
    chronicle = {"campaign": campaign["id"], "chapter": number, "free_play": number > CHAPTERS, "seats": seats,
                 "item_types": dict(book["item_types"]), "effects": dict(book["effects"]),
                 "heirloomed": heirloomed, "limit": HEIRLOOM_LIMIT}
    return {"chosen_haunt": pick_haunt(campaign, seed_rng_value),
            "rules": [] if campaign["rules_off"] else [HOUSE_RULES], "chronicle": chronicle}


def _returning(fam: dict) -> dict:
    last = fam["members"][-1] if fam["members"] else None
    if last and not last["died"] and last["first_name"]:
        return {"first_name": last["first_name"], "age": last["age"] + 1 if last["age"] is not None else None,
                "returning": True}
    return {"first_name": None, "age": None, "returning": False}


def game_options(options: dict) -> tuple[dict, dict | None]:
    """`chapter_options` split for an engine whose check_options does not yet
    take `chronicle`: (the options it takes, the chronicle to set in
    state["options"] after new_game)."""
    rest = {k: v for k, v in options.items() if k != "chronicle"}
    return rest, options.get("chronicle")


# --- heirlooms and the traitor's tie ------------------------------------------------------------

def heirloom_allowed(campaign: dict, family: str, how_drawn: str, used_this_game: bool,
                     item: str | None = None) -> tuple[bool, str]:
    """L502-L506, L500, L847: whether the family may heirloom an item now."""
    fam = _family(campaign, family)
    if how_drawn in NOT_DRAWN:
        return False, ("Only an item drawn from the item deck can become an heirloom, not one picked up, "
                       "given or taken.")
    if how_drawn not in (FROM_DECK, CATCH_UP):
        return False, f"Unknown way to get an item: {how_drawn!r}."
    if how_drawn == FROM_DECK and used_this_game:
        return False, "Your family has already made an heirloom this game."
    if len(fam["heirlooms"]) >= HEIRLOOM_LIMIT:
        return False, f"Your family has all its {HEIRLOOM_LIMIT} heirlooms already."
    if item is not None and any(h["item"] == item for f in campaign["families"].values() for h in f["heirlooms"]):
        return False, "That item is already an heirloom."
    return True, ("The catch-up item may become an heirloom without using this game's chance."
                  if how_drawn == CATCH_UP else "You may make it your family's heirloom.")


def name_heirloom(campaign: dict, family: str, item: str, name: str) -> dict:
    """L502: an heirloom made in a game gets its name (the adapter asks for it)."""
    out = _copy(campaign)
    name = " ".join(str(name).split())[:60]
    if not name:
        raise ChronicleError("Give the heirloom a name.")
    for h in _family(out, family)["heirlooms"]:
        if h["item"] == item:
            h["name"] = name
            return out
    raise ChronicleError(f"{item} is not a {family_called(out, family)} heirloom.")


def break_traitor_tie(campaign: dict, tied_families: list, rng_state: dict) -> str:
    """L625, L63: the tied families' crest tokens (two each) shuffled face
    down, one drawn (bot.kit.rng.below on `rng_state`, a dict holding "rng").
    The engine draws the same way (specials.legacy.crest_draw)."""
    for fid in tied_families:
        _family(campaign, fid)
    if not tied_families:
        raise ChronicleError("No families are tied.")
    tokens = [f for f in sorted(set(tied_families)) for _ in range(CREST_TOKENS)]
    return tokens[rng.below(rng_state, len(tokens))]


# --- the end of a chapter -----------------------------------------------------------------------

def _sides(result: dict | None) -> list[str]:
    """The winning sides: `sides` (several winning together), a `winner`
    that is a list, or the single `winner`."""
    if not result:
        return []
    if result.get("sides"):
        return list(result["sides"])
    winner = result.get("winner")
    if isinstance(winner, (list, tuple)):
        return list(winner)
    return [winner] if winner else []


def _pretty(tile: str | None, names: dict | None) -> str | None:
    if not tile:
        return None
    if names and tile in names:
        return names[tile]
    return " ".join(w.capitalize() if w not in ("of", "the") else w for w in tile.split("_"))


def record_chapter_end(campaign: dict, chapter, final_state: dict, events: list, *, book: dict,
                       tile_names: dict | None = None) -> dict:
    """Write down a finished chapter (L825-L841): each seat's fate (who died,
    where and to what, from the game's events and its chronicle record;
    whether they were the traitor; the line the bot writes), the tiles found
    for the first time in the campaign, the winning sides and their ending
    passage, the heirlooms made. `chapter`: its number, or the options
    chapter_options gave for it. `tile_names`: tile id -> name (else the id, tidied)."""
    out = _copy(campaign)
    opts = chapter if isinstance(chapter, dict) else None
    number = (opts.get("chronicle") or {}).get("chapter") if opts else chapter
    chron = (opts or {}).get("chronicle") or (final_state.get("options") or {}).get("chronicle") or {}
    if number is None:
        number = chron.get("chapter")
    if number != next_chapter(out):
        raise ChronicleError(f"The next chapter to write down is {chapter_title(next_chapter(out))}, "
                             f"not {chapter_title(number) if isinstance(number, int) else number}.")
    title = chapter_title(number)
    state_rec = final_state.get("chronicle") or {}
    seats_info = chron.get("seats", {})
    seat_ids = list(final_state.get("seats", []))
    by_index = state_rec.get("families") or [(seats_info.get(p) or {}).get("family") for p in seat_ids]
    haunt = final_state.get("haunt") or {}
    traitors = set(haunt.get("traitors") or [])
    result = final_state.get("result") or {}
    sides = _sides(result)
    winning_players = result.get("winners")
    if winning_players is None:
        winning_players = [p for p in seat_ids
                           if ("traitor" in sides and p in traitors) or ("heroes" in sides and p not in traitors)]
    deaths = {}
    for d in state_rec.get("deaths", []):  # the engine's own record: who caused it, where (specials.legacy)
        deaths.setdefault(d["seat"], dict(d))
    for e in events:  # the game's death lines: "Ann (Lia) dies: their Might fell to the skull."
        if e.get("kind") == "death" and e.get("player") in seat_ids and " dies: " in e.get("text", ""):
            i = seat_ids.index(e["player"])
            d = deaths.setdefault(i, {"seat": i, "player": e["player"]})
            d.setdefault("why", e["text"].split(" dies: ", 1)[1].rstrip("."))
    seats = []
    for d in deaths.values():  # L300: a player's killing named by the killer's family member, not the seat
        if d.get("killer") and d.get("killer") == d.get("player"):
            d.pop("killer_name", None)  # their own doing: the line says why instead
        else:
            d["killer_name"] = _killer_member(out, d, seat_ids, by_index, seats_info) or d.get("killer_name")
    for i, pid in enumerate(seat_ids):
        fid = by_index[i] if i < len(by_index) else None
        if fid is None or fid not in out["families"]:
            continue
        info = next((v for v in seats_info.values() if v.get("family") == fid), {})
        member = info.get("member") or {"first_name": None, "age": None}
        player = (final_state.get("players") or {}).get(pid, {})
        died = not player.get("alive", True) or i in deaths
        d = deaths.get(i, {})
        tile = d.get("tile") or player.get("tile")
        where = d.get("tile_name") or _pretty(tile, tile_names)
        traitor = pid in traitors
        won = pid in winning_players
        fate = {"died": died, "where": where if died else None, "traitor": traitor,
                "line_by_bot": _fate_line(died, d, where, traitor, won, bool(sides), title)}
        if d.get("killer_name"):
            fate["killer"] = d["killer_name"]
        seats.append({"seat": pid, "family": fid,
                      "member": {"first_name": member.get("first_name"), "age": member.get("age")}, "fate": fate})
        _add_member(out["families"][fid], member, number, fate)
    found_before = {t["tile"] for c in out["chapters"] for t in c.get("tiles_first_found", [])}
    first_found = []
    for e in events:
        tile = e.get("tile")
        if e.get("kind") != "discover" or not tile or e.get("player") not in seat_ids or tile in found_before:
            continue
        found_before.add(tile)
        i = seat_ids.index(e["player"])
        said = _DISCOVERED.search(e.get("text", ""))
        name = (tile_names or {}).get(tile) or (said.group(1) if said else _pretty(tile, None))
        first_found.append({"tile": tile, "name": name, "seat": e["player"],
                            "family": by_index[i] if i < len(by_index) else None})
    number_of_haunt = haunt.get("number") or (final_state.get("options") or {}).get("chosen_haunt")
    endings = book["endings"].get(number_of_haunt, {})
    passages = [endings.get("heroes" if s == "heroes" else "traitor") for s in sides]
    made = []
    for m in state_rec.get("made", []):
        fam = out["families"].get(m["family"])
        if fam is None or len(fam["heirlooms"]) >= HEIRLOOM_LIMIT or any(h["item"] == m["item"] for h in fam["heirlooms"]):
            continue
        fam["heirlooms"].append({"item": m["item"], "name": None, "chapter": number})
        made.append({"family": m["family"], "item": m["item"], "how": m.get("how", FROM_DECK)})
    out["chapters"].append({
        "number": number, "title": title, "free_play": number > CHAPTERS, "haunt": number_of_haunt,
        "haunt_title": haunt.get("title"), "winner": sides[0] if sides else None, "winners": sides,
        "won_by": _won_by(sides, bool(traitors)), "winning_players": list(winning_players), "seats": seats,
        "ending": " ".join(p for p in dict.fromkeys(passages) if p) or None, "notes": [],
        "tiles_first_found": first_found, "heirlooms_made": made})
    return out


def _killer_member(campaign: dict, death: dict, seat_ids: list, by_index: list, seats_info: dict) -> str | None:
    """The family member who played the killing seat ("Mira of the Red family"), or None when a monster
    (or nobody) caused the death."""
    killer = death.get("killer")
    if not killer:
        return None
    if killer in seat_ids:  # the seat as it is at the end (a handover keeps the family by index)
        i = seat_ids.index(killer)
        fid = by_index[i] if i < len(by_index) else None
    else:  # the seat's holder at the start, handed over since
        fid = (seats_info.get(killer) or {}).get("family")
    if fid not in campaign["families"]:
        return None
    info = next((v for v in seats_info.values() if v.get("family") == fid), {})
    name = (info.get("member") or {}).get("first_name")
    return f"{name} of {family_words(campaign, fid)}" if name else None


def _won_by(sides: list[str], any_traitor: bool) -> str:
    """The winners as the chronicle says them: in a haunt without a traitor,
    the traitor's side is the haunt's own threat."""
    if not sides:
        return "nobody"
    said = ["the heroes" if s == "heroes" else ("the traitor" if any_traitor else "the haunt") if s == "traitor"
            else f"the {s}" for s in sides]
    return " and ".join(said)


def _fate_line(died: bool, death: dict, where: str | None, traitor: bool, won: bool, any_winner: bool,
               title: str) -> str:
    role = "the traitor" if traitor else "a hero"
    if died:
        place = f" on the {where}" if where else ""
        if death.get("killer_name"):
            return f"fell to {death['killer_name']}{place}, {title}"
        why = death.get("why")
        return f"died{place}" + (f" ({why})" if why else "") + f", {title}"
    if not any_winner:
        return f"lived through {title} as {role}; nobody won"
    return f"survived {title} as {role}" + (" and won" if won else ", on the losing side")


def _add_member(fam: dict, member: dict, number: int, fate: dict):
    last = fam["members"][-1] if fam["members"] else None
    name = member.get("first_name")
    if last and not last["died"] and (last["first_name"] or "").casefold() == (name or "").casefold():
        last["age"] = member.get("age") or last["age"]
    else:
        last = {"first_name": name, "age": member.get("age"), "chapters": [], "died": False, "fates": []}
        fam["members"].append(last)
    last["chapters"].append(number)
    last["died"] = fate["died"]
    last["fates"].append(fate["line_by_bot"])


def set_fate(campaign: dict, chapter: int, family: str, line: str) -> dict:
    """L300, L833: the player writes their member's fate in their own words."""
    out = _copy(campaign)
    seat = next((s for s in _chapter(out, chapter)["seats"] if s["family"] == family), None)
    if seat is None:
        raise ChronicleError(f"The {family_called(out, family)} family did not play {chapter_title(chapter)}.")
    seat["fate"]["line_by_player"] = _line(line)
    return out


def add_note(campaign: dict, chapter: int, line: str) -> dict:
    """L841: a line for the history of the city, kept with its chapter."""
    out = _copy(campaign)
    _chapter(out, chapter)["notes"].append(_line(line))
    return out


def _line(line: str) -> str:
    line = " ".join(str(line).split())
    if not line:
        raise ChronicleError("Write something to keep.")
    if len(line) > NOTE_LENGTH:
        raise ChronicleError(f"Keep it to {NOTE_LENGTH} characters.")
    return line


def _chapter(campaign: dict, number: int) -> dict:
    for c in campaign["chapters"]:
        if c["number"] == number:
            return c
    raise ChronicleError(f"{chapter_title(number).capitalize()} has not been played yet."
                         if isinstance(number, int) and number >= 0 else f"There is no chapter {number}.")


# --- reading it back -----------------------------------------------------------------------------

def summary_lines(campaign: dict) -> list[str]:
    """The campaign at a glance: the families, then each chapter's haunt,
    winners, fates, first-found tiles and notes."""
    played = len(campaign["chapters"])
    left = max(0, CHAPTERS + 1 - played)
    lines = [f"Chronicle {campaign['id']}: {played} chapter{'s' if played != 1 else ''} played"
             + (f", {left} to go before free play." if left else ", now in free play.")
             + (" Legacy house rules off." if campaign["rules_off"] else "")]
    for fid, f in campaign["families"].items():
        if f["player"]:
            lines.append(f"- {family_called(campaign, fid)} ({f['colour']}, crest: {f['crest']}): "
                         f"{len(f['members'])} member(s), {len(f['heirlooms'])} heirloom(s).")
    for c in campaign["chapters"]:
        won = c.get("won_by") or _won_by(c["winners"], True)
        lines.append(f"{c['title'].capitalize()}: haunt {c['haunt']}"
                     + (f" ({c['haunt_title']})" if c.get("haunt_title") else "") + f", won by {won}.")
        for s in c["seats"]:
            who = s["member"]["first_name"] or "an unnamed member"
            fate = s["fate"].get("line_by_player") or s["fate"]["line_by_bot"]
            lines.append(f"  {who} of {family_called(campaign, s['family'])}: {fate}.")
        if c["tiles_first_found"]:
            lines.append("  First found: " + ", ".join(t["name"] for t in c["tiles_first_found"]) + ".")
        lines.extend(f"  Note: {n}" for n in c["notes"])
    return lines


def family_lines(campaign: dict, family: str) -> list[str]:
    """One family's page: who plays it, its members and their fates, its heirlooms."""
    f = _family(campaign, family)
    lines = [f"{family_called(campaign, family)}: the {f['colour']} family, crest {f['crest']}"
             + (f", played by {f['player']}." if f["player"] else ", not chosen yet.")]
    if f["traits"]:
        lines.append("Traits: " + ", ".join(f"{t.capitalize()} {n:+d}" for t, n in sorted(f["traits"].items())) + ".")
    if catch_up(campaign, family) and campaign["chapters"]:
        lines.append("Has missed more than half of the chapters: catches up next time it plays.")
    for m in f["members"]:
        chapters = ", ".join(chapter_title(n) for n in m["chapters"])
        lines.append(f"- {m['first_name'] or 'an unnamed member'}, {m['age'] if m['age'] is not None else '?'}"
                     f" ({chapters}): {'; '.join(m['fates'])}" + (" (dead)" if m["died"] else ""))
    for h in f["heirlooms"]:
        lines.append(f"- heirloom: {h['name'] or h['item']} ({h['item']}, {chapter_title(h['chapter'])})")
    return lines
