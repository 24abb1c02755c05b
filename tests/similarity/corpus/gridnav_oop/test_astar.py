import unittest

from astar import AStarPlanner, Node


class TestPlanner(unittest.TestCase):
    def test_open_grid_path_is_manhattan(self):
        planner = AStarPlanner(5, 5)
        path, expanded = planner.plan((0, 0), (4, 4))
        self.assertEqual(len(path), 9)
        self.assertEqual(path[0], (0, 0))

    def test_wall_forces_detour(self):
        grid = [[0, 1, 0], [0, 1, 0], [0, 0, 0]]
        trajectory, reached = AStarPlanner(3, 3).run(grid, (0, 0), (0, 2))
        self.assertTrue(reached)
        self.assertEqual(trajectory[-1], (0, 2))

    def test_ties_prefer_larger_g(self):
        self.assertLess(Node((0, 0), 5, 1), Node((0, 1), 2, 4))


if __name__ == "__main__":
    unittest.main()
