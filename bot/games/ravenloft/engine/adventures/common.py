"""`DataRules`: an adventure played from its data (content.py's RULE_KINDS, VICTORY_KINDS,
DEFEAT_KINDS), the rule set of every adventure without a module and the base of those with one.

- rules: an extra encounter card every villain phase; more monsters on a named tile when it is
  laid (a number, or one per hero); a villain entering play (at the start, when a named tile is
  laid, after a number of tiles, or when the time track runs out); a time track advanced by white
  tiles, skull tiles or every turn; cancelling with experience costing the active hero HP;
- victory (every clause must hold): a hero starting a turn on a named tile; escaping by the Start
  stairs or the Secret Stairway (every hero or one); a villain defeated; every monster placed on a
  named tile when it was laid defeated; an adventure treasure taken (its token lies on the tile's
  bone pile, picked up like any object); an object destroyed (a figure with its AC and HP that does
  not act, on the adventure's named tile); a number of monsters defeated; a number of items carried
  out by heroes who all escaped;
- defeat (any clause loses): the standard one (checked at the start of a turn); a villain defeated;
  a number of monsters escaped; the time track run out.

Clauses of kind `manual` (and the rule `power_deck_on_white_tile`, `escort`) are left to the
table: the engine says so at the start."""

from .. import combat, data, explore, geometry, heroes
from ..rulesets import RuleSet, fallback
from ..state import hero_pids


def adv_record(ctx):
    return data.adventure_record(ctx.content, ctx.s["adventure"])


def clauses(ctx, key: str) -> list:
    return list(data.g(adv_record(ctx), key, ()) or ())


def placed_key(ctx, tile_id):
    for k, t in ctx.s["tiles"]["placed"].items():
        if t["tile"] == tile_id:
            return k
    return None


@fallback
class DataRules(RuleSet):
    title = "an adventure played from its data"
    carried_out: tuple = ()  # the opening words of the data's manual clauses a module carries out

    # ------------------------------------------------------------ setup and time

    def after_setup(self, ctx):
        rec = self.record(ctx.s)
        rec.setdefault("done", {})
        rec.setdefault("time", 0)
        rec.setdefault("defeated", 0)
        rec.setdefault("escaped_monsters", 0)
        rec.setdefault("tile_guards", {})
        rec.setdefault("tiles_laid", 0)
        for c in clauses(ctx, "rules"):
            if c.kind == "villain_enters" and c.trigger == "start":
                self.villain_enters(ctx, c.villain, "0,0")
        manual = [c.text for key in ("rules", "victory", "defeat") for c in clauses(ctx, key)
                  if c.kind in ("manual", "power_deck_on_white_tile", "escort")
                  and not any(c.text.startswith(x) for x in self.carried_out)]
        for text in manual:
            ctx.say("rule", f"Left to the table: {text}")

    def villain_enters(self, ctx, villain_id, tkey):
        if any(f["monster"] == villain_id for f in ctx.s["figures"].values()) or \
                villain_id in self.record(ctx.s).setdefault("villains_seen", []):
            return None
        sq = explore.free_square_on(ctx, tkey)
        if sq is None:
            return None
        fig = explore.spawn(ctx, villain_id, sq, card=villain_id, villain=True)
        fig["markers"] = list(data.monster(ctx.content, villain_id)["starts_with"])
        self.record(ctx.s)["villains_seen"].append(villain_id)
        if villain_id in ctx.s["set_aside"]:
            ctx.s["set_aside"].remove(villain_id)
            ctx.s.setdefault("villain_cards", []).append(villain_id)
        ctx.say("villain", f"{fig['name']} enters the dungeon on square {sq}!", figure=fig["id"])
        return fig

    def advance_time(self, ctx, why: str):
        rec = self.record(ctx.s)
        for c in clauses(ctx, "rules"):
            if c.kind == "time_track" and c.advance == why:
                rec["time"] += 1
                spaces = data._int(c.spaces, 5)
                ctx.say("time", f"The sun token moves to space {min(rec['time'], spaces)} of {spaces}.")
                if rec["time"] >= spaces and not rec.get("time_out"):
                    rec["time_out"] = True
                    for v in clauses(ctx, "rules"):
                        if v.kind == "villain_enters" and v.trigger == "time_track_end":
                            t = heroes.tile(ctx, ctx.s["turn"]["player"]) if ctx.s.get("turn") else "0,0"
                            where = placed_key(ctx, v.tile) or self.villain_home(ctx) or t
                            self.villain_enters(ctx, v.villain, where)

    def villain_home(self, ctx):
        return "0,0"

    def turn_started(self, ctx, pid):
        self.advance_time(ctx, "each_turn")
        rec = self.record(ctx.s)
        for i, c in enumerate(clauses(ctx, "victory")):
            if c.kind == "hero_starts_turn_on":
                k = placed_key(ctx, c.tile)
                if k and heroes.on_map(ctx, pid) and heroes.tile(ctx, pid) == k:
                    rec["done"][str(i)] = True

    def tile_placed(self, ctx, tkey, pid):
        rec = self.record(ctx.s)
        rec["tiles_laid"] = rec.get("tiles_laid", 0) + 1
        t = ctx.s["tiles"]["placed"][tkey]
        if not t["black"]:
            self.advance_time(ctx, "white_triangle_tile")
        if data.tile(ctx.content, t["tile"])["skull"]:
            self.advance_time(ctx, "skull_tile")
        for c in clauses(ctx, "rules"):
            if c.kind == "extra_monsters_on_tile" and c.tile == t["tile"]:
                n = len(hero_pids(ctx.s)) if c.count == "heroes" else data._int(c.count, 1)
                for _ in range(n):
                    explore.place_monster(ctx, pid, tkey)
            if c.kind == "villain_enters" and c.trigger == "tile_placed" and c.tile == t["tile"]:
                self.villain_enters(ctx, c.villain, tkey)
            if c.kind == "villain_enters" and c.trigger == "tiles_placed" and rec["tiles_laid"] >= data._int(c.count, 5):
                self.villain_enters(ctx, c.villain, tkey)
        guards = [f for f, fig in ctx.s["figures"].items() if tkey in combat.fig_tiles(fig)]
        for c in clauses(ctx, "victory"):
            if c.kind == "monsters_on_tile_defeated" and c.tile == t["tile"]:
                rec["tile_guards"][tkey] = guards
            if c.kind == "treasure_taken" and (c.tile is None or c.tile == t["tile"]) and \
                    t["tile"] in (data.g(adv_record(ctx), "tiles", ()) or ()):
                bp = geometry.bone_pile(ctx.s, tkey) or geometry.floor_squares(ctx.s, tkey)[0]
                name = data.treasure(ctx.content, c.treasure)["name"]
                ctx.s["markers"].append({"id": ctx.new_id("k"), "kind": "object", "card": None, "tile": tkey,
                                         "square": geometry.name(*bp), "object": c.treasure, "label": name,
                                         "owner": None})
                if c.treasure in ctx.s["set_aside"]:
                    ctx.s["set_aside"].remove(c.treasure)
                ctx.say("object", f"The {name} lies on square {geometry.name(*bp)}.")
            if c.kind == "object_destroyed" and t["tile"] in (data.g(adv_record(ctx), "tiles", ()) or ()):
                if not rec.get("object_placed"):
                    rec["object_placed"] = True
                    sq = explore.free_square_on(ctx, tkey)
                    if sq:
                        fid = ctx.new_id("m")
                        ctx.s["figures"][fid] = {"id": fid, "monster": c.token, "name": c.token.replace("_", " "),
                                                 "square": sq, "hp": data._int(c.hp, 3), "max_hp": data._int(c.hp, 3),
                                                 "ac": data._int(c.ac, 12), "object": True, "villain": False,
                                                 "card": None}
                        ctx.say("object", f"The {c.token.replace('_', ' ')} stands on square {sq} (AC {c.ac}, "
                                          f"HP {c.hp}).")

    def extra_encounters(self, ctx, pid):
        return sum(1 for c in clauses(ctx, "rules") if c.kind == "encounter_every_villain_phase")

    def cancelled(self, ctx, pid):
        for c in clauses(ctx, "rules"):
            if c.kind == "xp_cancel_costs_hp":
                heroes.hurt(ctx, pid, data._int(c.amount, 1), "the price of cancelling")

    def monster_defeated(self, ctx, fig, pid):
        rec = self.record(ctx.s)
        if not fig.get("object"):
            rec["defeated"] = rec.get("defeated", 0) + 1
        rec.setdefault("gone", []).append(fig["monster"])

    def escape_squares(self, ctx):
        out = []
        for c in clauses(ctx, "victory"):
            if c.kind == "items_carried_out":  # carried out by the Start tile's stairs (Adventure 4)
                where = "start_stairs"
            elif c.kind != "escape":
                continue
            else:
                where = c.where
            for k, t in ctx.s["tiles"]["placed"].items():
                if (where == "start_stairs" and t.get("start")) or \
                        (where == "secret_stairway" and data.slug(t["tile"]) == "secretstairway"):
                    squares = [geometry.name(*q) for q in geometry.tile_squares(*geometry.parse(k))
                               if geometry.char(ctx.s, *q) == "S"]
                    if not squares and where == "secret_stairway":
                        squares = [geometry.name(*q) for q in geometry.floor_squares(ctx.s, k)]
                    out += squares
        return out

    def items_clause(self, ctx):
        for c in clauses(ctx, "victory"):
            if c.kind == "items_carried_out":
                return c
        return None

    def draws_encounters(self, ctx, pid):
        return not ctx.s["players"][pid].get("escaped")

    # ------------------------------------------------------------ the end

    def holds(self, ctx, i, c) -> bool:
        s = ctx.s
        rec = self.record(s)
        if c.kind == "hero_starts_turn_on":
            return bool(rec.get("done", {}).get(str(i)))
        if c.kind == "escape":
            esc = [p for p in hero_pids(s) if s["players"][p].get("escaped")]
            if c.who == "one":
                return bool(esc)
            return bool(esc) and all(s["players"][p].get("escaped") or s["players"][p]["hp"] <= 0
                                     for p in hero_pids(s)) and len(esc) * 2 >= 1
        if c.kind == "villain_defeated":
            return c.villain in rec.get("gone", [])
        if c.kind == "monsters_on_tile_defeated":
            k = placed_key(ctx, c.tile)
            guards = rec.get("tile_guards", {}).get(k) if k else None
            return guards is not None and not any(f in s["figures"] for f in guards)
        if c.kind == "treasure_taken":
            return any(c.treasure in s["players"][p].get("objects", []) for p in hero_pids(s))
        if c.kind == "object_destroyed":
            return c.token in rec.get("gone", [])
        if c.kind == "monsters_defeated":
            return rec.get("defeated", 0) >= data._int(c.count, 20)
        if c.kind == "items_carried_out":
            if not all(s["players"][p].get("escaped") for p in hero_pids(s)):
                return False
            return sum(len(s["players"][p]["items"]) for p in hero_pids(s)) >= data._int(c.count, 12)
        return False

    def check(self, ctx):
        s = ctx.s
        if s["phase"] != "play":
            return None
        rec = self.record(s)
        for c in clauses(ctx, "defeat"):
            if c.kind == "villain_defeated" and c.villain in rec.get("gone", []):
                return "defeat", "villain_defeated", f"{data.monster(ctx.content, c.villain)['name']} is destroyed: " \
                                                     f"the adventure is lost."
            if c.kind == "monsters_escaped" and rec.get("escaped_monsters", 0) >= data._int(c.count, 5):
                return "defeat", "monsters_escaped", "Too many monsters got away: the adventure is lost."
            if c.kind == "time_track_end" and rec.get("time_out"):
                return "defeat", "time_track_end", "The sun has set on the heroes: the adventure is lost."
        vic = clauses(ctx, "victory")
        auto = [(i, c) for i, c in enumerate(vic) if c.kind != "manual"]
        if auto and all(self.holds(ctx, i, c) for i, c in auto):
            return "victory", vic[0].kind, f"Victory! {data.g(adv_record(ctx), 'goal', 'The goal is met')}"
        # every hero gone from the dungeon while the goal is unmet: nobody is left to reach it
        if hero_pids(s) and all(s["players"][p].get("escaped") for p in hero_pids(s)):
            return "defeat", "left_the_dungeon", "Every hero has left the dungeon before the goal was met: " \
                                                 "the adventure is lost."
        return None
