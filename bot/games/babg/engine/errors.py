from bot.kit.errors import IllegalAction  # noqa: F401  (one refusal type for every system)
