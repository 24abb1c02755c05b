"""The MovingAI benchmark maps the paper modules use: where they are, and fetching them.

The game-map commands (``ftr path``, ``ftr subgoal``, ``ftr haa``, ``ftr dynamic``, the MovingAI check)
read maps from one folder laid out as the benchmark's sets: ``dao/``, ``bg512/``, ``bgmaps/``,
``wc3maps512/``, ``mazes/``, ``random/``, ``rooms/``. :func:`movingai_dir` says which folder, in this
order: the command's ``--movingai DIR``; the environment variable ``FTR_MOVINGAI``; ``../shared/movingai``
beside a source checkout (the developers' copy); the user's data folder
(``$XDG_DATA_HOME/ftr-kit/movingai``, ``~/.local/share/ftr-kit/movingai`` by default), which is where
``ftr movingai fetch`` puts them when given no folder.

:func:`fetch` downloads the sets from the benchmark's published archives
(``https://movingai.com/benchmarks/SET/SET-map.zip`` and ``...-scen.zip``: the archive paths are
recorded per set), resumes a broken download
(an HTTP range request from where the ``.part`` file ends), takes from each archive only the files the
kit uses, and checks each against the size and SHA-256 recorded in ``movingai_manifest.json`` (made
from the copies the kit's tests run on, by :func:`record_manifest`), before it moves the file into place.

>>> sorted(load_manifest()["sets"])[:3]
['bg512', 'bgmaps', 'dao']
>>> load_manifest()["sets"]["dao"]["archives"]
['dao/dao-map.zip', 'dao/dao-scen.zip']
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from reference.world.fileio import atomic_write_bytes, atomic_write_text

#: Where the benchmark's archives are published; ``--url`` or ``FTR_MOVINGAI_URL`` name a mirror.
DEFAULT_URL = "https://movingai.com/benchmarks"
MANIFEST = Path(__file__).with_name("movingai_manifest.json")
#: Archives are read in pieces of this size (the progress bar moves per piece).
CHUNK = 1 << 16


class MovingAIDataMissing(FileNotFoundError):
    """The MovingAI maps a command needs are not where the kit looks; the message says how to get them."""


class ServerUnreachable(OSError):
    """The archive's server could not be reached at all (no network, no name resolution, refused)."""


def user_data_dir() -> Path:
    """The user's data folder for the kit: ``$XDG_DATA_HOME/ftr-kit`` (Linux and the BSDs),
    ``~/Library/Application Support/ftr-kit`` (macOS), ``%LOCALAPPDATA%\\ftr-kit`` (Windows)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "ftr-kit"


def checkout_shared_dir() -> Path:
    """``../shared/movingai`` beside the source checkout this module sits in (it may not exist)."""
    return Path(__file__).resolve().parents[3] / "shared" / "movingai"


def movingai_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The MovingAI folder to read: ``explicit``, else ``$FTR_MOVINGAI``, else ``../shared/movingai``
    beside a checkout when it exists, else the user's data folder (see the module docstring).

    The folder may not exist yet; :func:`require_movingai` checks and says how to get it.
    """
    if explicit:
        return Path(explicit)
    if os.environ.get("FTR_MOVINGAI"):
        return Path(os.environ["FTR_MOVINGAI"])
    shared = checkout_shared_dir()
    if shared.is_dir():
        return shared
    return user_data_dir() / "movingai"


def require_movingai(folder: Path, *sets: str) -> Path:
    """``folder`` when it holds every one of ``sets`` (all of them when none is named), else
    :class:`MovingAIDataMissing` naming what is missing and the command that gets it."""
    wanted = sets or tuple(load_manifest()["sets"])
    missing = [name for name in wanted if not (folder / name).is_dir()]
    if missing:
        raise MovingAIDataMissing(
            f"{folder}: no MovingAI maps for {', '.join(missing)}; get them with `ftr movingai fetch "
            f"--set {' --set '.join(missing)}` (into {user_data_dir() / 'movingai'}), or point to a copy with "
            "--movingai DIR or FTR_MOVINGAI=DIR")
    return folder


# -- the manifest -------------------------------------------------------------------------------------

def load_manifest(path: Path = MANIFEST) -> dict:
    """The kit's record of each set: its archives and, per file it uses, its size and SHA-256."""
    return json.loads(path.read_text(encoding="utf-8"))


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, read in pieces, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for piece in iter(lambda: file.read(CHUNK), b""):
            digest.update(piece)
    return digest.hexdigest()


def record_manifest(folder: Path, archives: dict[str, list[str]]) -> dict:
    """A manifest of ``folder``'s sets (how ``movingai_manifest.json`` was made, from ``../shared/movingai``):
    ``archives`` maps each set to its archive names; every file in the set's folder is recorded."""
    sets = {}
    for name, archive_names in sorted(archives.items()):
        files = {path.name: {"bytes": path.stat().st_size, "sha256": sha256_of(path)}
                 for path in sorted((folder / name).iterdir()) if path.is_file()}
        sets[name] = {"archives": archive_names, "files": files}
    return {"source": DEFAULT_URL, "sets": sets}


# -- fetching -----------------------------------------------------------------------------------------

@dataclass
class FetchReport:
    """What :func:`fetch` did for one set."""

    name: str
    installed: list[str]        # files checked and moved into place
    already: list[str]          # files that were there and checked
    problems: list[str]         # one line per file missing from the archives or differing from the record


def download(url: str, target: Path, progress: bool = True, timeout: float = 60) -> Path:
    """Download ``url`` to ``target``, resuming from ``target.part`` when an earlier try broke off.

    The server is asked for the rest of the file (``Range: bytes=N-``); one that answers with the whole
    file (200 instead of 206) is read from the start again. The finished file is renamed into place.
    """
    from tqdm import tqdm

    if target.exists():
        return target
    part = target.with_name(target.name + ".part")
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        if error.code == 416 and have:  # nothing left to send: the part file is whole
            part.replace(target)
            return target
        raise OSError(f"{url}: the server answered {error.code} {error.reason}") from None
    except (urllib.error.URLError, TimeoutError) as error:
        raise ServerUnreachable(f"{url}: cannot download ({getattr(error, 'reason', error)})") from None
    with response:
        resumed = have and response.status == 206
        length = response.headers.get("Content-Length")
        total = (int(length) + (have if resumed else 0)) if length else None
        with open(part, "ab" if resumed else "wb") as file, \
                tqdm(total=total, initial=have if resumed else 0, unit="B", unit_scale=True,
                     desc=target.name, disable=not progress, leave=False) as bar:
            try:
                for piece in iter(lambda: response.read(CHUNK), b""):
                    file.write(piece)
                    bar.update(len(piece))
            except (OSError, TimeoutError) as error:
                raise OSError(f"{url}: the download broke off after {file.tell():,} bytes ({error}); "
                              "run the command again to resume") from None
        if total is not None and part.stat().st_size != total:
            raise OSError(f"{url}: got {part.stat().st_size:,} of {total:,} bytes; run the command again to resume")
    part.replace(target)
    return target


def fetch(out: Path, sets: list[str] | None = None, url: str | None = None, progress: bool = True,
          manifest: dict | None = None, accept_changed: bool = False) -> list[FetchReport]:
    """Fetch ``sets`` (default: every set in the manifest) into ``out/SET/`` (see the module docstring).

    Files already in place with the recorded size and SHA-256 are left alone, so running it again only
    finishes what is missing. A file whose bytes differ from the record is not installed (a problem is
    reported) unless ``accept_changed``. Archives are kept in ``out/.archives`` until their set is whole.
    """
    manifest = manifest or load_manifest()
    base = (url or os.environ.get("FTR_MOVINGAI_URL") or manifest.get("source") or DEFAULT_URL).rstrip("/")
    names = sets or sorted(manifest["sets"])
    unknown = [name for name in names if name not in manifest["sets"]]
    if unknown:
        raise ValueError(f"unknown MovingAI set {', '.join(unknown)}; the kit uses {', '.join(sorted(manifest['sets']))}")
    archives_dir = out / ".archives"
    archives_dir.mkdir(parents=True, exist_ok=True)
    reports = []
    for name in names:
        entry = manifest["sets"][name]
        report = FetchReport(name, [], [], [])
        wanted = {file: record for file, record in entry["files"].items()
                  if not _matches(out / name / file, record)}
        report.already = sorted(set(entry["files"]) - set(wanted))
        for archive_name in entry["archives"]:
            if not wanted:
                break
            try:
                archive = download(f"{base}/{archive_name}", archives_dir / Path(archive_name).name, progress)
            except ServerUnreachable as error:
                raise ServerUnreachable(offline_hint(str(error), base, archive_name)) from None
            _install_from(archive, out / name, wanted, report, accept_changed)
        report.problems += [f"{name}/{file}: not in {' or '.join(entry['archives'])}" for file in sorted(wanted)]
        if not report.problems:
            for archive_name in entry["archives"]:
                (archives_dir / Path(archive_name).name).unlink(missing_ok=True)
        reports.append(report)
    if not any(archives_dir.iterdir()):
        archives_dir.rmdir()
    return reports


def offline_hint(message: str, base: str, archive_name: str) -> str:
    """``message`` (a failed download) with what to do without a network to the benchmark's server:
    get the archives elsewhere and point ``--url`` at a local copy (one line).

    >>> offline_hint("x: cannot download (boom)", "https://movingai.com/benchmarks", "dao/dao-map.zip")[:62]
    'x: cannot download (boom). The server is unreachable from here'
    """
    if base.startswith("file:"):
        return f"{message}. The local mirror {base} has no {archive_name}: put the archive there under that path"
    return (f"{message}. The server is unreachable from here (no network, or no route to it). Download the "
            f"archives on a machine that has one, from MovingAI's benchmark page ({DEFAULT_URL}/grids.html; this one "
            f"is {DEFAULT_URL}/{archive_name}), keep their paths under one folder DIR (DIR/{archive_name}), "
            "copy DIR here and run the command again with --url file:///DIR (docs/gamemaps.md, 'Maps offline')")


def _matches(path: Path, record: dict) -> bool:
    return path.is_file() and path.stat().st_size == record["bytes"] and sha256_of(path) == record["sha256"]


def _install_from(archive: Path, folder: Path, wanted: dict[str, dict], report: FetchReport,
                  accept_changed: bool) -> None:
    """Move the ``wanted`` files found in ``archive`` (by file name, in whatever folder of the zip) into
    ``folder``, each checked against its record; found ones leave ``wanted``."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            members = {Path(info.filename).name: info for info in zipped.infolist()
                       if not info.is_dir() and not Path(info.filename).name.startswith("._")}
            for file in sorted(set(wanted) & set(members)):
                record = wanted.pop(file)
                info = members[file]
                if info.file_size > 4 * record["bytes"] + (1 << 20):  # never inflate a bomb into memory
                    report.problems.append(f"{folder.name}/{file}: {info.file_size:,} bytes in the archive, "
                                           f"{record['bytes']:,} recorded; not installed")
                    continue
                data = zipped.read(info)
                digest = hashlib.sha256(data).hexdigest()
                if (len(data), digest) != (record["bytes"], record["sha256"]) and not accept_changed:
                    report.problems.append(
                        f"{folder.name}/{file}: differs from the copy the kit was tested with ({len(data):,} bytes, "
                        f"sha256 {digest[:12]}..., recorded {record['bytes']:,} bytes, {record['sha256'][:12]}...); "
                        "not installed (--accept-changed installs it anyway)")
                    continue
                atomic_write_bytes(folder / file, data)
                report.installed.append(file)
    except zipfile.BadZipFile:
        archive.unlink(missing_ok=True)
        raise OSError(f"{archive.name}: not a zip archive (removed; run the command again to download it anew)") from None


def write_manifest(folder: Path, archives: dict[str, list[str]], out: Path = MANIFEST) -> Path:
    """Record ``folder``'s sets into ``out`` (the kit's manifest), atomically."""
    atomic_write_text(out, json.dumps(record_manifest(folder, archives), indent=1, sort_keys=True) + "\n")
    return out


#: Each set the kit uses and its published archives (bgmaps: the maps only; the kit has no use for its
#: scenarios).
ARCHIVES = {
    "bg512": ["bg512/bg512-map.zip", "bg512/bg512-scen.zip"],
    "bgmaps": ["bgmaps/bgmaps-map.zip"],
    "dao": ["dao/dao-map.zip", "dao/dao-scen.zip"],
    "mazes": ["maze/maze-map.zip", "maze/maze-scen.zip"],
    "random": ["random/random-map.zip", "random/random-scen.zip"],
    "rooms": ["room/room-map.zip", "room/room-scen.zip"],
    "wc3maps512": ["wc3maps512/wc3maps512-map.zip", "wc3maps512/wc3maps512-scen.zip"],
}
