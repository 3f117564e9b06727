"""What every system's pictures share: paletted PNG bytes written fast (bot.render.png)."""
