from agent import aStar, hValue, runAgent


def testH():
    assert hValue((1, 1), (4, 5)) == 7


def testStraightLine():
    walls = [[False] * 5]
    pathList, expandedList = aStar((0, 0), (0, 4), walls, 1, 5)
    assert pathList == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert len(expandedList) == 4


def testBlockedGoal():
    maze = [[0, 1], [1, 0]]
    walked, expandedCount, ok = runAgent(maze, (0, 0), (1, 1))
    assert not ok and walked == [(0, 0)]
