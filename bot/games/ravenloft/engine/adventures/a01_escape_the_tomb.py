"""Adventure 1, Escape the Tomb (solo): the hero wakes in Strahd's Crypt (the start tile, any
square of it) and must find the Secret Stairway before Strahd rises. The sun token walks the time
track as the data says; when it reaches the end, Strahd enters play in his crypt and hunts the
hero. The hero wins by starting a turn on the Secret Stairway tile; the standard defeat applies."""

from ..rulesets import register
from .common import DataRules, placed_key


@register(1)
class EscapeTheTomb(DataRules):
    title = "Escape the Tomb"
    solo = True

    def villain_home(self, ctx):
        return placed_key(ctx, "strahds_crypt") or "0,0"
