-- Each game's system (bot.games): games stored before the bot hosted several games are Baldur's Gate's.
ALTER TABLE games ADD COLUMN system TEXT NOT NULL DEFAULT 'babg';
