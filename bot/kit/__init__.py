"""What every game system shares: the seeded RNG kept in the state, the refusal a player reads, and the
game-system contract (bot.kit.contract) that the shared layers know a game by."""
