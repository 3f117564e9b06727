"""Castle Ravenloft as a game system (bot.kit.contract): its engine, words, texts, built-in heroes and
story behind the one contract the shared layers know. Not registered here: `bot.games` does that.

Typed words (the local table): `join <hero>`, `start`, `leave`, `move 3,-2`, `attack m3 with 12`
(a power by card number, id or name; `attack m3,m5 with lightning bolt` for several targets),
`disable k4`, `use healing word p1`, `use potion of healing p0`, `pickup [k2]`, `end [N|E|S|W|none]`,
`choose 2`, `undo`."""
import dataclasses

from bot.kit.contract import Command, EngineSystem, Option, Param
from bot.kit import replay
from bot.kit.errors import IllegalAction

from . import autoplay, stats
from .engine import data, geometry, heroes
from .engine.content import load_content
from .engine.game import Engine
from .engine.legal import legal_actions
from .engine.state import Ctx, hero_pids
from .engine.view import view

PATIENCE = 60  # actions of one seat in one turn, past which the built-in seat answers first options and ends
HOW_POWERS = (("the Adventure Book's suggested powers", "suggested"), ("powers chosen by each player", "chosen"),
              ("powers drawn at random (harder)", "random"))
EDGES = (("north", "N"), ("east", "E"), ("south", "S"), ("west", "W"), ("no exploring", "none"))


# ------------------------------------------------------------------ suggestions from the state

def _legal(system, state, seat, kind):
    return [a for a in system.legal_actions(state, seat) if a["type"] == kind]


def _squares(system, state, seat):
    return [(a["to"], a["to"]) for a in _legal(system, state, seat, "move")]


def _powers(system, state, seat):
    seen, out = set(), []
    for a in _legal(system, state, seat, "attack"):
        if a["power"] not in seen:
            seen.add(a["power"])
            out.append((data.power(system.content(), a["power"])["name"], a["power"]))
    return out


def _targets(system, state, seat):
    seen, out = set(), []
    for a in _legal(system, state, seat, "attack"):
        if a["target"] not in seen:
            seen.add(a["target"])
            f = state["figures"][a["target"]]
            out.append((f"{f['name']} {a['target']} ({f['hp']} HP)", a["target"]))
    return out


def _traps(system, state, seat):
    return [(f"{_marker_name(system, state, a['trap'])} {a['trap']}", a["trap"])
            for a in _legal(system, state, seat, "disable")]


def _usables(system, state, seat):
    seen, out = set(), []
    for a in _legal(system, state, seat, "use"):
        key = a.get("power") or a.get("item")
        if key not in seen:
            seen.add(key)
            out.append((_thing_name(system, a), key))
    return out


def _use_targets(system, state, seat):
    seen, out = set(), []
    for a in _legal(system, state, seat, "use"):
        t = a.get("target")
        if t is not None and t not in seen:
            seen.add(t)
            out.append((_target_name(state, t), t))
    return out


def _objects(system, state, seat):
    return [(next((m.get("label", "object") for m in state["markers"] if m["id"] == a["object"]), a["object"]),
             a["object"]) for a in _legal(system, state, seat, "pickup")]


def _marker_name(system, state, mid):
    m = next((m for m in state["markers"] if m["id"] == mid), None)
    if m and m.get("card"):
        return data.encounter(system.content(), m["card"])["name"]
    return (m or {}).get("label", "marker")


def _thing_name(system, a):
    if a.get("power"):
        return data.power(system.content(), a["power"])["name"]
    return data.treasure(system.content(), a["item"])["name"]


def _target_name(state, t):
    if t in state["players"]:
        return state["players"][t]["name"]
    if t in state["figures"]:
        return f"{state['figures'][t]['name']} {t}"
    return str(t)


# ------------------------------------------------------------------ commands

def _move(state, seat, v):
    return {"type": "move", "player": seat, "to": str(v.get("square", "")).replace(" ", "")}


def _attack(state, seat, v):
    return {"type": "attack", "player": seat, "power": v.get("power"), "target": v.get("target")}


def _end(state, seat, v):
    a = {"type": "end", "player": seat}
    if v.get("explore"):
        a["explore"] = v["explore"]
    return a


def _use(state, seat, v):
    what = v.get("what")
    a = {"type": "use", "player": seat}
    if what in (state.get("players", {}).get(seat) or {}).get("items", []):
        a["item"] = what
    else:
        a["power"] = what
    if v.get("target"):
        a["target"] = v["target"]
    return a


def _choose(state, seat, v):
    try:
        n = int(v["option"])
    except (TypeError, ValueError, KeyError):
        raise IllegalAction("Choose an answer by its number.")
    return {"type": "decide", "player": seat, "choice": n}


def _pickup(state, seat, v):
    a = {"type": "pickup", "player": seat}
    if v.get("object"):
        a["object"] = v["object"]
    return a


COMMANDS = (
    Command("move", "Move your hero up to their Speed", _move,
            (Param("square", "text", "The square, as x,y (for example 3,-2)", required=True, suggest=_squares),)),
    Command("attack", "Attack a monster with a power", _attack,
            (Param("power", "text", "The power", required=True, suggest=_powers),
             Param("target", "text", "The monster (m3; m3,m5 for several)", required=True, suggest=_targets))),
    Command("end", "End your hero phase (and explore an edge you stand along)", _end,
            (Param("explore", "choice", "Which edge to explore", choices=EDGES),)),
    Command("undo", "Take back your last move of this hero phase (until a roll or a draw)",
            lambda s, seat, v: {"type": "undo", "player": seat}),
    Command("choose", "Answer the question the game is asking you", _choose,
            (Param("option", "number", "The answer's number", required=True, low=1, high=9),)),
    Command("disable", "Try to disable a trap on your tile instead of attacking",
            lambda s, seat, v: {"type": "disable", "player": seat, **({"trap": v["trap"]} if v.get("trap") else {})},
            (Param("trap", "text", "The trap marker", suggest=_traps),)),
    Command("use", "Use a utility power or an item", _use,
            (Param("what", "text", "The power or the item", required=True, suggest=_usables),
             Param("target", "text", "Whom or what it works on", suggest=_use_targets))),
    Command("pickup", "Pick up an object on or next to your square", _pickup,
            (Param("object", "text", "The object", suggest=_objects),)),
)


def power_numbers(pw: dict) -> str:
    """A power's figures in a line (a select option's description: 100 characters at most)."""
    if pw["attack"] is None:
        return pw["text"][:100]
    reach = {"adjacent": "adjacent", "within": f"within {pw['n']} tile{'s' if pw['n'] != 1 else ''}",
             "exact": f"{pw['n']} tiles away"}.get(pw["range"], "see the card")
    if pw["n"] == 0 and pw["range"] == "within":
        reach = "on your tile"
    miss = f", miss {pw['miss']}" if pw["miss"] else ""
    return f"+{pw['attack']} to hit, {pw['damage']} damage{miss}, {reach}. {pw['text']}"[:100]


@dataclasses.dataclass
class Ravenloft(EngineSystem):
    id: str = "ravenloft"
    title: str = "Castle Ravenloft"
    players: tuple[int, int] = (1, 5)
    pick_word: str = "hero"
    discord_face: str | None = "bot.games.ravenloft.discord"
    engine: Engine | None = None

    def __post_init__(self):
        c = self.content()
        advs = []
        for key in data.adventure_keys(c):
            rec = data.adventure_record(c, key)
            lo, hi = autoplay.suited_counts(c, key)[0], autoplay.suited_counts(c, key)[-1]
            who = f"{lo} hero" if lo == hi == 1 else f"{lo}-{hi} heroes"
            advs.append((f"{data.g(rec, 'title', key)} ({who})", str(key)))
        self.options = (
            Option("adventure", "choice", "The adventure to play", tuple(advs)),
            Option("surges", "number", "Healing surges: 1 harder, 2 the book's, 3 easier", low=1, high=3),
            Option("powers", "choice", "How heroes get their powers", HOW_POWERS),
        )
        self.commands = COMMANDS

    def make_engine(self) -> Engine:
        return Engine(load_content())

    # --- the engine ----------------------------------------------------------------------
    def new_game(self, seed, options=None):
        o = dict(options or {})
        adv = o.get("adventure")
        if isinstance(adv, str) and adv.isdigit():
            o["adventure"] = int(adv)
        if isinstance(o.get("surges"), str) and o["surges"].isdigit():
            o["surges"] = int(o["surges"])
        o = {k: v for k, v in o.items() if v is not None}
        return self._engine().new_game(seed, o)

    def legal_actions(self, state, seat=None):
        seats = [seat] if seat is not None else list(state.get("seats", []))
        out = []
        for p in seats:
            out += legal_actions(self.content(), state, p)
        return out

    def actor(self, state):
        if state.get("phase") != "play":
            return None
        if state.get("pending"):
            return state["pending"]["player"]
        t = state.get("turn")
        return t["player"] if t else None

    def join_action(self, seat, name, pick, builtin=False):
        a = {"type": "join", "player": seat, "name": name, "hero": pick or "?"}
        if not builtin:
            return a
        a["builtin"] = True
        if pick in self.content().heroes:  # in a game of chosen powers, a built-in hero takes the book's suggestion
            h = data.hero(self.content(), pick)
            a["powers"] = h["suggested"][len(h["fixed"]):]
        return a

    def join_questions(self, state, pick):
        """With chosen powers (Rules for Later Adventures), a hero's powers of each kind from their own pool,
        each shown with its numbers."""
        c = self.content()
        if (state.get("options") or {}).get("powers") != "chosen" or pick not in c.heroes:
            return []
        h = data.hero(c, pick)
        out = []
        for kind in ("at_will", "daily", "utility"):
            count = data._int(h["choose"].get(kind, 0))
            pool = [x for x in h["pool"].get(kind, []) if x not in h["fixed"]]
            if count and pool:
                word = kind.replace("_", "-")
                out.append({"key": kind, "count": min(count, len(pool)),
                            "prompt": f"{h['name']}'s {word} power{'s' if count > 1 else ''}: choose {count}",
                            "options": [(data.power(c, x)["name"], x, power_numbers(data.power(c, x)))
                                        for x in pool]})
        return out

    def join_answered(self, action, answers):
        return {**action, "powers": [x for kind in ("at_will", "daily", "utility") for x in answers.get(kind, [])]}

    def picks(self, state):
        c = self.content()
        taken = {p["hero"] for p in state.get("players", {}).values()}
        out = []
        for hid in data.hero_ids(c):
            if hid not in taken:
                h = c.heroes[hid]
                out.append((f"{h.name} ({h.race} {h.hero_class})", hid))
        return out

    # --- words ---------------------------------------------------------------------------
    def parse(self, words, state, seat):
        parts = words.strip().split()
        if not parts:
            raise IllegalAction("Type a command.")
        verb, rest = parts[0].lower(), parts[1:]
        c = self.content()
        if verb == "join":
            hid = self._hero_by_words(" ".join(rest))
            return {"type": "join", "player": seat, "name": seat, "hero": hid}
        if verb in ("start", "leave", "undo"):
            return {"type": verb, "player": seat}
        if verb == "move":
            if not rest:
                raise IllegalAction("move needs a square, as x,y (for example move 3,-2).")
            return _move(state, seat, {"square": "".join(rest)})
        if verb == "attack":
            if "with" in [w.lower() for w in rest]:
                i = [w.lower() for w in rest].index("with")
                target, power_words = " ".join(rest[:i]), rest[i + 1:]
            elif len(rest) >= 2:
                target, power_words = rest[0], rest[1:]
            else:
                raise IllegalAction("attack needs a monster and a power: attack m3 with 12.")
            return _attack(state, seat, {"target": target.replace(" ", ""),
                                         "power": self._power_by_words(state, seat, " ".join(power_words))})
        if verb == "end":
            a = {"type": "end", "player": seat}
            if rest:
                d = rest[0].lower()
                d = {"north": "N", "east": "E", "south": "S", "west": "W", "n": "N", "e": "E", "s": "S",
                     "w": "W"}.get(d, d)
                a["explore"] = d
            return a
        if verb in ("choose", "decide"):
            if not rest:
                raise IllegalAction("choose needs the answer's number.")
            if rest[0].isdigit():
                return _choose(state, seat, {"option": rest[0]})
            return {"type": "decide", "player": seat, "choice": " ".join(rest)}
        if verb == "disable":
            return {"type": "disable", "player": seat, **({"trap": rest[0]} if rest else {})}
        if verb in ("pickup", "pick"):
            rest = [w for w in rest if w.lower() != "up"]
            return _pickup(state, seat, {"object": rest[0] if rest else None})
        if verb == "use":
            return self._use_words(state, seat, rest, c)
        raise IllegalAction(f"Unknown command {parts[0]!r}: try move, attack, end, use, disable, pickup, choose, "
                            f"undo.")

    def _hero_by_words(self, words):
        c = self.content()
        want = data.slug(words)
        for hid in data.hero_ids(c):
            if want in (data.slug(hid), data.slug(data.hero(c, hid)["name"])):
                return hid
        raise IllegalAction(f"Pick a hero: {', '.join(data.hero(c, h)['name'] for h in data.hero_ids(c))}.")

    def _power_by_words(self, state, seat, words):
        c = self.content()
        p = (state.get("players") or {}).get(seat) or {}
        want = data.slug(words)
        for pid in p.get("powers", {}):
            num = getattr(c.powers.get(pid), "number", None)
            if want in (data.slug(pid), data.slug(data.power(c, pid)["name"])) or (num is not None and want == str(num)):
                return pid
        return words.strip()

    def _use_words(self, state, seat, rest, c):
        p = (state.get("players") or {}).get(seat) or {}
        things = [(k, data.power(c, k)["name"]) for k in p.get("powers", {})] + \
                 [(k, data.treasure(c, k)["name"]) for k in p.get("items", [])]
        for n in range(len(rest), 0, -1):
            want = data.slug(" ".join(rest[:n]))
            for key, name in things:
                num = getattr(c.powers.get(key), "number", None) if key in c.powers else None
                if want in (data.slug(key), data.slug(name)) or (num is not None and want == str(num)):
                    tail = rest[n:]
                    v = {"what": key}
                    if tail:
                        v["target"] = self._target_words(state, " ".join(tail))
                    return _use(state, seat, v)
        raise IllegalAction("Use which power or item? Name one your hero has.")

    def _target_words(self, state, words):
        w = words.strip()
        if w in state.get("players", {}) or w in state.get("figures", {}):
            return w
        for pid, p in state.get("players", {}).items():
            if data.slug(p["name"]) == data.slug(w):
                return pid
        return w

    def describe(self, action, state=None):
        c = self.content()
        s = state or {}
        t = action.get("type")
        if t == "move":
            return f"move to {action.get('to')}"
        if t == "attack":
            names = []
            for fid in str(action.get("target", "")).split(","):
                f = (s.get("figures") or {}).get(fid)
                names.append(f"{f['name']} {fid}" if f else fid)
            pw = action.get("power")
            pname = data.power(c, pw)["name"] if pw in c.powers else pw
            return f"{pname} on {' and '.join(names)}"
        if t == "use":
            name = _thing_name(self, action) if (action.get("power") in c.powers or action.get("item") in c.treasures) \
                else (action.get("power") or action.get("item"))
            tgt = action.get("target")
            return f"{name} on {_target_name(s, tgt)}" if tgt and s else (f"{name} on {tgt}" if tgt else name)
        if t == "disable":
            return f"disable {_marker_name(self, s, action['trap']) if s else action.get('trap')}" \
                if action.get("trap") else "disable the trap"
        if t == "pickup":
            return "pick up " + next((m.get("label", "the object") for m in s.get("markers", [])
                                      if m["id"] == action.get("object")), "the object")
        if t == "end":
            d = action.get("explore")
            word = dict((v, k) for k, v in EDGES).get(d)
            if d == "none":
                return "end, no exploring"
            return f"end, explore {word}" if word else "end the hero phase"
        if t == "decide":
            ch = action.get("choice")
            q = s.get("pending") or {}
            if isinstance(ch, int) and q and 1 <= ch <= len(q["options"]):
                ch = q["options"][ch - 1]
            return str(ch)
        if t == "join":
            hid = action.get("hero")
            return f"join as {data.hero(c, hid)['name']}" if hid in c.heroes else "join"
        if t == "undo":
            return "take back"
        return t or "?"

    def view(self, state, viewer):
        return view(state, viewer)

    # --- texts ---------------------------------------------------------------------------
    def _letters(self, state):
        """Hero initials (unique) and monster letters."""
        c = self.content()
        used, hero_l = set(), {}
        for pid in state.get("seats", []):
            name = data.hero(c, state["players"][pid]["hero"])["name"].upper()
            ch = next((x for x in name if x.isalpha() and x not in used), "?")
            used.add(ch)
            hero_l[pid] = ch
        mon_l = {}
        letters = "abcdefghijklmnopqrstuvwxyz"
        for i, fid in enumerate(sorted(state.get("figures", {}), key=lambda f: (len(f), f))):
            mon_l[fid] = letters[i % 26]
        return hero_l, mon_l

    def status_text(self, state):
        c = self.content()
        rec = data.adventure_record(c, state.get("adventure"))
        lines = [f"Castle Ravenloft: {data.g(rec, 'title', state.get('adventure'))}"]
        if state.get("phase") == "lobby":
            lines.append("In the lobby: " + (", ".join(f"{p['name']} ({data.hero(c, p['hero'])['name']})"
                                                     for p in state["players"].values()) or "nobody yet"))
            return "\n".join(lines)
        placed = state["tiles"]["placed"]
        hero_l, mon_l = self._letters(state)
        cells = {}
        for k in placed:
            for x, y in geometry.tile_squares(*geometry.parse(k)):
                ch = geometry.char(state, x, y)
                cells[(x, y)] = {"#": "#", "B": "+", "S": "="}.get(ch, ".")
        for m in state.get("markers", []):
            if m.get("square"):
                cells[geometry.parse(m["square"])] = "*"
        for fid, f in state["figures"].items():
            for sq in f.get("squares") or [f["square"]]:
                cells[geometry.parse(sq)] = mon_l[fid]
        for pid in hero_pids(state):
            p = state["players"][pid]
            if p.get("square") and not p.get("escaped"):
                ch = hero_l[pid]
                cells[geometry.parse(p["square"])] = ch if p["hp"] > 0 else "_"
        if cells:
            xs = [x for x, _ in cells]
            ys = [y for _, y in cells]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            lines.append(self._x_ruler(x0, x1))
            for y in range(y1, y0 - 1, -1):
                row = "".join(cells.get((x, y), " ") for x in range(x0, x1 + 1))
                lines.append(f"{y:>4}  {row}")
        lines.append("Map: # wall, . floor, + bone pile, = stairs, * object, letters heroes (capital) and monsters "
                     "(small), _ a downed hero.")
        for pid in hero_pids(state):
            p = state["players"][pid]
            conds = [k for k, v in (p.get("conditions") or {}).items() if v]
            where = "escaped" if p.get("escaped") else f"at {p.get('square')}"
            lines.append(f"{hero_l[pid]} {data.hero(c, p['hero'])['name']} ({p['name']}): {p.get('hp', 0)}/"
                         f"{p.get('max_hp', 0)} HP, level {p.get('level', 1)}, {where}"
                         + (f", {', '.join(conds)}" if conds else ""))
        for fid, f in sorted(state["figures"].items(), key=lambda kv: (len(kv[0]), kv[0])):
            lines.append(f"{mon_l[fid]} {f['name']} {fid} at {f['square']}: {f['hp']}/{f['max_hp']} HP"
                         + (" (villain)" if f.get("villain") else ""))
        xp = sum(data.monster(c, data.card_monster(c, x))["xp"] if data.card_monster(c, x) else 0
                 for x in state.get("xp", []))
        env = state.get("environment")
        lines.append(f"Healing surges: {state.get('surges', 0)}. Experience: {xp}. Tiles left: "
                     f"{len(state['tiles']['stack']) if isinstance(state['tiles']['stack'], list) else state['tiles']['stack']}."
                     + (f" Environment: {data.encounter(c, env)['name']}." if env else ""))
        t = state.get("turn")
        if state.get("outcome"):
            lines.append(state["outcome"]["text"])
        elif t:
            lines.append(f"Turn {t['number']}: {state['players'][t['player']]['name']}, {t['phase']} phase.")
        return "\n".join(lines)

    @staticmethod
    def _x_ruler(x0, x1):
        row = [" "] * (x1 - x0 + 1)
        for x in range(x0, x1 + 1):
            if x % 4 == 0:
                label = str(x)
                for i, ch in enumerate(label):
                    if x - x0 + i < len(row):
                        row[x - x0 + i] = ch
        return "      " + "".join(row)

    def sheet_text(self, state, seat):
        c = self.content()
        p = state["players"].get(seat)
        if p is None:
            return "No hero at this seat."
        h = data.hero(c, p["hero"])
        if "hp" not in p:
            return f"{h['name']} (joining; {h['ability']})"
        ctx = Ctx(c, state)
        lines = [f"{h['name']} ({p['name']}), level {p.get('level', 1)}: {p['hp']}/{p['max_hp']} HP, AC "
                 f"{heroes.ac(ctx, seat)}, Speed {heroes.speed(ctx, seat)}, surge value {heroes.stats(ctx, seat)['surge']}",
                 f"Ability: {h['ability']}"]
        for pid, st in p["powers"].items():
            pw = data.power(c, pid)
            num = getattr(c.powers.get(pid), "number", "")
            lines.append(f"  [{num}] {pw['name']} ({pw['type'].replace('_', '-')}){' - used' if st != 'ready' else ''}")
        if p.get("items"):
            lines.append("Items: " + ", ".join(data.treasure(c, t)["name"] for t in p["items"]))
        if p.get("cards"):
            lines.append("Cards held: " + ", ".join(
                data.monster(c, data.card_monster(c, x["card"]))["name"] if x["kind"] == "monster"
                else data.encounter(c, x["card"])["name"] for x in p["cards"]))
        conds = [k for k, v in (p.get("conditions") or {}).items() if v]
        if conds:
            lines.append("Conditions: " + ", ".join(conds))
        for b in p.get("bonuses", []):
            lines.append(f"  +{b['value']} {b['kind']} from {b['source']}")
        return "\n".join(lines)

    def story(self, state):
        c = self.content()
        if state.get("phase") != "over":
            return []
        names = {pid: f"{p['name']} ({data.hero(c, p['hero'])['name']})" for pid, p in state["players"].items()}
        tally = state.get("tally") or {}
        out = [state["outcome"]["text"] if state.get("outcome") else "The adventure ended."]
        named = [t["name"] for t in state["tiles"]["placed"].values() if t.get("name")]
        out.append(f"The dungeon: {len(state['tiles']['placed'])} tiles laid"
                   + (f", among them {', '.join(named)}." if named else "."))
        by = {}
        for d in tally.get("defeated", []):
            by.setdefault(d["by"], []).append(d)
        for pid, ds in by.items():
            who = names.get(pid, "the dungeon itself")
            out.append(f"{who} defeated {len(ds)}: {', '.join(d['name'] for d in ds)} "
                       f"({sum(d['xp'] for d in ds)} XP).")
        if not by:
            out.append("No monster was defeated.")
        earned = sum(d["xp"] for d in tally.get("defeated", []))
        out.append(f"Experience earned: {earned}; spent: {tally.get('xp_spent', 0)}.")
        falls = tally.get("falls", {})
        if falls:
            out.append("Fell: " + ", ".join(f"{names[p]} {n} time{'s' if n > 1 else ''}" for p, n in falls.items()) + ".")
        else:
            out.append("No hero fell.")
        return out

    # --- /history and /stats (bot.games.ravenloft.stats) ---------------------------------
    def history_entry(self, state):
        return stats.history_entry(self.content(), state)

    def record(self, state):
        return stats.record(self.content(), state)

    def stats_lines(self, records):
        return stats.stats_lines(records)

    def builtin_action(self, state, seat, rnd=None, patience=0):
        if patience >= PATIENCE:
            if state.get("pending") and state["pending"]["player"] == seat:
                return {"type": "decide", "player": seat, "choice": 1}
            if (state.get("turn") or {}).get("player") == seat:
                return {"type": "end", "player": seat}
        a = autoplay.choose_action(self.content(), state, seat)
        return a or None

    def skip_action(self, state, seat):
        pending = state.get("pending")
        if pending and pending["player"] == seat:
            return {"type": "decide", "player": seat, "choice": 1}
        if self.phase(state) == "play" and (state.get("turn") or {}).get("player") == seat and not pending:
            ends = [a for a in legal_actions(self.content(), state, seat) if a["type"] == "end"]
            return ends[0] if ends else {"type": "end", "player": seat}
        return None

    def help_topics(self):
        return [
            {"id": "turn", "title": "Your turn",
             "text": "A turn has three phases. Hero phase: move and attack (in either order) or move twice. "
                     "Exploration: standing along an unexplored edge, you lay a new tile and a monster on it. "
                     "Villain phase: an encounter card if no tile was laid or the new one has a black triangle, "
                     "then villains and your monster and trap cards act."},
            {"id": "moving", "title": "Moving",
             "text": "Move up to your Speed in squares, diagonally too, never into walls or monsters, never "
                     "between two walls that touch at a corner. You may pass another hero but not stop there. "
                     "Type move x,y."},
            {"id": "attacking", "title": "Attacking",
             "text": "Roll the die and add the power's bonus: reaching the target's AC hits. At-will powers come "
                     "back every turn, daily and utility powers are turned face down once used. "
                     "Type attack m3 with 12 (a power's card number, id or name)."},
            {"id": "surges", "title": "Falling and healing surges",
             "text": "A hero at 0 HP is down: monsters ignore them. Starting your turn down, the group spends a "
                     "healing surge and you get your surge value back; with none left, the heroes lose."},
            {"id": "experience", "title": "Experience",
             "text": "Defeated monsters go to a shared experience pile. 5 experience cancels an encounter card as "
                     "it is drawn, or levels up a hero who rolled a natural 20."},
            {"id": "treasure", "title": "Treasure",
             "text": "Defeating a monster draws one treasure card a turn. Items stay (use potions and the like "
                     "with use), blessings help everyone until the end of your next turn, fortunes act at once."},
            {"id": "undo", "title": "Taking back",
             "text": "undo takes back your last move or use of this hero phase, until the die is rolled or a card "
                     "or tile is drawn."},
        ]


def _render():
    from . import render  # Pillow is loaded where pictures are drawn (the map worker), not by every importer
    return render


def _report():
    from . import report
    return report


Ravenloft.render_turn = lambda self, state, seat=None, max_bytes=None: _render().render_turn(
    self.content(), state, seat, max_bytes=max_bytes)
Ravenloft.render_map = lambda self, state, max_bytes=None: _render().render_map(self.content(), state,
                                                                              max_bytes=max_bytes)
Ravenloft.render_replay = lambda self, seed, actions, options: _render().render_replay_gif(
    self.content(), [self.view(st, None) for st in replay.turn_states(self, seed, actions, options)])
Ravenloft.content_main = lambda self, argv: _report().main(argv)

SYSTEM = Ravenloft()
