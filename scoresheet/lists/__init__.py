"""This browser's lists of sessions and clubs (its session cookie)."""
