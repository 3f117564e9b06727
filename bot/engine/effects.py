"""Resolving effects: the shared vocabulary of steps that cards and tiles are
written in (see rules_data/README.md, "Effects"), and the queue that lets a
step wait for a player's decision.

The queue is part of the state: a list of tasks, each {player, source, steps,
keep}. Steps run front first; a step that needs a choice sets
`state["pending"]` and the queue stops until the player decides.
"""
from . import rng
from . import traits as tr
from .content import TRAITS
from .errors import IllegalAction

STEPS = {}      # step word -> handler(ctx, task, step)
DECISIONS = {}  # pending kind -> handler(ctx, pending, choice)
SPECIALS = {}   # special name -> handler(ctx, task, step)


def step(name):
    def register(fn):
        STEPS[name] = fn
        return fn
    return register


def decision(kind):
    def register(fn):
        DECISIONS[kind] = fn
        return fn
    return register


def special(name):
    def register(fn):
        SPECIALS[name] = fn
        return fn
    return register


def queue(ctx, player: str, steps, source: str | None = None, front: bool = False):
    task = {"player": player, "source": source, "steps": list(steps), "keep": False}
    if front:
        ctx.s["queue"].insert(0, task)
    else:
        ctx.s["queue"].append(task)


def run(ctx):
    """Resolve queued steps until the queue is empty, a decision is pending,
    or the game is over."""
    q = ctx.s["queue"]
    while q and ctx.s["pending"] is None and ctx.s["phase"] != "over":
        task = q[0]
        if not task["steps"]:
            q.pop(0)
            continue
        item = task["steps"].pop(0)
        STEPS[item["do"]](ctx, task, item)


def ask(ctx, player: str, kind: str, prompt: str, options: list[str], **data):
    """Wait for `player` to pick one of `options` (rulebook: the player chooses)."""
    ctx.s["pending"] = {"player": player, "kind": kind, "prompt": prompt, "options": options, "data": data}
    ctx.say(f"{ctx.name(player)}, choose: {prompt}", kind="decision", to="all", player=player,
            options=options)


def decide(ctx, player: str, choice):
    """Answer the pending question: `choice` is the option's 0-based index or its label."""
    pending = ctx.s["pending"]
    if pending is None:
        raise IllegalAction("There is nothing to decide right now.")
    if player != pending["player"]:
        raise IllegalAction(f"This choice is for {ctx.name(pending['player'])}, not for you.")
    options = pending["options"]
    if isinstance(choice, str):
        lowered = [o.lower() for o in options]
        if choice.lower() not in lowered:
            raise IllegalAction(f"Pick one of: {'; '.join(f'{i + 1}. {o}' for i, o in enumerate(options))}.")
        index = lowered.index(choice.lower())
    elif isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(options):
        index = choice
    else:
        raise IllegalAction(f"Pick a number from 1 to {len(options)}.")
    ctx.s["pending"] = None
    DECISIONS[pending["kind"]](ctx, pending, index)


# --- rolls ---------------------------------------------------------------

def dice_for(ctx, pid: str, item: dict) -> tuple[int, str]:
    if "trait" in item:
        return rng.dice_count(ctx.value(pid, item["trait"])), item["trait"].capitalize()
    return rng.dice_count(item["dice"]), "dice"


def roll_bonus(ctx, pid: str, item: dict) -> int:
    adv = ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]]
    bonus = 0
    for add in item.get("add", []):
        if adv.race.lower() in [r.lower() for r in add.get("race", [])] or \
                adv.klass.lower() in [k.lower() for k in add.get("class", [])]:
            bonus += add.get("amount", 1)
    return bonus


def make_roll(ctx, pid: str, n: int, label: str, bonus: int = 0) -> int:
    faces = rng.roll(ctx.s, n)
    total = sum(faces) + bonus
    extra = f" + {bonus}" if bonus else ""
    ctx.say(f"{ctx.name(pid)} rolls {label} ({n} {'die' if n == 1 else 'dice'}): "
            f"{' '.join(map(str, faces))}{extra} = {total}.", kind="roll", player=pid, faces=faces, total=total)
    return total


def band_for(bands, total: int) -> dict:
    for band in bands:
        if band.get("at_least", 0) <= total <= band.get("at_most", 99):
            return band
    raise ValueError(f"no band for {total}")


@step("roll")
def _roll(ctx, task, item):
    pid = task["player"]
    n, label = dice_for(ctx, pid, item)
    total = make_roll(ctx, pid, n, label, roll_bonus(ctx, pid, item))
    task["steps"][0:0] = band_for(item["bands"], total).get("then", [])


# --- traits --------------------------------------------------------------

def _trait_choices(item) -> list[str]:
    traits = item.get("traits", item.get("trait"))
    if traits == "any":
        return list(TRAITS)
    return [traits] if isinstance(traits, str) else list(traits)


def _change_step(ctx, task, item, sign):
    choices = _trait_choices(item)
    amount = item.get("amount", 1)
    if len(choices) == 1:
        tr.change(ctx, task["player"], choices[0], sign * amount)
    else:
        verb = "gain" if sign > 0 else "lose"
        ask(ctx, task["player"], "trait", f"which trait to {verb} {amount} in?",
            [t.capitalize() for t in choices], traits=choices, delta=sign * amount)


@step("gain")
def _gain(ctx, task, item):
    _change_step(ctx, task, item, +1)


@step("lose")
def _lose(ctx, task, item):
    _change_step(ctx, task, item, -1)


@decision("trait")
def _decide_trait(ctx, pending, index):
    data = pending["data"]
    tr.change(ctx, pending["player"], data["traits"][index], data["delta"])


def take_damage(ctx, pid: str, kind: str, amount: int):
    """Damage the player splits between the two traits of its kind
    (rulebook: Traits, "Damage"). Asks only when the split matters."""
    if amount <= 0:
        return
    ctx.say(f"{ctx.name(pid)} takes {amount} {kind} damage.", kind="damage", player=pid, amount=amount)
    outcomes = tr.damage_outcomes(ctx, pid, kind, amount)
    if len(outcomes) == 1:
        tr.apply_split(ctx, pid, kind, outcomes[0])
    else:
        ask(ctx, pid, "damage", f"how to take {amount} {kind} damage?",
            [tr.split_label(kind, o) for o in outcomes], damage=kind, outcomes=[list(o) for o in outcomes])


@decision("damage")
def _decide_damage(ctx, pending, index):
    data = pending["data"]
    tr.apply_split(ctx, pending["player"], data["damage"], tuple(data["outcomes"][index]))


@step("damage")
def _damage(ctx, task, item):
    pid = task["player"]
    amount = item.get("amount", 0)
    if "dice" in item:
        amount = make_roll(ctx, pid, rng.dice_count(item["dice"]), f"{item['kind']} damage")
    take_damage(ctx, pid, item["kind"], amount)


# --- choices, keeping, tokens --------------------------------------------

@step("choose")
def _choose(ctx, task, item):
    labels = [o["label"] for o in item["options"]]
    ask(ctx, task["player"], "option", "which option?", labels, choices=item["options"])


@decision("option")
def _decide_option(ctx, pending, index):
    ctx.s["queue"][0]["steps"][0:0] = pending["data"]["choices"][index].get("then", [])


@step("keep")
def _keep(ctx, task, item):
    task["keep"] = True


@step("place_token")
def _place_token(ctx, task, item):
    where = item.get("where", "here")
    tile = ctx.s["players"][task["player"]]["tile"] if where == "here" else where
    if tile in ctx.s["board"]:
        ctx.s["tokens"].append({"name": item["token"], "tile": tile})
        ctx.say(f"A {item['token']} token is placed on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@step("special")
def _special(ctx, task, item):
    handler = SPECIALS.get(item["name"])
    if handler:
        handler(ctx, task, item)
        return
    source = task.get("source")
    text = ctx.c.cards[source].text if source in ctx.c.cards else ctx.c.tiles[source].rule if source in ctx.c.tiles else ""
    ctx.say(f"The table resolves this part by hand: {text}", kind="by_hand", source=source)
