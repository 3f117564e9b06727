"""Adventure 4, Daylight Assault: the heroes gather items and leave by the Start tile's stairs. An
extra encounter card is drawn every villain phase (FAQ), heroes who have left draw none (FAQ) but
their villain phase still runs. Only items count toward the number the data asks for, the starting
items included; blessings and fortunes never do (FAQ). A hero escapes by ending the hero phase on a
stair square of the Start tile (the items are carried out that way: common.py's escape_squares
reads the items clause as an escape by the Start stairs)."""

from ..rulesets import register
from .common import DataRules


@register(4)
class DaylightAssault(DataRules):
    title = "Daylight Assault"
