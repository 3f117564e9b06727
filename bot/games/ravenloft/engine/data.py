"""The content read the one way the rules want it.

`content.py` owns the data's shape (its docstring is the reference); this module is the only one
that reads it, each reader giving a plain dict (missing fields get a safe default), so the rules
depend on one small surface:

- tile: id, name, grid [4 rows, north first, triangle on the south edge], black, start, stairs
  [[row, col]], group, skull;
- hero: id, name, ac, hp, speed, surge, level2 {...}, critical {extra_damage, regain_hp}, ability,
  fixed [power ids], choose {at_will, daily, utility}, pool {kind: [ids]}, suggested [ids];
- power: id, name, type, timing, trigger, attack (bonus or None), hits (True when it has an attack
  line), damage, miss, targets, range ("adjacent" | "within" | "exact" | "special"), n, keep_on_miss;
- monster (a monster entry or a villain): id, name, ac, hp, xp, kind, cards, attacks {id: {...}},
  tactics [Tactic], large, villain, level, starts_with;
- encounter: id, entry, name, type, attack {bonus, damage, miss, target, conditions, rolls} or None,
  disable, steps;
- treasure: id, entry, name, type, lasts, bonuses [{stat, amount, when, who}], attack, steps;
- adventure: the content's Adventure record plus number/title/players."""


_MEMO: dict = {}  # reader name -> {id(content): (content, {key: record})}


def _memo(fn):
    """A reader's answer kept per content object and id: the records are read, never changed, by
    the rules (each caller copies what it changes)."""
    name = fn.__name__
    per_content = _MEMO.setdefault(name, {})

    def read(content, key):
        c = per_content.get(id(content))
        if c is None or c[0] is not content:
            c = per_content[id(content)] = (content, {})
        try:
            return c[1][key]
        except KeyError:
            pass
        except TypeError:  # an id that is no id (a list, a dict): read it plainly
            return fn(content, key)
        value = c[1][key] = fn(content, key)
        return value
    read.__name__ = name
    read.__doc__ = fn.__doc__
    return read


def g(obj, key, default=None):
    """A field of a content record, whether the record is a dict or an object."""
    if obj is None:
        return default
    if isinstance(obj, dict):
        v = obj.get(key, default)
    else:
        v = getattr(obj, key, default)
    return default if v is None else v


def table(content, name: str) -> dict:
    t = g(content, name, {})
    return t if isinstance(t, dict) else {g(x, "id"): x for x in t}


def _int(v, default=0):
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


_SLUGS: dict = {}  # the rules compare the same few names over and over


def slug(text) -> str:
    if type(text) is str:
        got = _SLUGS.get(text)
        if got is None:
            if len(_SLUGS) > 20000:
                _SLUGS.clear()
            got = _SLUGS[text] = "".join(ch for ch in text.lower() if ch.isalnum())
        return got
    return "".join(ch for ch in str(text).lower() if ch.isalnum())


# ------------------------------------------------------------------ tiles

@_memo
def tile(content, tid: str) -> dict:
    t = table(content, "tiles").get(tid)
    stairs = []
    for f in g(t, "features", ()) or ():
        if g(f, "kind") == "stairs":
            stairs.extend([list(sq) for sq in g(f, "squares", ())])
    return {"id": tid, "name": g(t, "name", "") or "", "grid": [str(r) for r in g(t, "grid", ["...."] * 4)],
            "black": g(t, "triangle", "white") == "black", "start": g(t, "group", "") == "start",
            "stairs": stairs, "group": g(t, "group", ""), "skull": bool(g(t, "skull", False)),
            "joins": dict(g(t, "joins", {}) or {}),
            "exits": [SIDE_LETTER.get(x, x) for x in g(t, "exits", ("north", "east", "south", "west"))]}


SIDE_LETTER = {"north": "N", "east": "E", "south": "S", "west": "W"}


def tile_ids(content) -> list:
    return list(table(content, "tiles"))


def dungeon_tiles(content) -> list:
    """The 40 tiles of the stack (the Start halves aside), in file order."""
    return [t for t in tile_ids(content) if tile(content, t)["group"] != "start"]


def tile_named(content, name_or_id: str):
    if name_or_id in table(content, "tiles"):
        return name_or_id
    for t in tile_ids(content):
        if slug(tile(content, t)["name"]) == slug(name_or_id):
            return t
    return None


# ------------------------------------------------------------------ heroes and powers

def _level(lv) -> dict:
    crit = g(lv, "critical", None)
    return {"ac": _int(g(lv, "ac", 14)), "hp": _int(g(lv, "hp", 8)), "speed": _int(g(lv, "speed", 5)),
            "surge": _int(g(lv, "surge", 4)), "extra_daily": _int(g(lv, "extra_daily", 0)),
            "critical": None if crit is None else {"extra_damage": _int(g(crit, "extra_damage", 0)),
                                                   "regain_hp": _int(g(crit, "regain_hp", 0))}}


@_memo
def hero(content, hid: str) -> dict:
    h = table(content, "heroes").get(hid)
    l1 = _level(g(h, "level_1", None))
    l2 = _level(g(h, "level_2", None)) if g(h, "level_2", None) is not None else dict(
        l1, ac=l1["ac"] + 1, hp=l1["hp"] + 2, surge=l1["surge"] + 1, extra_daily=1)
    pool = {"at_will": [], "daily": [], "utility": []}
    for pw in g(h, "power_pool", ()) or ():
        pool.setdefault(power(content, pw)["type"], []).append(pw)
    choose = dict(g(h, "choose", {}) or {"at_will": 2, "daily": 1, "utility": 1})
    suggested = list(g(h, "fixed_powers", ()))
    for kind in ("utility", "at_will", "daily"):
        suggested += pool.get(kind, [])[:_int(choose.get(kind, 0))]
    return {"id": hid, "name": g(h, "name", hid), "ac": l1["ac"], "hp": l1["hp"], "speed": l1["speed"],
            "surge": l1["surge"], "level2": l2, "ability": g(h, "ability", ""),
            "fixed": list(g(h, "fixed_powers", ())), "choose": choose, "pool": pool, "suggested": suggested}


def hero_ids(content) -> list:
    return list(table(content, "heroes"))


RANGE_WORDS = {"adjacent": "adjacent", "own_tile": "within", "within": "within", "exactly": "exact",
               "special": "special"}


@_memo
def power(content, pid: str) -> dict:
    p = table(content, "powers").get(pid)
    a = g(p, "attack", None)
    rng = RANGE_WORDS.get(g(a, "range", "special"), "special")
    n = 0 if g(a, "range", "") in ("own_tile", "adjacent") else _int(g(a, "tiles", 0))
    return {"id": pid, "name": g(p, "name", pid), "type": str(g(p, "kind", "at_will")).replace("-", "_"),
            "timing": g(p, "timing", "attack"), "trigger": g(p, "trigger", ""), "hits": a is not None,
            "attack": None if a is None or g(a, "bonus", None) is None else _int(g(a, "bonus")),
            "damage": _int(g(a, "damage", 0)), "miss": _int(g(a, "miss", 0)),
            "targets": g(a, "targets", "none"), "range": rng, "n": n,
            "keep_on_miss": bool(g(p, "keep_on_miss", False)), "text": g(p, "text", "")}


# ------------------------------------------------------------------ monsters and villains

def _attacks(rec) -> dict:
    out = {}
    for a in g(rec, "attacks", ()) or ():
        aid = g(a, "id", g(a, "name"))
        out[aid] = {"id": aid, "name": g(a, "name", aid), "attack": _int(g(a, "bonus", 5)),
                    "damage": _int(g(a, "damage", 1)), "miss": _int(g(a, "miss", 0)),
                    "area": g(a, "area", "one"), "conditions": list(g(a, "conditions", ()) or ()),
                    "heal": _int(g(a, "heal_self", 0)), "text": g(a, "text", "")}
    return out


@_memo
def monster(content, mid: str) -> dict:
    """A monster entry (e.g. "skeleton") or a villain id."""
    vil = table(content, "villains").get(mid)
    if vil is not None:
        return {"id": mid, "name": g(vil, "name", mid), "ac": _int(g(vil, "ac", 14)), "hp": _int(g(vil, "hp", 8)),
                "xp": _int(g(vil, "xp", 5)), "kind": g(vil, "type", ""), "cards": [mid],
                "attacks": _attacks(vil), "tactics": list(g(vil, "tactics", ()) or ()),
                "large": bool(g(vil, "large", False)), "villain": True, "level": _int(g(vil, "level", 5)),
                "starts_with": list(g(vil, "starts_with", ()) or ())}
    cards = monster_cards(content).get(mid, [])
    rec = table(content, "monsters").get(cards[0]) if cards else table(content, "monsters").get(mid)
    return {"id": mid, "name": g(rec, "name", mid), "ac": _int(g(rec, "ac", 12)), "hp": _int(g(rec, "hp", 1)),
            "xp": _int(g(rec, "xp", 1)), "kind": g(rec, "type", ""), "cards": cards,
            "attacks": _attacks(rec), "tactics": list(g(rec, "tactics", ()) or ()), "large": False,
            "villain": False, "level": _int(g(rec, "level", 1)), "starts_with": []}


def monster_cards(content) -> dict:
    """Monster entry -> its card ids."""
    out: dict = {}
    for cid, c in table(content, "monsters").items():
        out.setdefault(g(c, "entry", cid), []).append(cid)
    return out


def monster_ids(content) -> list:
    return list(monster_cards(content))


def card_monster(content, card: str) -> str:
    """The monster entry a monster card shows (a villain's card is the villain's id)."""
    c = table(content, "monsters").get(card)
    return g(c, "entry", card) if c is not None else card


def villain_ids(content) -> list:
    return list(table(content, "villains"))


# ------------------------------------------------------------------ encounters and treasure

@_memo
def encounter(content, eid: str) -> dict:
    e = table(content, "encounters").get(eid)
    a = g(e, "attack", None)
    return {"id": eid, "entry": g(e, "entry", eid), "name": g(e, "name", eid), "type": g(e, "type", "event"),
            "attack": None if a is None else {"name": g(e, "name", eid), "attack": _int(g(a, "bonus", 5)),
                                              "damage": _int(g(a, "damage", 1)), "miss": _int(g(a, "miss", 0)),
                                              "target": g(a, "target", "active_hero"),
                                              "conditions": list(g(a, "conditions", ()) or ()),
                                              "rolls": max(1, _int(g(a, "rolls", 1)))},
            "disable": _int(g(e, "disable", 10)), "steps": list(g(e, "steps", ()) or ()),
            "text": g(e, "text", "")}


def encounter_ids(content) -> list:
    return list(table(content, "encounters"))


@_memo
def treasure(content, tid: str) -> dict:
    t = table(content, "treasures").get(tid)
    return {"id": tid, "entry": g(t, "entry", tid), "name": g(t, "name", tid), "type": g(t, "type", "item"),
            "lasts": g(t, "lasts", "kept"),
            "bonuses": [{"stat": g(b, "stat"), "amount": _int(g(b, "amount", 0)), "when": g(b, "when", "always"),
                         "who": g(b, "who", "holder")} for b in g(t, "bonuses", ()) or ()],
            "attack": g(t, "attack", None), "steps": list(g(t, "steps", ()) or ()), "text": g(t, "text", "")}


def treasure_deck(content) -> list:
    fn = getattr(content, "treasure_deck", None)
    if fn is not None:
        return list(fn())
    return [t for t in table(content, "treasures") if treasure(content, t)["type"] != "adventure"]


# ------------------------------------------------------------------ adventures

@_memo
def adventure_record(content, number):
    """The adventure by its book number, or by id (our own adventures have no number)."""
    advs = table(content, "adventures")
    if isinstance(number, str) and number in advs:
        return advs[number]
    for a in advs.values():
        if g(a, "number", None) is not None and _int(g(a, "number")) == _int(number, -99):
            return a
    return None


def adventure_keys(content) -> list:
    """Every adventure's key as the `adventure` option takes it: its number (as an int) for the
    book's, its id for ours."""
    out = []
    for aid, a in table(content, "adventures").items():
        n = g(a, "number", None)
        out.append(_int(n) if n is not None else aid)
    return out


# ------------------------------------------------------------------ names

def by_name(content, name: str, *tables) -> list:
    want = slug(name)
    out = []
    for t in tables or ("powers", "treasures", "encounters", "monsters", "villains", "tiles", "heroes"):
        for k, rec in table(content, t).items():
            if slug(g(rec, "name", k)) == want or slug(k) == want:
                out.append(k)
    return out


def ability(content, hid: str) -> str:
    """The hero's special ability as one word: scout, defender, lore, trapexpert, aid (or '')."""
    return slug(hero(content, hid)["ability"])
