"""The fog-of-war agent's senses and memory (SPEC §4 and §11).

An algorithm never sees the true grid. It gets a *world* object with ``height``, ``width`` and
``sense(cell)``: the agent announces the cell it stands in and learns which of its four neighbours
are blocked. :class:`FogOfWarWorld` answers from a true :class:`Gridworld` and refuses what a real
agent could not do (teleporting, walking into a wall), so the fog of war is enforced by the shape of
the code. It records where the agent stood, so a run's trajectory can be checked against it.
:class:`KnownMapWorld` is the world of the planners that know the map in full (four- or
eight-connected, SPEC §12-13): the same senses, and its own rules for a move.

:class:`Knowledge` is the agent's memory: which cells it has seen to be blocked. Everything else
it presumes unblocked (the freespace assumption).

>>> from reference.world.grid import Gridworld
>>> world = FogOfWarWorld(Gridworld.from_strings(["..@", "..."]), start=(0, 1))
>>> world.sense((0, 1))       # blocked neighbours of the agent's cell
[(0, 2)]
>>> world.sense((1, 1))       # one move south
[]
>>> world.visited
[(0, 1), (1, 1)]

:class:`AgentBody` is the agent itself as the world sees it: where it stands, its memory, where it
has been, and the SPEC's rules for looking around (§4) and walking a path (§6). Every planner of the
kit walks through it (``reference.solutions.agent``), and so does a replay of a recorded trace
(``reference.world.replay``): one walking rule for all.
"""

from __future__ import annotations

from typing import Iterable, Protocol

import numpy as np

from .grid import MOVES, Cell, Gridworld, check_connectivity, neighbours_of, successors


class World(Protocol):
    """What every algorithm may know about the world: its size, and its senses."""

    height: int
    width: int

    def sense(self, cell: Cell) -> list[Cell]:
        """The agent stands in ``cell``: return the blocked cells among its four neighbours."""
        ...


def cell_inside(world: World, cell: Cell, label: str = "cell") -> Cell:
    """``cell`` as a ``(row, col)`` of ints, or a ValueError naming ``label`` if it lies outside ``world``.

    >>> class Small: height, width = 2, 3
    >>> cell_inside(Small(), (1, 2), "start")
    (1, 2)
    >>> cell_inside(Small(), (2, 0), "target")
    Traceback (most recent call last):
    ...
    ValueError: the target (2, 0) lies outside the 2 x 3 grid
    """
    row, col = int(cell[0]), int(cell[1])
    if not (0 <= row < world.height and 0 <= col < world.width):
        raise ValueError(f"the {label} {(row, col)} lies outside the {world.height} x {world.width} grid")
    return (row, col)


class IllegalMoveError(RuntimeError):
    """The agent claimed to stand somewhere it cannot be (a blocked cell, or not next to its last cell)."""


class FogOfWarWorld:
    """A true gridworld seen through the agent's four-neighbour sensor.

    The first ``sense`` must be at ``start``; each later one at the agent's current cell or one
    of its four neighbours (that is one move). Sensing from a blocked cell, outside the grid, or
    further away raises :class:`IllegalMoveError`. ``visited`` lists the cells the agent has
    stood in, start first: the trajectory as the world saw it.

    ``check_moves=False`` trusts the agent, for long experiments: ``sense`` answers the same, from a
    dictionary once a cell has been asked, and checks nothing (``visited`` stays empty). The tests
    run every planner with the checks on.

    Parameters
    ----------
    grid : Gridworld
        The true grid (the world keeps its ``blocked`` array; the agent never sees it).
    start : Cell
        ``(row, col)`` of the agent's first cell.
    check_moves : bool
        False: trust the agent (no :class:`IllegalMoveError`, no ``visited``).

    Raises
    ------
    ValueError
        ``start`` lies outside the grid or is blocked.

    See Also
    --------
    KnownMapWorld : the world of the planners that know the map.
    AgentBody : the agent that walks through a world by the SPEC's rules.
    reference.world.replay.AgentReplay : a recorded run walked again through this world.

    Examples
    --------
    >>> grid = Gridworld.from_strings(["..@", "..."])
    >>> trusted = FogOfWarWorld(grid, (0, 1), check_moves=False)
    >>> trusted.sense((0, 1)), trusted.sense((1, 0)), trusted.visited     # a jump, not refused
    ([(0, 2)], [], [])
    """

    def __init__(self, grid: Gridworld, start: Cell, check_moves: bool = True) -> None:
        start = (int(start[0]), int(start[1]))
        if not grid.in_bounds(start):
            raise ValueError(f"the start {start} lies outside the {grid.height} x {grid.width} grid")
        if grid.is_blocked(start):
            raise ValueError(f"the start {start} is a blocked cell")
        self._blocked = grid.blocked
        self.height = grid.height
        self.width = grid.width
        self.start = start
        self.check_moves = check_moves
        self.visited: list[Cell] = []
        self.sense_count = 0
        self._blocked_around: dict[Cell, list[Cell]] = {}

    def sense(self, cell: Cell) -> list[Cell]:
        """The agent stands in ``cell`` and looks around (SPEC §4).

        Parameters
        ----------
        cell : Cell
            The agent's cell: ``start`` the first time, then its last cell or one move from it.

        Returns
        -------
        list of Cell
            The blocked cells among its four neighbours (east, south, west, north).

        Raises
        ------
        IllegalMoveError
            With ``check_moves``: a first cell other than ``start``, a jump, or a step outside the
            grid or into a blocked cell.
        """
        if not self.check_moves:  # a trusted agent (long experiments): the answer is a dictionary look-up
            around = self._blocked_around.get(cell)
            if around is None:
                around = self._blocked_around[cell] = [
                    near for near in neighbours_of(cell, self.height, self.width) if self._blocked[near]]
            return around
        try:
            row, col = int(cell[0]), int(cell[1])
        except (TypeError, ValueError, IndexError):
            raise IllegalMoveError(f"sense() needs a (row, col) cell, got {cell!r}") from None
        here = (row, col)
        if not self.visited:
            if here != self.start:
                raise IllegalMoveError(f"the agent starts in {self.start}, but sensed first from {here}")
            self.visited.append(here)
        elif here != self.visited[-1]:
            last = self.visited[-1]
            if abs(last[0] - row) + abs(last[1] - col) != 1:
                raise IllegalMoveError(f"the agent jumped from {last} to {here}: it moves one cell at a time")
            if not (0 <= row < self.height and 0 <= col < self.width):
                raise IllegalMoveError(f"the agent moved from {last} to {here}, outside the grid")
            if self._blocked[row, col]:
                raise IllegalMoveError(f"the agent moved from {last} into the blocked cell {here}")
            self.visited.append(here)
        self.sense_count += 1
        return [cell for cell in neighbours_of(here, self.height, self.width) if self._blocked[cell]]


MOVE_NAMES = {4: "E, S, W, N", 8: "E, SE, S, SW, W, NW, N, NE"}


def illegal_move(blocked: np.ndarray, here: Cell, there: Cell, connectivity: int = 4) -> str | None:
    """Why one step from ``here`` to ``there`` is not a move (SPEC §12), or None if it is one.

    Whether it is a move is for the world's :func:`~reference.world.grid.successors` to say; this
    only names the reason when it is not: not one move, outside the grid, into a blocked cell, or a
    diagonal that cuts the corner of a blocked cell.

    >>> blocked = np.array([[False, False], [True, False]])
    >>> illegal_move(blocked, (0, 0), (1, 1), 8)
    'the agent moved diagonally from (0, 0) to (1, 1), cutting the corner of the blocked cell (1, 0)'
    >>> illegal_move(blocked, (0, 0), (0, 1), 8) is None
    True
    """
    if any(cell == there for cell, _cost in successors(blocked, here, connectivity)):
        return None
    height, width = blocked.shape
    d_row, d_col = there[0] - here[0], there[1] - here[1]
    if (d_row, d_col) not in MOVES[connectivity]:
        return (f"the agent jumped from {here} to {there}: it moves one cell at a time, "
                f"{connectivity}-connected ({MOVE_NAMES[connectivity]})")
    if not (0 <= there[0] < height and 0 <= there[1] < width):
        return f"the agent moved from {here} to {there}, outside the {height} x {width} grid"
    if blocked[there]:
        return f"the agent moved from {here} into the blocked cell {there}"
    corners = [cell for cell in ((there[0], here[1]), (here[0], there[1])) if blocked[cell]]
    return (f"the agent moved diagonally from {here} to {there}, cutting the corner of the blocked "
            f"cell{'s' * (len(corners) > 1)} {' and '.join(str(cell) for cell in corners)}")


class KnownMapWorld:
    """A map the agent knows in full: the world of the known-map planners (no fog, SPEC §12-13).

    It plays the part of :class:`FogOfWarWorld` for an :class:`AgentBody`: the first ``sense`` must be at ``start``, each later
    one at the agent's cell or one move away by the world's rules (four- or eight-connected, no
    corner cutting); anything else raises :class:`IllegalMoveError`
    saying why (:func:`illegal_move`). ``sense`` returns the blocked cells one move away, which the
    agent knew already. ``visited``: the cells the agent stood in, start first.

    Parameters
    ----------
    grid : Gridworld
        The map, known to the agent in full (:meth:`knowledge`).
    start : Cell
        ``(row, col)`` of the agent's first cell.
    connectivity : {8, 4}
        Eight-connected (diagonals of cost √2, no corner cutting) or four-connected moves.

    Raises
    ------
    ValueError
        ``start`` lies outside the grid or is blocked, or ``connectivity`` is neither 4 nor 8.

    See Also
    --------
    FogOfWarWorld : the handout's world, where the agent sees only its neighbours.
    reference.world.grid.successors : the moves this world allows.

    Examples
    --------
    >>> world = KnownMapWorld(Gridworld.from_strings(["...", ".@."]), (0, 0))
    >>> world.knowledge().known_blocked(), world.sense((0, 0))
    ([(1, 1)], [(1, 1)])
    >>> world.sense((1, 0))      # one move south; (1, 1) is one move east of it
    [(1, 1)]
    >>> world.sense((0, 1))
    Traceback (most recent call last):
    ...
    reference.world.sensing.IllegalMoveError: the agent moved diagonally from (1, 0) to (0, 1), cutting the corner of the blocked cell (1, 1)
    """

    def __init__(self, grid: Gridworld, start: Cell, connectivity: int = 8) -> None:
        start = (int(start[0]), int(start[1]))
        if not grid.in_bounds(start):
            raise ValueError(f"the start {start} lies outside the {grid.height} x {grid.width} grid")
        if grid.is_blocked(start):
            raise ValueError(f"the start {start} is a blocked cell")
        self.grid = grid
        self.blocked = grid.blocked
        self.height, self.width = grid.height, grid.width
        self.connectivity = check_connectivity(connectivity)
        self.start = start
        self.visited: list[Cell] = []
        self._moves_from: dict[Cell, set[Cell]] = {}
        self._blocked_around: dict[Cell, list[Cell]] = {}

    def knowledge(self) -> Knowledge:
        """What the agent knows before it starts: every blocked cell of the map."""
        return Knowledge.of_map(self.blocked)

    def sense(self, cell: Cell) -> list[Cell]:
        """The agent stands in ``cell``: ``start`` the first time, then its last cell or one move from it.

        Returns the blocked cells one move away (by ``connectivity``), or raises
        :class:`IllegalMoveError` naming why ``cell`` is not such a move (:func:`illegal_move`).
        """
        here = (int(cell[0]), int(cell[1]))
        if not self.visited:
            if here != self.start:
                raise IllegalMoveError(f"the agent starts in {self.start}, but sensed first from {here}")
            self.visited.append(here)
        elif here != self.visited[-1]:
            last = self.visited[-1]
            # Speed: the map never changes, so each cell's moves and blocked neighbours are computed
            # once (a known-map LRTA* stands on the same cells again and again)
            moves = self._moves_from.get(last)
            if moves is None:
                moves = self._moves_from[last] = {near for near, _cost in successors(self.blocked, last, self.connectivity)}
            if here not in moves:
                raise IllegalMoveError(illegal_move(self.blocked, last, here, self.connectivity))
            self.visited.append(here)
        around = self._blocked_around.get(here)
        if around is None:
            around = self._blocked_around[here] = [
                near for near in neighbours_of(here, self.height, self.width, MOVES[self.connectivity])
                if self.blocked[near]]
        return around


class Knowledge:
    """The cells an agent has observed to be blocked, as a flat ``bytearray`` indexed by cell.

    >>> k = Knowledge(2, 3)
    >>> k.observe([(0, 2), (1, 0)])
    [(0, 2), (1, 0)]
    >>> k.observe([(0, 2)])      # already known: nothing new
    []
    >>> k.is_blocked((1, 0)), k.is_blocked((1, 1))
    (True, False)
    >>> k.successors((1, 1)), k.blocked_count      # east, south, west, north; (1, 0) is known blocked
    ([(1, 2), (0, 1)], 2)
    """

    def __init__(self, height: int, width: int) -> None:
        self.height = height
        self.width = width
        self.blocked = bytearray(height * width)  # 1 = known blocked; the one pass over all cells
        self.blocked_count = 0                    # how many cells are known blocked

    @classmethod
    def of_map(cls, blocked: np.ndarray) -> Knowledge:
        """Knowledge of every blocked cell of a map known in full (``blocked``: rows x columns).

        >>> Knowledge.of_map(np.array([[False, True], [True, False]])).known_blocked()
        [(0, 1), (1, 0)]
        """
        height, width = blocked.shape
        knowledge = cls(height, width)
        knowledge.blocked[:] = np.asarray(blocked, dtype=np.uint8).tobytes()  # one copy, no loop over cells
        knowledge.blocked_count = int(np.count_nonzero(blocked))
        return knowledge

    def observe(self, blocked_cells: Iterable[Cell]) -> list[Cell]:
        """Remember ``blocked_cells``; return those that were not known before, in the given order."""
        new = []
        for row, col in blocked_cells:
            index = row * self.width + col
            if not self.blocked[index]:
                self.blocked[index] = 1
                new.append((row, col))
        self.blocked_count += len(new)
        return new

    def is_blocked(self, cell: Cell) -> bool:
        return bool(self.blocked[cell[0] * self.width + cell[1]])

    def successors(self, cell: Cell) -> list[Cell]:
        """The cells an agent in ``cell`` may move to as far as it knows (SPEC §4-5): its neighbours
        inside the grid that are not known blocked, east, south, west, north."""
        blocked, width = self.blocked, self.width
        return [(row, col) for row, col in neighbours_of(cell, self.height, width) if not blocked[row * width + col]]

    def copy(self) -> Knowledge:
        """A snapshot that later observations do not change."""
        snapshot = Knowledge(self.height, self.width)
        snapshot.blocked[:] = self.blocked
        snapshot.blocked_count = self.blocked_count
        return snapshot

    def known_blocked(self) -> list[Cell]:
        """Every cell known to be blocked, row by row."""
        return [divmod(i, self.width) for i, b in enumerate(self.blocked) if b]

    def as_grid(self) -> Gridworld:
        """The freespace view the agent plans on: known-blocked cells blocked, all others free."""
        blocked = np.frombuffer(bytes(self.blocked), dtype=np.uint8).reshape(self.height, self.width).astype(bool)
        return Gridworld(self.height, self.width, blocked)


class AgentBody:
    """The agent in the world (SPEC §4, §6): where it stands, what it knows, and where it has been.

    Made in its start cell, it looks around at once (SPEC §4). :meth:`walk` moves it along a path by
    the SPEC's walking rule and looks around after every move. Which path to walk is a planner's
    business (``reference.solutions.agent``); a replay walks the paths a trace recorded. ``knowledge``
    is what the agent knows before it starts: nothing (``None``), or for known terrain every blocked
    cell. ``newly_blocked`` collects the blocked cells seen since a planner last took them
    (:meth:`take_newly_blocked`), for planners that repair their searches (D* Lite).

    >>> world = FogOfWarWorld(Gridworld.from_strings(["...", ".@."]), start=(1, 0))
    >>> body = AgentBody(world, (1, 0))
    >>> body.knowledge.known_blocked()
    [(1, 1)]
    >>> body.walk([(1, 0), (0, 0), (0, 1), (0, 2)])
    [(0, 0), (0, 1), (0, 2)]
    >>> body.cell, body.trajectory
    ((0, 2), [(1, 0), (0, 0), (0, 1), (0, 2)])
    >>> body.walk([(0, 2), (1, 2), (1, 1)])     # (1, 1) is known blocked: the agent does not move
    []
    """

    def __init__(self, world: World, start: Cell, knowledge: Knowledge | None = None) -> None:
        self.world = world
        self.cell = cell_inside(world, start, "start")
        if knowledge is None:
            knowledge = Knowledge(world.height, world.width)
        elif (knowledge.height, knowledge.width) != (world.height, world.width):
            raise ValueError(f"the knowledge is {knowledge.height} x {knowledge.width}, "
                             f"the world {world.height} x {world.width}")
        self.knowledge = knowledge
        self.trajectory: list[Cell] = [self.cell]
        self.newly_blocked: list[Cell] = []
        self.look()  # SPEC §4: before the first search

    def look(self) -> list[Cell]:
        """Sense the neighbours of the agent's cell; remember and return the newly seen blocked ones."""
        new = self.knowledge.observe(self.world.sense(self.cell))
        self.newly_blocked.extend(new)
        return new

    def take_newly_blocked(self) -> list[Cell]:
        """The blocked cells first seen since the last call (or since the start), in the order seen."""
        new, self.newly_blocked = self.newly_blocked, []
        return new

    def walk(self, path: list[Cell]) -> list[Cell]:
        """Follow ``path`` (its first cell is the agent's; it is not checked) by SPEC §6; return the
        cells moved into.

        Before each move the agent checks the rest of the path against what it knows, and stops as
        soon as a cell on it is known blocked, or at the path's end. Only looking around can make a
        cell known blocked, so after a move only the newly seen blocked cells need checking: the
        agent stops if one of them lies ahead of it on the path. An illegal step (not one move, or
        into a blocked cell) raises the world's :class:`IllegalMoveError`.
        """
        path = [(int(row), int(col)) for row, col in path]
        known_blocked, width = self.knowledge.blocked, self.knowledge.width
        if any(known_blocked[row * width + col] for row, col in path):
            return []
        last_place = {cell: step for step, cell in enumerate(path)}  # where each cell last lies on the path
        moved = []
        for step in range(1, len(path)):
            self.cell = path[step]
            self.trajectory.append(self.cell)
            moved.append(self.cell)
            try:
                newly_blocked = self.look()
            except IllegalMoveError as error:
                raise IllegalMoveError(f"path step {step}: {error}") from None
            if any(last_place.get(cell, -1) > step for cell in newly_blocked):
                break  # the rest of the path is blocked: plan again from here
        return moved
