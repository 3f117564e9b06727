"""Betrayal at Baldur's Gate as a game system (bot.kit.contract): its engine, vocabulary, texts,
pictures, built-in players and story behind the one contract the shared layers know."""
import dataclasses

from bot.kit.contract import Command, EngineSystem, Option, Param

from . import autoplay, text, vocabulary
from .content import load_content
from .engine import Engine, story
from .engine.game import MAP_SETTINGS, RULES
from .engine.legal import actor, legal_actions
from .engine.state import monster_called
from .engine.view import view
from .replay import turn_states

ENDINGS = {"haunt_won": "won the haunt", "haunt_ended": "the haunt ended without a winner",
            "haunt_revealed": "stopped at the reveal"}
PATIENCE = 60  # actions of one seat in one turn, past which it answers first options and ends its turn

WAYS = (("north", "north"), ("east", "east"), ("south", "south"), ("west", "west"), ("stairs", "stairs"),
        ("sewer grate", "grate"), ("arcane gate", "gate"))
TRAITS = tuple((t.capitalize(), t) for t in vocabulary.TRAIT_WORDS)


def _monsters(system, state: dict, seat: str) -> list[tuple[str, str]]:
    """Suggestions for /attack's monster: shown as the game says it; the value is what the command reads."""
    return [(monster_called(m), f"{m['name']} {m['number']}") for m in state.get("monsters", []) if not m["dead"]]


def _move(state, seat, v):
    return vocabulary.make("move", player=seat, way=v["direction"])


def _attack(state, seat, v):
    target = v.get("player") or v.get("builtin") or v.get("monster") or ""
    return vocabulary.make("attack", player=seat, target=target, trait=v.get("trait"), weapon=v.get("weapon"),
                           reckless=bool(v.get("reckless")))


SHARED = (
    Command("move", "Move through a doorway, the stairs or a sewer grate", _move,
            (Param("direction", "choice", "Which way", required=True, choices=WAYS),)),
    Command("attack", "Attack an opponent or a monster (after the haunt begins)", _attack,
            (Param("player", "person", "An adventurer to attack"),
             Param("monster", "text", "A monster to attack", suggest=_monsters),
             Param("trait", "choice", "Attack with another trait than Might (if you may)", choices=TRAITS),
             Param("weapon", "text", "A weapon you hold"),
             Param("reckless", "flag", "A reckless attack"),
             Param("builtin", "seat", "A built-in player's adventurer to attack"))),
    Command("end", "End your turn", lambda s, seat, v: vocabulary.make("end", player=seat)),
    Command("undo", "Take back your last action of this turn (until a roll or a draw)",
            lambda s, seat, v: vocabulary.make("undo", player=seat)),
    Command("choose", "Answer the question the game is asking you",
            lambda s, seat, v: vocabulary.make("decide", player=seat, choice=int(v["option"]) - 1),
            (Param("option", "number", "The answer's number", required=True),)),
)


@dataclasses.dataclass
class BaldursGate(EngineSystem):
    id: str = "babg"
    title: str = "Betrayal at Baldur's Gate"
    players: tuple[int, int] = (3, 6)
    pick_word: str = "adventurer"
    campaigns: bool = True  # a game can be a chapter of a chronicle (bot.chronicle, engine/specials/legacy.py)
    discord_face: str | None = "bot.games.babg.discord"
    table_face: str | None = "bot.games.babg.table"
    engine: Engine | None = None

    def __post_init__(self):
        self.options = (
            Option("haunt", "number", "Play this haunt (1-50) instead of the chart's, when the haunt begins"),
            Option("rules", "choice", "House rules to play by", (("Baldur's Gate rules", RULES[0]),
                                                                 ("house rules from Betrayal Legacy", RULES[1]))),
            Option("avoid_repeats", "flag", "Skip haunts this server has played (the rulebook's optional rule)"),
            Option("map", "choice", "When the channel gets the map (always on /map)",
                   tuple(zip(("after every turn", "once a round", "only on /map"), MAP_SETTINGS))),
        )
        self.commands = SHARED

    def make_engine(self) -> Engine:
        return Engine(load_content())

    # --- the engine ----------------------------------------------------------------------
    def new_game(self, seed, options=None):
        options = dict(options or {})
        haunt = options.pop("haunt", "play")  # `stop`: the game ends at the haunt's reveal (the table's demo)
        return self._engine().new_game(seed, haunt, options)

    def replay(self, seed, actions, options=None):
        options = dict(options or {})
        return self._engine().replay(seed, actions, options.pop("haunt", "play"), options)

    def legal_actions(self, state, seat=None):
        actions = legal_actions(self.content(), state)
        return [a for a in actions if seat is None or a.get("player") == seat]

    def actor(self, state):
        return actor(state)

    def join_action(self, seat, name, pick, builtin=False):
        action = vocabulary.make("join", player=seat, adventurer=pick or "?", name=name)
        return {**action, "builtin": True} if builtin else action

    def phase(self, state):
        p = state.get("phase")
        return p if p in ("lobby", "over") else "play"

    def turn_number(self, state):
        return vocabulary.turn_number(state)

    def pending_key(self, state):
        return vocabulary.pending_key(state)

    def picks(self, state):
        c = self.content()
        return [(f"{c.adventurers[a].name} ({c.adventurers[a].race} {c.adventurers[a].klass})", a)
                for a in self._engine().free_adventurers(state)]

    def table_options(self, values):
        return {"chosen_haunt": values.get("haunt"), "rules": [values["rules"]] if values.get("rules") else [],
                "avoid_repeats": bool(values.get("avoid_repeats")), "map": values.get("map") or "turn"}

    def find_pick(self, words: str) -> str:
        return self._engine().find_adventurer(words)

    def free_picks(self, state) -> list[str]:
        return self._engine().free_adventurers(state)

    # --- words ---------------------------------------------------------------------------
    def parse(self, words, state, seat):
        return vocabulary.parse(words, state, seat, self.content())

    def describe(self, action, state=None):
        return vocabulary.describe(action, state or {}, self.content())

    def speak(self, said, state, where):
        return vocabulary.spoken(said, state, where)

    def view(self, state, viewer):
        return view(state, viewer)

    def status_text(self, state):
        return text.status(self.content(), state)

    def sheet_text(self, state, seat):
        return text.sheet(self.content(), state, seat)

    def story(self, state):
        return story.reveal_lines(self.content(), state)

    def history_entry(self, state):
        h = state.get("haunt") or {}
        result = state.get("result") or {}
        winner = result.get("winner")
        traitors = h.get("traitors") or []
        seats = state["seats"]
        if result.get("winners") is not None:  # a haunt's lone winner (the last adventurer alive)
            won = [p for p in seats if p in result["winners"]]
        elif winner in ("traitor", "traitors"):
            won = [p for p in seats if p in traitors]
        elif winner == "heroes":
            won = [p for p in seats if p not in traitors]
        else:
            won = []
        names = {p: state["players"][p]["name"] for p in seats}
        if result.get("reason") == "haunt_won" and len(result.get("sides") or []) > 1:
            how = f"the {' and the '.join(result['sides'])} won the haunt together"
        elif result.get("reason") == "haunt_won":
            how = f"the {'heroes' if winner == 'heroes' else winner} won the haunt"
        else:
            how = ENDINGS.get(result.get("reason"), "ended early (/game end)")
        adventurers = self.content().adventurers
        return {"players": [f"{names[p]} ({adventurers[state['players'][p]['adventurer']].name})" for p in seats],
                "haunt": f"{h['number']}, {h.get('title', '')}".rstrip(", ") if h else None,
                "winners": [names[p] for p in won], "how": how}

    def content_main(self, argv):
        from .content.report import main  # the report loads every haunt's module: only when asked for
        return main(argv)

    def help_topics(self):
        return list(self.content().topics)

    # --- seats the bot plays -------------------------------------------------------------
    def seat_to_play(self, state: dict, played: set[str]) -> str | None:
        """The seat the bot must act for now. In the haunt's reading time every seat may say Ready in any
        order: the bot's seats say it at once."""
        h = state.get("haunt")
        if state.get("phase") == "haunt" and h and not h.get("started", True) and not state["pending"]:
            return next((p for p in state["seats"] if p in played and state["players"][p]["alive"]
                         and p not in h["ready"]), None)
        who = actor(state)
        return who if who in played else None

    def builtin_action(self, state, seat, rnd, patience=0):
        """The seat's own choice, played fair (its own picture of the game), or, once it has taken PATIENCE
        actions this turn, the plainest way on (first answer, end of turn)."""
        h = state.get("haunt")
        if state["phase"] == "haunt" and h and not h.get("started", True) and not state["pending"]:
            return {"type": "ready", "player": seat}
        if patience >= PATIENCE:
            if state["pending"]:
                return {"type": "decide", "player": seat, "choice": 0}
            return {"type": "end", "player": seat}
        return autoplay.choose(self.content(), state, rnd, fair=True)

    # --- pictures (called in the map worker) ---------------------------------------------
    def render_map(self, state, max_bytes=None):
        from .render import render_map  # Pillow is loaded where pictures are drawn, not by every importer
        turn = state.get("turn") or {}
        return render_map(self.content(), state, highlight=turn.get("player"), max_bytes=max_bytes)

    def render_turn(self, state, seat=None, max_bytes=None):
        from .render import render_turn
        return render_turn(self.content(), state, max_bytes=max_bytes)

    def render_stats(self, figures):
        from .render.chart import stats_chart
        return stats_chart(figures)

    def render_replay(self, seed, actions, options):
        from .render import render_replay_gif
        return render_replay_gif(self.content(), turn_states(self._engine(), seed, actions,
                                                             options.get("haunt", "play"), options=options))


SYSTEM = BaldursGate()
