"""The step-through player (``ftr animate --html``): its data, its page in a real browser, its size.

Expected numbers come from the handout (SPEC §10: example 1's first search, written by hand below;
Figure 7's learned h = 8 - g) and from a second method (g = the distance on the freespace view,
``distances_from``), never from the player's own code. The browser is Debian's chromium, headless; the
browser tests skip, saying why, where it is not installed (``apt-get install chromium``).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reference.world.grid import Gridworld, distances_from, manhattan
from reference.world.instances import load_folder, standard_mazes_dir
from reference.world.maps import write_map
from reference.world.player import player_data, player_html, show_player, write_player
from reference.world.trace import SearchRecord, Trace

REPO = Path(__file__).resolve().parents[2]
from tests.helpers.handout import EXAMPLE_1  # noqa: E402 - the handout's Figure 2, read from mazes/handout/
FIRST_SEARCH = "E3 E2 E1 D2 D1 C2 C3 C4 C5 D5"     # SPEC §10: example 1's first forward search, in order


def cell(name: str) -> tuple[int, int]:
    return (ord(name[0]) - ord("A"), int(name[1:]) - 1)


def cells(names: str) -> list[tuple[int, int]]:
    return [cell(n) for n in names.split()]


def handout_trace() -> Trace:
    """Example 1's first search as SPEC §10 gives it (by hand): three moves, then C3 is seen blocked
    and the run stops there (a student's trace of one search)."""
    search = SearchRecord(cell("E3"), cell("E5"), cells(FIRST_SEARCH), cells("E3 E2 D2 C2 C3 C4 C5 D5 E5"))
    return Trace("forward", "larger_g", False, cells("E3 E2 D2 C2"), [search])


def index(c: tuple[int, int], width: int = 5) -> int:
    return c[0] * width + c[1]


# -- the data ------------------------------------------------------------------------------------------

def test_frames_are_every_expansion_every_path_every_move_and_the_end() -> None:
    data = player_data(EXAMPLE_1, handout_trace())
    assert data["searches"][0]["expansions"] == 10 and data["searches"][0]["moves"] == 3
    assert data["frames"] == 10 + 1 + 3 + 1


def test_g_h_and_f_after_each_expansion_are_the_handouts() -> None:
    data = player_data(EXAMPLE_1, handout_trace())
    numbers = data["numbers"][0]
    known = Gridworld(5, 5)                      # the freespace view: what the agent knows at E3
    for wall in cells("D3 E4"):
        known.set_blocked(wall)
    distance = distances_from(known, cell("E3"))
    final = {}
    for _after, where, g, _parent in numbers["g"]:
        final[where] = g
    for c in cells(FIRST_SEARCH) + [cell("E5")]:
        assert final[index(c)] == distance[c]    # g is the distance from the agent
    for c in EXAMPLE_1.cells():
        assert numbers["h"][index(c)] == (-1 if c in cells("D3 E4") else manhattan(c, cell("E5")))
    # each g is set after the expansion of its parent: E2 (g 1) by the 1st, E1 (g 2) by the 2nd
    assert [1, index(cell("E2")), 1, index(cell("E3"))] in numbers["g"]
    assert [2, index(cell("E1")), 2, index(cell("E2"))] in numbers["g"]


def test_adaptive_learns_the_handouts_figure_7_values() -> None:
    from reference.solutions import REPLANNERS
    from reference.world.sensing import FogOfWarWorld

    trace = REPLANNERS.run("adaptive", FogOfWarWorld(EXAMPLE_1, cell("E3")), cell("E3"), cell("E5"),
                           tie_break="larger_g")
    data = player_data(EXAMPLE_1, trace)
    learned = dict(map(tuple, data["numbers"][0]["learned"]))
    final = {where: g for _after, where, g, _parent in data["numbers"][0]["g"]}
    assert set(learned) == {index(c) for c in trace.searches[0].expanded}
    assert all(h == 8 - final[where] for where, h in learned.items())           # h(s) := g(goal) - g(s) = 8 - g(s)
    raised = {where for where, h in learned.items() if h > data["numbers"][0]["h"][where]}
    assert raised == {index(c) for c in cells("D2 E1 E2 E3")}                  # the handout names these four
    # the second search plans with them (lower left of Figure 7's second search)
    assert all(data["numbers"][1]["h"][index(c)] == learned[index(c)] for c in cells("D2 E1 E2 E3"))


def test_a_101_maze_page_is_small_and_self_contained() -> None:
    from reference.solutions import solve

    instance = load_folder(standard_mazes_dir())[0]
    for algorithm in ("forward", "backward", "adaptive"):
        page = player_html(instance.grid, solve(instance, algorithm, "larger_g"))
        assert len(page.encode()) < 1_000_000, algorithm       # measured on all 50 mazes: 0.72 MB at most
        assert "http://" not in page and "https://" not in page and "<link" not in page
        assert not re.search(r"<script[^>]*\bsrc=", page)
        assert json.loads(re.search(r'<script type="application/json" id="run">(.*?)</script>', page, re.S)[1])["numbers"] is None


def test_show_player_puts_the_same_page_in_a_notebook_cell() -> None:
    pytest.importorskip("IPython")
    shown = show_player(EXAMPLE_1, handout_trace())
    source = re.search(r'srcdoc="([^"]*)"', shown.data)[1]
    assert html.unescape(source) == player_html(EXAMPLE_1, handout_trace())


# -- the command ---------------------------------------------------------------------------------------

def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=300, check=False)


@pytest.fixture
def example_map(tmp_path) -> Path:
    path = tmp_path / "example1.map"
    write_map(EXAMPLE_1, path)
    return path


def test_animate_html_of_a_students_saved_trace(tmp_path, example_map) -> None:
    trace_file = tmp_path / "mine.json"
    handout_trace().save(trace_file)
    out = tmp_path / "mine.html"
    result = ftr("animate", str(example_map), "--start", "4,2", "--target", "4,4", "--trace", str(trace_file),
                 "--html", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(re.search(r'id="run">(.*?)</script>', out.read_text(), re.S)[1])
    assert data["frames"] == 15 and data["numbers"] is not None
    assert not (tmp_path / "mine.gif").exists()


def test_animate_says_what_is_missing_in_one_line(example_map) -> None:
    result = ftr("animate", str(example_map), "--start", "4,2", "--target", "4,4")
    assert result.returncode == 2 and result.stderr.strip() == \
        "ftr: error: say where to write the run: --out FILE.gif, --html FILE.html, or both"


# -- in a real browser -------------------------------------------------------------------------------

def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no chromium to test the page in (Debian: apt-get install chromium)")


def browse(page: Path, hash_: str, tmp_path: Path, *what: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", f"--user-data-dir={profile}",
               "--virtual-time-budget=10000",   # the page inflates its arrays asynchronously: let it finish
               *what,
               f"{page.as_uri()}#{hash_}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "HOME": str(tmp_path)})


def page_state(page: Path, hash_: str, tmp_path: Path) -> dict[str, str]:
    """The page after loading with ``hash_`` (``press=step,step``: those buttons clicked): the state
    element's data attributes and the text of every counter, read from chromium's --dump-dom."""
    result = browse(page, hash_, tmp_path, "--dump-dom")
    dom = result.stdout
    state = re.search(r'<output id="state"([^>]*)>', dom)
    assert state, result.stderr[-2000:]
    values = dict(re.findall(r'data-([a-z]+)="([^"]*)"', state[1]))
    values.update({f"{key} shown": value for key, value in re.findall(r'<b id="([a-z]+)-counter">([^<]*)</b>', dom)})
    values["caption"] = html.unescape(re.search(r'<div id="caption">([^<]*)</div>', dom)[1])
    return values


def test_pressing_step_and_back_in_chromium_shows_what_the_trace_says(tmp_path) -> None:
    page = write_player(EXAMPLE_1, handout_trace(), tmp_path / "run.html")
    expected = cells(FIRST_SEARCH)
    known = Gridworld(5, 5)
    for wall in cells("D3 E4"):
        known.set_blocked(wall)
    distance = distances_from(known, cell("E3"))
    for presses in (0, 1, 6):
        state = page_state(page, "press=" + ",".join(["step"] * presses), tmp_path)
        expanded = expected[presses]                      # frame k shows expansion k + 1
        g, h = distance[expanded], manhattan(expanded, cell("E5"))
        assert state["frame"] == str(presses) and state["kind"] == "expand"
        assert (state["search"], state["expansion"], state["cell"]) == ("1", str(presses + 1), str(index(expanded)))
        assert (state["g"], state["h"], state["f"]) == (str(g), str(h), str(g + h))
        name = "ABCDE"[expanded[0]] + str(expanded[1] + 1)
        assert state["caption"] == f"search 1: expansion {presses + 1} of 10 expands {name} (g {g}, h {h}, f {g + h})"
        # the counters as the page shows them
        assert (state["frame shown"], state["search shown"], state["expansion shown"]) == \
               (f"{presses + 1} / 15", "1 / 1", f"{presses + 1} / 10")
        assert (state["expansions shown"], state["moves shown"]) == (str(presses + 1), "0")
    # the path after the tenth expansion, then the moves; back undoes a step
    walked = page_state(page, "frame=10&press=step,step", tmp_path)
    assert (walked["kind"], walked["moves"], walked["agent"]) == ("move", "2", str(index(cell("D2"))))
    assert (walked["frame shown"], walked["moves shown"], walked["expansions shown"]) == ("13 / 15", "2", "10")
    assert walked["caption"] == "move 2 to D2"
    back = page_state(page, "frame=10&press=step,step,back", tmp_path)
    assert (back["kind"], back["moves"], back["agent"]) == ("move", "1", str(index(cell("E2"))))
    # the run ends after the third move (C3 seen blocked): "search ▶|" goes to the end
    end = page_state(page, "press=next", tmp_path)
    assert end["kind"] == "end" and end["caption"].startswith("cannot reach the target: 1 searches, 10 expansions, 3 moves")


def test_two_steps_in_chromium_look_different(tmp_path) -> None:
    """Screenshots of two consecutive steps (looked at by hand while writing this: the outlined cell
    moves from E2 to E1 and E1 gets its g, f and h); here: both are drawn and they differ."""
    page = write_player(EXAMPLE_1, handout_trace(), tmp_path / "run.html")
    shots = []
    for presses in ("step", "step,step"):
        shot = tmp_path / f"{presses.count('step')}.png"
        result = browse(page, f"press={presses}", tmp_path, "--window-size=800,700", f"--screenshot={shot}")
        assert shot.is_file(), result.stderr[-2000:]
        shots.append(shot.read_bytes())
    assert shots[0] != shots[1]
