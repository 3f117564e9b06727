"""A game master for Betrayal at Baldur's Gate."""
