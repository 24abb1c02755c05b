"""A run's trace as flat int32 arrays: the SPEC §8 record without a Python object per cell.

A :class:`~reference.world.trace.Trace` holds every expanded cell as a ``(row, col)`` tuple in a
list; building those tuples costs about ten times the compiled search that produced them. The
compiled engines therefore return :class:`TraceArrays` and convert only when asked
(:meth:`TraceArrays.to_trace`). Cells are indices ``row * width + col``; the searches' cells lie
one search after another, ``expanded[expanded_offsets[i]:expanded_offsets[i + 1]]`` being search
``i``'s (CSR layout, as in sparse matrices). The same layout is the autograder's wire format
(:func:`wire_arrays`).

A *counts-only* run (``cells_recorded`` False, for very large grids) keeps the offsets, so the per-search
counts, but no cells: ``expanded``, ``paths`` and ``trajectory`` are empty.

>>> from reference.world.trace import SearchRecord, Trace
>>> trace = Trace("forward", "larger_g", True, [(0, 0), (0, 1)],
...               [SearchRecord((0, 0), (0, 1), [(0, 0)], [(0, 0), (0, 1)])])
>>> arrays = TraceArrays.from_trace(trace, width=2)
>>> arrays.expanded.tolist(), arrays.summary()
([0], {'reached': True, 'searches': 1, 'expansions': 1, 'moves': 1})
>>> arrays.to_trace() == trace
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .trace import SearchRecord, Trace


@dataclass(eq=False)
class TraceArrays:
    """A run as arrays. ``starts``/``goals``: each search's own start and goal cell; ``moves`` is
    kept as a number so that a counts-only run still reports it."""

    algorithm: str
    tie_break: str
    reached: bool
    width: int
    trajectory: np.ndarray        # int32, every cell the agent stood in (empty if counts only)
    starts: np.ndarray            # int32, one per search
    goals: np.ndarray             # int32, one per search
    expanded: np.ndarray          # int32, all searches' expansions in order (empty if counts only)
    expanded_offsets: np.ndarray  # int64, searches + 1 entries
    paths: np.ndarray             # int32, all searches' paths (empty if counts only)
    path_offsets: np.ndarray      # int64, searches + 1 entries
    moves: int
    cells_recorded: bool = True

    @property
    def searches(self) -> int:
        return len(self.starts)

    @property
    def expansions(self) -> int:
        return int(self.expanded_offsets[-1])

    def summary(self) -> dict:
        """The counts a table shows, as :meth:`Trace.summary` gives them."""
        return {"reached": self.reached, "searches": self.searches, "expansions": self.expansions,
                "moves": self.moves}

    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return sum(a.nbytes for a in (self.trajectory, self.starts, self.goals, self.expanded,
                                      self.expanded_offsets, self.paths, self.path_offsets))

    def search_cells(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Search ``i``'s expanded cells and path (views, no copies)."""
        e, p = self.expanded_offsets, self.path_offsets
        return self.expanded[e[i]:e[i + 1]], self.paths[p[i]:p[i + 1]]

    def to_trace(self) -> Trace:
        """The SPEC §8 :class:`Trace` (lists of ``(row, col)`` tuples): the slow part, done on request."""
        if not self.cells_recorded:
            raise ValueError("a counts-only run kept no cells: run it again with its cells recorded")
        width = self.width

        def cells(indices: np.ndarray) -> list[tuple[int, int]]:
            # divmod over the whole array in NumPy, then one zip: several times cheaper than
            # calling divmod once per cell in Python.
            rows, cols = np.divmod(indices, width)
            return list(zip(rows.tolist(), cols.tolist()))

        expanded, paths = cells(self.expanded), cells(self.paths)
        e, p = self.expanded_offsets.tolist(), self.path_offsets.tolist()
        searches = [
            SearchRecord(start=divmod(int(self.starts[i]), width), goal=divmod(int(self.goals[i]), width),
                         expanded=expanded[e[i]:e[i + 1]], path=paths[p[i]:p[i + 1]])
            for i in range(self.searches)
        ]
        return Trace(self.algorithm, self.tie_break, self.reached, cells(self.trajectory), searches)

    @classmethod
    def from_trace(cls, trace: Trace, width: int) -> TraceArrays:
        """The arrays of a :class:`Trace` (for comparisons and tests)."""

        def indices(cells) -> np.ndarray:
            return np.array([r * width + c for r, c in cells], dtype=np.int32)

        def offsets(lengths) -> np.ndarray:
            return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)

        searches = trace.searches
        return cls(
            trace.algorithm, trace.tie_break, bool(trace.reached), width, indices(trace.trajectory),
            indices([s.start for s in searches]), indices([s.goal for s in searches]),
            indices([c for s in searches for c in s.expanded]), offsets([len(s.expanded) for s in searches]),
            indices([c for s in searches for c in s.path]), offsets([len(s.path) for s in searches]),
            moves=len(trace.trajectory) - 1,
        )

    def same_run(self, other: TraceArrays) -> bool:
        """Whether two runs are the same, cell for cell (counts only where either kept no cells)."""
        if self.summary() != other.summary() or (self.algorithm, self.tie_break) != (other.algorithm, other.tie_break):
            return False
        fields = ["starts", "goals", "expanded_offsets", "path_offsets"]
        if self.cells_recorded and other.cells_recorded:
            fields += ["trajectory", "expanded", "paths"]
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in fields)

    def wire_arrays(self) -> list[np.ndarray]:
        """The four int32 arrays of the autograder's trace encoding (:func:`reference.world.trace.encode_trace`):
        the trajectory; per search ``(start, goal, number expanded, path length)``; expansions; paths."""
        meta = np.stack([self.starts, self.goals, np.diff(self.expanded_offsets).astype(np.int32),
                         np.diff(self.path_offsets).astype(np.int32)], axis=1).astype(np.int32).ravel()
        return [self.trajectory, meta, self.expanded, self.paths]
