"""A small cache on disk, shared by the runs of one user, for results that cost more to compute than to look up.

It keeps facts keyed by the hash of everything they depend on (never by a file's name or time), so an entry can
never be stale: a changed input is another key. It is only ever a shortcut: an entry that is missing, unreadable,
truncated or corrupt is a miss, and a cache folder that cannot be created or written is no cache at all; neither
is ever an error, and nothing else in the folder is touched. It stays small: a kind (a folder) with more than
:data:`MAX_ENTRIES` entries or :data:`MAX_BYTES` bytes loses its oldest entries down to three quarters of both,
which are simply computed again if they are needed again. The count is checked now and then (one write in 256,
chosen by the key) and at every write of a big entry, so many big entries never pile up between checks; an entry
bigger than an eighth of the budget is not kept at all (it would push out everything else).

Where: ``$PIGLIA_CACHE_DIR`` if set; else the platform's cache folder (``$XDG_CACHE_HOME/piglia``, by default
``~/.cache/piglia``; ``~/Library/Caches/piglia`` on macOS; ``%LOCALAPPDATA%\\piglia\\Cache`` on Windows).
``PIGLIA_NO_CACHE=1`` turns it off. Deleting the folder is always safe.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["MAX_BYTES", "MAX_ENTRIES", "cache_dir", "digest", "load", "prune", "store"]

# Bumped when the layout of the entries changes: older entries are then simply never read.
LAYOUT = "1"
MAX_ENTRIES = 4096  # per kind (a rule file, a parsed expression...)
# Per kind too. A built-in game's entries take kilobytes (a capture memo up to about a megabyte), but a rule file
# of a megabyte can merge to several, and every new file is a new key: without it, 4,096 of them took gigabytes.
MAX_BYTES = 32 * 1024 * 1024
_STALE_TEMP_SECONDS = 3600  # a temporary file this old was left by a process that died while writing
_HEADER = b"piglia-cache " + LAYOUT.encode() + b"\n"


def cache_dir() -> Path | None:
    """The cache folder (which may not exist yet), or None when caching is turned off."""
    if os.environ.get("PIGLIA_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("PIGLIA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base, "piglia", "Cache") if base else Path.home() / "AppData" / "Local" / "piglia" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "piglia"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG rule: a relative value is invalid and is ignored.
    return Path(xdg, "piglia") if os.path.isabs(xdg) else Path.home() / ".cache" / "piglia"


def digest(*parts: str | bytes) -> str:
    """A key: the SHA-256 of the parts, each length-prefixed so that no two lists of parts give the same bytes."""
    h = hashlib.sha256()
    for part in parts:
        # surrogatepass: a lone surrogate (a YAML "\ud800" escape) is text too, and must not make hashing fail
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(b"%d:" % len(data))
        h.update(data)
    return h.hexdigest()


def _entry(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / kind / f"{key}.entry"


def load(kind: str, key: str) -> bytes | None:
    """The payload stored under (``kind``, ``key``), or None: absent, unreadable or not a whole entry.

    An entry is the header, the key, the payload's own SHA-256, then the payload: a file cut short or changed by
    anything but :func:`store` does not match and is a miss."""
    try:
        path = _entry(kind, key)
        if path is None:
            return None
        raw = path.read_bytes()
    except (OSError, ValueError, RuntimeError):  # RuntimeError: no home folder to find the default cache in
        return None
    head = _HEADER + key.encode("ascii") + b"\n"
    if not raw.startswith(head):
        return None
    check, sep, payload = raw[len(head) :].partition(b"\n")
    if not sep or check != hashlib.sha256(payload).hexdigest().encode("ascii"):
        return None
    return payload


def store(kind: str, key: str, payload: bytes, *, limit: int | None = None) -> None:
    """Keep ``payload`` under (``kind``, ``key``); silently nothing when the cache cannot be written.

    The entry is written to a temporary file beside its place and renamed over it, so a reader sees the old
    entry, no entry or the whole new one, never half of one, even with several processes writing at once.
    ``limit``: the kind keeps at most this many entries, checked at every write (a kind of big, rarely written
    entries); by default :data:`MAX_ENTRIES`, checked now and then and after every big entry. A payload of more
    than an eighth of :data:`MAX_BYTES` is not kept."""
    import tempfile  # here, not at the top: only a miss writes, and most runs hit

    try:
        path = _entry(kind, key)
        if path is None or len(payload) > MAX_BYTES // 8:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        data = _HEADER + key.encode("ascii") + b"\n" + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n"
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data + payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        # A big entry is worth a look at the folder (a scan costs less than writing it); small ones rarely add up
        if limit is not None or key.startswith("00") or len(payload) >= MAX_BYTES // 512:
            prune(path.parent, limit)
    except (OSError, ValueError, RuntimeError):
        pass


def prune(folder: Path, limit: int | None = None) -> None:
    """Keep at most ``limit`` (default :data:`MAX_ENTRIES`) entries and :data:`MAX_BYTES` bytes in one kind's
    ``folder``: past either, the oldest written go until three quarters of both are left. Temporary files left by
    a writer that died go too."""
    import time

    limit = MAX_ENTRIES if limit is None else limit
    entries: list[tuple[float, int, str]] = []
    total = 0
    now = time.time()
    with os.scandir(folder) as it:
        for e in it:
            try:
                if e.name.endswith(".entry"):
                    st = e.stat()
                    entries.append((st.st_mtime, st.st_size, e.path))
                    total += st.st_size
                elif e.name.startswith(".tmp-") and now - e.stat().st_mtime > _STALE_TEMP_SECONDS:
                    os.unlink(e.path)
            except OSError:
                continue
    if len(entries) <= limit and total <= MAX_BYTES:
        return
    entries.sort()
    count, keep_count, keep_bytes = len(entries), limit * 3 // 4, MAX_BYTES * 3 // 4
    for _, size, path in entries:
        if count <= keep_count and total <= keep_bytes:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        count -= 1
        total -= size
