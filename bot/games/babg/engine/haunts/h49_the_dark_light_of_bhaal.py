"""Haunt 49, The Dark Light of Bhaal (Traitor's Tome and Secrets of
Survival: the haunt revealer is the traitor).

What the bot carries out:
- Setup: the traitor's traits back up to their start, then 1 gained in each
  (data); the Lantern starts with the traitor; a quest token per adventurer
  on the listed ritual tiles, one per tile, where the heroes choose; when
  too few of them are in play the heroes pick a missing one, which is
  fetched from its stack and joined to an open door they pick.
- The Lantern counts as an item: the winner of an attack that would deal 2
  or more damage to its holder on their tile may take it instead (the
  steal question offers it); the declared move `take_lantern` picks it up
  from your tile, `give_lantern` hands it to an ally there; the dead drop
  it. Each time a hero takes it the traitor gains 1 Might.
- Enchanting (the declared move `enchant`, naming the hero, the traitor
  holding the Lantern, once a turn, as the turn's attack): the higher of the traitor's Sanity
  and 4 against the hero's Sanity; on a win the hero is enchanted, and the
  traitor is asked at once whether that hero attacks another hero on their
  tile, and with which weapon.
- An enchanted hero starts each turn choosing Sanity or Knowledge for a 4+
  roll: success frees them; failure costs 1 mental damage and the traitor
  is asked where they move (within their Speed) and whom they attack; the
  rest of their turn is theirs.
- The ritual (the declared move `ritual`, once a turn, on a tile with a
  quest token): Sanity 5+ removes it. The heroes win once no quest token is left
  and the traitor does not hold the Lantern, or when the traitor is dead
  and no hero is enchanted; every hero dead: the traitor wins (data).

Left to the players: nothing the book prints.
"""
from .. import attack, effects, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..geometry import distances

QUEST = "Ritual location"
LANTERN_SANITY = 4
RITUAL_TILES = ("beloved_ranger_statue", "fountain", "shrine_to_gargauth", "spys_roost", "neglected_shrine",
                "sacrificial_chamber")


OWN = rulesets.Own("h49", {"holder": None, "lying": None, "enchanted": []}, players=("holder", "enchanted"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[49].record(ctx.s)


def quests(ctx) -> list[dict]:
    return [t for t in ctx.s["tokens"] if t["name"] == QUEST]


def traitor(ctx) -> str | None:
    return next(iter(hp.traitors(ctx.s)), None)


def give_lantern(ctx, pid: str, how: str):
    """The Lantern passes to `pid`; "My Lantern!": a hero taking it gives the traitor 1 Might."""
    s = ctx.s
    h = mine(ctx)
    h["holder"], h["lying"] = pid, None
    ctx.say(f"{ctx.name(pid)} {how} the Lantern.", kind="haunt", player=pid)
    t = traitor(ctx)
    if pid not in hp.traitors(s) and t and s["players"][t]["alive"]:
        tr.change(ctx, t, "might", 1)


@effects.step("h49_take_lantern")
def _take_lantern(ctx, task, item):
    if mine(ctx)["holder"] == item["from"]:
        give_lantern(ctx, task["player"], f"takes from {ctx.name(item['from'])}")


@effects.step("h49_fetch")
def _fetch(ctx, task, item):
    missing = [t for t in RITUAL_TILES if t not in ctx.s["board"] and hp.fetch_doors(ctx, t)]
    if not missing:
        return
    effects.ask(ctx, task["player"], "h49_fetch", "which missing ritual tile is searched for and joined to the city?",
                [ctx.c.tiles[t].name for t in missing], tiles=missing)


@effects.decision("h49_fetch")
def _decide_fetch(ctx, pending, index):
    effects.push_front(ctx, [{"do": "_fetch_tile", "tile": pending["data"]["tiles"][index]}])


@effects.step("h49_enchanted")
def _enchanted(ctx, task, item):
    """Traitor's Tome: "Using the Lantern" (the hero is enchanted; then may be made to attack)."""
    hero = item["hero"]
    if hero not in mine(ctx)["enchanted"]:
        mine(ctx)["enchanted"].append(hero)
    ctx.say(f"{ctx.name(hero)} falls under the Lantern's enchantment (an Obstacle token on their card).",
            kind="haunt", player=hero)
    ask_attack(ctx, task["player"], hero)


def ask_attack(ctx, boss: str, hero: str):
    s = ctx.s
    victims = [p for p in hp.alive(s, hp.heroes(s)) if p != hero and st.together(s, p, hero)]
    if not victims:
        return
    effects.ask(ctx, boss, "h49_victim", f"does {ctx.name(hero)} attack another hero on their tile?",
                ["No attack"] + [f"Attack {ctx.name(p)}" for p in victims], hero=hero, victims=victims)


@effects.decision("h49_victim")
def _decide_victim(ctx, pending, index):
    if index == 0:
        return
    s = ctx.s
    hero, victim = pending["data"]["hero"], pending["data"]["victims"][index - 1]
    weapons = [c for c in s["players"][hero]["cards"] if ctx.c.cards[c].weapon
               and (ctx.c.cards[c].attack or {}).get("trait", "might") in ("might", "speed")]
    if not weapons:
        forced_attack(ctx, hero, victim, None)
        return
    effects.ask(ctx, pending["player"], "h49_weapon", f"with what does {ctx.name(hero)} attack?",
                ["No weapon"] + [ctx.card_name(c) for c in weapons], hero=hero, victim=victim, weapons=weapons)


@effects.decision("h49_weapon")
def _decide_weapon(ctx, pending, index):
    data = pending["data"]
    forced_attack(ctx, data["hero"], data["victim"], data["weapons"][index - 1] if index else None)


def forced_attack(ctx, hero: str, victim: str, weapon: str | None):
    """The enchanted hero attacks where the traitor says, out of turn."""
    s = ctx.s
    trait = (ctx.c.cards[weapon].attack or {}).get("trait", "might") if weapon else "might"
    ctx.say(f"{ctx.name(hero)}, enchanted, attacks {ctx.name(victim)} with {trait.capitalize()}"
            + (f", using {ctx.card_name(weapon)}." if weapon else "."), kind="attack")
    a = effects.make_roll(ctx, hero, attack.attack_dice(ctx, hero, trait, weapon), f"{trait.capitalize()} to attack",
                          trait=trait, kind="attack")
    d = attack.defence_roll(ctx, victim, trait, ctx.value(victim, trait))
    s["haunt"]["last_attacker"] = hero
    effects.queue(ctx, hero, [attack.roll_off(hero, victim, trait, a, d, False, weapon), {"do": "_attack_over"}],
                  source="attack", front=True)


@effects.step("h49_enchant_roll")
def _enchant_roll(ctx, task, item):
    pid, hero = task["player"], item["hero"]
    dice = max(ctx.value(pid, "sanity"), LANTERN_SANITY)
    a = effects.make_roll(ctx, pid, rng.dice_count(dice), "Sanity with the Lantern", trait="sanity", kind="attack")
    d = attack.defence_roll(ctx, hero, "sanity", ctx.value(hero, "sanity"))
    if a > d:
        effects.push_front(ctx, [{"do": "h49_enchanted", "hero": hero}])
        return
    effects.push_front(ctx, attack.resolve(ctx, pid, hero, "sanity", a, d, False))


@effects.step("h49_shake_off")
def _shake_off(ctx, task, item):
    pid = task["player"]
    effects.ask(ctx, pid, "h49_shake", "the Lantern's enchantment: roll which trait (4+ frees you)?",
                [f"Sanity ({ctx.value(pid, 'sanity')})", f"Knowledge ({ctx.value(pid, 'knowledge')})"])


@effects.decision("h49_shake")
def _decide_shake(ctx, pending, index):
    trait = ("sanity", "knowledge")[index]
    effects.push_front(ctx, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": 4, "then": [{"do": "h49_freed"}]},
        {"at_most": 3, "then": [{"do": "damage", "kind": "mental", "amount": 1}, {"do": "h49_obey"}]}]}])


@effects.step("h49_freed")
def _freed(ctx, task, item):
    pid = task["player"]
    if pid in mine(ctx)["enchanted"]:
        mine(ctx)["enchanted"].remove(pid)
    ctx.say(f"{ctx.name(pid)} throws off the Lantern's enchantment.", kind="haunt", player=pid)


@effects.step("h49_obey")
def _obey(ctx, task, item):
    """Traitor's Tome: "Enchanted Heroes": the traitor says where they move and whom they attack."""
    s = ctx.s
    pid, boss = task["player"], traitor(ctx)
    if not s["players"][pid]["alive"] or boss is None or not s["players"][boss]["alive"]:
        return
    s["turn"]["stopped"] = True
    s["turn"]["attacked"] = True
    ctx.say(f"{ctx.name(pid)} must obey the traitor this turn (where to move, whom to attack).", kind="haunt",
            player=pid)
    here = s["players"][pid]["tile"]
    reach = sorted((t for t, d in distances(ctx, here).items() if d <= ctx.value(pid, "speed")),
                   key=lambda t: (t != here, ctx.tile_name(t)))
    effects.ask(ctx, boss, "h49_move", f"where does the enchanted {ctx.name(pid)} move?",
                [ctx.tile_name(t) for t in reach], hero=pid, tiles=reach)


@effects.decision("h49_move")
def _decide_move(ctx, pending, index):
    s = ctx.s
    hero, tile = pending["data"]["hero"], pending["data"]["tiles"][index]
    if tile != s["players"][hero]["tile"]:
        s["players"][hero]["tile"], s["players"][hero]["half"] = tile, ("north" if ctx.c.tiles[tile].barrier else None)
        ctx.say(f"{ctx.name(hero)} is driven to the {ctx.tile_name(tile)}.", kind="move", player=hero, tile=tile)
    ask_attack(ctx, pending["player"], hero)


@effects.step("h49_ritual_done")
def _ritual_done(ctx, task, item):
    s = ctx.s
    tile = s["players"][task["player"]]["tile"]
    token = next((t for t in quests(ctx) if t["tile"] == tile), None)
    if token:
        s["tokens"].remove(token)
        ctx.say(f"{ctx.name(task['player'])} completes part of the ritual on the {ctx.tile_name(tile)} "
                f"({len(quests(ctx))} quest tokens left).", kind="haunt")


@effects.step("h49_placed")
def _placed(ctx, task, item):
    mine(ctx)["placed_quests"] = True


@rulesets.register(49)
class DarkLightOfBhaal(rulesets.RuleSet):
    title = "The Dark Light of Bhaal"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") == "manual" and "Lantern token" in text:
            mine(ctx)["holder"] = traitor(ctx)
            ctx.say("Setup: the Lantern glows red on the traitor's card. It counts as an item: beat its holder by 2 "
                    "or more on their tile to take it; {move:take_lantern} picks it up, {move:give_lantern} hands "
                    "it over. On a tile with a quest token: {move:ritual} (Sanity 5+).", kind="haunt_setup")
            ctx.say("Traitor: holding the Lantern, {move:enchant} on a hero on your tile (your attack this turn).",
                    kind="haunt_setup", to="traitors")
            return True
        if step.get("do") == "manual" and "Obstacle token" in text:
            return True  # the bot keeps the enchanted heroes itself
        if step.get("label") == QUEST:
            need = (hp.count_value(ctx, step.get("count", "adventurers")) or 0) - \
                sum(1 for t in RITUAL_TILES if t in s["board"])
            who = hp.chooser(s, "heroes")
            if need > 0:
                effects.queue(ctx, who, [{"do": "h49_fetch"}] * need, source="haunt")
            hp.place_chosen(ctx, step)
            effects.queue(ctx, who, [{"do": "h49_placed"}], source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        """Secrets of Survival: "You Must Do This at the Start of Your Turn"."""
        if pid in mine(ctx)["enchanted"]:
            effects.queue(ctx, pid, [{"do": "h49_shake_off"}], source="haunt")

    def death(self, ctx, pid, killer):
        h = mine(ctx)
        if h["holder"] == pid:
            h["holder"], h["lying"] = None, ctx.s["players"][pid]["tile"]
            ctx.say(f"The Lantern falls on the {ctx.tile_name(h['lying'])}.", kind="haunt")
        if pid in h["enchanted"]:
            h["enchanted"].remove(pid)

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        if mine(ctx)["holder"] != loser or distance or attacker not in ctx.s["players"]:
            return None
        return [{"label": "Take the Lantern", "steps": [{"do": "h49_take_lantern", "from": loser}]}]

    def win_check(self, ctx):
        s = ctx.s
        h = mine(ctx)
        t = traitor(ctx)
        if not quests(ctx) and s["haunt"].get("started") and h["holder"] not in hp.traitors(s) \
                and hp.alive(s, hp.heroes(s)) and "placed_quests" in h:
            return ("heroes", "The ritual is finished and the traitor no longer holds the Lantern.")
        if t and not s["players"][t]["alive"] and not h["enchanted"] and hp.alive(s, hp.heroes(s)):
            return ("heroes", "The traitor is dead and no hero is left enchanted.")
        return None

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        h = mine(ctx)
        if pid in hp.traitors(s):
            return {h["lying"]} if h["lying"] else None
        if quests(ctx):
            return {t["tile"] for t in quests(ctx)}
        if h["lying"]:
            return {h["lying"]}
        if h["holder"] in hp.traitors(s) and st.on_board(s["players"][h["holder"]]):
            return {s["players"][h["holder"]]["tile"]}
        return None

    own = OWN
    moves = (
        rulesets.Move("take_lantern", "Pick up the Lantern", lambda ctx, pid, trait: take_lantern(ctx, pid),
                      summary="Pick up the Lantern lying on your tile (a hero taking it gives the traitor 1 Might)."),
        rulesets.Move("give_lantern", "Hand over the Lantern",
                      lambda ctx, pid, trait, target: hand_lantern(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: allies_here(ctx, pid), "To whom?"),),
                      summary="Hand the Lantern you hold to an ally on your tile."),
        rulesets.Move("ritual", "Work the ritual", lambda ctx, pid, trait: ritual(ctx, pid),
                      traits=("sanity",), who="heroes", once_per_turn=True,
                      summary="On a tile with a quest token, Sanity 5+ takes it away."),
        rulesets.Move("enchant", "Enchant a hero", lambda ctx, pid, trait, target: enchant(ctx, pid, target),
                      traits=("sanity",), who="traitors", instead_of_attack=True,
                      args=(rulesets.Arg("player", lambda ctx, pid: prey(ctx, pid), "Which hero?"),),
                      summary="Holding the Lantern, in place of your attack: the higher of your Sanity and 4 against "
                              "a hero's Sanity on your tile; a win enchants them."),
    )


def allies_here(ctx, pid: str) -> list[str]:
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    return [p for p in s["seats"] if p != pid and s["players"][p]["alive"] and st.on_board(s["players"][p])
            and st.together(s, pid, p) and hp.side_of(s, p) == hp.side_of(s, pid)]


def prey(ctx, pid: str) -> list[str]:
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    return [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p]) and st.together(s, pid, p)]


def take_lantern(ctx, pid: str):
    h = mine(ctx)
    if not st.on_board(ctx.s["players"][pid]) or h["lying"] != ctx.s["players"][pid]["tile"]:
        raise IllegalAction("The Lantern is not lying on your tile.")
    give_lantern(ctx, pid, "picks up")


def hand_lantern(ctx, pid: str, to: str):
    if mine(ctx)["holder"] != pid:
        raise IllegalAction("You do not hold the Lantern.")
    if to not in allies_here(ctx, pid):
        raise IllegalAction("Give the Lantern to an ally on your tile.")
    give_lantern(ctx, to, f"is handed by {ctx.name(pid)}")


def ritual(ctx, pid: str):
    """Secrets of Survival, haunt 49: the ritual."""
    here = ctx.s["players"][pid]["tile"]
    if not any(t["tile"] == here for t in quests(ctx)):
        raise IllegalAction("There is no quest token on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
        {"at_least": 5, "then": [{"do": "h49_ritual_done"}]}, {"at_most": 4, "then": []}]}],
        source="haunt", front=True)


def enchant(ctx, pid: str, hero: str):
    """Traitor's Tome, haunt 49: the Lantern's enchantment."""
    s = ctx.s
    h = mine(ctx)
    if h["holder"] != pid:
        raise IllegalAction("You need the Lantern to enchant a hero.")
    if hero not in prey(ctx, pid):
        raise IllegalAction("Enchant a hero on your tile.")
    if hero in h["enchanted"]:
        raise IllegalAction(f"{ctx.name(hero)} is already enchanted.")
    s["turn"]["attacked"] = True
    ctx.say(f"{ctx.name(pid)} raises the Lantern at {ctx.name(hero)}.", kind="attack")
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [{"do": "h49_enchant_roll", "hero": hero}, {"do": "_attack_over"}], source="attack",
                  front=True)
