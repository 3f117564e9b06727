"""The chronicle: a *Betrayal Legacy* style campaign over Baldur's Gate games,
kept as a plain record beside the games (see bot/chronicle/campaign.py for
its shape). Pure: the standard library and bot.kit.rng only, no I/O."""
from .book import FILE, parse  # noqa: F401
from .campaign import (  # noqa: F401
    CHAPTERS, HAUNTS, HEIRLOOM_LIMIT, ChronicleError, add_note, break_traitor_tie, catch_up, chapter_options,
    chapter_title, choose_family, family_called, family_lines, family_of_player, family_words, game_options,
    heirloom_allowed, introduction, member_for, name_heirloom, new_campaign, next_chapter, pick_haunt, played_haunts, record_chapter_end, set_fate,
    summary_lines,
)
