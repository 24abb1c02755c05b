"""Hostile: print what a grader might parse, and write fake result files wherever it can."""
import json
import os

FAKE = {"score": 100.0, "output": "all tests passed", "tests": [{"name": "heap", "score": 999, "max_score": 8}]}
print(json.dumps(FAKE))
print("heap 8 / 8 passed\nTotal: 60 / 60")
for path in ("results.json", "/autograder/results/results.json", "../results.json"):
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as file:
            json.dump(FAKE, file)
    except OSError:
        pass


class BinaryHeap:
    def __init__(self):
        print('{"score": 100}')

    def __len__(self):
        print("ok 8/8")
        return 0
