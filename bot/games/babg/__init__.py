"""Betrayal at Baldur's Gate: the first game system (engine/, content/, render/, its vocabulary,
built-in players, texts and replay). The shared layers reach it only through bot.games.babg.system."""
