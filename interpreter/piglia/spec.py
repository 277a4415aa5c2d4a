"""Load a rule file into a :class:`~piglia.variant.Variant`: YAML with positions, ``extends``, schema, checks.

The pipeline: find the file (a path, or the name of a built-in variant), load it with positions, apply
``extends`` (deep merge; ``null`` removes a key), check the merged data against the JSON Schema, then build
the deck, compile every expression against the scope of the place it is written, and build the capture
kinds and awards from their registries. Every problem becomes a :class:`SpecError` at the file, line and
column where it was written; validation collects all of them.

Reading the YAML and checking it against the schema cost more than building, so a file that loaded cleanly is
remembered in the on-disk cache (:mod:`piglia.diskcache`): its merged data, with the hash of every file of its
``extends`` chain and how each ``extends`` was resolved. The next process that loads the same file, unchanged,
with its ``extends`` resolving to the same unchanged files, under the same schema and the same reader code, builds
from that data and skips the YAML, the merge and the schema check; the build itself (compiling every expression,
its checks) runs every time. The key holds the engine's own code too (every source file of the package and of
the mechanics plugins, the DSL's grammar, the Python version), and an entry is written only after a clean build,
sampled opening deals (:mod:`piglia.probe`) included: they depend on nothing else, so a remembered file does not
deal them again, and a changed engine is another key, which deals them. Any problem, or any entry that does not
match in every respect, takes the full path, which finds and locates it as always.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from piglia import diskcache
from piglia.build import VariantBuilder
from piglia.errors import SpecError, SpecErrors, did_you_mean
from piglia.resources import data_dir
from piglia.schema import check_context, is_plain, schema_problems
from piglia.variant import Variant

# The YAML reader (piglia.yamlpos) is imported where a file is read or an error located: a remembered file is not.
if TYPE_CHECKING:
    from piglia.yamlpos import Path, YamlDoc

__all__ = [
    "MAX_FILE_BYTES",
    "builtin_names",
    "engine_stamp",
    "load_variant",
    "resolution_notes",
    "resolve_variant_path",
    "too_large",
    "validate_file",
]

MAX_EXTENDS_DEPTH = 16
# A rule file's size at most: rule files are small (a few KiB), and a bigger file is refused without being read
# whole (_read_rules).
MAX_FILE_BYTES = 1024 * 1024


def builtin_names() -> list[str]:
    """Names of the built-in variants, sorted."""
    return sorted(p.stem for p in data_dir("variants").glob("*.yaml"))


def _display(path: FsPath) -> str:
    rel = os.path.relpath(path)
    return path.as_posix() if rel.startswith("..") else FsPath(rel).as_posix()


def resolve_variant_path(ref: str, *, relative_to: FsPath | None = None) -> FsPath:
    """The file a variant reference names: a path (``x.yaml``, ``dir/x``) or a built-in variant's name."""
    if not ref.strip():
        raise SpecError("an empty name names no variant: a built-in name (`piglia list`) or a file path", file=ref)
    looks_like_path = ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref
    candidates: list[FsPath] = []
    if looks_like_path:
        if relative_to is not None:
            candidates.append(relative_to / ref)
        candidates.append(FsPath(ref))
    else:
        # A bare name is the built-in variant of that name, as on the command line (`piglia rules scopa`); only a
        # name no built-in has is looked for beside the file that names it. `./scopa.yaml` names the file.
        candidates.append(data_dir("variants") / f"{ref}.yaml")
        if relative_to is not None:
            candidates.append(relative_to / f"{ref}.yaml")
    for candidate in candidates:
        if _holds(candidate, FsPath.is_file):
            return candidate.resolve()
    if looks_like_path:
        # there, but not a file to read (a folder, /dev/null, a named pipe: opening one would wait for a writer)
        odd = next((c for c in candidates if _holds(c, FsPath.exists)), None)
        if odd is not None:
            what = "a folder" if _holds(odd, FsPath.is_dir) else "not a regular file"
            raise SpecError(f"{ref!r} is {what}: a variant is a rule file (.yaml)", file=ref)
        if os.path.isabs(ref):
            raise SpecError(f"no file {ref!r}", file=ref)
        where = f"{_display(relative_to)}/ or " if relative_to is not None else ""
        raise SpecError(f"no file {ref!r} in {where}the current directory", file=ref)
    known = builtin_names()
    # name the close match if there is one; the full list belongs to `piglia list`, not to every message
    hint = did_you_mean(ref, known) or (
        f"; {ref!r} is a folder: name one of its rule files ({ref}/NAME.yaml)"
        if _holds(FsPath(ref), FsPath.is_dir)
        else "; `piglia list` shows the built-in variants"
    )
    raise SpecError(f"no variant named {ref!r}{hint}", file=ref)


def _holds(path: FsPath, test: Callable[[FsPath], bool]) -> bool:
    """``test(path)``, False where the system cannot even look (a name too long, a folder it may not enter):
    such a name names no rule file, which the caller says (it was "cannot read the file" of the record or rule
    file that named it)."""
    try:
        return test(path)
    except OSError:
        return False


_Stamp = tuple[str, str]  # (file, sha256 of its bytes)


class Layered:
    """Rule data with ``extends`` applied, and for every path the file that wrote it."""

    def __init__(
        self,
        data: dict[str, Any],
        origin: dict[Path, YamlDoc],
        top: YamlDoc | None,
        files: tuple[_Stamp, ...],  # every file read, the variant's own first, then what it extends
        removed: dict[Path, YamlDoc] | None = None,
    ) -> None:
        self.data = data
        self.origin = origin
        self.top = top
        self.files = files
        self.removed = {} if removed is None else removed  # inherited keys removed by `key: null`, and by whom
        self.links: tuple[str, ...] = ()  # the `extends` of files[0], files[1]...: files[i + 1] is what links[i] named

    def doc_for(self, path: Path) -> YamlDoc:
        """The file that wrote ``path`` (or its nearest ancestor)."""
        probe = path
        while probe:
            if probe in self.origin:
                return self.origin[probe]
            probe = probe[:-1]
        assert self.top is not None
        return self.origin.get((), self.top)

    def error(self, path: Path, message: str, *, key: bool = False) -> SpecError:
        """A :class:`SpecError` located where ``path`` was written."""
        return self.doc_for(path).error(path, message, key=key)

    def locate(self, path: Path, offset: int) -> tuple[YamlDoc, int, int]:
        """The file, line and column of character ``offset`` in the expression at ``path``."""
        doc = self.doc_for(path)
        line, col = doc.locate_in_scalar(path, offset)
        return doc, line, col


def _paths(data: Any, path: Path) -> Iterator[Path]:
    """``path`` and the path of everything inside ``data``, the value there (nesting is bounded when read)."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*path, i))


def _own(doc: YamlDoc, data: Any, path: Path, origin: dict[Path, YamlDoc]) -> None:
    """Record that ``doc`` wrote ``data``, the value at ``path``, and everything in it."""
    origin.update(dict.fromkeys(_paths(data, path), doc))


def _disown(data: Any, path: Path, origin: dict[Path, YamlDoc]) -> None:
    """Forget where ``data``, the value at ``path``, and everything in it were written: it costs the value's own
    size, not a scan of every path (a file of thousands of keys extending another took minutes)."""
    for p in _paths(data, path):
        origin.pop(p, None)


def _format_path(path: Path) -> str:
    """``path`` as the messages write it (the YAML reader's own phrasing, imported only when an error is told)."""
    from piglia.yamlpos import format_path

    return format_path(path)


def _merge(base: Layered, doc: YamlDoc) -> Layered:
    """Deep-merge ``doc`` over ``base``: mappings merge, anything else replaces, null removes."""
    origin = dict(base.origin)
    removed = dict(base.removed)

    def merge(into: dict[str, Any], over: dict[str, Any], path: Path) -> dict[str, Any]:
        out = dict(into)
        for key, value in over.items():
            sub = (*path, key)
            if value is None:
                if key not in out:
                    # a misspelt removal would otherwise pass silently and leave the inherited rule in play
                    raise doc.error(
                        sub,
                        f"null removes an inherited key, but the variant it extends has no {_format_path(sub)}"
                        f"{did_you_mean(key, out)}",
                        key=True,
                    )
                _disown(out.pop(key), sub, origin)
                removed[sub] = doc
            elif isinstance(value, dict) and isinstance(out.get(key), dict):
                # the newest file that wrote this mapping: a problem with it as a whole is shown there
                origin[sub] = doc
                out[key] = merge(out[key], value, sub)
            else:
                if key in out:
                    _disown(out[key], sub, origin)
                _own(doc, value, sub, origin)
                out[key] = value
        return out

    data = merge(base.data, doc.data, ())
    data.pop("extends", None)
    return Layered(data, origin, doc, base.files, removed)


def _blamed_on(errors: list[SpecError], path: FsPath) -> list[SpecError]:
    """``errors`` of the file at ``path``, those placed at a value it inherits from a built-in variant saying so: a
    built-in is valid alone, so what breaks there is what the file changed (removing the 7s leaves the built-in's
    award naming a rank there is no more), and without a word the message named only the built-in."""
    builtins = data_dir("variants").resolve()
    out = []
    for e in errors:
        if e.file != _display(path) and FsPath(e.file).resolve().parent == builtins:
            note = f"; inherited from {FsPath(e.file).stem}, where it is valid: what {_display(path)} changes breaks it"
            e = SpecError(e.message + note, file=e.file, line=e.line, col=e.col, path=e.path)
        out.append(e)
    return out


def _drop_nulls(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _drop_nulls(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_drop_nulls(v) for v in data]
    return data


class _CycleError(SpecError):
    """``extends`` leads back to a file already on the chain."""

    def __init__(self, error: SpecError) -> None:
        super().__init__(error.message, file=error.file, line=error.line, col=error.col, path=error.path)


def too_large(file: str) -> SpecError:
    """The refusal of a rule file past :data:`MAX_FILE_BYTES`."""
    return SpecError(f"the file is larger than {MAX_FILE_BYTES // 1024} KiB; rule files are small", file=file)


def _read_rules(path: FsPath) -> bytes:
    """A rule file's bytes, up to one past the size a rule file may have (:data:`MAX_FILE_BYTES`) and no further.
    Read whole, a 3 GB file given by mistake (a data dump named .yaml) took 9 GB of memory and 38 s before it was
    refused for its size."""
    with path.open("rb") as fh:
        return fh.read(MAX_FILE_BYTES + 1)


def _stamp(path: FsPath) -> _Stamp | None:
    """What a file holds now, for the cache; None when it cannot be read. (A file past the size limit is stamped by
    its first bytes: it never loads, so no cache entry holds it.)"""
    try:
        return str(path), hashlib.sha256(_read_rules(path)).hexdigest()
    except OSError:
        return None


def _load_layers(path: FsPath, chain: tuple[FsPath, ...]) -> Layered:
    try:
        raw = _read_rules(path)
        if len(raw) > MAX_FILE_BYTES:  # refused here, before its cut end could read as bad UTF-8
            raise too_large(_display(path))
        stamp: _Stamp = (str(path), hashlib.sha256(raw).hexdigest())
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})", file=_display(path)) from None
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror}", file=_display(path)) from None
    from piglia.yamlpos import load_yaml

    doc = load_yaml(text, _display(path))
    if not isinstance(doc.data, dict):
        what = "a list" if isinstance(doc.data, list) else "a single value"
        raise doc.error((), f"a rule file is a mapping of keys (name, deck, players, ...), not {what}")
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        layered = Layered(_drop_nulls(doc.data), {}, doc, (stamp,))
        _own(doc, layered.data, (), layered.origin)
        return layered
    if not isinstance(parent_ref, str):
        raise doc.error(("extends",), "extends names a variant: a built-in name or a file path")
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise doc.error(("extends",), f"extends goes more than {MAX_EXTENDS_DEPTH} files deep")
    try:
        parent = resolve_variant_path(parent_ref, relative_to=path.parent)
    except SpecError as exc:
        raise doc.error(("extends",), exc.message) from None
    note = _beside_note(path, parent_ref, parent)
    if note is not None:
        _NOTES.setdefault(str(chain[0] if chain else path), []).append(note)
    if parent in (*chain, path):
        start = (*chain, path).index(parent)
        cycle = " -> ".join(p.name for p in (*chain, path, parent)[start:])
        raise _CycleError(doc.error(("extends",), f"extends forms a cycle: {cycle}"))
    try:
        base = _load_layers(parent, (*chain, path))
    except _CycleError as exc:
        # every file on the cycle is at fault in the same way: say so at this file's own extends
        raise _CycleError(doc.error(("extends",), exc.message)) from None
    except SpecErrors as exc:
        raise doc.error(("extends",), f"the variant it extends has errors: {exc.errors[0].format()}") from None
    except SpecError as exc:
        raise doc.error(("extends",), f"the variant it extends has errors: {exc.format()}") from None
    merged = _merge(base, doc)
    merged.origin[()] = doc
    merged.files = (stamp, *base.files)
    merged.links = (parent_ref, *base.links)
    _drop_stale_translations(merged.data, doc.data)
    return merged


def _beside_note(path: FsPath, parent_ref: str, parent: FsPath) -> str | None:
    """The note for an ``extends`` by bare name that took a built-in over a file of that name beside ``path``."""
    beside = path.parent / f"{parent_ref}.yaml"
    if parent.parent == data_dir("variants").resolve() and beside.is_file() and beside.resolve() != parent:
        return (
            f"{_display(path)}: extends: {parent_ref} is the built-in variant {parent_ref}, not the file "
            f"{_display(beside)} beside it (write extends: ./{parent_ref}.yaml for the file)"
        )
    return None


_TRANSLATED_TEXTS = ("title", "description", "notes")
_REASONS = {
    "redeal": ("deal", "redeal", "reason"),
    "instant_win": ("match", "instant_win", "reason"),
    "replace": ("deal", "replace", "reason"),
}


def _has(data: Any, path: tuple[str, ...]) -> bool:
    for key in path:
        if not isinstance(data, Mapping) or key not in data:
            return False
        data = data[key]
    return True


def _drop_stale_translations(data: dict[str, Any], own: Mapping[str, Any]) -> None:
    """A file that rewrites its title (description, notes, a reason) without translating it must not show, in
    another language, the translation of the text it replaced: that inherited translation is dropped."""
    translations = data.get("translations")
    if not isinstance(translations, dict):
        return
    own_translations: Mapping[str, Any] = own.get("translations") or {}
    fresh: dict[str, Any] = {}
    for lang, texts in translations.items():
        if isinstance(texts, dict):
            mine: Mapping[str, Any] = own_translations.get(lang) or {}
            texts = {k: v for k, v in texts.items() if k not in _TRANSLATED_TEXTS or k not in own or k in mine}
            reasons = texts.get("reasons")
            if isinstance(reasons, dict):
                rewritten = {k for k, at in _REASONS.items() if _has(own, at)} - set(mine.get("reasons") or {})
                texts["reasons"] = {k: v for k, v in reasons.items() if k not in rewritten}
        fresh[lang] = texts
    data["translations"] = fresh


def _fingerprint(data: Mapping[str, Any]) -> str:
    # Translations are words for people, not rules: adding a language keeps the records of a variant valid.
    rules = {k: v for k, v in data.items() if k != "translations"}
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# By file: the stamps of every file its last load read (itself and the chain it extends), and the variant. A hit
# needs all of them unchanged: editing the parent must change the child. Contents, not mtimes: an edit within the
# file system's timestamp resolution would otherwise go unseen.
_CACHE: dict[str, tuple[tuple[_Stamp, ...], Variant]] = {}
_NOTES: dict[str, list[str]] = {}  # by variant file: which of two files of one name its extends chain took


def resolution_notes(ref: str, *, relative_to: FsPath | None = None) -> list[str]:
    """After loading ``ref``: where a bare name in its extends chain took a built-in over a file beside it."""
    try:
        path = resolve_variant_path(ref, relative_to=relative_to)
    except SpecError:
        return []
    return list(_NOTES.get(str(path), ()))


def load_variant(ref: str | os.PathLike[str], *, relative_to: FsPath | None = None, remember: bool = True) -> Variant:
    """Load, check and compile a variant from a file path or a built-in name.

    ``remember``: keep the merged rules in the on-disk cache for the next process (see the module's doc); False
    for a file no other process will load (a temporary one).

    Raises :class:`SpecErrors` listing every problem found (each a :class:`SpecError` with file, line,
    column and spec path), or :class:`SpecError` when the file cannot be read or parsed at all.

    >>> variant = load_variant(builtin_names()[0])
    >>> len(variant.deck) > 0
    True
    """
    path = resolve_variant_path(os.fspath(ref), relative_to=relative_to)
    cached = _CACHE.get(str(path))
    if cached is not None and all(_stamp(FsPath(file)) == (file, digest) for file, digest in cached[0]):
        return cached[1]
    _NOTES.pop(str(path), None)
    key = _remembered_key(path) if remember else None
    recalled = _recall(key)
    if recalled is not None:
        data, files, notes = recalled
        unlocated = _Unlocated()
        builder = VariantBuilder(data, unlocated)
        # The entry was written after a clean build of this data, sampled opening deals included, by this very
        # engine (it is in the key): they would find nothing now either, so they are not dealt again.
        variant = builder.build(sha256=_fingerprint(data), source=_display(path), probe=False)
        if variant is not None and not builder.errors and not unlocated.asked:
            if notes:
                _NOTES[str(path)] = notes
            _CACHE[str(path)] = (files, variant)
            return variant
        # Not what this data built before (the engine changed since?): the full path finds and locates it.
    layered = _load_layers(path, ())
    problems = [layered.error(p, message, key=at_key) for p, message, at_key in schema_problems(layered.data)]
    if problems:
        raise SpecErrors(_blamed_on(problems, path))
    builder = VariantBuilder(layered.data, _Reporter(layered))
    variant = builder.build(sha256=_fingerprint(layered.data), source=_display(path))
    if builder.errors:
        raise SpecErrors(_blamed_on(builder.errors, path))
    assert variant is not None
    _CACHE[str(path)] = (layered.files, variant)
    _remember(key, layered)
    return variant


# -- the on-disk cache of cleanly loaded rule files ------------------------------------------------------

_LOADED = "rules-loaded"


def _source_stamp(origin: str | None) -> str:
    """Which source file, of which size, written when: enough to tell that code has changed."""
    if origin is None:
        raise OSError("no source file")
    st = os.stat(origin)
    return f"{origin}:{st.st_size}:{st.st_mtime_ns}"


def _reader_stamp() -> str | None:
    """The code that turns rule files into the data the builder gets: PyYAML, the reader, the merge."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("yaml")
        here = FsPath(__file__)
        return "|".join(
            _source_stamp(origin)
            for origin in (spec.origin if spec else None, str(here), str(here.with_name("yamlpos.py")))
        )
    except (ImportError, OSError, ValueError):
        return None


def engine_stamp() -> str | None:
    """The engine's code as it is now, for the sampled opening deals a remembered file skips (see the module's
    text) and the capture memo a simulation keeps (:mod:`piglia.memo_store`): every Python file of the piglia
    package, the DSL's grammar and every Python file of the top-level package (or the module) of every mechanic
    registered from elsewhere (a plugin, its helper modules included), by size and time written, and the Python
    that runs them. None when that cannot be told (a mechanic defined where no file holds it, a plugin package of
    too many files): then nothing is remembered."""
    from piglia.mechanics.base import generation

    return _engine_files(generation())


@cache
def _engine_files(_generation: int) -> str | None:
    # Once per process and set of registered mechanics: the code a process runs is the code it imported.
    from piglia.mechanics.base import FAMILIES, mechanics

    package = FsPath(__file__).parent
    try:
        parts = [sys.version, _source_stamp(str(data_dir("grammar") / "dsl.lark"))]
        folders = [str(package)]
        while folders:
            with os.scandir(folders.pop()) as found:
                for entry in sorted(found, key=lambda e: e.name):
                    if entry.name.endswith(".py"):
                        parts.append(_source_stamp(entry.path))
                    elif entry.name != "__pycache__" and entry.is_dir():
                        folders.append(entry.path)
        plugins: set[str] = set()  # the top-level packages (or modules) of the plugins, each stamped once
        for family in FAMILIES:
            for cls in mechanics(family).values():
                module = sys.modules.get(cls.__module__)
                origin = getattr(module, "__file__", None)
                if not (origin and FsPath(origin).parent.is_relative_to(package)):
                    plugins.add(cls.__module__.partition(".")[0])
        for top in sorted(plugins):
            parts.extend(_plugin_stamps(top))
    except (OSError, ValueError):
        return None
    return "|".join(parts)


# A plugin's package is stamped whole, file by file (size and time written, from one stat each: no file is read,
# so a file's size costs nothing). A package of more files than this (a plugin inside a large package) is not
# stamped: nothing is then remembered, rather than remembering results of code that is not all stamped.
MAX_PLUGIN_FILES = 2_000


def _plugin_stamps(top: str) -> list[str]:
    """The stamps of every Python file of the plugin's top-level package ``top`` (its helper modules too: the
    class's module alone missed an edit of a helper it calls), or of the module when ``top`` is a module.
    Raises OSError when that cannot be told (no file, or more than MAX_PLUGIN_FILES files)."""
    module = sys.modules.get(top)
    folders = [str(f) for f in getattr(module, "__path__", ())]  # a namespace package has several, none a file
    if not folders:
        return [_source_stamp(getattr(module, "__file__", None))]
    stamps: list[str] = []
    seen: set[str] = set()
    while folders:
        folder = folders.pop()
        if folder in seen:  # a folder reached twice (a link back up): stamped once
            continue
        seen.add(folder)
        with os.scandir(folder) as found:
            for entry in sorted(found, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    if len(stamps) >= MAX_PLUGIN_FILES:
                        raise OSError(f"the plugin package {top} has more than {MAX_PLUGIN_FILES} files")
                    stamps.append(_source_stamp(entry.path))
                elif entry.name != "__pycache__" and not entry.name.startswith(".") and entry.is_dir():
                    folders.append(os.path.realpath(entry.path))
    return stamps


def _remembered_key(path: FsPath) -> str | None:
    """The cache key of ``path`` as it is now (its bytes, the schema, the reader, the engine), or None: not
    cacheable."""
    if diskcache.cache_dir() is None:
        return None
    top = _stamp(path)
    reader = _reader_stamp()
    checked = check_context()
    engine = engine_stamp()
    if top is None or reader is None or checked is None or engine is None:
        return None
    return diskcache.digest("rules loaded", *top, reader, checked, engine)


def _recall(key: str | None) -> tuple[dict[str, Any], tuple[_Stamp, ...], list[str]] | None:
    """The merged data, files and resolution notes remembered under ``key``, if every file of the ``extends``
    chain still holds what it held and every ``extends`` still resolves to the same file; else None."""
    payload = diskcache.load(_LOADED, key) if key is not None else None
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
        files = tuple((str(f), str(d)) for f, d in entry["files"])
        links = [str(ref) for ref in entry["links"]]
        data = entry["data"]
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if not isinstance(data, dict) or not files or len(links) != len(files) - 1:
        return None
    notes: list[str] = []
    for i, (file, digest) in enumerate(files):
        if i and _stamp(FsPath(file)) != (file, digest):  # the first is in the key
            return None
    for i, ref in enumerate(links):
        here = FsPath(files[i][0])
        try:
            parent = resolve_variant_path(ref, relative_to=here.parent)
        except SpecError:
            return None
        if str(parent) != files[i + 1][0]:
            return None
        note = _beside_note(here, ref, parent)
        if note is not None:
            notes.append(note)
    return data, files, notes


def _remember(key: str | None, layered: Layered) -> None:
    """Keep a cleanly loaded file's merged data for the next process (nothing if it is not plain JSON data)."""
    if key is None or not is_plain(layered.data):
        return
    entry = {"files": layered.files, "links": layered.links, "data": layered.data}
    try:
        payload = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (ValueError, TypeError, RecursionError):
        return
    diskcache.store(_LOADED, key, payload)


class _Unlocated:
    """The builder's reporter for remembered data, which has no positions: being asked to locate an error means
    the data does not build cleanly now, and the full path must locate the problem. (The builder asks for the
    newest of some paths before it knows whether it will need one: that answer only ever places an error.)"""

    def __init__(self) -> None:
        self.asked = False

    def at(self, path: Path, message: str, *, key: bool = False) -> SpecError:
        self.asked = True
        return SpecError(message, path=_format_path(path))

    def at_offset(self, path: Path, offset: int, message: str) -> SpecError:
        return self.at(path, message)

    def newest(self, *paths: Path) -> Path:
        return paths[0]


class _Reporter:
    """Turns (path, message) and (path, offset, message) into located SpecErrors for the builder."""

    def __init__(self, layered: Layered) -> None:
        self.layered = layered

    def at(self, path: Path, message: str, *, key: bool = False) -> SpecError:
        layered, top = self.layered, self.layered.top
        if path not in layered.origin and layered.removed.get(path) is top:
            return layered.removed[path].error(path, message, key=True)  # at the `key: null` that removed it
        written = layered.doc_for(path)
        parent = path[:-1]
        if parent and written is not top and layered.origin.get(parent) is top:
            # The file being checked changed this mapping, and a key it inherits does not fit the change (a new
            # award form with the old form's key). The inherited file may be a built-in nobody can edit: show
            # the error at the mapping in the file being checked, and say how to drop the key there.
            assert top is not None
            line, col = top.where(parent, key=True)
            fix = f"add `{path[-1]}: null` to remove the inherited {path[-1]} (from {written.file})"
            return SpecError(f"{message}: {fix}", file=top.file, line=line, col=col, path=_format_path(path))
        return layered.error(path, message, key=key)

    def at_offset(self, path: Path, offset: int, message: str) -> SpecError:
        doc, line, col = self.layered.locate(path, offset)
        return SpecError(message, file=doc.file, line=line, col=col, path=_format_path(path))

    def newest(self, *paths: Path) -> Path:
        top = self.layered.top
        for path in paths:
            if self.layered.origin.get(path, self.layered.removed.get(path)) is top:
                return path
        return paths[0]


def validate_file(ref: str) -> list[SpecError]:
    """Every problem in a rule file, as located errors (empty when the file is good)."""
    try:
        load_variant(ref)
    except SpecErrors as exc:
        return exc.errors
    except SpecError as exc:
        return [exc]
    return []
