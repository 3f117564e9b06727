"""Adventure 5, The Final Transformation: the heroes escort Kavan to the Dark Fountain. When the
Fountain is laid Kavan turns (the Young Vampire enters there, from the data) and 5 hit point tokens
go on it. Each hero who ends a hero phase on the Fountain while the Young Vampire is on it removes
one (the data's clause). The heroes win when none is left; they lose if the Young Vampire is
destroyed (Kavan is lost with it) and by the standard defeat. Kavan's token walking with the heroes
before the Fountain is laid has no effect on play here and is left to the table: nothing in the
data says what happens to a Kavan left alone."""

from .. import combat, heroes
from ..rulesets import register
from .common import DataRules, placed_key


@register(5)
class FinalTransformation(DataRules):
    title = "The Final Transformation"
    carried_out = ("Each Hero who ends a Hero Phase on the Dark Fountain",)
    left_to_players = ("Kavan's token walking with the heroes (no rule gives it an effect)",)

    def tile_placed(self, ctx, tkey, pid):
        super().tile_placed(ctx, tkey, pid)
        if ctx.s["tiles"]["placed"][tkey]["tile"] == "dark_fountain":
            self.record(ctx.s)["fountain_tokens"] = 5
            ctx.say("object", "Five hit point tokens gather on the Dark Fountain.")

    def hero_phase_ended(self, ctx, pid):
        rec = self.record(ctx.s)
        k = placed_key(ctx, "dark_fountain")
        if not k or not rec.get("fountain_tokens") or not heroes.standing(ctx, pid) or heroes.tile(ctx, pid) != k:
            return
        if not any(f["monster"] == "young_vampire" and k in combat.fig_tiles(f) for f in ctx.s["figures"].values()):
            return
        rec["fountain_tokens"] -= 1
        ctx.say("object", f"{heroes.name(ctx, pid)} holds the turning Kavan in the fountain's water: "
                          f"{rec['fountain_tokens']} token(s) left.")

    def holds(self, ctx, i, c):
        if c.kind == "tokens_removed":
            rec = self.record(ctx.s)
            return rec.get("fountain_tokens") == 0
        return super().holds(ctx, i, c)
