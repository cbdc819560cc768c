"""A session: its pages, the hand form, the write protocol, after the game, offline."""
