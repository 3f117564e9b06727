"""Hook points: the core rules say when something happens, or ask what the
cards, tiles, powers and the active haunt have to add; whatever is in play
answers. No core rule names a card, a tile, a power or a haunt: they
subscribe here (`@hooks.on("leave_cost")`), and the active haunt's rule set
answers through a method of the same name (see bot.games.babg.engine.rulesets).

Each point below says what its subscribers receive and return, and how the
answers are combined by the caller (`fire` lists them, `total` adds them,
`first` takes the first that is not None).
"""
from collections import defaultdict

from . import rulesets

POINTS = {
    # movement (rulebook: Movement, Moving Past Opponents)
    "leave_cost": "(ctx, pid) -> extra spaces to leave the tile (a haunt's monsters that slow nobody may "
                  "answer below 0); total, never below 0",
    "leave_blocked": "(ctx, pid) -> why the adventurer may not leave, or None; first",
    "way_blocked": "(ctx, pid, tile) -> why the adventurer may not move onto that placed tile now, or None; first",
    "discover_blocked": "(ctx, pid) -> why the adventurer may not discover a new tile now (a haunt that closes "
                        "the unknown), or None; first",
    "leaving": "(ctx, pid, tile) -> None; may queue steps that run before the step away",
    "watched": "(ctx, mover, tile) -> steps to run before a mover (adventurer or monster id) arrives, or None; first",
    "entered": "(ctx, mover, tile) -> None; a mover (adventurer or monster id) arrived",
    # attacks (rulebook: Make an Attack, Special Attacks)
    "attack_traits": "(ctx, pid, weapon) -> traits beyond Might the attacker may use; fire",
    "attack_reach": "(ctx, pid, trait, weapon) -> tiles beyond the attacker's own within reach; fire",
    "shielded": "(ctx, target) -> why nobody may attack the adventurer now, or None; first",
    "attack_blocked": "(ctx, pid, target, trait, weapon) -> why the adventurer may not make this attack (a haunt's own "
                      "limits: a trait allowed only against some targets), or None; first",
    "unarmed_blocked": "(ctx, pid, target) -> why the target may not be attacked without a weapon now (a monster "
                       "only weapons can hurt), or None; first",
    "attack_averted": "(ctx, pid, target) -> True when the attack, already announced, does not happen after all "
                      "(a defender's blur; the attacker's attack this turn is spent); first",
    "weapon_attack": "(ctx, pid, target, weapon) -> True when the weapon made its own attack instead; first",
    "attack_trait": "(ctx, pid, weapon, trait) -> the trait the weapon's attack uses instead, or None; first",
    "attack_dice": "(ctx, pid, trait, weapon, reckless) -> extra dice for the attack roll; total",
    "attack_bonus": "(ctx, pid, target, trait, by_power) -> added to the attack result; total",
    "before_outcome": "(ctx, task, roll_off) -> True when it put the roll-off back and asked a question; first",
    "backlash": "(ctx, attacker, trait, weapon) -> extra damage to an attacker who lost; total",
    "card_stealable": "(ctx, card) -> True or False when the haunt says whether the card can be stolen (its "
                      "own can_steal aside), or None; first",
    "steal_instead": "(ctx, attacker, loser, amount, distance) -> options [{label, steps}] the winner of an attack "
                     "that would deal 2 or more damage may take instead of it, beside stealing a card (a haunt's "
                     "token that counts as an item, a peek); fire",
    "after_won": "(ctx, attacker, loser, trait) -> steps after an adventurer's won attack; fire",
    "damage_instead": "(ctx, attacker, loser, amount) -> {prompt, label, steps} offered instead of the "
                      "`amount` of damage; first",
    "extra_damage": "(ctx, attacker, dealt, kind) -> options [{card, amount, kind, discard?, no_steal?}]; fire",
    "after_damage": "(ctx, winner, loser, kind, distance) -> steps to run once the damage is taken; fire",
    "attack_followups": "(ctx, pid, target, reckless) -> steps after the attack's outcome; fire",
    "monster_hurt": "(ctx, monster, kind, amount) -> True when it dealt with the damage (else the monster is stunned); first",
    "defence_dice": "(ctx, defender, trait) -> extra dice for a defence roll (an adventurer or a monster id); total",
    "defence_roller": "(ctx, monster_id, trait) -> the player who rolls the monster's defence instead of "
                      "whoever runs the monsters (a haunt that names another player), or None; first",
    "defence_reroll": "(ctx, monster_id, trait) -> True when the monster's defence dice showing 0 are rolled "
                      "again once (the second result stands); first",
    "monster_attack": "(ctx, monster, target, trait) -> True when the haunt made the monster's attack itself (a "
                      "group attack, an attack on another monster); first",
    "monster_attack_blocked": "(ctx, monster, target) -> why the monster may not attack that adventurer or "
                              "monster now (a haunt's own limits: a target already hit this turn ...), or None; "
                              "first",
    "monster_leave_cost": "(ctx, monster) -> spaces added to what the heroes on its tile cost the monster to "
                          "leave (below 0: monsters that ignore heroes); total, the cost never below 0",
    "monster_blocked": "(ctx, monster, dest) -> why the monster may not move to `dest` now (asked with its own "
                       "tile: why it may not act at all this turn), or None; first",
    # the haunt (rulebook: The Haunt; Playing the Haunt; How Monsters Work)
    "traitor_named": "(ctx, pid) -> None; a player has just become a known traitor",
    "skull_spared": "(ctx, pid, trait) -> True when the trait stops on the step above the skull instead (a "
                    "traitor who cannot die yet); first",
    "opponents": "(ctx, pid) -> the adventurers who oppose `pid`, when the haunt draws the sides its own way "
                 "(everyone against everyone, a dominated hero), or None; first",
    "death": "(ctx, pid, killer) -> None; an adventurer has died (their cards not yet dropped)",
    "monster_killed": "(ctx, monster_id) -> None",
    "next_slot": "(ctx) -> True when the haunt's turn order took over; first",
    "turn_started": "(ctx, pid) -> None",
    "turn_ending": "(ctx, pid) -> steps to run at the end of the turn; fire",
    "monster_turn": "(ctx, number) -> True when the haunt runs its own monster turn; first",
    "monster_turn_ending": "(ctx) -> steps to run as the monster turn ends (before the next turn); fire",
    "win_check": "(ctx) -> (side, why[, condition]) when a haunt's own condition is met, or None; side may be a "
                 "list of sides winning together (haunt_play.finish); first",
    "setup_step": "(ctx, step) -> True when the haunt carried the step out itself; first",
    "card_unusable": "(ctx, pid, card) -> why the haunt forbids using the card now, or None; first",
    "card_gaining": "(ctx, pid, card) -> True when the adventurer takes something else instead and the item "
                    "or omen stays where it was (deck, pile, giver); first",
    # the game's options and house rules (bot.games.babg.engine.specials.house_rules)
    "haunt_selected": "(ctx, revealer, omen, tile, number) -> {number, why, tile?, omen?} to play instead of the "
                      "chart's haunt (a chosen haunt, the search for an unplayed one), or None; first",
    "traitor_tie": "(ctx, revealer, tied) -> the tied player who becomes the traitor, or None for the "
                   "rulebook's tie-break; first",
    "tile_roll": "(ctx, pid, tile, steps) -> the steps to run instead of a tile's roll, or None; first",
    "symbol_card": "(ctx, pid, tile, deck) -> True when it took over the card for a just-discovered tile's "
                   "symbol; first",
    # what the haunt offers (buttons and the built-in players)
    "haunt_actions": "(ctx, pid) -> list of the haunt's own `monster` actions the player might take now (its "
                     "declared moves are listed from RuleSet.moves); "
                     "each is tried on a copy of the state and offered only if it is legal; fire",
    "haunt_goals": "(ctx, pid) -> set of tile ids the player's side wants the player on (objectives, things to "
                   "carry, places to defend); the built-in players head there; fire",
    "bot_choice": "(ctx, pending) -> the option a built-in player picks for the haunt's own question (the "
                  "answer its side plainly wants, like a Ballista rather than a card), or None to pick at random; "
                  "first",
    "monster_goals": "(ctx, monster) -> set of tile ids a monster's side wants it on (NPCs to lead to an exit, a "
                     "place to take), or None to hunt its opponents; the built-in players move it there; fire",
    "discarding": "(ctx, card) -> True when the card went somewhere else than its discard pile (buried under "
                  "its deck); first",
}

_subscribers: dict[str, list] = defaultdict(list)


def on(point: str, order: int = 50):
    """Subscribe a function to a hook point; a lower `order` answers first
    (where the rules give an order, e.g. questions before an outcome)."""
    if point not in POINTS:
        raise KeyError(f"no hook point {point!r}; the points are listed in bot.games.babg.engine.hooks.POINTS")

    def register(fn):
        _subscribers[point].append((order, fn))
        _subscribers[point].sort(key=lambda pair: pair[0])
        return fn
    return register


def _answers(point: str, ctx, *args):
    ruleset = rulesets.active(ctx)  # the haunt first: where it and the rulebook differ, the haunt wins
    if ruleset is not None and hasattr(ruleset, point):
        yield getattr(ruleset, point)(ctx, *args)
    for _, fn in _subscribers[point]:
        yield fn(ctx, *args)


def fire(point: str, ctx, *args) -> list:
    """Every answer that is not None: the active haunt's first, then the
    subscribers' in the order they subscribed."""
    return [a for a in _answers(point, ctx, *args) if a is not None]


def total(point: str, ctx, *args) -> int:
    return sum(fire(point, ctx, *args))


def first(point: str, ctx, *args):
    for answer in _answers(point, ctx, *args):
        if answer is not None:
            return answer
    return None
