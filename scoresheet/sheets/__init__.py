"""A session (a ``Sheet``): its pages, the hand form, the write protocol, after the game."""
