"""HAA*'s abstract graph as data: :class:`Edge` and :class:`Abstraction` (SPEC §14; docs/haa.md §3).

Its own module because both the builder (:mod:`.abstraction`) and the dominance rules
(:mod:`.dominance`) need the types, and the builder needs the rules: with the types here the
imports point one way (graph <- dominance <- abstraction).

>>> import numpy as np
>>> graph = Abstraction(np.zeros((4, 4), dtype=np.uint8), cluster_size=2, quality="high", max_size=1)
>>> graph.cluster_of((3, 1)), graph.cluster_window((1, 0))
((1, 0), (2, 4, 0, 2))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from reference.world.grid import Cell, Cost

from .capabilities import CAPABILITY_MASKS, is_subset
from .clearance import all_clearances


@dataclass
class Edge:
    """An abstract edge between nodes ``u`` and ``v``, annotated ``(mask, clearance)``, of exact
    length ``cost`` (``(straight, diagonal)`` moves); ``inter`` for transitions between clusters."""

    u: int
    v: int
    mask: int
    clearance: int
    cost: Cost
    inter: bool

    def usable_by(self, size: int, mask: int) -> bool:
        return self.clearance >= size and is_subset(self.mask, mask)


@dataclass
class Abstraction:
    """An abstract graph over a terrain map, with the clearances it was built from."""

    terrain: np.ndarray
    cluster_size: int
    quality: str
    max_size: int
    node_cells: list[Cell] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    clearances: dict[int, np.ndarray] = field(default_factory=dict, repr=False)  # mask -> cv array
    build_seconds: float = 0.0
    _lookups: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # built on first query

    # -- structure ----------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return self.terrain.shape

    def cluster_of(self, cell: Cell) -> tuple[int, int]:
        return (cell[0] // self.cluster_size, cell[1] // self.cluster_size)

    def cluster_window(self, cluster: tuple[int, int]) -> tuple[int, int, int, int]:
        """``(row0, row1, col0, col1)``: the cluster's rows ``row0:row1`` and columns ``col0:col1``."""
        c = self.cluster_size
        height, width = self.shape
        return (cluster[0] * c, min(cluster[0] * c + c, height), cluster[1] * c, min(cluster[1] * c + c, width))

    def open_window(self, cluster: tuple[int, int], size: int, mask: int) -> np.ndarray:
        """Boolean array of the cluster's cells traversable for ``(size, mask)``."""
        r0, r1, c0, c1 = self.cluster_window(cluster)
        return self.clearances[mask][r0:r1, c0:c1] >= size

    def nodes_by_cluster(self) -> dict[tuple[int, int], list[int]]:
        result: dict[tuple[int, int], list[int]] = {}
        for node, cell in enumerate(self.node_cells):
            result.setdefault(self.cluster_of(cell), []).append(node)
        return result

    def adjacency(self) -> list[list[int]]:
        """For each node, the indices of its edges (in edge order); computed once, for queries."""
        if "adjacency" not in self._lookups:
            result: list[list[int]] = [[] for _ in self.node_cells]
            for index, edge in enumerate(self.edges):
                result[edge.u].append(index)
                result[edge.v].append(index)
            self._lookups["adjacency"] = result
        return self._lookups["adjacency"]

    def cluster_nodes(self, cluster: tuple[int, int]) -> list[int]:
        """The nodes of one cluster; computed once, for queries."""
        if "by_cluster" not in self._lookups:
            self._lookups["by_cluster"] = self.nodes_by_cluster()
        return self._lookups["by_cluster"].get(cluster, [])

    def edge_count(self, inter: bool | None = None) -> int:
        return sum(1 for e in self.edges if inter is None or e.inter == inter)

    def summary(self) -> dict:
        """Sizes for reports: nodes, inter- and intra-edges, the map's traversable cells."""
        traversable = int(self.clearances[CAPABILITY_MASKS[-1]].astype(bool).sum())
        return {
            "height": self.shape[0], "width": self.shape[1], "cluster_size": self.cluster_size,
            "quality": self.quality, "max_size": self.max_size, "nodes": len(self.node_cells),
            "inter_edges": self.edge_count(True), "intra_edges": self.edge_count(False),
            "map_nodes": traversable, "build_seconds": round(self.build_seconds, 3),
        }

    def graph_bytes(self) -> int:
        """Memory of the graph in a compact layout (the figure the reports compare with the map's):
        per node its cell as two int16; per edge two int32 node ids, a uint8 capability mask, a uint8
        clearance and the cost as two int16. (The ``.npz`` of :meth:`save` is compressed.)"""
        return 4 * len(self.node_cells) + 14 * len(self.edges)

    # -- files --------------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the graph (and the terrain it was built on) as one ``.npz`` file, atomically."""
        from reference.world.fileio import atomic_write_bytes
        import io

        buffer = io.BytesIO()
        edges = self.edges
        np.savez_compressed(
            buffer,
            meta=np.frombuffer(json.dumps({
                "format": "ftr-haa-abstraction/1", "cluster_size": self.cluster_size,
                "quality": self.quality, "max_size": self.max_size, "build_seconds": self.build_seconds,
            }).encode(), dtype=np.uint8),
            terrain=self.terrain,
            node_cells=np.array(self.node_cells, dtype=np.int32).reshape(-1, 2),
            edge_ends=np.array([(e.u, e.v) for e in edges], dtype=np.int32).reshape(-1, 2),
            edge_annotation=np.array([(e.mask, e.clearance) for e in edges], dtype=np.int32).reshape(-1, 2),
            edge_cost=np.array([e.cost for e in edges], dtype=np.int32).reshape(-1, 2),
            edge_inter=np.array([e.inter for e in edges], dtype=bool),
        )
        atomic_write_bytes(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> "Abstraction":
        """Read a file written by :meth:`save` (``ValueError`` if it is not one)."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                if meta.get("format") != "ftr-haa-abstraction/1":
                    raise ValueError("unknown format")
                arrays = {name: data[name] for name in data.files}
        except (OSError, KeyError, ValueError, json.JSONDecodeError) as error:
            if isinstance(error, FileNotFoundError):
                raise
            raise ValueError(f"{path}: not an HAA* abstraction file ({error})") from None
        graph = cls(arrays["terrain"], meta["cluster_size"], meta["quality"], meta["max_size"],
                    build_seconds=meta.get("build_seconds", 0.0))
        graph.node_cells = [(int(row), int(col)) for row, col in arrays["node_cells"]]
        graph.edges = [
            Edge(int(u), int(v), int(m), int(cv), (int(a), int(b)), bool(inter))
            for (u, v), (m, cv), (a, b), inter in zip(arrays["edge_ends"], arrays["edge_annotation"],
                                                      arrays["edge_cost"], arrays["edge_inter"])
        ]
        graph.clearances = {mask: cv for mask, cv in zip(CAPABILITY_MASKS, all_clearances(graph.terrain).values())}
        return graph
