"""The adventures' rule sets, one module each where the data cannot say it all; importing this
package registers them (bot.games.ravenloft.engine.rulesets)."""

from . import common, a01_escape_the_tomb, a02_find_the_icon, a03_klaks_artifact, a04_daylight_assault  # noqa: F401
from . import a05_final_transformation, own_adventures  # noqa: F401
