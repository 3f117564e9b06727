"""The haunt revealed (rulebook: The Haunt; Haunt Setup): the chart gives
the haunt, the traitor table its traitor, a hidden traitor's tokens are
dealt, and each side is sent its own rules, in secret."""
from . import hooks, words
from . import state as st
from .haunt import chart_tile, choose_traitors, deal_hidden_tokens, nearest_left, tokens_text
from .sides import TRAITOR_KINDS, traitors


def start_haunt(ctx, revealer: str, omen: str, tile: str):
    s, c = ctx.s, ctx.c
    row = chart_tile(c, s, tile)
    number = c.haunt_for(omen, row)
    chosen = hooks.first("haunt_selected", ctx, revealer, omen, tile, number)  # the table's options
    if chosen:
        number, omen, tile = chosen["number"], chosen.get("omen", omen), chosen.get("tile", tile)
        row = chart_tile(c, s, tile)
    rule = c.traitor_rules[number]
    haunt = c.haunts.get(number)
    title = haunt.title if haunt else f"Haunt {number}"
    traitors = choose_traitors(c, s, number, revealer, tie=lambda state, by, tied: hooks.first(
        "traitor_tie", ctx, by, tied) or nearest_left(state, by, tied))
    s["haunt"] = {"number": number, "title": title, "kind": rule.kind, "revealer": revealer, "omen": omen,
                  "tile": tile, "chart_tile": row, "traitors": traitors, "hidden_tokens": None}
    where = ctx.tile_name(tile) + ("" if row == tile else f" (charted as the nearest omen tile, the {ctx.tile_name(row)})")
    gives = f"gives haunt {number}" if not chosen else f"(the table's options: {chosen['why']}) leads to haunt {number}"
    ctx.say(f"The haunt begins! {ctx.who(revealer)} is the haunt revealer: {ctx.card_name(omen)} on the {where} "
            f"{gives}, \"{title}\".", kind="haunt", number=number)
    if rule.kind in ("traitor", "several_traitors"):
        names = ", ".join(ctx.who(p) for p in traitors)
        ctx.say(f"Traitor: {names}.", kind="haunt", traitors=traitors)
    elif rule.kind == "hidden_traitor":
        each = next((x.get("each", 1) for x in (haunt.raw.get("setup", []) if haunt else [])
                     if x.get("do") == "hidden_tokens"), 1)
        tokens = deal_hidden_tokens(s, each)
        s["haunt"]["hidden_tokens"] = tokens
        s["haunt"]["traitors"] = [p for p, n in tokens.items() if 1 in st.token_numbers(n)]
        ctx.say("A hidden traitor is among you: everyone is dealt " + ("a numbered token" if each == 1 else
                f"{each} numbered tokens") + " face down.", kind="haunt")
        for pid, n in tokens.items():
            secret = "You are the hidden traitor." if 1 in st.token_numbers(n) else "You are not the traitor."
            ctx.say(f"{tokens_text(n)} {secret}", kind="secret", to=pid)
    else:
        ctx.say(rule.rule, kind="haunt")
    if s.get("options", {}).get("haunt") == "play":
        reveal(ctx)
        return
    s["phase"] = "over"
    s["result"] = {"reason": "haunt_revealed", "haunt": number}
    ctx.say("This table stops at the reveal: play the haunt from here with the haunt books.", kind="over")


def reveal(ctx):
    """After the chart and the traitor: each side reads its own rules, in
    secret; play resumes when everyone is ready (rulebook: Haunt Setup)."""
    s = ctx.s
    h = s["haunt"]
    h.update({"ready": [], "started": False, "counters": {}, "winner": None, "part_two": [],
              "placed": []})
    s.setdefault("monsters", [])
    s["phase"] = "haunt"
    h["turns_before"] = (s["turn"] or {}).get("number", 0)  # the haunt's turns number on from here
    s["turn"] = None
    s["queue"].clear()
    haunt = ctx.c.haunts.get(h["number"])
    for pid in s["seats"]:
        for text in rules_texts(ctx, haunt, pid):
            ctx.say(text, kind="secret_rules", to=pid)
    for pid in (traitors(s) if h["kind"] in TRAITOR_KINDS else []):
        hooks.fire("traitor_named", ctx, pid)  # Rulebook: The Traitor's New Powers
    ctx.say("Each of you has been sent your side's rules privately. Read them, then press Ready; the haunt "
            "begins when everyone is ready.", kind="haunt_ready")


def side_book(s: dict, pid: str) -> str:
    """Which book a player reads: the traitor the Tome, heroes (and everyone
    in hidden-traitor and no-traitor haunts) the Secrets of Survival."""
    if s["haunt"]["kind"] in TRAITOR_KINDS and pid in traitors(s):
        return "traitor"
    return "heroes"


def rules_texts(ctx, haunt, pid: str, part: int = 1) -> list[str]:
    """The player's side of the haunt, section by section, in our words."""
    if haunt is None:
        return [f"Haunt {ctx.s['haunt']['number']}: read your side in the haunt books."]
    book = side_book(ctx.s, pid)
    side = haunt.raw.get(book, {})
    label = "the traitor" if book == "traitor" else "the heroes"
    out = [f"Haunt {haunt.number}: {words.ended(haunt.title)} Your rules, as {label}" + (" (part two)" if part == 2 else "") + ":"]
    if part == 1 and side.get("intro"):
        out.append(side["intro"].strip())
    for section in side.get("section", []):
        if section.get("part", 1) == part:
            out.append(f"{section['heading'].upper()}\n{section['text'].strip()}")
    if part == 1 and side.get("part_two_when"):
        out.append(f"(More rules come when {side['part_two_when'].rstrip('.')}.)")
    if ctx.s["haunt"]["kind"] == "no_traitor" and pid == ctx.s["haunt"]["revealer"] and book == "heroes" \
            and not haunt.raw.get("traitor", {}).get("stub"):
        out.append("You are the haunt revealer: you also run the monsters. Their script:")
        out += [f"{x['heading'].upper()}\n{x['text'].strip()}" for x in haunt.raw["traitor"].get("section", [])]
    return out


def send_secrets(ctx, pid: str):
    """Everything secret the seat holds, sent again to whoever now has it
    (a handed-over seat): its side's rules, both parts if opened, and a
    hidden traitor token."""
    h = ctx.s.get("haunt")
    if not h:
        return
    tokens = h.get("hidden_tokens") or {}
    if pid in tokens:
        secret = "You are the hidden traitor." if 1 in st.token_numbers(tokens[pid]) else "You are not the traitor."
        ctx.say(f"{tokens_text(tokens[pid])} {secret}", kind="secret", to=pid)
    if ctx.s["phase"] != "haunt" or "ready" not in h:
        return
    haunt = ctx.c.haunts.get(h["number"])
    for part in (1, 2) if side_book(ctx.s, pid) in h["part_two"] else (1,):
        for text in rules_texts(ctx, haunt, pid, part=part):
            ctx.say(text, kind="secret_rules", to=pid)
