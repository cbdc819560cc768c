"""How tests read a sheet: the totals a page shows, and the totals its stored hands give."""

import re


def totals_of(sheet) -> tuple[int, ...]:
    """Each seat's total, scored afresh from the stored hands."""
    return sheet.load()[2].totals


def shown_totals(html: str) -> tuple[int, ...]:
    """The totals as the page (or an htmx answer) shows them, in seat order."""
    block = re.search(r'<section id="totals".*?</section>', html, re.S).group(0)
    found = re.findall(r'class="score [a-z]+">([+−]?\d+)<', block)
    return tuple(int(value.replace("−", "-").replace("+", "")) for value in found)
