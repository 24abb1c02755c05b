"""The students' self-check works without the reference solutions, as in the student bundle."""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
from pathlib import Path

from autograder.export import export_solution

REPO = Path(__file__).resolve().parents[2]


def test_self_check_without_reference_solutions(tmp_path):
    bundle = tmp_path / "bundle"
    (bundle / "reference").mkdir(parents=True)
    shutil.copy(REPO / "reference" / "__init__.py", bundle / "reference")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "reference" / "world", bundle / "reference" / "world", ignore=ignore)
    shutil.copytree(REPO / "autograder", bundle / "autograder", ignore=ignore)
    shutil.copytree(REPO / "mazes", bundle / "mazes")
    submission = export_solution(tmp_path / "student")
    script = (
        "import json, sys\n"
        "from autograder.grader import grade_submission\n"
        "try:\n    import reference.solutions\n    sys.exit('the bundle must not hold the solutions')\n"
        "except ImportError:\n    pass\n"
        f"report = grade_submission({str(submission)!r})\n"
        "print(json.dumps(report.to_dict()))\n"
    )
    # -S: no .pth files, so the kit's editable install cannot supply reference.solutions.
    site_packages = ":".join(site.getsitepackages())
    result = subprocess.run([sys.executable, "-S", "-c", script], cwd=bundle, capture_output=True, text=True,
                            timeout=600, check=False, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                              "PYTHONPATH": f"{bundle}:{site_packages}"})
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["score"] == report["max_score"] == 60, json.dumps(report, indent=1)
    efficiency = next(c for c in report["checks"] if c["id"] == "efficiency")
    assert "the reference" in efficiency["messages"][0]
