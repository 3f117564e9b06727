"""Built-in seats through the real client and the fake Discord: one person
and the seats the bot plays reach the end of a game; the person never sees
a built-in seat's secrets; the channel keeps its pace."""
import pytest

from tests.builtin_games import play_with_builtins
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

HIDDEN_TRAITOR = 19  # Thick as Thieves: the traitor is secret, maybe a built-in seat


@pytest.mark.parametrize("builtins,haunt,seed", [(2, HIDDEN_TRAITOR, 5), (3, None, 11)])
async def test_one_person_and_built_in_seats_play_to_the_end(fake_discord, tmp_path, engine, builtins, haunt, seed):
    played = await play_with_builtins(fake_discord, tmp_path, engine, builtins, seed, haunt=haunt)
    assert played.stalled is None, played
    assert played.result and played.result.get("reason") in ("haunt_won", "haunt_ended"), played
    assert played.leaks == [], "a built-in seat's secret reached the person"
    assert played.busiest <= played.pace[0], "every write in the channel kept the pace"
    assert not fake_discord.client_errors, fake_discord.client_errors
