"""The reveal at a game's end (bot.games.babg.engine.story): games auto-played to their
end with a chosen haunt. Whatever a player's view (bot.games.babg.engine.view) kept
from them while the game was played is named once it is over: the hidden
traitor and everyone's tokens, every haunt record or field a rule set
declares secret, what lies under face-down tokens. A game in play reveals
nothing."""
import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import rulesets
from bot.games.babg.engine import state as st
from bot.games.babg.engine.story import reveal_lines
from bot.games.babg.engine.view import view
from tests.test_haunt_rulesets_play import started


PLAYED: dict[tuple[int, int], list[dict]] = {}  # each game is played once for the tests here


def played(engine, number: int, seed: int) -> list[dict]:
    """Every state of one auto-played game with haunt `number`, to its end."""
    if (number, seed) not in PLAYED:
        PLAYED[number, seed] = play(engine, number, seed)
    return PLAYED[number, seed]


def play(engine, number: int, seed: int) -> list[dict]:
    state, rnd = started(engine, number, seed)
    states = [state]
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=2500):
        states.append(state)
    assert state["phase"] == "over", f"haunt {number} did not end"
    return states


def hidden_from(state: dict, pid: str | None) -> list:
    """What `pid`'s view strips from the game as it stands, had it not ended:
    the facts themselves (values), read off the view, not off the rule sets."""
    playing = {**state, "phase": "haunt"}
    seen = view(playing, pid)
    h, shown = state["haunt"], seen["haunt"]
    facts = [t for t in h["traitors"] if t not in shown["traitors"]]
    tokens = h.get("hidden_tokens") or {}
    facts += [(p, tokens[p]) for p in tokens if p not in (shown.get("hidden_tokens") or {})]
    for key, value in h.items():
        if key not in shown:
            facts.append(value)
        elif isinstance(value, dict) and isinstance(shown[key], dict):
            facts += [v for k, v in value.items() if k not in shown[key]]
    for token, left in zip(state["tokens"], seen["tokens"]):
        facts += [v for k, v in token.items() if k not in left]
    return facts


def words_for(content, state: dict, value) -> list[str]:
    """The names and numbers a fact must show up as in the reveal."""
    if isinstance(value, dict):  # a field with nothing in it is left out
        told = [(k, words_for(content, state, v)) for k, v in value.items()]
        return [w for k, words in told if words for w in words_for(content, state, k) + words]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in words_for(content, state, v)]
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [str(value)]
    if value in state["players"]:
        return [state["players"][value]["name"]]
    monster = next((m for m in state["monsters"] if m["id"] == value), None)
    for names in (content.tiles, content.cards):
        if value in names:
            return [names[value].name]
    return [f"{monster['name']} {monster['number']}"] if monster else [value.replace("_", " ")]


def secret_haunts() -> list[int]:
    """Every haunt whose rule set declares something nobody may see."""
    return sorted(n for n, r in rulesets.REGISTRY.items()
                  if r.secret or r.secret_token_fields or (r.own and (r.own.secret or r.own.secret_fields)))


def hidden_traitor_haunts(content) -> list[int]:
    return sorted(n for n, rule in content.traitor_rules.items() if rule.kind == "hidden_traitor")


def test_the_rule_sets_declare_secrets():
    """The list below is read from the declarations: it covers the haunts the issue names."""
    assert {2, 39, 45} <= set(secret_haunts())


@pytest.mark.parametrize("number", [19, 37])
def test_the_reveal_names_the_hidden_traitor_and_every_token(engine, number):
    assert number in hidden_traitor_haunts(engine.content)
    for seed in range(number * 101, number * 101 + 3):
        state = played(engine, number, seed)[-1]
        text = "\n".join(reveal_lines(engine.content, state))
        h = state["haunt"]
        (traitor,) = h["traitors"]
        name = state["players"][traitor]["name"]
        adventurer = engine.content.adventurers[state["players"][traitor]["adventurer"]].name
        hidden = not st.known_traitor(state, traitor)
        assert f"traitor was {name} ({adventurer})" in text
        assert ("hidden traitor was" in text) == hidden
        tokens = h["hidden_tokens"]
        shown = " and ".join(map(str, st.token_numbers(tokens[traitor])))
        assert f"{name} {shown}" in text
        for pid in state["seats"]:  # each player's tokens, hidden from every other player
            numbers = " and ".join(map(str, st.token_numbers(tokens[pid])))
            assert f"{state['players'][pid]['name']} {numbers}" in text
            for fact in hidden_from(state, pid):
                for word in words_for(engine.content, state, fact):
                    assert word in text, f"haunt {number}: {word!r} hidden from {pid} is not revealed"


@pytest.mark.parametrize("number", secret_haunts())
def test_every_declared_secret_is_revealed(engine, number):
    """The game ended with its secrets still there (its last state, else the
    last moment of the haunt when something was still secret, ended there):
    each value the channel's view took out appears in the reveal."""
    states = played(engine, number, number * 101)
    ending = next(({**s, "phase": "over"} for s in reversed(states)
                   if s["phase"] in ("haunt", "over") and s.get("haunt")
                   and any(words_for(engine.content, s, f) for f in hidden_from(s, None))), None)
    assert ending is not None, f"haunt {number} never kept a secret"
    text = "\n".join(reveal_lines(engine.content, ending))
    words = [w for f in hidden_from(ending, None) for w in words_for(engine.content, ending, f)]
    assert words
    for word in words:
        assert word in text, f"haunt {number}: {word!r} is not revealed"


def test_the_named_secrets_read_well(engine):
    """Haunt 2's slave pens, 39's clue numbers, 45's potions, said in words."""
    for number, what in ((2, "Kept secret by the haunt (pens): tile: "), (39, "Face down: Clue on the "),
                         (45, "Face down: Potion on the ")):
        states = played(engine, number, number * 101)
        ending = next({**s, "phase": "over"} for s in reversed(states)
                      if s["phase"] in ("haunt", "over") and what.split(":")[0] in
                      "\n".join(reveal_lines(engine.content, {**s, "phase": "over"})))
        assert what in "\n".join(reveal_lines(engine.content, ending))


def test_each_side_has_its_goal_and_everyone_their_cards(engine):
    state = played(engine, 2, 202)[-1]
    lines = reveal_lines(engine.content, state)
    assert any(line.startswith("The traitor's goal: ") for line in lines)
    assert any(line.startswith("The heroes' goal: ") for line in lines)
    for pid in state["seats"]:
        cards = state["players"][pid]["cards"]
        line = next(line for line in lines if line.startswith(f"{state['players'][pid]['name']} ("))
        assert all(engine.content.cards[c].name in line for c in cards)
        assert ("no cards" in line) == (not cards)


@pytest.mark.parametrize("number", [19, 45])
def test_a_game_in_play_reveals_nothing(engine, number):
    states = played(engine, number, number * 101)
    assert states[-1]["phase"] == "over" and reveal_lines(engine.content, states[-1])
    for state in states[:-1]:
        assert state["phase"] != "over"
        assert reveal_lines(engine.content, state) == []
