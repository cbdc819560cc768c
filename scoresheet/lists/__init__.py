"""The home page: this browser's lists of sessions and clubs (recent.py), a backup restored."""
