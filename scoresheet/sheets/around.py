"""What a sheet is part of, as the sheets see it: a plan of deals (a club night's table plays
so many deals a round), and what else its pages show, which its live poll follows.

The sheets know nothing of club nights: the night registers itself here when the app is ready
(``apps.py``), as the club registers its results with the write path (``writes.after_change``):
how to find a sheet's plan, the relations of the sheet that finding reads (fetched with the
sheet, ``related``), and the fields of those relations whose change a sheet's page must show
(``follows``: the night's revision, which a draw moves on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist

from scoresheet import stats
from scoresheet.models import Sheet


@dataclass(frozen=True)
class Plan:
    """The deals a sheet is meant to hold: ``deals`` of them, a deal everyone passed counting
    as one when ``passed_counts``. Beyond them, a deal is saved only when confirmed."""

    deals: int
    passed_counts: bool = True

    def played(self, hands: int, passed: int) -> int:
        """The deals played of the plan, of ``hands`` stored, ``passed`` of them passed."""
        return hands if self.passed_counts else hands - passed

    def played_on(self, sheet: Sheet) -> int:
        """The deals a sheet has played of its plan, from its stored counters (no query)."""
        return self.played(sheet.hand_count, stats.passed_in(sheet.statistics))

    def to_data(self, sheet: Sheet) -> dict:
        """What the offline code reads of it (``offline.sheet_state``): the plan, and the
        passed deals stored, to count the deals its queue adds."""
        return {
            "deals": self.deals,
            "passed_counts": self.passed_counts,
            "passed": stats.passed_in(sheet.statistics),
        }


_FINDERS: list[Callable[[Sheet], Plan | None]] = []
_READS: list[str] = []
_FOLLOWS: list[str] = []


def planned_by(
    find: Callable[[Sheet], Plan | None], reads: Sequence[str] = (), follows: Sequence[str] = ()
) -> None:
    """Have ``find(sheet)`` give a sheet's plan (None: it has none), reading the relations
    ``reads`` of the sheet (fetched with it); ``follows``: the paths (``a__b__field``) of the
    values whose change the sheet's pages show (its live poll reads them with the revision)."""
    if find not in _FINDERS:
        _FINDERS.append(find)
    _READS.extend(name for name in reads if name not in _READS)
    _FOLLOWS.extend(name for name in follows if name not in _FOLLOWS)


def reads() -> list[str]:
    """The relations of a sheet its plan reads: ``select_related`` them with the sheet."""
    return list(_READS)


def related(sheets):
    """``sheets`` (a queryset) fetching what the plan reads with each sheet, in one query."""
    return sheets.select_related(*_READS) if _READS else sheets


def plan_of(sheet: Sheet) -> Plan | None:
    """The sheet's plan of deals, or None (a session of its own)."""
    for find in _FINDERS:
        plan = find(sheet)
        if plan is not None:
            return plan
    return None


def follows() -> list[str]:
    """The paths of the values the live poll reads with a sheet's revision."""
    return list(_FOLLOWS)


def version(values: Sequence) -> str:
    """The values of ``follows`` as a page shows them and a poll compares them: "" when
    nothing is followed, or for a sheet that is part of nothing."""
    return ".".join("" if value is None else str(value) for value in values)


def version_of(sheet: Sheet) -> str:
    """``version`` of a sheet fetched with its relations (``related``)."""
    values = []
    for path in _FOLLOWS:
        value = sheet
        for name in path.split("__"):
            try:
                value = getattr(value, name)
            except ObjectDoesNotExist:
                value = None
            if value is None:
                break
        values.append(value)
    return version(values)
