"""Adventure 2, Find the Icon of Ravenloft: when the Chapel is laid, one monster per hero joins the
monster every tile gets (FAQ: one more monster than players on it), and the Icon's token lies on its
bone pile. Every villain phase draws one encounter card beyond any other (FAQ: a hero who does not
explore draws two). The heroes win once every monster placed on the Chapel is defeated and a hero
holds the Icon. All of it comes from the adventure's data (DataRules); this module registers it by
number and names it."""

from ..rulesets import register
from .common import DataRules


@register(2)
class FindTheIcon(DataRules):
    title = "Find the Icon of Ravenloft"
