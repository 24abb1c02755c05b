"""What a student hands in, made ready for the sandbox: a folder of modules, or a notebook.

* A **folder** laid out like ``starter/``: ``heap.py`` (class ``BinaryHeap``) and ``replanning.py``
  (``repeated_forward_astar``, ``repeated_backward_astar``, ``adaptive_astar``), which imports the
  heap as ``from heap import BinaryHeap``. Other ``.py`` files next to them are copied too (helpers).
  If the folder holds no ``heap.py`` but exactly one ``.ipynb``, that notebook is the submission.
* A **notebook** (``.ipynb``) whose code cells define the same names. Only definitions are kept:
  every top-level ``def`` and ``class``, and the imports and assignments (also inside ``try``/``if``
  blocks of definitions) that they use. Statements that test, print, plot or run experiments are
  dropped, so scratch cells are harmless; IPython magics (``%``, ``!``) too.

Everything here runs in the grader's own process (as root, before any limit applies), so what is
read is bounded first and read second: no symbolic link is ever followed (notebooks included, and
the submission path itself), only regular files are opened (``O_NOFOLLOW | O_NONBLOCK`` after an
``lstat``, confirmed by ``fstat``), sizes are checked before reading and at most the limit (+1 byte)
is read, and reading a notebook's cells takes time linear in their size.

>>> notebook = {"cells": [{"cell_type": "code", "source": "import math\\nclass BinaryHeap: pass\\nprint('hi')"},
...                       {"cell_type": "code", "source": "INF = math.inf\\nscratch = BinaryHeap()"}]}
>>> [(s["cell"], s["source"]) for s in notebook_statements(notebook)]
[('code cell 1', 'class BinaryHeap: pass')]
"""

from __future__ import annotations

import ast
import json
import os
import stat
import sys
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

#: Limits on what is copied into the sandbox (the Python files of a folder submission).
MAX_FILES = 50
MAX_BYTES = 5 * 2**20
#: A notebook file is read only up to this size, and parsed only with at most this many ``[`` and ``{``
#: (each may be a JSON array or object: 20 MiB of ``[],`` would cost the JSON reader 550 MB).
MAX_NOTEBOOK_BYTES = 20 * 2**20
MAX_NOTEBOOK_CONTAINERS = 1_000_000
#: The code of a notebook's code cells (characters, all cells) and its top-level statements.
MAX_NOTEBOOK_CODE = 2**19     # ast.parse holds about 600 bytes per character at its peak: 300 MB here
MAX_NOTEBOOK_STATEMENTS = 50_000
#: A folder is looked at up to this many entries, this many folders deep.
MAX_ENTRIES = 10_000
MAX_DEPTH = 32

#: Folders never looked into: environments, caches, version control, macOS zip metadata. Dot-folders
#: and any folder holding a ``pyvenv.cfg`` (a virtual environment, whatever its name) are left out too.
IGNORED_FOLDERS = frozenset({"__pycache__", "__MACOSX", "venv", "site-packages", "node_modules"})

KEPT_STATEMENTS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                   ast.Assign, ast.AnnAssign)
REQUIRED_MODULES = ("heap.py", "replanning.py")


class SubmissionError(ValueError):
    """The path is not a submission (no such file, no modules, an unreadable notebook)."""


@dataclass
class Submission:
    """A submission ready for the sandbox: ``files`` to copy, ``sources`` for the source checks."""

    name: str
    kind: str                                   # "folder" or "notebook"
    path: Path
    files: dict[str, bytes] = field(default_factory=dict)
    all_sources: dict[str, str] = field(default_factory=dict)   # every module, or every kept cell: for the source check
    warnings: list[str] = field(default_factory=list)


# -- reading files without trusting them -------------------------------------------------------------

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC | getattr(os, "O_BINARY", 0)
_BENEATH = os.open in os.supports_dir_fd and bool(_NOFOLLOW)   # open component by component (POSIX)


def kind_of(mode: int) -> str:
    """What an ``lstat`` mode is, in words: ``kind_of(os.lstat("/dev/null").st_mode) == "device"``."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"


@dataclass(frozen=True)
class Entry:
    """One entry of a submission folder, as ``lstat`` saw it (``relative`` uses ``/``)."""

    relative: str
    kind: str
    size: int
    identity: tuple[int, int]           # (st_dev, st_ino): the file opened later must be this one

    @property
    def name(self) -> str:
        return self.relative.rsplit("/", 1)[-1]

    @property
    def folder(self) -> str:
        return self.relative.rpartition("/")[0]


@dataclass
class Listing:
    """A folder's entries, breadth first, links and special files included but never followed."""

    entries: list[Entry]
    ignored: list[str]                  # folders left out (``.venv/``, ``__MACOSX/``, ...)
    truncated: bool                     # more than MAX_ENTRIES entries, or deeper than MAX_DEPTH


class Unreadable(OSError):
    """A file the grader will not read, with the reason in words."""


def _ignored_folder(name: str) -> bool:
    return name.startswith(".") or name in IGNORED_FOLDERS


def list_folder(root: Path, max_entries: int = MAX_ENTRIES) -> Listing:
    """Every entry below ``root`` (not following links; ignored folders left out, see
    :data:`IGNORED_FOLDERS`), sorted by depth then name.

    >>> import tempfile; root = Path(tempfile.mkdtemp()); (root / "heap.py").write_text("")
    0
    >>> (root / ".venv").mkdir(); (root / "link.py").symlink_to("/dev/zero")
    >>> [(e.relative, e.kind) for e in list_folder(root).entries], list_folder(root).ignored
    ([('heap.py', 'file'), ('link.py', 'symbolic link')], ['.venv/'])
    >>> import shutil; shutil.rmtree(root)
    """
    entries: list[Entry] = []
    ignored: list[str] = []
    too_many = too_deep = False
    pending = deque([""])               # folders to list, breadth first
    while pending and not too_many:
        folder = pending.popleft()
        try:
            found = _scan(root, folder)
        except OSError:
            continue                    # vanished or unreadable: nothing to take from it
        if folder and any(name == "pyvenv.cfg" for name, _ in found):   # a virtual environment
            ignored.append(folder + "/")
            entries = [e for e in entries if e.relative != folder]
            continue
        for name, info in found:
            relative = f"{folder}/{name}" if folder else name
            kind = kind_of(info.st_mode)
            if kind == "folder" and _ignored_folder(name):
                ignored.append(relative + "/")
                continue
            if len(entries) >= max_entries:
                too_many = True
                break
            entries.append(Entry(relative, kind, info.st_size, (info.st_dev, info.st_ino)))
            if kind == "folder":
                if relative.count("/") + 1 >= MAX_DEPTH:
                    too_deep = True
                else:
                    pending.append(relative)
    entries.sort(key=lambda e: (e.relative.count("/"), e.relative))
    return Listing(entries, ignored, too_many or too_deep)


def _scan(root: Path, folder: str) -> list[tuple[str, os.stat_result]]:
    """The names in ``root/folder`` with their ``lstat``, sorted (the folder opened once, by descriptor)."""
    if not _BENEATH:
        names = sorted(os.listdir(root / folder))
        return [(name, os.lstat(root / folder / name)) for name in names]
    fd = _open_folder(root, folder)
    try:
        found = []
        for name in sorted(os.listdir(fd)):
            try:
                found.append((name, os.stat(name, dir_fd=fd, follow_symlinks=False)))
            except OSError:
                continue
        return found
    finally:
        os.close(fd)


def _open_folder(root: Path, folder: str) -> int:
    """A descriptor of ``root/folder``, opened one component at a time, none of them a link."""
    fd = os.open(root, _FOLDER_FLAGS)
    for part in folder.split("/") if folder else ():
        try:
            inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
        finally:
            os.close(fd)
        fd = inner
    return fd


def open_regular(root: Path, relative: str, identity: tuple[int, int] | None = None) -> int:
    """A read-only descriptor of the regular file ``root/relative`` (``relative == ""``: ``root`` is the
    file), never through a link and never blocking; ``identity`` (from :class:`Entry`) must match.

    Raises :class:`Unreadable` saying why (a link, a FIFO, a device, changed since listed).
    """
    try:
        if not relative:
            fd = os.open(root, _FILE_FLAGS)
        elif _BENEATH:
            folder, _, name = relative.rpartition("/")
            parent = _open_folder(root, folder)
            try:
                fd = os.open(name, _FILE_FLAGS, dir_fd=parent)
            finally:
                os.close(parent)
        else:
            if os.path.islink(root / relative):
                raise Unreadable("a symbolic link (links are never followed)")
            fd = os.open(root / relative, _FILE_FLAGS)
    except Unreadable:
        raise
    except OSError as error:
        if os.path.islink(root / relative if relative else root):   # ELOOP from O_NOFOLLOW
            raise Unreadable("a symbolic link (links are never followed)") from None
        raise Unreadable(f"cannot be opened ({error.strerror})") from None
    info = os.fstat(fd)
    # The identity check needs lstat and fstat to agree on (st_dev, st_ino), as they do on POSIX.
    changed = identity is not None and _BENEATH and (info.st_dev, info.st_ino) != identity
    if not stat.S_ISREG(info.st_mode) or changed:
        os.close(fd)
        what = kind_of(info.st_mode)
        raise Unreadable(f"a {what}, not a regular file" if what != "file" else "changed while being read")
    return fd


def read_regular(root: Path, relative: str, limit: int, identity: tuple[int, int] | None = None) -> bytes:
    """At most ``limit`` bytes of a regular file (see :func:`open_regular`); a longer file raises
    :class:`Unreadable` after reading ``limit + 1`` bytes, never more."""
    fd = open_regular(root, relative, identity)
    try:
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > limit:
        raise Unreadable(f"larger than the {_size(limit)} limit")
    return b"".join(chunks)


def _size(count: int) -> str:
    """``_size(5 * 2**20) == "5 MiB"``, ``_size(1536) == "1.5 KiB"``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} bytes"


# -- loading a submission ----------------------------------------------------------------------------

def load_submission(path: str | os.PathLike) -> Submission:
    """Read a submission folder or notebook (see the module docstring).

    The path itself must not be a symbolic link (a batch's entries are never followed either).

    Parameters
    ----------
    path : str or os.PathLike
        A folder holding ``heap.py`` and ``replanning.py``, or a notebook (``.ipynb``).

    Returns
    -------
    Submission
        Its name, kind (folder or notebook), the files the sandbox receives and any warnings.

    Raises
    ------
    SubmissionError
        One line saying why the path cannot be graded: missing, unreadable, a link, not a folder or a
        notebook, over the size limits, or no code.

    See Also
    --------
    autograder.grader.grade_submission : grades what this reads.
    """
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise SubmissionError(f"{path}: no such file or folder") from None
    except OSError as error:
        raise SubmissionError(f"{path}: cannot be read ({error.strerror})") from None
    kind = kind_of(info.st_mode)
    if kind == "symbolic link":
        raise SubmissionError(f"{path}: a symbolic link; submissions are never read through links "
                              "(give the folder or notebook itself)")
    if kind == "file":
        if path.suffix != ".ipynb":
            raise SubmissionError(f"{path}: a submission is a folder (heap.py, replanning.py) or a .ipynb notebook")
        return _load_notebook(path, path, Entry("", kind, info.st_size, (info.st_dev, info.st_ino)))
    if kind != "folder":
        raise SubmissionError(f"{path}: a {kind}, not a submission folder or notebook")
    listing = list_folder(path)
    modules = _find_modules(listing)
    if modules is None:
        return _folder_notebook(path, listing)
    return _load_folder(path, listing, modules)


def _find_modules(listing: Listing) -> str | None:
    """The folder (relative, ``""`` for the submission's own) that holds the student's modules: the
    submission folder itself or the one sub-folder that has them."""
    found = sorted({e.folder for e in listing.entries if e.name in REQUIRED_MODULES and e.kind != "folder"})
    if "" in found:
        return ""
    return found[0] if len(found) == 1 else None


def _folder_notebook(path: Path, listing: Listing) -> Submission:
    """A folder without modules: its one notebook (a link or special file is named, never read)."""
    notebooks = [e for e in listing.entries if e.name.endswith(".ipynb") and e.kind != "folder"
                 and not e.name.startswith(".")]         # ._work.ipynb: macOS metadata, not a notebook
    regular = [e for e in notebooks if e.kind == "file"]
    if len(regular) != 1:
        if not regular and notebooks:
            refused = ", ".join(f"{e.relative} is a {e.kind}" for e in notebooks[:3])
            raise SubmissionError(f"{path}: {refused}; only a notebook file itself is read "
                                  "(symbolic links and special files never are)")
        raise SubmissionError(f"{path}: found neither heap.py / replanning.py nor exactly one .ipynb notebook")
    notebook = regular[0]
    submission = _load_notebook(path / notebook.relative, path, notebook)
    submission.name = path.name
    submission.warnings += [f"{e.relative} is a {e.kind}: not read" for e in notebooks if e.kind != "file"]
    return submission


def _load_folder(path: Path, listing: Listing, modules: str) -> Submission:
    """The required modules first, then the helpers next to them, then those in sub-folders, up to
    MAX_FILES files and MAX_BYTES bytes."""
    submission = Submission(path.name, "folder", path)
    prefix = f"{modules}/" if modules else ""
    below = [e for e in listing.entries if e.relative.startswith(prefix) and e.name.endswith(".py")
             and not e.name.startswith(".") and e.kind != "folder"]
    required = [e for e in below if e.folder == modules and e.name in REQUIRED_MODULES]
    helpers = [e for e in below if e not in required]       # depth then name: next to them first
    total, left_out, refused = 0, [], {}
    for entry in required + helpers:
        relative = entry.relative[len(prefix):]
        if entry.kind != "file":
            refused[relative] = f"a {entry.kind}" + (" (links are never followed or copied)"
                                                     if entry.kind == "symbolic link" else "")
            continue
        if entry.size > MAX_BYTES:
            refused[relative] = f"{_size(entry.size)}, over the {_size(MAX_BYTES)} limit"
            continue
        if len(submission.files) >= MAX_FILES or total + entry.size > MAX_BYTES:
            if entry in required:
                refused[relative] = f"{_size(entry.size)}, over what is left of the {_size(MAX_BYTES)} limit"
            else:
                left_out.append(relative)
            continue
        try:
            data = read_regular(path, entry.relative, MAX_BYTES - total, entry.identity)
        except Unreadable as why:
            refused[relative] = str(why)
            continue
        total += len(data)
        submission.files[relative] = data
    submission.warnings += [f"{name} is {why}: not used" for name, why in refused.items()]
    if listing.ignored:
        shown = ", ".join(listing.ignored[:5]) + (", ..." if len(listing.ignored) > 5 else "")
        submission.warnings.append(f"not looked at (environments, caches, macOS metadata, hidden folders): {shown}")
    if left_out:
        shown = ", ".join(left_out[:10]) + (f" and {len(left_out) - 10} more" if len(left_out) > 10 else "")
        submission.warnings.append(f"{len(left_out)} Python file(s) left out (limits: {MAX_FILES} files, "
                                   f"{_size(MAX_BYTES)} in all): {shown}")
    if listing.truncated:
        submission.warnings.append(f"the folder has more than {MAX_ENTRIES:,} entries or {MAX_DEPTH} levels: "
                                   "only the first were looked at")
    for name in REQUIRED_MODULES:
        if name not in submission.files and name not in refused:
            submission.warnings.append(f"{name} is missing")
    submission.all_sources = {name: data.decode("utf-8", "replace") for name, data in submission.files.items()}
    return submission


def imports_the_grader(node: ast.stmt) -> bool:
    """An import of the autograder itself (the notebook's test cells make one): the sandbox has no
    autograder, so such a statement is left out rather than reported as a failed import."""
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] == "autograder" for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "autograder"
    return False


# -- reading a notebook's cells ----------------------------------------------------------------------

#: The names a submission must define (notebook statements binding them are always kept).
REQUIRED_NAMES = ("BinaryHeap", "repeated_forward_astar", "repeated_backward_astar", "adaptive_astar")


#: Statements made of blocks of statements: ``try``, ``if``, and Python 3.11's ``try``/``except*``.
if sys.version_info >= (3, 11):
    _BLOCK_STATEMENTS = (ast.Try, ast.TryStar, ast.If)
else:
    _BLOCK_STATEMENTS = (ast.Try, ast.If)


def _defines_only(node: ast.stmt) -> bool:
    """A statement that only defines things: an import, def, class, assignment, ``pass``, a docstring,
    or a ``try``/``if`` block made of such statements (``try: import numba except ImportError: ...``)."""
    if isinstance(node, KEPT_STATEMENTS + (ast.Pass,)):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    if isinstance(node, _BLOCK_STATEMENTS):
        blocks = node.body + node.orelse + getattr(node, "finalbody", [])
        blocks += [statement for handler in getattr(node, "handlers", []) for statement in handler.body]
        return all(_defines_only(statement) for statement in blocks)
    return False


def _bound_names(node: ast.AST) -> set[str]:
    """The top-level names a kept statement binds (``*`` for a star import: unknown names)."""
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update("*" if alias.name == "*" else (alias.asname or alias.name.split(".")[0])
                         for alias in child.names)
        elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
    return names


def _used_names(node: ast.AST) -> set[str]:
    return {child.id for child in ast.walk(node) if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load)}


def _needed(nodes: list[ast.stmt]) -> list[bool]:
    """Which definitions the submission needs: every ``def`` and ``class`` (defining runs nothing), and
    the imports and assignments that they, or the required names, use, followed through assignments
    that use others. A scratch cell's ``trace = repeated_forward_astar(...)`` or ``import matplotlib``
    that no definition uses is left out, so it neither runs in the grader nor breaks anything.

    Linear in the statements' size: each statement's names are found once, and the closure follows a
    worklist of wanted names through an index name -> statements binding it (each name and each
    statement is taken at most once).
    """
    bound = [_bound_names(node) for node in nodes]
    kept = [isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or "*" in names
            for node, names in zip(nodes, bound)]
    binders: dict[str, list[int]] = defaultdict(list)
    for index, names in enumerate(bound):
        if not kept[index]:
            for name in names:
                binders[name].append(index)
    worklist = list(REQUIRED_NAMES) + [name for node, keep in zip(nodes, kept) if keep for name in _used_names(node)]
    wanted: set[str] = set()
    while worklist:
        name = worklist.pop()
        if name in wanted:
            continue
        wanted.add(name)
        for index in binders.pop(name, ()):
            if not kept[index]:
                kept[index] = True
                worklist.extend(_used_names(nodes[index]))
    return kept


def _segment(lines: list[str], encoded: dict[int, bytes], node: ast.stmt) -> str:
    """``ast.get_source_segment(text, node)`` for ``lines = text.split("\\n")``, without splitting the
    whole text again for each statement (that made a long cell quadratic). ``encoded`` caches each
    line's UTF-8 bytes (column offsets count bytes), so many statements on one line cost it once.
    A decorated ``def`` or ``class`` begins at its first decorator (the node's own line is the ``def``'s)."""
    def line(number: int) -> bytes:
        if number not in encoded:
            encoded[number] = lines[number].encode()
        return encoded[number]

    if node.end_lineno is None:  # ast.parse gives every statement its end; a hand-made node may lack it
        raise TypeError(f"a {type(node).__name__} statement at line {node.lineno} has no end line")
    first, last = node.lineno - 1, node.end_lineno - 1
    decorators = getattr(node, "decorator_list", None)
    if decorators:  # a decorated def or class starts at its first decorator's "@" line, not at the def
        first = min(decorator.lineno for decorator in decorators) - 1
    if first == last:
        return line(first)[node.col_offset:node.end_col_offset].decode()
    head = line(first)[node.col_offset:].decode()
    tail = line(last)[:node.end_col_offset].decode()
    return "\n".join([head, *lines[first + 1:last], tail])


def notebook_statements(notebook: dict) -> list[dict]:
    """The definitions of every code cell, in order, as ``{"cell": label, "source": text}``.

    A cell's label is what the student sees: ``In [5]`` when the notebook was saved after running
    it, else ``code cell 3`` (counting code cells only). See :func:`_needed` for what is kept.
    Raises :class:`SubmissionError` past MAX_NOTEBOOK_CODE characters of code or
    MAX_NOTEBOOK_STATEMENTS top-level statements (no student's notebook comes near either).
    """
    found: list[tuple[str, str, ast.stmt]] = []
    code_cells = code_size = statements = 0
    cells = notebook.get("cells", [])
    for cell in cells if isinstance(cells, list) else ():
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        code_cells += 1
        count = cell.get("execution_count")
        label = f"In [{count}]" if type(count) is int else f"code cell {code_cells}"
        source = cell.get("source", "")
        source = "".join(str(line) for line in source) if isinstance(source, list) else str(source)
        code_size += len(source)
        if code_size > MAX_NOTEBOOK_CODE:
            raise SubmissionError(f"the notebook's code cells hold more than {MAX_NOTEBOOK_CODE:,} characters of "
                                  f"code (the limit; {label} goes past it)")
        # IPython magics and shell escapes are not Python: blank them (keeping line numbers).
        lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
        text = "\n".join(lines)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # a broken cell defines nothing; the names it should define will be reported missing
        statements += len(tree.body)
        if statements > MAX_NOTEBOOK_STATEMENTS:
            raise SubmissionError(f"the notebook's code cells hold more than {MAX_NOTEBOOK_STATEMENTS:,} top-level "
                                  f"statements (the limit; {label} goes past it)")
        encoded: dict[int, bytes] = {}
        for node in tree.body:
            if _defines_only(node) and not imports_the_grader(node):
                found.append((label, _segment(lines, encoded, node), node))
    kept = _needed([node for _, _, node in found])
    return [{"cell": label, "source": source} for (label, source, _), keep in zip(found, kept) if keep]


def _load_notebook(path: Path, root: Path, entry: Entry) -> Submission:
    """The notebook ``root/entry.relative`` (``path`` names it in messages), at most MAX_NOTEBOOK_BYTES."""
    if entry.size > MAX_NOTEBOOK_BYTES:
        raise SubmissionError(f"{path}: the notebook is {_size(entry.size)}, over the {_size(MAX_NOTEBOOK_BYTES)} "
                              "limit for notebooks")
    try:
        data = read_regular(root, entry.relative, MAX_NOTEBOOK_BYTES, entry.identity)
    except Unreadable as why:
        raise SubmissionError(f"{path}: {why}") from None
    if data.count(b"[") + data.count(b"{") > MAX_NOTEBOOK_CONTAINERS:
        raise SubmissionError(f"{path}: the notebook holds more than {MAX_NOTEBOOK_CONTAINERS:,} '[' and '{{' "
                              "characters (the limit: each may be a JSON array or object)")
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # also a 5,000-digit number: Python's int limit
        raise SubmissionError(f"{path}: not a readable notebook ({type(error).__name__}: {str(error)[:200]})") from None
    if not isinstance(notebook, dict):
        raise SubmissionError(f"{path}: not a notebook (expected a JSON object with cells)")
    try:
        statements = notebook_statements(notebook)
    except SubmissionError as error:
        raise SubmissionError(f"{path}: {error}") from None
    return from_statements(path.stem, path, statements)


def from_statements(name: str, path: Path, statements: list[dict]) -> Submission:
    """A notebook-kind submission from kept statements (also used by :mod:`autograder.notebook`)."""
    submission = Submission(name, "notebook", path)
    submission.files["notebook_statements.json"] = json.dumps(statements).encode()
    for statement in statements:
        label = str(statement["cell"])
        submission.all_sources[label] = submission.all_sources.get(label, "") + statement["source"] + "\n"
    return submission
