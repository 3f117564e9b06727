"""Resolving effects: the shared vocabulary of steps that cards and tiles are
written in (see rules_data/README.md, "Effects"), and the queue that lets a
step wait for a player's decision.

The queue is part of the state: a list of tasks, each {player, source, steps,
keep}. Steps run front first; a step that needs a choice sets
`state["pending"]` and the queue stops until the player decides.

Hooks other modules fill in (so that no card name appears here):
  SPECIALS         special name -> handler(ctx, task, step)
  USABLE           card id -> reason(ctx, pid, card_id) the card cannot be used now, or None
  ROLL_REACTIONS   things offered right after a roll with result bands (Gambler's Dice, Bardic Inspiration)
  DAMAGE_STAGES    things that change damage before it is taken (Protection, Chain Mail, Figurine ...)
"""
from . import geometry, hooks, rng, words
from . import marks as mk
from . import state as st
from . import tokens as tk
from . import traits as tr
from .content import NO_LOWER, TRAITS
from .errors import IllegalAction

STEPS = {}      # step word -> handler(ctx, task, step)
QUIET = set()   # steps of the game's own flow (a move, a symbol's card): their lines do not start with the source
DECISIONS = {}  # pending kind -> handler(ctx, pending, choice)
SPECIALS = {}   # special name -> handler(ctx, task, step)
USABLE = {}     # card id -> reason(ctx, pid, card_id) -> str | None
CONDITIONS = {}  # choose-option condition -> test(ctx, pid, argument) -> bool
ROLL_REACTIONS = []  # (name, offer(ctx, pid, roll) -> dict | None, apply(ctx, pid, roll, index))
DAMAGE_STAGES = []   # (order, name, run(ctx, hit) -> True when it asked, decide(ctx, hit, index) | None)
OWN_ROLLS = ("trait", "dice", "barrier", "contest", "attack", "defence")  # rolls curses and boosts touch


def step(name, quiet: bool = False):
    def register(fn):
        STEPS[name] = fn
        if quiet:
            QUIET.add(name)
        return fn
    return register


def source_name(ctx, source: str | None) -> str | None:
    """The name a task's source goes by in the lines its steps say: a card,
    a tile, an adventurer's power or the haunt; None for an attack (its
    lines name the attacker) or an unknown source."""
    if not source:
        return None
    if source in ctx.c.cards:
        return ctx.c.cards[source].name
    if source in ctx.c.tiles:
        return ctx.c.tiles[source].name
    kind, _, key = source.partition(":")
    if kind == "power":
        return next((a.power.get("name") for a in ctx.c.adventurers.values()
                     if a.id == key or str(a.power.get("name", "")).lower() == key.replace("_", " ")), None)
    if kind == "haunt" and ctx.s.get("haunt") and ctx.s["haunt"].get("number") in ctx.c.haunts:
        return ctx.c.haunts[ctx.s["haunt"]["number"]].title
    return None


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


def usable(card_id):
    def register(fn):
        USABLE[card_id] = fn
        return fn
    return register


def condition(name):
    def register(fn):
        CONDITIONS[name] = fn
        return fn
    return register


def roll_reaction(name, apply):
    def register(offer):
        ROLL_REACTIONS.append((name, offer, apply))
        return offer
    return register


def damage_stage(name, order, decide=None):
    def register(fn):
        DAMAGE_STAGES.append((order, name, fn, decide))
        DAMAGE_STAGES.sort(key=lambda s: s[0])
        return fn
    return register


def queue(ctx, player: str, steps, source: str | None = None, front: bool = False, **extra):
    task = {"player": player, "source": source, "steps": list(steps), "keep": False, **extra}
    if front:
        ctx.s["queue"].insert(0, task)
    else:
        ctx.s["queue"].append(task)
    return task


def current(ctx) -> dict | None:
    """The task whose step is running, or whose question is being answered.
    Not always the front of the queue: a step may queue another task in
    front of its own (a curse's damage) before it asks something."""
    if ctx.task is not None:
        return ctx.task
    return ctx.s["queue"][0] if ctx.s["queue"] else None


def push_front(ctx, steps):
    """Run `steps` next, as part of the running task."""
    current(ctx)["steps"][0:0] = list(steps)


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
        ctx.src, ctx.task = task.get("source"), task
        ctx.by = None if item["do"] in QUIET else source_name(ctx, ctx.src)
        STEPS[item["do"]](ctx, task, item)
    ctx.src, ctx.task, ctx.by = None, None, None


def ask(ctx, player: str, kind: str, prompt: str, options: list[str], **data):
    """Wait for `player` to pick one of `options` (rulebook: the player chooses)."""
    asking = next((i for i, t in enumerate(ctx.s["queue"]) if t is ctx.task), 0)
    ctx.s["pending"] = {"player": player, "kind": kind, "prompt": prompt, "options": options, "data": data,
                        "task": asking}  # the queued task that asked: its steps wait on the answer
    if ctx.by:
        ctx.s["pending"]["by"] = ctx.by  # the answer's lines name the same source
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
    q = ctx.s["queue"]
    ctx.task = q[pending.get("task", 0)] if len(q) > pending.get("task", 0) else None
    ctx.src = ctx.task.get("source") if ctx.task else None
    ctx.by = pending.get("by")
    DECISIONS[pending["kind"]](ctx, pending, index)
    ctx.task, ctx.by = None, None


def unsettle(ctx, card_id: str):
    """The event being resolved has found another place (a tile, a deck):
    it will not be discarded or kept when its steps end."""
    for task in ctx.s["queue"]:
        task["steps"] = [s for s in task["steps"] if not (s.get("do") == "_settle_event" and s["card"] == card_id)]


# --- rolls ---------------------------------------------------------------

def dice_for(ctx, pid: str, item: dict) -> tuple[int, str]:
    """The dice a roll step asks for, before anything adds or takes dice."""
    if "trait" in item:
        return rng.dice_count(ctx.value(pid, item["trait"])), item["trait"].capitalize()
    return rng.dice_count(item["dice"]), "dice"


def roll_bonus(ctx, pid: str, item: dict) -> int:
    adv = ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]]
    bonus = item.get("bonus", 0)
    for add in item.get("add", []):
        if adv.race.lower() in [r.lower() for r in add.get("race", [])] or \
                adv.klass.lower() in [k.lower() for k in add.get("class", [])]:
            bonus += add.get("amount", 1)
    return bonus


def dice_changes(ctx, pid: str, trait: str | None, kind: str, spend: bool) -> tuple[int, list[str], bool]:
    """Dice added to or taken from a roll by what the roller carries, what
    lies on their tile and the marks on them: (change, reasons, cursed).
    With `spend`, one-roll effects (a curse, a potion) are used up."""
    if kind not in OWN_ROLLS:
        return 0, [], False
    p = ctx.s["players"][pid]
    change, why = 0, []
    if trait:
        for cid in p["cards"]:
            n = ctx.c.cards[cid].roll_dice.get(trait, 0)
            if n:
                change += n
                why.append(f"{ctx.card_name(cid)} {n:+d}")
        if p["tile"] and st.on_board(p):
            for token in tk.on_tile(ctx.s, p["tile"]):
                n = ctx.c.cards[token["card"]].on_tile.get("roll_dice", {}).get(trait, 0) if token.get("card") else 0
                if n:
                    change += n
                    why.append(f"{token['name']} {n:+d}")
    for mark in list(mk.all_of(ctx, pid)):
        if mark["kind"] == "next_roll_dice" or (mark["kind"] == "next_might_dice" and trait == "might"):
            change += mark["dice"]
            why.append(f"{ctx.card_name(mark['card'])} {mark['dice']:+d}")
            if spend:
                mk.drop(ctx, pid, mark)
                if mark.get("then_damage"):
                    queue(ctx, pid, [{"do": "damage", **mark["then_damage"]}], source=mark["card"], front=True)
    cursed = False
    if spend:
        curse = mk.take(ctx, pid, "cursed")
        if curse:
            cursed = True
            if curse.get("card") in p["cards"]:
                p["cards"].remove(curse["card"])
                if not hooks.first("discarding", ctx, curse["card"]):
                    ctx.s["discard"][ctx.c.cards[curse["card"]].deck].append(curse["card"])
    return change, why, cursed


def make_roll(ctx, pid: str, n: int, label: str, bonus: int = 0, trait: str | None = None,
              kind: str = "dice", faces_out: list | None = None) -> int:
    """Roll for `pid`. `kind` says what roll this is: trait, dice (a card or
    tile asks for a number), barrier, contest, damage or haunt; only the
    player's own rolls (not damage or haunt rolls) feel curses and boosts."""
    change, why, cursed = dice_changes(ctx, pid, trait, kind, spend=True)
    if cursed:
        ctx.say(f"{ctx.name(pid)} is cursed: this roll ({label}) counts as 0 and the Hag's Blessing is spent.",
                kind="roll", player=pid, faces=[], total=0, cursed=True)
        if faces_out is not None:
            faces_out.append("cursed")
        return 0
    if change:
        n = max(1, min(rng.MAX_DICE, n + change))
    faces = rng.roll(ctx.s, n)
    if faces_out is not None:
        faces_out.extend(faces)
    total = sum(faces) + bonus
    extra = f" + {bonus}" if bonus > 0 else f" - {-bonus}" if bonus < 0 else ""
    because = f" [{', '.join(why)}]" if why else ""
    ctx.say(f"{ctx.name(pid)} rolls {label} ({n} {'die' if n == 1 else 'dice'}{because}): "
            f"{' '.join(map(str, faces))}{extra} = {total}.", kind="roll", player=pid, faces=faces, total=total)
    return total


def band_for(bands, total: int) -> dict:
    total = max(total, NO_LOWER)  # a result below every band falls in the lowest
    for band in bands:
        if band.get("at_least", NO_LOWER) <= total <= band.get("at_most", 99):
            return band
    raise ValueError(f"no band for {total}")


@step("roll")
def _roll(ctx, task, item):
    pid = task["player"]
    n, label = dice_for(ctx, pid, item)
    n = rng.dice_count(n + item.get("extra_dice", 0))
    faces = []
    bonus = roll_bonus(ctx, pid, item)
    total = make_roll(ctx, pid, n, label, bonus, trait=item.get("trait"),
                      kind="trait" if "trait" in item else "dice", faces_out=faces)
    cursed = faces == ["cursed"]
    task["steps"].insert(0, {"do": "_settle_roll", "bands": item["bands"], "total": total,
                             "faces": [] if cursed else faces, "bonus": bonus, "trait": item.get("trait"),
                             "cursed": cursed, "asked": []})


@step("_settle_roll")
def _settle_roll(ctx, task, item):
    """After a roll with result bands: offer what can change the result, then
    run the band the result falls in."""
    pid = task["player"]
    if not item["cursed"]:
        for name, offer, _ in ROLL_REACTIONS:
            if name in item["asked"]:
                continue
            item = {**item, "asked": item["asked"] + [name]}
            found = offer(ctx, pid, item)
            if found:
                task["steps"].insert(0, item)
                ask(ctx, found.get("player", pid), "roll_reaction", found["prompt"], found["options"], reaction=name)
                return
    task.setdefault("results", []).append(item["total"])
    task["steps"][0:0] = band_for(item["bands"], item["total"]).get("then", [])


@decision("roll_reaction")
def _decide_roll_reaction(ctx, pending, index):
    task = current(ctx)
    roll = dict(task["steps"][0])
    for name, _, apply in ROLL_REACTIONS:
        if name == pending["data"]["reaction"]:
            apply(ctx, task["player"], roll, index)
    task["steps"][0] = roll


def band_of(bands, total: int) -> int:
    return bands.index(band_for(bands, total))


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


# --- damage --------------------------------------------------------------

def take_damage(ctx, pid: str, kind: str, amount: int, source: str | None = None, by: str | None = None,
                dealer: str | None = None):
    """Damage the player splits between the two traits of its kind
    (rulebook: Traits, "Damage"). First the damage stages may change it
    (another adventurer takes it, armour lessens it, an omen ignores it);
    asks only when a choice matters. `by` says where it comes from when the
    line would not (an attack: "Di's attack"), unless the one who takes it
    is the `dealer` (a protector stepping in for the loser)."""
    if amount <= 0:
        return
    hit = {"victim": pid, "kind": kind, "amount": amount, "source": source, "done": []}
    if by:
        hit["by"], hit["dealer"] = by, dealer
    hurt(ctx, hit)


def hurt(ctx, hit: dict):
    for _, name, run_stage, _ in DAMAGE_STAGES:
        if name in hit["done"]:
            continue
        hit["done"].append(name)
        if hit["amount"] <= 0:
            break
        if run_stage(ctx, hit):
            return
    pid, kind, amount = hit["victim"], hit["kind"], hit["amount"]
    if amount <= 0:
        ctx.say(f"{ctx.name(pid)} takes no damage.", kind="damage", player=pid, amount=0)
        return
    whence = f" from {hit['by']}" if hit.get("by") and hit.get("dealer") != pid else ""
    ctx.say(f"{ctx.name(pid)} takes {amount} {kind} damage{whence}.", kind="damage", player=pid, amount=amount)
    outcomes = tr.damage_outcomes(ctx, pid, kind, amount)
    if len(outcomes) == 1:
        tr.apply_split(ctx, pid, kind, outcomes[0])
    else:
        ask_split(ctx, pid, kind, amount, outcomes)


def ask_split(ctx, pid: str, kind: str, amount: int, outcomes: list):
    ask(ctx, pid, "damage", f"how to take {amount} {kind} damage?",
        [tr.split_label(ctx, pid, kind, o) for o in outcomes], damage=kind, amount=amount,
        outcomes=[list(o) for o in outcomes])


def ask_stage(ctx, who: str, hit: dict, stage: str, prompt: str, options: list[str]) -> bool:
    ask(ctx, who, "damage_stage", prompt, options, hit=hit, stage=stage)
    return True


@decision("damage_stage")
def _decide_damage_stage(ctx, pending, index):
    hit = pending["data"]["hit"]
    for _, name, _, decide_stage in DAMAGE_STAGES:
        if name == pending["data"]["stage"]:
            decide_stage(ctx, hit, index)
    hurt(ctx, hit)


@decision("damage")
def _decide_damage(ctx, pending, index):
    """A split that kills, where another would not, is asked once more."""
    data, pid = pending["data"], pending["player"]
    split = tuple(data["outcomes"][index])
    safer = [o for o in data["outcomes"] if not tr.split_kills(ctx, pid, data["damage"], tuple(o))]
    if tr.split_kills(ctx, pid, data["damage"], split) and safer:
        label = tr.split_label(ctx, pid, data["damage"], split)
        ask(ctx, pid, "damage_sure", f"{label}: {ctx.name(pid)} would die, though another split keeps them "
                                     "alive. Take it?", ["Yes, take it", "No, choose again"], **data, split=list(split))
        return
    tr.apply_split(ctx, pid, data["damage"], split)


@decision("damage_sure")
def _decide_damage_sure(ctx, pending, index):
    data, pid = pending["data"], pending["player"]
    if index == 0:
        tr.apply_split(ctx, pid, data["damage"], tuple(data["split"]))
        return
    ask_split(ctx, pid, data["damage"], data.get("amount", sum(data["split"])), [tuple(o) for o in data["outcomes"]])


@step("damage")
def _damage(ctx, task, item):
    pid = task["player"]
    amount = item.get("amount", 0)
    if "dice" in item:
        amount = make_roll(ctx, pid, rng.dice_count(item["dice"]), f"{item['kind']} damage", kind="damage")
    take_damage(ctx, pid, item["kind"], amount, source=task.get("source"))


# --- choices, keeping, tokens, everyone ---------------------------------

@condition("above_lowest")
def _above_lowest(ctx, pid, trait):
    return ctx.s["players"][pid]["traits"][trait] > 1


def option_open(ctx, pid: str, option: dict) -> bool:
    return all(CONDITIONS[c](ctx, pid, arg) for c, arg in option.get("only_if", {}).items())


@step("choose")
def _choose(ctx, task, item):
    pid = task["player"]
    options = [o for o in item["options"] if option_open(ctx, pid, o)]
    if not options:
        ctx.say(f"None of the choices is open to {ctx.name(pid)}, so nothing happens.", kind="info")
        return
    if len(options) == 1 and len(item["options"]) > 1:
        ctx.say(f"Only one choice is open to {ctx.name(pid)}: {options[0]['label']}.", kind="info")
        push_front(ctx, options[0].get("then", []))
        return
    ask(ctx, pid, "option", "which option?", [o["label"] for o in options], choices=options)


@decision("option")
def _decide_option(ctx, pending, index):
    push_front(ctx, pending["data"]["choices"][index].get("then", []))


@step("keep")
def _keep(ctx, task, item):
    task["keep"] = True


@step("place_token")
def _place_token(ctx, task, item):
    p = ctx.s["players"][task["player"]]
    where = item.get("where", "here")
    tile = p["tile"] if where == "here" else where
    if tile not in ctx.s["board"]:
        return
    card = task.get("source") if item.get("card") else None
    half = p["half"] if where == "here" and ctx.c.tiles[tile].barrier else None
    tk.place(ctx.s, item["token"], tile, card=card, half=half)
    if card:
        unsettle(ctx, card)
    beside = f", with the {ctx.card_name(card)} card beside it" if card else ""
    ctx.say(f"{words.a(item['token'], capital=True)} token is placed on the {ctx.tile_name(tile)}{beside}.", kind="token", tile=tile,
            card=card)


@step("special")
def _special(ctx, task, item):
    handler = SPECIALS.get(item["name"])
    if handler:
        handler(ctx, task, item)
        return
    source = task.get("source")
    name = ctx.c.cards[source].name if source in ctx.c.cards else ctx.c.tiles[source].name if source in ctx.c.tiles \
        else "this effect"
    ctx.say(f"The bot does not play this part of {name} yet: resolve it at the table as its text says.",
            kind="by_hand", source=source)


def area(ctx, here: str, where: str) -> set[str]:
    """The tiles `here_and_connected` names: yours and each tile joined to it
    by a connected doorway (an Illusion token counts as one; an Arcane Gate
    or stairs do not)."""
    return {here} | {t for t, _ in geometry.moves_from(ctx, here, doors_only=True)}


def who_is(ctx, pid: str, where: str, others: bool = False, allies: bool = False) -> list[str]:
    """The adventurers an `each` step names, the player first, then the
    others in turn order from the player's left."""
    s = ctx.s
    me = s["players"][pid]
    here = me["tile"]
    if where == "here_and_connected":
        near = area(ctx, here, where)
    found = []
    for k in range(len(s["seats"])):
        other = st.left_of(s, pid, k) if pid in s["seats"] else s["seats"][k]
        p = s["players"][other]
        if not st.on_board(p) or (others and other == pid):
            continue
        if allies and other != pid and other in opponents_of(ctx, pid):
            continue
        tile = ctx.c.tiles[p["tile"]]
        if where == "here":
            ok = p["tile"] == here and (pid not in s["players"] or st.together(s, other, pid))
        elif where == "here_and_connected":
            ok = p["tile"] in near
        elif where in ("catacomb", "city"):
            ok = tile.level == where
        elif where in ("building", "street"):
            ok = tile.kind == where
        else:
            ok = True
        if ok:
            found.append(other)
    return found


def opponents_of(ctx, pid: str) -> list[str]:
    """Before the haunt nobody is anybody's opponent (rulebook: Glossary,
    "opponent"); after it, traitors and heroes oppose each other (a hidden
    traitor only once their token is face up)."""
    s = ctx.s
    if s["phase"] != "haunt" or not s["haunt"]:
        return []
    own = hooks.first("opponents", ctx, pid)  # a haunt that draws the sides its own way
    if own is not None:
        return [o for o in own if o != pid and s["players"][o]["alive"]]
    if s["haunt"].get("hidden_tokens") and not s["haunt"].get("unmasked"):
        return []  # Ruling: a hidden traitor is nobody's opponent until unmasked, or the rules would give them away
    traitors = set(s["haunt"]["traitors"])
    mine = pid in traitors
    return [o for o in s["seats"] if o != pid and (o in traitors) != mine and s["players"][o]["alive"]]


@step("each")
def _each(ctx, task, item):
    """Every adventurer the step names resolves `then` as their own, one
    after the other, before the rest of the card."""
    targets = who_is(ctx, task["player"], item["on"], item.get("others", False), item.get("allies", False))
    if not targets:
        ctx.say("Nobody is affected.", kind="info")
        return
    tasks = [{"player": t, "source": task.get("source"), "steps": list(item.get("then", [])), "keep": False}
             for t in targets]
    ctx.s["queue"][0:0] = tasks
