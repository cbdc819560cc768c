"""Seating a club night: the tables' sizes and the draw of each round. Pure Python: no Django.

Players are any hashable, sortable values (the app passes roster ids). A round is a list of
tables, each a list of players in seat order.

- Sizes: tables of 4, of 5 where the count needs it (9 = 4 + 5, 10 = 5 + 5). Eleven players
  cannot be seated in 4s and 5s: they play 4 + 4 + 3 (a table of 3 plays every deal, where a
  table of 6 would sit its dealer out of each one).
- Round 1 is a shuffle of the players, in the order they came, from the night's seed: the
  night's file lists them in that order with the seed, so that anyone can draw it again from
  the names alone (docs/club-night.md, "Redraw round 1").
- Later rounds minimise repeated meetings: a randomised greedy draw improved by swapping
  players between tables, the best of several starts. For 16 players at tables of 4 the rounds
  follow the affine plane of order 4 while it lasts: in five rounds nobody meets anyone twice.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from scoresheet import limits

# The starts a later round tries: greedy draws from different orders, each improved by swaps.
STARTS = 12

# GF(4) = {0, 1, a, a+1} numbered 0..3: addition is XOR, multiplication this table.
GF4_TIMES = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def table_sizes(players: int) -> list[int]:
    """The sizes of the tables that seat ``players`` (at least ``limits.NIGHT_FEWEST``): 4s, 5s
    for the players 4s leave over, and 4 + 4 + 3 for eleven. Larger tables first."""
    if players < limits.NIGHT_FEWEST:
        raise ValueError(f"A night needs at least {limits.NIGHT_FEWEST} players.")
    if players == 11:
        return [4, 4, 3]
    tables, over = divmod(players, 4)
    if over > tables:
        # Only 11 (2 tables, 3 over) leaves more players over than there are tables.
        raise ValueError(players)
    return [5] * over + [4] * (tables - over)


def pairs(table: Iterable[Hashable]) -> Iterable[tuple]:
    return itertools.combinations(sorted(table), 2)


def meetings(rounds: Iterable[Sequence[Sequence]]) -> Counter:
    """How many times each pair of players sat at one table, over ``rounds``."""
    met = Counter()
    for tables in rounds:
        for table in tables:
            met.update(pairs(table))
    return met


def repeated_meetings(rounds: Iterable[Sequence[Sequence]]) -> int:
    """The meetings beyond each pair's first: how draws are compared here. A pair that met
    three times counts twice; the fewer, the more different players everyone met."""
    return sum(count - 1 for count in meetings(rounds).values())


def _weight(count: int) -> int:
    # Meeting again anyone already met costs the most; among those, whom one met less.
    return 100 + count if count else 0


def first_round(players: Sequence, seed: str) -> list[list]:
    """Round 1: ``players`` in the order given (the order they came, as the night stores and
    its file lists them) shuffled by Python's ``random`` seeded with "<seed>:1", then seated
    in turn, the larger tables first."""
    order = list(players)
    random.Random(f"{seed}:1").shuffle(order)
    return _seated(order, table_sizes(len(order)))


def _seated(order: Sequence, sizes: Sequence[int]) -> list[list]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def next_round(players: Sequence, history: Sequence[Sequence[Sequence]], seed: str) -> list[list]:
    """Round ``len(history) + 1`` for the players present: as few repeated meetings as the
    search finds, none while the affine plane gives them (16 players)."""
    number = len(history) + 1
    if not history:
        return first_round(players, seed)
    met = meetings(history)
    rng = random.Random(f"{seed}:{number}")
    sizes = table_sizes(len(players))
    planned = plane_round(players, history)
    best, best_cost = None, None
    if planned is not None and cost(planned, met) == 0:
        return planned
    for _start in range(STARTS):
        tables = improved(greedy(players, sizes, met, rng), met, rng)
        found = cost(tables, met)
        if best_cost is None or found < best_cost:
            best, best_cost = tables, found
        if found == 0:
            break
    for table in best:
        rng.shuffle(table)
    return best


def cost(tables: Sequence[Sequence], met: Counter) -> int:
    """What a round repeats: each pair at a table that met before (``_weight``)."""
    return sum(_weight(met[pair]) for table in tables for pair in pairs(table))


def greedy(
    players: Sequence, sizes: Sequence[int], met: Counter, rng: random.Random
) -> list[list]:
    """A simple greedy draw: players in a random order, each to the table with room where they
    met the fewest already (ties at random)."""
    order = sorted(players)
    rng.shuffle(order)
    tables = [[] for _size in sizes]
    for player in order:
        open_tables = [t for t, size in enumerate(sizes) if len(tables[t]) < size]
        scored = [(_joining(player, tables[t], met), rng.random(), t) for t in open_tables]
        tables[min(scored)[2]].append(player)
    return tables


def _joining(player, table, met: Counter, leaving=None) -> int:
    return sum(
        _weight(met[(player, other) if player < other else (other, player)])
        for other in table
        if other is not leaving
    )


def improved(tables: list[list], met: Counter, rng: random.Random) -> list[list]:
    """Swap players between tables while a swap lowers the repeats."""
    better = True
    while better:
        better = False
        spots = [(t, s) for t, table in enumerate(tables) for s in range(len(table))]
        rng.shuffle(spots)
        # What each player repeats at their table, kept as the swaps go: a swap of two
        # players who repeat nothing cannot lower it (most pairs, once a draw is good).
        repeats = {spot: _repeats(tables, *spot, met) for spot in spots}
        for first, second in itertools.combinations(spots, 2):
            if not _swap_lowers(tables, first, second, repeats, met):
                continue
            (t1, s1), (t2, s2) = first, second
            tables[t1][s1], tables[t2][s2] = tables[t2][s2], tables[t1][s1]
            better = True
            for t in (t1, t2):
                for s in range(len(tables[t])):
                    repeats[(t, s)] = _repeats(tables, t, s, met)
    return tables


def _swap_lowers(tables: list[list], first, second, repeats: dict, met: Counter) -> bool:
    """Whether swapping the players at two spots (table, seat) of two tables lowers what they
    repeat at their tables."""
    (t1, s1), (t2, s2) = first, second
    before = repeats[first] + repeats[second]
    if t1 == t2 or not before:
        return False
    a, b = tables[t1][s1], tables[t2][s2]
    return _joining(b, tables[t1], met, a) + _joining(a, tables[t2], met, b) < before


def _repeats(tables: list[list], t: int, s: int, met: Counter) -> int:
    player = tables[t][s]
    return _joining(player, tables[t], met, player)


def plane_round(players: Sequence, history: Sequence[Sequence[Sequence]]) -> list[list] | None:
    """For 16 players who all sat at round 1's four tables of 4: round ``len(history) + 1`` as
    the next direction of lines of the affine plane of order 4, round 1's table ``y`` seat
    ``x`` being the point (x, y). None when the plane does not apply."""
    number = len(history) + 1
    point = plane_points(players, history[0]) if number <= 5 else None
    if point is None:
        return None
    lines = {}
    for player, (x, y) in point.items():
        # Round 2: the vertical lines x = c; rounds 3 to 5: y = m·x + c for m = 1, a, a + 1.
        line = x if number == 2 else y ^ GF4_TIMES[number - 2][x]
        lines.setdefault(line, []).append(player)
    return [lines[line] for line in sorted(lines)]


def plane_points(players: Sequence, first: Sequence[Sequence]) -> dict | None:
    """Each player's point (x, y) of the plane of order 4, from round 1's tables (table ``y``,
    seat ``x``); None unless those were four tables of 4 seating exactly these 16 players."""
    if len(players) != 16 or [len(table) for table in first] != [4] * 4:
        return None
    point = {player: (x, y) for y, table in enumerate(first) for x, player in enumerate(table)}
    return point if set(point) == set(players) else None
