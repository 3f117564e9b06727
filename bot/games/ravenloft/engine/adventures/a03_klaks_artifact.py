"""Adventure 3, Klak's Infernal Artifact: Klak enters play when the Laboratory is laid, with his
artifact there (an object with its AC and HP that does not act). Cancelling an encounter with
experience costs the active hero HP where the data says so. The heroes win when Klak is defeated and
the artifact destroyed. Gaining powers from a personal power deck on white tiles is left to the
table."""

from ..rulesets import register
from .common import DataRules


@register(3)
class KlaksArtifact(DataRules):
    title = "Klak's Infernal Artifact"
    left_to_players = ("drawing a power from the unused power deck when a white tile is laid",)
