"""Rule files uploaded to the web table: loaded with the same checks and located errors as ``piglia validate``.

The text is written to one file in a private temporary folder, loaded with :func:`piglia.spec.load_variant`, and
every message is given back under the name the user gave the file (``my-game.yaml:7:29: awards...``). One file for
every upload, loaded under a lock, keeps the loader's cache of variants at one uploaded entry however many files a
page sends. An uploaded file may extend only a built-in variant: a path in ``extends`` would let a page read the
server's files.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
import threading
from pathlib import Path

from piglia.errors import PigliaError, SpecError, SpecErrors
from piglia.spec import MAX_FILE_BYTES, builtin_names, load_variant, too_large
from piglia.variant import Variant
from piglia.yamlpos import load_yaml

__all__ = ["UploadErrors", "load_uploaded", "safe_name"]

_LOCK = threading.Lock()
_FOLDER: list[str] = []  # created on the first upload, removed when the process ends


def _folder() -> str:
    if not _FOLDER:
        folder = tempfile.mkdtemp(prefix="piglia-upload-")
        atexit.register(shutil.rmtree, folder, True)
        _FOLDER.append(folder)
    return _FOLDER[0]


class UploadErrors(Exception):
    """The uploaded rule file has problems; ``errors`` are located like ``piglia validate``'s."""

    def __init__(self, errors: list[SpecError]) -> None:
        self.errors = errors
        super().__init__("\n".join(e.format() for e in errors))


def safe_name(name: str | None) -> str:
    """The file name to show in messages: the uploaded name's last part, tamed to a plain ``.yaml`` name."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", (name or "").replace("\\", "/").rsplit("/", 1)[-1]).strip(".-")
    if not base:
        base = "rules"
    if not base.endswith((".yaml", ".yml")):
        base += ".yaml"
    return base[:80]


def _relocated(error: SpecError, folder: str, name: str) -> SpecError:
    """The error as the user sees it: the temporary folder's path replaced by the uploaded file's name."""
    inside = Path(error.file).resolve().parent == Path(folder).resolve()  # the file may be shown cwd-relative
    file = name if inside else error.file
    message = error.message.replace(f"{folder}/upload.yaml", name).replace(folder + "/", "").replace(folder, "")
    return SpecError(message, file=file, line=error.line, col=error.col, path=error.path)


def load_uploaded(text: str, name: str | None = None) -> Variant:
    """The variant a rule file's text describes; :class:`UploadErrors` with every located problem if any."""
    shown = safe_name(name)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise UploadErrors([too_large(shown)])
    try:
        doc = load_yaml(text, shown)
    except SpecError as exc:
        raise UploadErrors([exc]) from None
    if isinstance(doc.data, dict):
        parent = doc.data.get("extends")
        if isinstance(parent, str) and parent not in builtin_names():
            raise UploadErrors(
                [
                    doc.error(
                        ("extends",),
                        f"an uploaded rule file can extend only a built-in variant ({', '.join(builtin_names())})",
                    )
                ]
            )
    with _LOCK:
        folder = _folder()
        path = Path(folder) / "upload.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            # Not remembered on disk: the key holds this process's private folder, so no other process could
            # read the entry, and every upload would leave up to a few megabytes in the user's cache.
            return load_variant(path, remember=False)
        except SpecErrors as exc:
            raise UploadErrors([_relocated(e, folder, shown) for e in exc.errors]) from None
        except SpecError as exc:
            raise UploadErrors([_relocated(exc, folder, shown)]) from None
        except PigliaError as exc:  # a mechanics plugin's fault (named: errors.PluginError), or a plugin that fails
            # to load: the file's to fix or the plugin's, said as the CLI says it, never a server error
            raise UploadErrors([SpecError(str(exc).replace(str(path), shown), file=shown)]) from None
