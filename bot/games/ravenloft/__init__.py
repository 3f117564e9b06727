"""Castle Ravenloft: the D&D Adventure System co-op dungeon crawl, the bot's second game."""
