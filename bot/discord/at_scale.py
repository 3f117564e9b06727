"""Two adjustments to discord.py for a bot serving a thousand channels,
each measured with bench/discord_load.py (pinned: discord.py 2.7, whose
private attributes they use; tests/test_capacity_parts.py checks both).

The sweep of stale rate-limit buckets. discord.py keeps one bucket per
route and channel (or webhook) it has called; once it holds 256, it scans
them all for ones unused for five minutes each time it adds another. A bot
in a thousand channels adds one at almost every message, so each request
paid for a scan of thousands: a tenth of the bot's CPU. Here the same scan
runs once the buckets have doubled since the last one: the same stale
buckets go, at a constant cost a request.

Interactions let go of. An interaction and its response (and its followup
webhook) refer to each other, a reference cycle that only the garbage
collector's full pass frees; at hundreds of interactions a second those
cycles were what set off the full passes, each a pause of a fifth of a
second. Once the bot has handled an interaction, the links are cut and it
is freed at once.
"""

FLOOR = 256  # discord.py's own threshold for sweeping
LINKS = ("_cs_response", "_cs_followup")  # an Interaction's cached response and followup, each linking back


def sweep_when_doubled(http):
    """Replace the sweep of this discord.py HTTPClient (it calls
    `_try_clear_expired_ratelimits` when it adds a bucket)."""
    sweep = http._try_clear_expired_ratelimits
    next_at = FLOOR

    def amortized():
        nonlocal next_at
        if len(http._buckets) < next_at:
            return
        sweep()
        next_at = max(FLOOR, 2 * len(http._buckets))

    http._try_clear_expired_ratelimits = amortized


def let_go(interaction):
    """Cut an interaction's links to its response and followup, once handled
    (were it used again, discord.py would make them anew)."""
    for link in LINKS:
        try:
            delattr(interaction, link)
        except AttributeError:  # never made
            pass
