"""A club: its pages, forms, writes, and the results behind standings and player pages."""


class ClubError(ValueError):
    """A change the club refuses: ``message`` (an English msgid) with its ``params``."""

    def __init__(self, message: str, **params):
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params

    def translated(self, gettext) -> str:
        text = gettext(self.message)
        return text % self.params if self.params else text
