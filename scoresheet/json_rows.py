"""Many rows' values read at once: the long reads of a session's hands (a re-scoring, the
exports, the printed sheet), as ``values_list`` gives them but with the JSON columns parsed a
chunk of rows at a time. Django parses each JSON value apart: three a hand, most of them "{}",
were a fifth of a 10,000-hand re-scoring.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from django.db import models
from django.db.models.functions import Cast

# Rows a long read holds at once (``read``): a chunk of a session's hands is a few hundred KB.
CHUNK = 2000


def read(rows: models.QuerySet, names: Sequence[str], chunk: int = CHUNK) -> Iterator[tuple]:
    """The values of the fields (or annotations) ``names`` of each row of ``rows``, as
    ``values_list`` gives them, read a chunk at a time: the JSON columns come as their text
    and are parsed a chunk at once, each value its own object."""
    meta, annotated = rows.model._meta, rows.query.annotations
    json_at = [
        place
        for place, name in enumerate(names)
        if name not in annotated and isinstance(meta.get_field(name), models.JSONField)
    ]
    columns = [
        Cast(name, output_field=models.TextField()) if place in json_at else name
        for place, name in enumerate(names)
    ]
    found = rows.values_list(*columns).iterator(chunk_size=chunk)
    if not json_at:
        yield from found
        return
    held: list[list] = []
    for values in found:
        held.append(list(values))
        if len(held) == chunk:
            yield from _parsed(held, json_at)
            held = []
    yield from _parsed(held, json_at)


def _parsed(held: list[list], json_at: list[int]) -> Iterator[tuple]:
    """``held`` rows with their JSON columns (at ``json_at``) parsed, in one go."""
    texts = [
        "null" if values[place] is None else values[place] for values in held for place in json_at
    ]
    parsed = iter(json.loads("[" + ",".join(texts) + "]"))
    for values in held:
        for place in json_at:
            values[place] = next(parsed)
        yield tuple(values)
