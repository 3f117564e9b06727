"""The Castle Ravenloft engine's door: `Engine(content).new_game(seed, options)` and
`Engine.apply(state, action) -> (state, events)`; the given state is never changed, and a refused
action raises IllegalAction and changes nothing.

Squares are named "x,y" (x east, y north; the Start tile's stair half covers 0..3, 0..3) and tiles
"tx,ty" (tile 0,1 covers squares x 0..3, y 4..7). Monsters are named by figure id ("m7"), trap
markers by marker id ("k3").

Actions (`type`, `player` and the fields below):

- lobby: `join {name, hero, powers?}` (powers: the ids picked when the game is set up with powers
  "chosen"), `leave`, `start`;
- hero phase (the active player): `move {to: "x,y"}` one move of up to the hero's Speed (a hero
  makes two actions: move and attack in either order, or two moves); `attack {power, target}` with
  target a figure id, or several joined by commas for a power striking two or three ("m3,m5"), or
  any figure on the tile an area power strikes; `disable {trap}` instead of attacking, on the trap's
  tile; `use {power, target?}` a utility power (target a player id or a tile, as the power needs);
  `pickup {object?}` an object marker on or next to the hero's square (free); `end {explore?}` ends
  the hero phase: explore is "N" | "E" | "S" | "W" (an edge the hero stands along, or any edge of the
  tile for a scout) or "none" (a scout not exploring); exploration and the villain phase follow by
  themselves;
- `decide {choice}`: answers the pending question (its option's text or number, from 1);
- any time: `handover {to, name?}` the player's seat (hero, cards, turn, questions) goes to player `to`.

Options of `new_game`: adventure (a number, or an id for our own), surges (1, 2, 3), powers
("suggested" | "chosen" | "random"), first_player (a player id)."""

from bot.kit.errors import IllegalAction
from bot.kit.rng import seeded
from bot.kit.seats import renamed

from . import (combat, data, encounter_rules, encounters, explore, geometry, heroes, items, levels, pending, powers,
               setup, treasure, turns, undo)
from . import adventures  # noqa: F401  (registers the adventures' rule sets)
from .rulesets import active
from .state import Ctx, copy, empty_state, hero_pids

LOBBY = ("join", "leave", "start")
PLAY = ("move", "attack", "disable", "use", "pickup", "end", "decide", "undo")
FIELDS = {"join": {"name", "hero", "powers", "builtin"}, "leave": set(), "start": set(), "move": {"to"},
          "attack": {"power", "target"}, "disable": {"trap"}, "use": {"power", "item", "target"}, "pickup": {"object"},
          "end": {"explore"}, "decide": {"choice"}, "undo": set(), "handover": {"to", "name"}}


class Engine:
    def __init__(self, content):
        self.content = content

    def new_game(self, seed: int, options: dict | None = None) -> dict:
        o = dict(options or {})
        keys = data.adventure_keys(self.content)
        adv = o.get("adventure", 1 if 1 in keys else (keys[0] if keys else 1))
        if isinstance(adv, str) and adv.isdigit():
            adv = int(adv)
        if keys and adv not in keys:
            raise IllegalAction(f"There is no adventure {adv}; pick one of {', '.join(str(k) for k in keys)}.")
        surges = o.get("surges")
        if surges is not None and surges not in (1, 2, 3):
            raise IllegalAction("Healing surges are 1 (harder), 2 or 3 (easier).")
        how = o.get("powers", "suggested")
        if how not in ("suggested", "chosen", "random"):
            raise IllegalAction("Powers are 'suggested', 'chosen' or 'random'.")
        opts = {"adventure": adv, "surges": surges, "powers": how, "first_player": o.get("first_player")}
        s = empty_state(seeded(seed), opts)
        rec = data.adventure_record(self.content, adv)
        s["surges"] = surges if surges is not None else data._int(data.g(rec, "surges", 2), 2)
        return s

    def apply(self, state: dict, action: dict):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action needs a type.")
        if action["type"] == "undo":
            return self._undo(state, action)
        if action["type"] == "handover":
            return self._handover(state, action)
        s, events = self._apply(undo.without_chain(state), action)
        undo.after_action(state, s, action, events)
        return s, events

    def _undo(self, state: dict, action: dict):
        pid = action.get("player")
        extra = set(action) - {"type", "player"}
        if extra:
            raise IllegalAction(f"undo takes no {', '.join(sorted(extra))}.")
        if not isinstance(pid, str) or pid not in state.get("players", {}):
            raise IllegalAction("You have no hero in this adventure.")
        chain = undo.check(state, pid)
        s = chain["base"]
        for a in chain["actions"][:-1]:
            s, _ = self.apply(s, a)
        if len(chain["actions"]) == 1:
            s = dict(s, undo={"stop": "nothing more to take back"})
        name = state["players"][pid]["name"]
        return s, [{"kind": "undo", "to": "all", "text": undo.taken_back(chain, name)}]

    def _handover(self, state: dict, action: dict):
        pid, to = action.get("player"), action.get("to")
        extra = set(action) - {"type", "player", "to", "name"}
        if extra:
            raise IllegalAction(f"handover takes no {', '.join(sorted(extra))}.")
        if state["phase"] == "over":
            raise IllegalAction("The adventure is over.")
        if not isinstance(pid, str) or pid not in state.get("players", {}):
            raise IllegalAction("You have no hero in this adventure.")
        if not isinstance(to, str) or not to or to in state["players"]:
            raise IllegalAction("Hand the seat to someone without a hero in this adventure.")
        name = action.get("name")
        if name is not None and not isinstance(name, str):
            raise IllegalAction("handover's name is a word.")
        hero = data.hero(self.content, state["players"][pid]["hero"])["name"]
        old = state["players"][pid]["name"]
        s = renamed(state, pid, to)
        p = s["players"][to]
        p["name"] = (name or to)[:40]
        p.pop("builtin", None)  # a seat handed over is a person's
        return s, [{"kind": "handover", "to": "all", "text": f"{old} hands {hero} over to {p['name']}."}]

    def _apply(self, state: dict, action: dict):
        s = copy(state)
        ctx = Ctx(self.content, s)
        kind = action["type"]
        pid = action.get("player")
        if not isinstance(pid, str):
            raise IllegalAction("An action needs the player who makes it.")
        if kind not in FIELDS:
            raise IllegalAction(f"Unknown action {kind!r}; try one of {', '.join(LOBBY + PLAY)}.")
        extra = set(action) - FIELDS[kind] - {"type", "player"}
        if extra:
            raise IllegalAction(f"{kind} takes no {', '.join(sorted(extra))}.")
        for key, value in action.items():
            if key in ("type", "player") or value is None:
                continue
            if key == "choice":
                ok = isinstance(value, (int, str)) and not isinstance(value, bool)
            elif key == "powers":
                ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
            elif key == "builtin":
                ok = isinstance(value, bool)
            else:
                ok = isinstance(value, str)
            if not ok:
                raise IllegalAction(f"{kind}'s {key} is a word, not {type(value).__name__}.")
        if s["phase"] == "over":
            raise IllegalAction("The adventure is over.")
        if kind in LOBBY:
            if s["phase"] != "lobby":
                raise IllegalAction("The adventure has begun: joining, leaving and starting are for the lobby.")
            getattr(self, "_" + kind)(ctx, pid, action)
        else:
            if s["phase"] != "play":
                raise IllegalAction("The adventure has not started yet: use start.")
            if pid not in s["players"]:
                raise IllegalAction("You have no hero in this adventure.")
            if kind == "decide":
                self._decide(ctx, pid, action)
            else:
                if s["pending"] is not None:
                    q = s["pending"]
                    raise IllegalAction(f"First the question to {heroes.name(ctx, q['player'])}: {q['prompt']} "
                                        f"(decide one of: {', '.join(q['options'])}).")
                t = s["turn"]
                if t is None or t["player"] != pid:
                    raise IllegalAction(f"It is {heroes.name(ctx, t['player'])}'s turn; wait for yours.")
                if t["phase"] != "hero":
                    raise IllegalAction("Your hero phase is over.")
                getattr(self, "_" + kind)(ctx, pid, action)
            self._after(ctx)
        s["log_turn"]["actions"] += 1
        return s, ctx.events

    # ---------------------------------------------------------------- lobby

    def _join(self, ctx, pid, a):
        s = ctx.s
        if pid in s["players"]:
            raise IllegalAction("You are already at the table; leave first to change hero.")
        hid = a.get("hero")
        ids = data.hero_ids(self.content)
        if hid not in ids:
            raise IllegalAction(f"Pick a hero: {', '.join(ids)}.")
        if any(p["hero"] == hid for p in s["players"].values()):
            raise IllegalAction(f"{data.hero(self.content, hid)['name']} is taken; pick another hero.")
        if len(s["players"]) >= 5:
            raise IllegalAction("Five heroes are at the table already.")
        picks = a.get("powers")
        if picks is not None:
            why = setup.check_picks(self.content, hid, picks)
            if why:
                raise IllegalAction(why)
        name = a.get("name") or pid
        if not isinstance(name, str):
            raise IllegalAction("A name is text.")
        s["players"][pid] = {"name": name[:40], "hero": hid, "picks": list(picks or [])}
        if a.get("builtin"):
            s["players"][pid]["builtin"] = True
        s["seats"].append(pid)
        ctx.say("join", f"{name[:40]} joins as {data.hero(self.content, hid)['name']}.")

    def _leave(self, ctx, pid, a):
        if pid not in ctx.s["players"]:
            raise IllegalAction("You are not at the table.")
        del ctx.s["players"][pid]
        ctx.s["seats"].remove(pid)
        ctx.say("leave", "A player leaves the table.")

    def _start(self, ctx, pid, a):
        s = ctx.s
        if pid not in s["players"]:
            raise IllegalAction("Join with a hero before starting.")
        adv = data.adventure_record(self.content, s["adventure"])
        lo, hi = data._int(data.g(adv, "players_min", 1), 1), data._int(data.g(adv, "players_max", 5), 5)
        n = len(s["players"])
        if not lo <= n <= hi:
            raise IllegalAction(f"{data.g(adv, 'title', 'This adventure')} is for {lo} to {hi} heroes; "
                                f"{n} are at the table.")
        if s["options"].get("powers") == "chosen":
            for q in hero_pids(s):
                if not s["players"][q]["picks"]:
                    raise IllegalAction(f"{s['players'][q]['name']} has not chosen powers yet (join with powers).")
        s["phase"] = "play"
        setup.run(ctx)
        turns.begin_turn(ctx, s["first"])
        self._after(ctx)

    # ---------------------------------------------------------------- hero phase

    def _slots(self, ctx):
        t = ctx.s["turn"]
        return 2 + t.get("free_moves", 0) - len(t["actions"])

    def _move(self, ctx, pid, a):
        s = ctx.s
        t = s["turn"]
        if self._slots(ctx) <= 0 or (t["actions"].count("move") >= 2 + t.get("free_moves", 0)):
            raise IllegalAction("You have used both actions this hero phase; end it.")
        if not heroes.standing(ctx, pid):
            raise IllegalAction("Your hero is down and cannot move.")
        sp = heroes.speed(ctx, pid)
        if sp <= 0:
            raise IllegalAction("Your hero is Immobilized (Speed 0): attack or end the hero phase.")
        try:
            to = geometry.name(*geometry.parse(a.get("to")))
        except ValueError:
            raise IllegalAction("Name the square as x,y, for example 2,5.")
        options = heroes.moves_from(ctx, pid, sp)
        if to not in options:
            if to in heroes.hero_squares(ctx, pid):
                raise IllegalAction("Another hero stands there: you may pass through but not stop on that square.")
            raise IllegalAction(f"Square {to} is not within your Speed of {sp} squares (walls, monsters and "
                                f"narrow gaps between walls block the way).")
        s["players"][pid]["square"] = to
        t["actions"].append("move")
        ctx.say("move", f"{heroes.name(ctx, pid)} moves to square {to}.", hero=pid, square=to,
                path=options[to])
        self._auto_pickup(ctx, pid, [s["players"][pid]["square"]] + options[to])

    def _auto_pickup(self, ctx, pid, path):
        for sq in path:
            xy = geometry.parse(sq)
            for m in list(ctx.s["markers"]):
                if m["kind"] == "object" and m.get("square") and (
                        m["square"] == sq or geometry.adjacent(geometry.parse(m["square"]), xy)):
                    self._take_object(ctx, pid, m)

    def _take_object(self, ctx, pid, m):
        ctx.s["markers"].remove(m)
        ctx.s["players"][pid].setdefault("objects", []).append(m.get("object") or m["id"])
        ctx.say("pickup", f"{heroes.name(ctx, pid)} picks up the {m.get('label', 'object')}.", hero=pid)
        active(ctx.s).object_taken(ctx, pid, m)

    def _attack_slot(self, ctx, pid):
        t = ctx.s["turn"]
        if t["attacked"]:
            raise IllegalAction("You have already attacked this hero phase; move or end it.")
        if self._slots(ctx) <= 0:
            raise IllegalAction("You have used both actions this hero phase; end it.")
        if not heroes.standing(ctx, pid):
            raise IllegalAction("Your hero is down and can use no power.")

    def _attack(self, ctx, pid, a):
        s = ctx.s
        self._attack_slot(ctx, pid)
        pw_id = a.get("power")
        p = s["players"][pid]
        if pw_id not in p["powers"]:
            raise IllegalAction("Name one of your own powers to attack with.")
        pw = data.power(self.content, pw_id)
        if not pw["hits"]:
            raise IllegalAction(f"{pw['name']} is not an attack; use it with use.")
        if p["powers"][pw_id] != "ready":
            raise IllegalAction(f"{pw['name']} is face down (used); pick another power.")
        raw = a.get("target")
        chosen = raw if isinstance(raw, list) else [x.strip() for x in str(raw or "").split(",") if x.strip()]
        allowed = combat.power_targets(ctx, pid, pw)
        if not chosen:
            raise IllegalAction(f"Name a target for {pw['name']}: {', '.join(allowed) or 'none is in range'}.")
        bad = [x for x in chosen if x not in allowed]
        if bad:
            raise IllegalAction(f"{', '.join(bad)} is not a target {pw['name']} can reach; it can reach "
                                f"{', '.join(allowed) or 'nothing now'}.")
        most = {"one": 1, "two": 2, "up_to_three": 3, "two_on_a_tile": 2}.get(pw["targets"], 1)
        if combat.area(ctx, pw) or pw["targets"] in ("each_on_a_tile", "each_adjacent"):
            most = 1
        if len(set(chosen)) != len(chosen) or len(chosen) > most:
            raise IllegalAction(f"{pw['name']} strikes at most {most} different target(s).")
        if pw["targets"] == "two_on_a_tile" and len({combat.fig_tiles(s['figures'][x])[0] for x in chosen}) > 1:
            raise IllegalAction(f"{pw['name']}'s two targets must stand on the same tile.")
        if pw["targets"] == "each_adjacent":
            targets = [f for f in allowed]
        else:
            targets = combat.struck(ctx, pid, pw, chosen) if pw["targets"] == "each_on_a_tile" else chosen
        t = s["turn"]
        t["attacked"] = True
        t["actions"].append("attack")
        res = combat.hero_attack(ctx, pid, pw, targets)
        powers.after_attack(ctx, pid, pw_id, res, targets)
        if pw["type"] in ("daily", "utility") and not (pw["keep_on_miss"] and not res["hits"]):
            combat.flip(ctx, pid, pw_id)

    def _disable(self, ctx, pid, a):
        self._attack_slot(ctx, pid)
        mine = heroes.tile(ctx, pid)
        traps = [m for m in ctx.s["markers"] if m["kind"] == "trap" and m["tile"] == mine]
        want = a.get("trap")
        if want is not None:
            traps = [m for m in traps if m["id"] == want]
        if not traps:
            raise IllegalAction("No trap lies on your tile to disable.")
        t = ctx.s["turn"]
        t["attacked"] = True
        t["actions"].append("attack")
        encounters.disable(ctx, pid, traps[0])

    def _use(self, ctx, pid, a):
        p = ctx.s["players"][pid]
        if a.get("item") is not None:
            if a.get("power") is not None:
                raise IllegalAction("Use a power or an item, not both at once.")
            self._use_item(ctx, pid, a)
            return
        pw_id = a.get("power")
        if pw_id not in p["powers"]:
            raise IllegalAction("Name one of your own powers.")
        pw = data.power(self.content, pw_id)
        if pw["hits"]:
            raise IllegalAction(f"{pw['name']} is an attack: use attack.")
        if p["powers"][pw_id] != "ready":
            raise IllegalAction(f"{pw['name']} is face down (used).")
        if not heroes.standing(ctx, pid):
            raise IllegalAction("Your hero is down and can use no power.")
        if powers.word(ctx, pw_id) not in powers.USABLE:
            raise IllegalAction(f"{pw['name']} is not one the engine plays on request yet.")
        if powers.cannot_use(ctx, pid, pw_id):
            raise IllegalAction(powers.cannot_use(ctx, pid, pw_id))
        inst = powers.instead_of_attack(ctx, pw_id)
        if inst:
            self._attack_slot(ctx, pid)
        targets = powers.use_targets(ctx, pid, pw_id)
        target = a.get("target")
        if targets == [None]:
            target = None
        elif target not in targets:
            if not targets:
                raise IllegalAction(f"{pw['name']} has no one to help now.")
            raise IllegalAction(f"Name a target for {pw['name']}: {', '.join(str(x) for x in targets)}.")
        if inst:
            ctx.s["turn"]["attacked"] = True
            ctx.s["turn"]["actions"].append("attack")
        powers.use(ctx, pid, pw_id, target)
        combat.flip(ctx, pid, pw_id)

    def _use_item(self, ctx, pid, a):
        it = a.get("item")
        p = ctx.s["players"][pid]
        if not isinstance(it, str) or it not in p["items"]:
            raise IllegalAction("Name one of your hero's items.")
        tr = data.treasure(self.content, it)
        if not heroes.standing(ctx, pid):
            raise IllegalAction("Your hero is down and can use no item.")
        if not items.usable(ctx, it):
            raise IllegalAction(f"{tr['name']} works by itself; it is not used by hand.")
        if items.takes_attack(ctx, it):
            self._attack_slot(ctx, pid)
        allowed = items.targets(ctx, pid, it)
        target = a.get("target")
        if allowed == [None]:
            target = None
        elif target not in allowed:
            if not allowed:
                raise IllegalAction(f"{tr['name']} has nothing to work on now.")
            raise IllegalAction(f"Name a target for {tr['name']}: {', '.join(str(x) for x in allowed)}.")
        if items.takes_attack(ctx, it):
            ctx.s["turn"]["attacked"] = True
            ctx.s["turn"]["actions"].append("attack")
        items.use(ctx, pid, it, target)

    def _pickup(self, ctx, pid, a):
        me = heroes.xy(ctx, pid)
        objs = [m for m in ctx.s["markers"] if m["kind"] == "object" and m.get("square")
                and (geometry.parse(m["square"]) == me or geometry.adjacent(geometry.parse(m["square"]), me))]
        if a.get("object") is not None:
            objs = [m for m in objs if m["id"] == a["object"]]
        if not objs:
            raise IllegalAction("No object lies on or next to your square.")
        self._take_object(ctx, pid, objs[0])

    def _end(self, ctx, pid, a):
        d = a.get("explore")
        if d is not None:
            opts = turns.explore_options(ctx, pid)
            if d == "none":
                if geometry.edges_at_square(ctx.s, ctx.s["players"][pid]["square"]) and ctx.s["tiles"]["stack"]:
                    raise IllegalAction("Your hero stands along an unexplored edge and must explore it.")
            elif d not in opts:
                raise IllegalAction(f"You cannot explore {d}; you may explore {', '.join(opts) or 'nothing'} from "
                                    f"here.")
        ctx.say("phase", f"{heroes.name(ctx, pid)} ends the hero phase.")
        turns.end_hero_phase(ctx, pid, d)

    # ---------------------------------------------------------------- questions

    def _decide(self, ctx, pid, a):
        q = ctx.s["pending"]
        if q is None:
            raise IllegalAction("Nothing is waiting for an answer.")
        if q["player"] != pid:
            raise IllegalAction(f"The question is {heroes.name(ctx, q['player'])}'s to answer.")
        choice = a.get("choice")
        if isinstance(choice, int) or (isinstance(choice, str) and choice.isdigit()):
            i = int(choice) - 1
            if not 0 <= i < len(q["options"]):
                raise IllegalAction(f"Pick one of: {', '.join(q['options'])}.")
            choice = q["options"][i]
        if choice not in q["options"]:
            raise IllegalAction(f"Pick one of: {', '.join(q['options'])}.")
        pending.take(ctx)
        kind = q["kind"]
        if kind == "cancel":
            encounters.answer_cancel(ctx, q, choice)
        elif kind == "level":
            if choice == "level up":
                levels.level_up(ctx, pid)
        elif kind == "give":
            treasure.answer_give(ctx, q, choice)
        elif kind == "lucky":
            treasure.answer_lucky(ctx, q, choice)
        elif kind == "stealth":
            explore.answer_stealth(ctx, q, choice)
        elif kind == "music":
            explore.answer_music(ctx, q, choice)
        elif kind == "encounter":
            encounter_rules.answer(ctx, q, choice)
        elif kind == "item":
            items.answer(ctx, q, choice)
        t = ctx.s["turn"]
        if not pending.waiting(ctx.s) and t and t["phase"] in ("exploration", "villain") and not turns.over(ctx):
            turns.run_villain_phase(ctx)

    # ---------------------------------------------------------------- after every action

    def _after(self, ctx):
        turns.check_end(ctx)
