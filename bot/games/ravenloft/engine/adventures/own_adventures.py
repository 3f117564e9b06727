"""Our own adventures (ids, not book numbers), each carrying out the clauses its data leaves in words.

- The Phylactery Hunt: the phylactery (AC 14, 3 HP, an object that does not act) stands on the
  Arcane Circle once it is laid (the data's object_destroyed clause); while it stands, Gravestorm recovers 2 HP as each villain phase
  begins (its activations come in the villain phase: once each, twice under Frenzy, so this is once
  a phase).
- Wings over the Fog: Blood Fog is the environment in play from the start (taken out of the
  encounter deck); a new environment replaces it as usual.
- The Stitched Servant: once a hero has ended a hero phase on the Laboratory, every hero adds 2 to
  attack rolls against the Flesh Golem; the heroes lose when the golem stands on a half of the Start
  tile after a villain's activation (checked after every action)."""

from .. import combat, data, heroes
from ..rulesets import register
from .common import DataRules, placed_key


@register("the_phylactery_hunt")
class PhylacteryHunt(DataRules):
    title = "The Phylactery Hunt"
    carried_out = ("The phylactery (AC 14, 3 HP)",)

    def villain_phase_started(self, ctx, pid):
        if not any(f["monster"] == "phylactery" for f in ctx.s["figures"].values()):
            return
        for f in ctx.s["figures"].values():
            if f["monster"] == "gravestorm" and f["hp"] < f["max_hp"]:
                got = min(2, f["max_hp"] - f["hp"])
                f["hp"] += got
                ctx.say("villain", f"The phylactery feeds Gravestorm: it recovers {got} HP ({f['hp']}/{f['max_hp']}).")


@register("wings_over_the_fog")
class WingsOverTheFog(DataRules):
    title = "Wings over the Fog"
    carried_out = ("Blood Fog starts in play",)

    def after_setup(self, ctx):
        super().after_setup(ctx)
        d = ctx.s["decks"]["encounter"]
        fog = next((c for c in d["deck"] if data.slug(data.encounter(ctx.content, c)["name"]) == "bloodfog"), None)
        if fog and ctx.s["environment"] is None:
            d["deck"].remove(fog)
            ctx.s["environment"] = fog
            ctx.say("environment", "Blood Fog hangs over the dungeon from the start.")


@register("the_stitched_servant")
class StitchedServant(DataRules):
    title = "The Stitched Servant"
    carried_out = ("Once a Hero has ended a Hero Phase on the Laboratory", "The golem ends an activation")

    def hero_phase_ended(self, ctx, pid):
        k = placed_key(ctx, "laboratory")
        rec = self.record(ctx.s)
        if k and not rec.get("notes_read") and heroes.standing(ctx, pid) and heroes.tile(ctx, pid) == k:
            rec["notes_read"] = True
            ctx.say("rule", f"{heroes.name(ctx, pid)} reads the notes in the Laboratory: from now on every hero adds 2 "
                            f"to attack rolls against the Flesh Golem.")

    def attack_bonus(self, ctx, pid, fig) -> int:
        if fig is not None and fig.get("monster") == "flesh_golem" and self.record(ctx.s).get("notes_read"):
            return 2
        return 0

    def check(self, ctx):
        got = super().check(ctx)
        if got:
            return got
        starts = {k for k, t in ctx.s["tiles"]["placed"].items() if t.get("start")}
        for f in ctx.s["figures"].values():
            if f["monster"] == "flesh_golem" and set(combat.fig_tiles(f)) & starts:
                return "defeat", "golem_escaped", "The Flesh Golem reaches the Start tile and breaks out into the " \
                                                  "village: the adventure is lost."
        return None
