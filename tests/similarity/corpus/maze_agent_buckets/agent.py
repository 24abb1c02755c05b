# Fog-of-war maze agent. Open list = buckets indexed by f, each bucket a list; within a bucket we
# take the cell with the largest g (scan). Written for the Fast Trajectory Replanning assignment.

def hValue(cell, goalCell):
    return abs(cell[0] - goalCell[0]) + abs(cell[1] - goalCell[1])


def getNeighbors(cell, knownWalls, nRows, nCols):
    r, c = cell
    result = []
    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)]:
        rr = r + dr
        cc = c + dc
        if rr < 0 or cc < 0 or rr >= nRows or cc >= nCols:
            continue
        if knownWalls[rr][cc]:
            continue
        result.append((rr, cc))
    return result


def popBest(buckets):
    fMin = min(f for f in buckets if buckets[f])
    bucket = buckets[fMin]
    bestIndex = 0
    for i in range(1, len(bucket)):
        if bucket[i][0] > bucket[bestIndex][0]:
            bestIndex = i
    gBest, cell = bucket.pop(bestIndex)
    return fMin, gBest, cell


def aStar(startCell, goalCell, knownWalls, nRows, nCols):
    gScore = {startCell: 0}
    cameFrom = {}
    buckets = {hValue(startCell, goalCell): [(0, startCell)]}
    closedSet = set()
    expandedList = []
    while any(buckets.values()):
        fMin, gBest, cell = popBest(buckets)
        if cell in closedSet or gBest != gScore[cell]:
            continue
        if cell == goalCell:
            break
        closedSet.add(cell)
        expandedList.append(cell)
        for nb in getNeighbors(cell, knownWalls, nRows, nCols):
            tentative = gScore[cell] + 1
            if nb not in gScore or tentative < gScore[nb]:
                gScore[nb] = tentative
                cameFrom[nb] = cell
                fNew = tentative + hValue(nb, goalCell)
                buckets.setdefault(fNew, []).append((tentative, nb))
    if goalCell not in gScore:
        return None, expandedList
    pathList = [goalCell]
    while pathList[-1] != startCell:
        pathList.append(cameFrom[pathList[-1]])
    pathList.reverse()
    return pathList, expandedList


def lookAround(trueMaze, knownWalls, cell):
    for nb in getNeighbors(cell, [[False] * len(trueMaze[0]) for _ in trueMaze], len(trueMaze), len(trueMaze[0])):
        if trueMaze[nb[0]][nb[1]] == 1:
            knownWalls[nb[0]][nb[1]] = True


def runAgent(trueMaze, startCell, goalCell):
    nRows, nCols = len(trueMaze), len(trueMaze[0])
    knownWalls = [[False] * nCols for _ in range(nRows)]
    current = startCell
    walked = [current]
    allExpanded = 0
    lookAround(trueMaze, knownWalls, current)
    while current != goalCell:
        pathList, expandedList = aStar(current, goalCell, knownWalls, nRows, nCols)
        allExpanded += len(expandedList)
        if pathList is None:
            return walked, allExpanded, False
        for nextCell in pathList[1:]:
            if knownWalls[nextCell[0]][nextCell[1]]:
                break
            current = nextCell
            walked.append(current)
            lookAround(trueMaze, knownWalls, current)
    return walked, allExpanded, True
