"""Safe YAML loading that remembers where every key and value came from.

Rule files are written by people, so every later message must point at a line and column. PyYAML's composer
gives nodes with marks; we build plain Python data from them ourselves, which also lets us refuse duplicate keys
and bound what aliases can expand to (the "billion laughs" file). Only PyYAML's *safe* scalar resolution is
used: no tag can construct a Python object.

Paths are tuples of keys and list indexes, e.g. ``("awards", "cards", "most")``.

PyYAML is imported by :func:`load_yaml`, not with this module: the positions and paths are used everywhere, but a
run whose rule files all come from the cache of checked files (:mod:`piglia.spec`) reads no YAML at all.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from piglia.dsl.parser import MAX_INT_DIGITS  # the same bound as the expressions' literals
from piglia.errors import SpecError

if TYPE_CHECKING:
    import yaml

__all__ = ["Path", "YamlDoc", "format_path", "load_yaml"]

Path = tuple[str | int, ...]

# A legitimate rule file has a few hundred nodes; aliases may share nodes, but expanding them past this
# many is an attack or an accident, and refusing it keeps memory and time bounded.
MAX_NODES = 100_000
MAX_DEPTH = 64
# The longest key: every key of a rule file is a name (a section, an award, a bonus, a kind, a table, a property),
# and a name is repeated wherever the rules page and the game speak of it: a name of 900 KB made a page of 63 MB in a
# minute and a half (tests/data/hostile/limit-long-name.yaml).
MAX_KEY_LENGTH = 64
_INT_TAG = "tag:yaml.org,2002:int"


def format_path(path: Path) -> str:
    """``("awards", "cards", "most")`` -> ``awards.cards.most``; list items as ``[i]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            # a key holding a control character is shown escaped (\x9b): a message must not act on the terminal
            out += ("." if out else "") + (part if part.isprintable() else repr(part)[1:-1])
    return out


@dataclass
class _Scalar:
    line: int  # 0-based, as PyYAML marks
    col: int
    end_line: int
    end_col: int
    style: str | None


@dataclass
class YamlDoc:
    """A loaded YAML file: its data and the place of every value and key in it."""

    file: str
    text: str
    data: Any
    values: dict[Path, tuple[int, int]] = field(default_factory=dict)  # 1-based (line, col)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    scalars: dict[Path, _Scalar] = field(default_factory=dict)

    def where(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """The (line, col) of the value at ``path`` (or of its key), or of its nearest ancestor."""
        table = self.keys if key else self.values
        probe = path
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.values:
                return self.values[probe]
            probe = probe[:-1]
        return self.values.get((), (1, 1))

    def error(self, path: Path, message: str, *, key: bool = False) -> SpecError:
        """A :class:`SpecError` at the value (or key) of ``path``."""
        line, col = self.where(path, key=key)
        return SpecError(message, file=self.file, line=line, col=col, path=format_path(path))

    def locate_in_scalar(self, path: Path, offset: int) -> tuple[int, int]:
        """The (line, col) of character ``offset`` of the string scalar at ``path``.

        Plain and quoted scalars on one line map exactly; block scalars (``|``, ``>``) and multi-line plain
        scalars map by walking their content lines in the source.
        """
        sc = self.scalars.get(path)
        if sc is None:
            return self.where(path)
        if sc.line == sc.end_line and sc.style in (None, "'", '"'):
            if sc.style is None:
                return sc.line + 1, sc.col + 1 + offset
            # escapes (\u0065, \", '') are longer in the source than the character they stand for
            raw = self.text.splitlines()[sc.line] if sc.line < len(self.text.splitlines()) else ""
            return sc.line + 1, sc.col + 2 + _source_width(raw, sc.col + 1, offset, sc.style)
        lines = self.text.splitlines()
        block = sc.style in ("|", ">")
        first = sc.line + 1 if block else sc.line
        pieces: list[tuple[int, int, int]] = []  # (line, col, length) of each content line
        indent: int | None = None
        for n in range(first, min(sc.end_line + 1, len(lines))):
            raw = lines[n]
            if n == sc.line:
                raw_start = sc.col + (1 if sc.style in ("'", '"') else 0)
            elif block:
                # a literal block keeps indentation beyond the block's own as part of the value
                if indent is None and raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                raw_start = min(indent or 0, len(raw))
            else:
                raw_start = len(raw) - len(raw.lstrip(" "))
            content = raw[raw_start:].rstrip()
            if content or pieces:
                pieces.append((n, raw_start, len(content)))
        consumed = 0
        for n, start, length in pieces:
            if offset <= consumed + length:
                return n + 1, start + 1 + (offset - consumed)
            consumed += length + 1  # the newline or the folding space
        return self.where(path)


_ESCAPE_WIDTH = {"x": 4, "u": 6, "U": 10}


def _source_width(line: str, start: int, offset: int, style: str) -> int:
    """How many source characters from ``start`` hold the first ``offset`` characters of a quoted scalar."""
    i = start
    for _ in range(offset):
        if i >= len(line):
            break
        if style == '"' and line[i] == "\\":
            i += _ESCAPE_WIDTH.get(line[i + 1 : i + 2], 2)
        elif style == "'" and line[i : i + 2] == "''":
            i += 2
        else:
            i += 1
    return i - start


# Plain scalars that YAML 1.1 (what PyYAML reads) turns into numbers or true/false, but that YAML 1.2 (and a
# person) reads otherwise: `target: 1:30` would be 90, `0777` would be 511, `name: no` would be false.
_YAML11_ONLY = (
    (re.compile(r"(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)"), "{value} (a YAML 1.1 true/false)"),
    (re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"), "{value} (a YAML 1.1 base-60 number)"),
    (re.compile(r"[-+]?0[0-7_]+"), "{value} (a YAML 1.1 octal number)"),
    (re.compile(r"[-+]?0b[0-1_]+"), "{value} (a YAML 1.1 binary number)"),
    (re.compile(r"[-+]?(?:[0-9][0-9]*_[0-9_]*|0x[0-9a-fA-F]*_[0-9a-fA-F_]*)"), "{value} (YAML 1.1 skips the '_')"),
)


def _yaml11_surprise(text: str, value: Any) -> str | None:
    """Why a plain scalar must be written otherwise, when YAML 1.1 reads it unlike YAML 1.2; else None."""
    for pattern, what in _YAML11_ONLY:
        if pattern.fullmatch(text):
            shown = str(value).lower() if isinstance(value, bool) else value
            fix = "write true or false" if isinstance(value, bool) else "write the number in plain decimal digits"
            return f'{text!r} would be read as {what.format(value=shown)}: {fix}, or quote it ("{text}") for the text'

    return None


# A "\ud800" escape in a double-quoted scalar gives half of a UTF-16 pair, which is no character: no text could
# hold it (writing or hashing it fails), so it is refused where it is written.
_SURROGATE = re.compile("[\ud800-\udfff]")

_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("map", "seq", "str", "int", "float", "bool", "null"))


@functools.cache
def _loader_class() -> Any:
    """The loader class, made on first use (it derives from PyYAML's, and PyYAML is imported only to read)."""
    import yaml

    class _Loader(yaml.SafeLoader):
        """PyYAML's safe loader, refusing to compose nodes nested past MAX_DEPTH (its composer recurses) or more
        than MAX_NODES of them (composing is pure Python: half a million values of one flow list took 20 s and
        370 MB before the builder's count refused them)."""

        def __init__(self, text: str, file: str) -> None:
            super().__init__(text)
            self.file = file
            self.depth = 0
            self.count = 0

        def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
            self.depth += 1
            self.count += 1
            try:
                if self.depth > MAX_DEPTH + 1 or self.count > MAX_NODES:
                    mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                    raise SpecError(
                        f"the file nests deeper than {MAX_DEPTH} levels"
                        if self.depth > MAX_DEPTH + 1
                        else f"the file holds too many values (over {MAX_NODES}); rule files are small",
                        file=self.file,
                        line=mark.line + 1,
                        col=mark.column + 1,
                    )
                node: yaml.Node | None = super().compose_node(parent, index)
                return node
            finally:
                self.depth -= 1

    return _Loader


class _Builder:
    """Turns a composed PyYAML node graph into plain data and position tables."""

    def __init__(self, doc: YamlDoc) -> None:
        import yaml

        self.doc = doc
        self.count = 0
        self.constructor = yaml.SafeLoader("")  # only its safe scalar constructor is used

    def build(self, node: yaml.Node, path: Path, depth: int) -> Any:
        import yaml  # already imported by load_yaml: a dictionary look-up

        self.count += 1
        if self.count > MAX_NODES:
            raise self._error(
                node, f"the file expands to too many values (over {MAX_NODES}): YAML aliases (*name) repeat too much"
            )
        if depth > MAX_DEPTH:
            raise self._error(node, f"the file nests deeper than {MAX_DEPTH} levels")
        self.doc.values.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise self._error(node, f"YAML tag {tag!r} is not allowed: rule files hold plain data", path)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self._error(key_node, "a key must be a plain name, not a list or mapping")
                key = str(key_node.value)
                self._check_text(key_node, key, (*path, key))
                if len(key) > MAX_KEY_LENGTH:
                    raise self._error(key_node, f"a key is at most {MAX_KEY_LENGTH} characters (a name)", path)
                if key in out:
                    first = self.doc.keys.get((*path, key), (0, 0))[0]
                    raise self._error(key_node, f"duplicate key {key!r} (first given on line {first})", (*path, key))
                self.doc.keys[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, (*path, key), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        self.doc.scalars[path] = _Scalar(
            node.start_mark.line,
            node.start_mark.column,
            node.end_mark.line,
            node.end_mark.column,
            node.style,
        )
        # Checked before PyYAML's constructor reads it: past Python's int/str limit (4,300 digits) int() failed
        # there. Where the schema sets no range (points, a table's values, a property), a number of a few hundred
        # digits became a score no average can turn into a float, and one of 4,300 a score no record can write
        # (tests/data/hostile/limit-number-digits.yaml).
        if node.tag == _INT_TAG and len(str(node.value).lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
            raise self._error(node, f"number too large (more than {MAX_INT_DIGITS} digits)", path)
        value = self.constructor.construct_object(node, deep=True)
        if node.style is None and isinstance(value, int | float):
            surprise = _yaml11_surprise(str(node.value), value)
            if surprise is not None:
                raise self._error(node, surprise, path)
        if isinstance(value, str):
            self._check_text(node, value, path)
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            # timestamps, binary: SafeLoader makes them, rule files never need them
            return str(node.value)
        return value

    def _check_text(self, node: yaml.Node, text: str, path: Path) -> None:
        half = _SURROGATE.search(text)
        if half is not None:
            code = f"U+{ord(half.group()):04X}"
            raise self._error(node, f"{code} is half of a UTF-16 pair, not a character: write the character", path)

    def _error(self, node: yaml.Node, message: str, path: Path = ()) -> SpecError:
        return SpecError(
            message,
            file=self.doc.file,
            line=node.start_mark.line + 1,
            col=node.start_mark.column + 1,
            path=format_path(path),
        )


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> SpecError:
    """PyYAML's complaint in words that say what to fix, at the place to fix it."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or "malformed YAML"
    context = exc.context or ""
    start = exc.context_mark
    opened = f"line {start.line + 1}, column {start.column + 1}" if start else "above"
    if "'\\t'" in problem or "\t" in problem:
        problem = "a tab character: YAML indents with spaces only"
    elif "mapping values are not allowed" in problem:
        problem = "a ':' that cannot start a value here: is this line indented too far, or does a text need quotes?"
    elif "end of stream" in problem and "quoted scalar" in context:
        # the end of the file is not where the mistake is: point at the quote that was never closed
        mark = start or mark
        problem = "a quoted text is never closed: add the closing quote"
    elif "flow mapping" in context or "flow sequence" in context:
        bracket = "{" if "mapping" in context else "["
        problem = f"the '{bracket}' opened on {opened} is not closed before this ({problem})"
    elif "another document" in problem:
        problem = "a second YAML document ('---'): a rule file is one document"
    elif context and context not in problem:
        problem = f"{problem} ({context})"
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return SpecError(f"YAML syntax error: {problem}", file=file, line=line, col=col)


def load_yaml(text: str, file: str) -> YamlDoc:
    """Load one YAML document safely; raise :class:`SpecError` with a position for any problem."""
    from piglia.spec import MAX_FILE_BYTES, too_large  # here: the loader's limit (spec is loaded by whoever reads)

    if len(text.encode("utf-8", errors="replace")) > MAX_FILE_BYTES:
        raise too_large(file)
    import yaml

    doc = YamlDoc(file=file, text=text, data=None)
    loader: Any = None
    try:
        loader = _loader_class()(text, file)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except yaml.reader.ReaderError as exc:
        # a NUL or another control character: at its place, named
        before = text[: exc.position]
        line, col = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise SpecError(
            f"the control character U+{ord(char):04X} is not allowed in a rule file", file=file, line=line, col=col
        ) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"YAML error: {exc}", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise SpecError("the file is empty; a rule file is a mapping of keys such as name, deck, deal", file=file)
    doc.data = _Builder(doc).build(node, (), 0)
    return doc


def walk(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) in nested data, parents before children."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from walk(v, (*path, i))
