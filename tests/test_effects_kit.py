"""Helpers shared by the tests/test_effects_*.py files: putting a card on
top of its deck and drawing it by discovering a tile, forcing dice, running
steps directly."""
from bot.games.babg.engine import effects
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.state import trait_value

# (start tile, tile with an event symbol and one doorway, way, stack) per kind of tile
EVENT_TILES = {
    "street": ("kitchen", "dead_end", "west", "street"),
    "building": ("inner_chamber", "spys_roost", "north", "building"),
    "catacomb": ("catacomb_landing", "rats_nest", "north", "catacomb"),
}


def faces(total: int, n: int) -> list[int]:
    """n dice faces (0-2) adding up to `total`."""
    assert 0 <= total <= 2 * n, (total, n)
    out = []
    for _ in range(n):
        f = min(2, total)
        out.append(f)
        total -= f
    return out


def my_turn(game, pid):
    """Make it `pid`'s turn, fresh (nothing moved or used yet)."""
    from bot.games.babg.engine.state import new_turn
    game.state["turn"] = new_turn(pid, game.state["turn"]["number"])


def draw_event(game, card, where="street", pid="ann"):
    """`pid` discovers a tile with an event symbol and draws `card`."""
    start, tile, way, stack = EVENT_TILES[where]
    my_turn(game, pid)
    game.put(pid, start)
    game.top(stack, tile)
    game.top_card("event", card)
    return game.do("move", pid, way=way)


def resolve_event(game, card, pid="ann"):
    """Resolve an event card for `pid` where they stand, as if just drawn."""
    game.state["decks"]["event"].remove(card)
    steps = list(game.c.cards[card].on_draw) + [{"do": "_settle_event", "card": card}]
    return run_steps(game, pid, steps, source=card)


def give(game, pid, card):
    """Take a card into your hand the proper way (trait bonuses included)."""
    from bot.games.babg.engine import cards
    for pile in (game.state["decks"][game.c.cards[card].deck], game.state["discard"][game.c.cards[card].deck]):
        if card in pile:
            pile.remove(card)
    ctx = Ctx(game.c, game.state)
    cards.gain(ctx, pid, card)


def run_steps(game, pid, steps, source=None):
    """Queue steps for `pid` and resolve them as the engine would."""
    ctx = Ctx(game.c, game.state)
    effects.queue(ctx, pid, steps, source=source, front=True)
    effects.run(ctx)
    game.events = ctx.ev
    return ctx.ev


def value(game, pid, trait):
    return trait_value(game.c, game.state, pid, trait)


def kinds(game):
    return [e["kind"] for e in game.events]


def test_faces_add_up():
    # Rulebook: Attempt a Die Roll (each die shows 0, 1 or 2)
    assert sum(faces(5, 4)) == 5 and len(faces(0, 3)) == 3


def test_every_special_in_rules_data_has_a_handler(content):
    # Project rule: every `special` named in rules_data (cards, tiles, powers, weapon attacks) has a handler
    import bot.games.babg.engine.game  # noqa: F401  (registers the handlers)
    names = set()

    def walk(x):
        if isinstance(x, dict):
            if x.get("do") == "special":
                names.add(x["name"])
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
    for card in content.cards.values():
        walk([card.on_draw, card.on_use, card.on_start_turn, card.on_end_turn, card.on_tile])
        if card.attack and card.attack.get("special"):
            names.add(card.attack["special"])
    for tile in content.tiles.values():
        walk(tile.effects)
    for adv in content.adventurers.values():
        walk(adv.power.get("effects"))
    assert len(names) >= 45
    assert names <= set(effects.SPECIALS), sorted(names - set(effects.SPECIALS))
