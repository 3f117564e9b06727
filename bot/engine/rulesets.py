"""The haunts' rule sets, found from the haunt number in the state (the
state stays plain data). A haunt whose rules its data can say needs no
module: the haunt's flow (bot.engine.haunt_play) carries out its setup, turn
order, monster turn and wins from its file. A haunt that needs more has a
small module in bot/engine/haunts/ with a `RuleSet` subclass that answers
only the hook points it changes (bot.engine.hooks.POINTS), registered here
by number, in the manner of python-chess's variants."""

REGISTRY: dict[int, "RuleSet"] = {}


class RuleSet:
    """A haunt's own rules. Define a method named after a hook point to
    answer it (e.g. `def next_slot(self, ctx)`); answer None to leave the
    default in place. The state lives in the game, never here."""
    number: int = 0
    title: str = ""
    secret: tuple = ()               # keys of its own state in the haunt record nobody may see (bot.engine.view)
    secret_token_fields: tuple = ()  # fields of its face-down tokens nobody may see


def register(number: int):
    """Class decorator: the rule set of haunt `number`."""
    def add(cls):
        if number in REGISTRY:
            raise ValueError(f"haunt {number} has two rule sets: {type(REGISTRY[number]).__name__} and {cls.__name__}")
        cls.number = number
        REGISTRY[number] = cls()
        return cls
    return add


def active(ctx) -> RuleSet | None:
    """The rule set of the haunt being played, if it has its own."""
    h = ctx.s.get("haunt")
    if not h or ctx.s.get("phase") != "haunt":
        return None
    return REGISTRY.get(h["number"])
