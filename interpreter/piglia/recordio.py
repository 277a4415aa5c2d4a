"""Writing records (and pages) safely, reading record lines within bounds.

The guarantee (docs/records.md, "How records are written"): no interruption leaves a corrupt or duplicated record.

* ``simulate --record FILE`` writes to a temporary file in FILE's folder (``.FILE.XXXX.partial``), one whole match
  at a time, each flushed; when the run ends (finished, Ctrl-C, SIGTERM, a full disk) the temporary file is
  renamed to FILE. So FILE is never seen half-written, and two runs writing the same FILE with ``--force`` leave
  one run's whole record, not both interleaved. Without ``--force`` the rename refuses to replace a FILE that
  another program created meanwhile, and says where the record was kept instead.
* ``play`` writes its record as the match goes (the person's game is kept even if the program is killed): the file
  is created exclusively (never over an existing one) and each event is one whole, flushed line.
* A write that fails (a full disk) is undone back to the end of the last whole match (or line), so the file never
  ends in half a line; the run stops and keeps the statistics of what finished.
* A path that is not a regular file (``/dev/null``, ``/dev/full``, a pipe) is written directly: no rename is
  possible there, and the same undo-or-report rule applies.

Reading: :func:`bounded_lines` gives a file's lines but refuses one longer than :data:`MAX_LINE_CHARS` and stops
after :data:`MAX_RECORD_BYTES` in all (``/dev/zero`` has no lines and no size), and :func:`loads_strict` reads one
JSON line refusing duplicate keys, NaN and Infinity, and nesting deeper than :data:`MAX_JSON_DEPTH`.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from piglia.errors import PigliaError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_LINE_CHARS",
    "MAX_RECORD_BYTES",
    "LineTooLong",
    "RecordFile",
    "RecordWriteError",
    "bounded_lines",
    "loads_strict",
    "write_text",
]

# The longest record line read: a header lists every card of the deck (about 40 characters a card), a deal every
# card dealt; 1 MiB holds a deck of over 20,000 cards, and bounds the memory a line without newline can take.
MAX_LINE_CHARS = 1 << 20
# The largest record file read (checked as it is read: a device or a pipe has no size to check first).
MAX_RECORD_BYTES = 256 * 1024 * 1024
# The deepest nesting of JSON in a record line: the format nests 4 deep; 64 is generous and far from recursion.
MAX_JSON_DEPTH = 64


class RecordWriteError(PigliaError):
    """A record (or page) could not be written; what was whole before stays, and the message says where."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


class RecordFile:
    """A record being written: whole chunks (a match, or one event line for ``play``) or nothing.

    Use :meth:`create` (temporary file renamed at :meth:`close`) or :meth:`create_live` (the file itself, created
    exclusively). :meth:`write` takes text made of whole lines; :attr:`error` is the message of the write that
    failed, if one did; :attr:`chunks` counts the chunks written whole.
    """

    def __init__(self, path: Path, fd: int, temp: Path | None, *, force: bool) -> None:
        self.path = path
        self._fd = fd
        self._temp = temp
        self._force = force
        self._size = 0
        self._seekable = temp is not None or stat.S_ISREG(os.fstat(fd).st_mode)
        self.chunks = 0
        self.error: str | None = None
        self.closed = False
        self.kept_at: Path | None = None  # where the record ended up when not at ``path`` (see close)

    # -- opening -------------------------------------------------------------------------------------------

    @classmethod
    def create(cls, path_text: str, *, force: bool, option: str = "--record") -> RecordFile:
        """A record for ``path_text``, written to a temporary file beside it and renamed on :meth:`close`."""
        path = _checked_path(path_text, option)
        try:
            info = path.stat()
        except FileNotFoundError:
            info = None
            if path.is_symlink() and not force:  # a link to a missing file: the name is taken, and linking fails
                raise RecordWriteError(
                    f"{path} exists (a link to a file that does not exist); choose another name or pass --force "
                    "to replace the link"
                ) from None
        except OSError as exc:
            raise RecordWriteError(f"cannot write {path}: {_why(exc)}") from None
        if info is not None:
            if stat.S_ISDIR(info.st_mode):
                raise RecordWriteError(f"{path} is a folder; {option} takes a file name")
            if not force:
                raise RecordWriteError(f"{path} exists; choose another name or pass --force to overwrite it")
            if not stat.S_ISREG(info.st_mode):  # a device or a pipe: written directly, nothing to rename
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
                except OSError as exc:
                    raise RecordWriteError(f"cannot write {path}: {_why(exc)}") from None
                return cls(path, fd, None, force=force)
        folder = path.parent
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=folder)
        except OSError as exc:
            raise RecordWriteError(f"cannot write {path}: {_why(exc)} (in folder {folder})") from None
        # mkstemp makes the file private (0600); a record gets the mode any new file would (or the replaced one's)
        mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
        with contextlib.suppress(OSError):  # a file system without modes: the default stays
            os.fchmod(fd, mode)
        return cls(path, fd, Path(temp), force=force)

    @classmethod
    def create_live(cls, path: Path) -> RecordFile:
        """A record written in place as it goes, in a new file (``FileExistsError`` if ``path`` exists)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            raise
        except OSError as exc:
            raise RecordWriteError(f"cannot write {path}: {_why(exc)}") from None
        return cls(path, fd, None, force=False)

    # -- writing -------------------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The file the record goes to."""
        return str(self.path)

    def write(self, text: str) -> int:
        """Write whole lines, flushed; on failure undo them and raise :class:`RecordWriteError`."""
        self.write_bytes(text.encode("utf-8"))
        return len(text)

    def write_bytes(self, data: bytes) -> None:
        """:meth:`write` for data already encoded (a plot's image)."""
        if self.error is not None:
            raise RecordWriteError(self.error)
        done = 0
        try:
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except OSError as exc:
            undone = self._undo()
            what = "matches" if self._temp is not None else "lines"
            kept = f"; it keeps the {self.chunks:,} whole {what} written before" if undone else ""
            self.error = f"cannot write {self.path}: {_why(exc)}{kept}"
            raise RecordWriteError(self.error) from None
        self._size += len(data)
        self.chunks += 1

    def flush(self) -> None:
        """Nothing to do: every :meth:`write` goes straight to the file (kept for file-like callers)."""

    def _undo(self) -> bool:
        if not self._seekable:
            return False
        try:
            os.ftruncate(self._fd, self._size)
            os.lseek(self._fd, self._size, os.SEEK_SET)
        except OSError:
            return False
        return True

    # -- closing -------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Finish the file: with a temporary file, sync it and rename it to the record's name.

        Without ``--force``, a file created at the record's name meanwhile is not replaced: the record stays in
        the temporary file and :class:`RecordWriteError` says where.
        """
        if self.closed:
            return
        self.closed = True
        try:
            if self._seekable:
                os.fsync(self._fd)
        except OSError:
            pass  # a device may not sync; the data was written
        finally:
            os.close(self._fd)
        temp = self._temp
        if temp is None:
            return
        try:
            if self._force:
                os.replace(temp, self.path)
                return
            try:
                os.link(temp, self.path)  # fails if the name was taken meanwhile: never replaces a user's file
            except FileExistsError:
                self.kept_at = temp
                raise RecordWriteError(
                    f"{self.path} was created by another program during the run; this run's record is kept in {temp}"
                ) from None
            except OSError:  # no hard links on this file system: check, then rename
                if self.path.exists():
                    self.kept_at = temp
                    raise RecordWriteError(
                        f"{self.path} was created by another program during the run; this run's record is kept "
                        f"in {temp}"
                    ) from None
                os.replace(temp, self.path)
                return
            temp.unlink()
        except OSError as exc:
            self.kept_at = temp
            raise RecordWriteError(
                f"cannot rename the record to {self.path}: {_why(exc)}; it is kept in {temp}"
            ) from None

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _checked_path(path_text: str, option: str) -> Path:
    if not path_text.strip():
        raise RecordWriteError(f"{option} needs a file name")
    if "\0" in path_text:
        raise RecordWriteError(f"{option}: a file name cannot hold a NUL character")
    return Path(path_text)


def write_text(path_text: str, text: str, *, force: bool, option: str = "--output") -> None:
    """Write a whole text file (a rules page) the same way: a temporary file renamed, or nothing."""
    write_file(path_text, text.encode("utf-8"), force=force, option=option)


def write_file(path_text: str, data: bytes, *, force: bool, option: str) -> None:
    """Write a whole binary file (a plot) the same way: a temporary file renamed, or nothing."""
    with RecordFile.create(path_text, force=force, option=option) as out:
        out.write_bytes(data)


# ---------------------------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------------------------


class LineTooLong(PigliaError):
    """A record line (or the whole file) is longer than the limits allow; reading stops there."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def bounded_lines(fh: IO[str]) -> Iterator[str]:
    """The lines of ``fh``; :class:`LineTooLong` at a line over :data:`MAX_LINE_CHARS` or past
    :data:`MAX_RECORD_BYTES` characters in all (so a file without newlines is never read whole)."""
    total = 0
    number = 0
    while True:
        line = fh.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        total += len(line)
        if len(line) > MAX_LINE_CHARS:
            raise LineTooLong(
                f"line longer than {MAX_LINE_CHARS:,} characters: not a record line (reading stops here)", number
            )
        if total > MAX_RECORD_BYTES:
            raise LineTooLong(
                f"the file is larger than {MAX_RECORD_BYTES:,} characters: too large for a record", number
            )
        yield line


class StrictJsonError(PigliaError):
    """A line that is JSON but not the JSON a record holds (duplicate keys, NaN, nesting too deep)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJsonError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise StrictJsonError(f"{name} is not a number a record may hold")


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a cheap check before the recursive parser)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads_strict(text: str) -> Any:
    """One record line as JSON: ``json.JSONDecodeError`` if it is not JSON, :class:`StrictJsonError` for duplicate
    keys, NaN or Infinity, a number of more digits than ``int()`` reads, or nesting deeper than
    :data:`MAX_JSON_DEPTH`."""
    # Counting brackets is cheap and rules out almost every line; only a line with many is scanned for depth.
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(text) > MAX_JSON_DEPTH:
        raise StrictJsonError(f"nested deeper than {MAX_JSON_DEPTH} levels: not a record line")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except (json.JSONDecodeError, StrictJsonError):  # JSON's own errors, and the hooks' above
        raise
    except ValueError:  # neither: int() past Python's conversion limit, refusing a number's digits
        limit = sys.get_int_max_str_digits()
        raise StrictJsonError(f"a number of more than {limit:,} digits is not a number a record may hold") from None
