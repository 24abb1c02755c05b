"""`ftr movingai fetch` against a real HTTP server on 127.0.0.1 serving archives the tests build: the
files land checked, a broken download resumes with a range request, a changed file is refused, and the
commands say where the maps are and how to get them."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from reference.experiments.movingai_data import fetch, load_manifest, movingai_dir, require_movingai

REPO = Path(__file__).resolve().parents[2]


class ArchiveServer:
    """Serves ``files`` (URL path -> bytes) on 127.0.0.1 with HTTP range requests, as a web server does.
    ``cut_after``: the first whole-file answer stops after that many bytes (a broken connection)."""

    def __init__(self, files: dict[str, bytes], cut_after: int | None = None) -> None:
        self.files, self.cut_after, self.requests = files, cut_after, []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                server.requests.append((self.path, self.headers.get("Range")))
                data = server.files.get(self.path)
                if data is None:
                    self.send_error(404)
                    return
                wanted = self.headers.get("Range")
                if wanted:
                    start = int(wanted.removeprefix("bytes=").split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                    body = data[start:]
                else:
                    self.send_response(200)
                    body = data
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if server.cut_after is not None and not wanted:
                    self.wfile.write(body[:server.cut_after])
                    server.cut_after = None
                    self.wfile.flush()
                    self.connection.shutdown(2)  # the connection breaks: the client sees a short read
                    return
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ArchiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def record(data: bytes) -> dict:
    """The manifest's record of a file, computed here with hashlib (not by the code under test)."""
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


# Two small sets; the maps archive keeps its files in a folder, as some published archives do, and
# carries a file the kit does not use and a macOS resource fork, neither of which may land.
TOWN = b"type octile\nheight 2\nwidth 3\nmap\n..@\n...\n"
TOWN_SCEN = b"version 1\n0\ttown.map\t3\t2\t0\t0\t2\t1\t2.41421356\n"
CAVE = b"type octile\nheight 1\nwidth 2\nmap\n..\n"
MANIFEST = {"sets": {
    "towns": {"archives": ["towns/towns-map.zip", "towns/towns-scen.zip"],
              "files": {"town.map": record(TOWN), "town.map.scen": record(TOWN_SCEN)}},
    "caves": {"archives": ["cave/cave-map.zip"], "files": {"cave.map": record(CAVE)}},
}}
SERVED = {
    "/towns/towns-map.zip": zipped({"maps/town.map": TOWN, "maps/unused.map": CAVE, "__MACOSX/maps/._town.map": b"x"}),
    "/towns/towns-scen.zip": zipped({"town.map.scen": TOWN_SCEN}),
    "/cave/cave-map.zip": zipped({"cave.map": CAVE}),
}


def test_fetch_installs_each_recorded_file_checked_and_nothing_else(tmp_path: Path) -> None:
    with ArchiveServer(SERVED) as server:
        reports = fetch(tmp_path, url=server.url, progress=False, manifest=MANIFEST)
    assert {r.name: (sorted(r.installed), r.problems) for r in reports} == {
        "caves": (["cave.map"], []), "towns": (["town.map", "town.map.scen"], [])}
    assert (tmp_path / "towns" / "town.map").read_bytes() == TOWN
    assert (tmp_path / "caves" / "cave.map").read_bytes() == CAVE
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["cave.map", "town.map", "town.map.scen"]


def test_a_second_fetch_downloads_nothing(tmp_path: Path) -> None:
    with ArchiveServer(SERVED) as server:
        fetch(tmp_path, url=server.url, progress=False, manifest=MANIFEST)
        first = len(server.requests)
        again = fetch(tmp_path, url=server.url, progress=False, manifest=MANIFEST)
    assert first == 3 and len(server.requests) == 3
    assert [sorted(r.already) for r in again] == [["cave.map"], ["town.map", "town.map.scen"]]


def test_a_broken_download_resumes_where_it_stopped(tmp_path: Path) -> None:
    archive = SERVED["/cave/cave-map.zip"]
    with ArchiveServer({"/cave/cave-map.zip": archive}, cut_after=40) as server:
        with pytest.raises(OSError, match="resume"):
            fetch(tmp_path, ["caves"], url=server.url, progress=False, manifest=MANIFEST)
        part = tmp_path / ".archives" / "cave-map.zip.part"
        assert part.stat().st_size == 40
        reports = fetch(tmp_path, ["caves"], url=server.url, progress=False, manifest=MANIFEST)
    assert server.requests[-1] == ("/cave/cave-map.zip", "bytes=40-")  # only the rest was asked for
    assert reports[0].installed == ["cave.map"] and (tmp_path / "caves" / "cave.map").read_bytes() == CAVE
    assert not (tmp_path / ".archives").exists()  # archives go once their set is whole


def test_a_file_that_differs_from_the_record_is_refused_unless_accepted(tmp_path: Path) -> None:
    changed = {"/cave/cave-map.zip": zipped({"cave.map": CAVE.replace(b"..", b".@")})}
    with ArchiveServer(changed) as server:
        reports = fetch(tmp_path, ["caves"], url=server.url, progress=False, manifest=MANIFEST)
        assert not (tmp_path / "caves" / "cave.map").exists()
        assert "cave.map: differs from the copy the kit was tested with" in reports[0].problems[0]
        reports = fetch(tmp_path, ["caves"], url=server.url, progress=False, manifest=MANIFEST, accept_changed=True)
    assert reports[0].installed == ["cave.map"]


def test_a_missing_archive_is_one_clear_error(tmp_path: Path) -> None:
    with ArchiveServer({}) as server, pytest.raises(OSError, match="404"):
        fetch(tmp_path, ["caves"], url=server.url, progress=False, manifest=MANIFEST)


def ftr(*args: str, **env: str) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})


def test_ftr_movingai_fetch_gets_the_real_dao_set_from_its_published_archive_layout(shared_dir: Path,
                                                                                     tmp_path: Path) -> None:
    """The kit's own manifest, archives laid out as the benchmark publishes them (dao/dao-map.zip, ...),
    built here from the copies in ../shared; the command puts byte-identical files in place."""
    dao = shared_dir / "movingai" / "dao"
    served = {"/dao/dao-map.zip": zipped({f"dao/{p.name}": p.read_bytes() for p in dao.glob("*.map")}),
              "/dao/dao-scen.zip": zipped({p.name: p.read_bytes() for p in dao.glob("*.scen")})}
    with ArchiveServer(served) as server:
        done = ftr("movingai", "fetch", str(tmp_path / "maps"), "--set", "dao", "--url", server.url, "--quiet")
    assert done.returncode == 0, done.stderr
    assert "dao: 20 files fetched" in done.stdout
    for path in dao.iterdir():
        assert (tmp_path / "maps" / "dao" / path.name).read_bytes() == path.read_bytes()
    where = ftr("movingai", "where", FTR_MOVINGAI=str(tmp_path / "maps"))
    assert where.stdout.splitlines()[0] == str(tmp_path / "maps") and "dao: present" in where.stdout


def test_the_kits_manifest_matches_the_maps_its_tests_run_on(shared_dir: Path) -> None:
    for name, entry in load_manifest()["sets"].items():
        folder = shared_dir / "movingai" / name
        assert sorted(entry["files"]) == sorted(p.name for p in folder.iterdir())
        for file, want in entry["files"].items():
            assert record((folder / file).read_bytes()) == want, f"{name}/{file}"


def test_where_the_commands_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FTR_MOVINGAI", str(tmp_path / "env"))
    assert movingai_dir(tmp_path / "given") == tmp_path / "given"
    assert movingai_dir() == tmp_path / "env"
    monkeypatch.delenv("FTR_MOVINGAI")
    monkeypatch.setattr("reference.experiments.movingai_data.checkout_shared_dir", lambda: tmp_path / "absent")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform.startswith("linux"):
        assert movingai_dir() == tmp_path / "data" / "ftr-kit" / "movingai"


def test_a_command_without_the_maps_says_how_to_get_them(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="ftr movingai fetch --set dao"):
        require_movingai(tmp_path, "dao")
    done = ftr("path", "--check-all", "--movingai", str(tmp_path / "nothing"))
    assert done.returncode == 2 and "ftr movingai fetch" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_manifest_is_package_data() -> None:
    text = (REPO / "pyproject.toml").read_text()
    assert '"reference.experiments" = ["movingai_manifest.json"]' in text
    assert json.loads((REPO / "reference" / "experiments" / "movingai_manifest.json").read_text())["sets"]


def test_without_a_network_the_command_says_so_and_how_to_use_a_local_mirror(tmp_path: Path) -> None:
    """A server whose name does not resolve (``.invalid`` never does, RFC 2606), as when the machine
    has no network: one line naming the archive, MovingAI's page and ``--url file:///DIR``; then the
    same archive laid out in a local folder installs through ``--url file:///...``, no network used."""
    done = ftr("movingai", "fetch", str(tmp_path / "maps"), "--set", "dao", "--url", "http://movingai.invalid/benchmarks",
               "--quiet")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "unreachable from here" in done.stderr and "--url file:///DIR" in done.stderr
    assert "https://movingai.com/benchmarks/grids.html" in done.stderr and "DIR/dao/dao-map.zip" in done.stderr
    mirror = tmp_path / "mirror"
    (mirror / "cave").mkdir(parents=True)
    (mirror / "cave" / "cave-map.zip").write_bytes(zipped({"cave.map": CAVE}))
    reports = fetch(tmp_path / "maps", ["caves"], url=mirror.as_uri(), progress=False, manifest=MANIFEST)
    assert reports[0].installed == ["cave.map"] and (tmp_path / "maps" / "caves" / "cave.map").read_bytes() == CAVE
    with pytest.raises(OSError, match="The local mirror file:///.* has no cave/cave-map.zip"):
        fetch(tmp_path / "again", ["caves"], url=(tmp_path / "empty").as_uri(), progress=False, manifest=MANIFEST)
