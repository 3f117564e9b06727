-- Each game's current turn message (Discord), so a restarted bot finds it again and gives it live buttons.
ALTER TABLE games ADD COLUMN turn_message_id TEXT;
