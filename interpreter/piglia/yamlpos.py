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
from collections.abc import Callable, Iterator
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
_BAD_KEY = re.compile(r"[\t\n\r.]|^\s|\s$")
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
    """Where a scalar's token was scanned, and what the scanner knew there: enough to scan it again, mapping each
    character of its value to the source characters it came from (:func:`_value_spans`)."""

    value: str  # as the scanner read it (before any tag resolution)
    style: str | None  # None (plain), "'", '"', "|" or ">"
    start: int  # index in the text of the token's first character (the quote, the indicator; after any tag)
    line: int  # 0-based, as PyYAML marks: of that character
    col: int
    indent: int  # the scanner's indentation level there (a block scalar's content is indented past it)
    flow: bool  # inside [...] or {...} (a plain scalar stops at , [ ] { })


@dataclass
class YamlDoc:
    """A loaded YAML file: its data and the place of every value and key in it."""

    file: str
    text: str
    data: Any
    values: dict[Path, tuple[int, int]] = field(default_factory=dict)  # 1-based (line, col)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    scalars: dict[Path, _Scalar] = field(default_factory=dict)
    # each scalar's spans, scanned once (by where its token starts): a scalar aliased across the file (&a, *a) is
    # one scalar at many paths, and a mistake in it is located once per alias
    _spans: dict[int, list[Span] | None] = field(default_factory=dict, repr=False, compare=False)

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
        """The (line, col) of character ``offset`` of the string scalar at ``path``; ``offset`` at the end of the
        value (or past it) is the place just after its last character, before any line breaks it ends with.

        Every style maps exactly: the scalar is scanned again as PyYAML scanned it (plain, single- and
        double-quoted with their escapes and escaped line breaks, literal and folded block scalars with their
        indicators), each character of the value tied to the source characters it came from; line breaks are
        YAML's (CR LF, CR, LF), as in every other position of the file.
        """
        sc = self.scalars.get(path)
        if sc is None:
            return self.where(path)
        if sc.start not in self._spans:
            self._spans[sc.start] = _value_spans(self.text, sc)
        spans = self._spans[sc.start]
        if spans is None:
            return self.where(path)
        if offset < 0:
            offset = 0
        if offset < len(spans):
            index = spans[offset][0]
        else:
            # the end: after the last character, or at the first of the line breaks the value ends with
            last = len(spans)
            while last and sc.value[last - 1] in _VALUE_BREAKS:
                last -= 1
            index = spans[last][0] if last < len(spans) else (spans[-1][1] if spans else _content_start(sc))
        line, col = _position(self.text, sc.start, sc.line, sc.col, index)
        return line + 1, col + 1


_BREAKS = "\r\n\x85\u2028\u2029"  # what PyYAML reads as line breaks (the reader refuses \v, \f...)
_VALUE_BREAKS = "\n\u2028\u2029"  # what a line break in the source becomes in a value
_SEPARATORS = ("---", "...")


def _position(text: str, index: int, line: int, col: int, target: int) -> tuple[int, int]:
    """The 0-based (line, col) of ``target``, walking from ``index`` at (``line``, ``col``) as PyYAML's reader
    counts: CR LF, CR, LF (and NEL, LS, PS) each end a line; a BOM takes no column."""
    end = min(target, len(text))
    i = index
    while i < end:
        ch = text[i]
        i += 1
        if ch in "\n\x85\u2028\u2029" or (ch == "\r" and (i >= len(text) or text[i] != "\n")):
            line += 1
            col = 0
        elif ch != "\ufeff":
            col += 1
    return line, col + (target - end)


def _content_start(sc: _Scalar) -> int:
    """Where an empty value is: just inside its quote, else at its token."""
    return sc.start + (1 if sc.style in ("'", '"') else 0)


Span = tuple[int, int]  # (start, end) indexes in the text of the source of one character of a value


class _Rescan:
    """PyYAML's scanner (yaml/scanner.py) for one scalar token, again, on the text: the same steps, the same value,
    with each value character's source span. Its errors cannot happen (the token was scanned once already)."""

    def __init__(self, text: str, sc: _Scalar) -> None:
        self.text = text
        self.i = sc.start
        self.column = sc.col
        self.sc = sc
        self.out: list[tuple[str, int, int]] = []  # (value character, start, end)

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.text[j] if j < len(self.text) else "\0"

    def prefix(self, length: int) -> str:
        return self.text[self.i : self.i + length]

    def forward(self, length: int = 1) -> None:
        text = self.text
        for _ in range(length):
            ch = self.peek()
            self.i += 1
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and self.peek() != "\n"):
                self.column = 0
            elif ch != "\ufeff":
                self.column += 1
        self.i = min(self.i, len(text))

    def copy(self, length: int) -> None:
        """``length`` source characters, each itself in the value."""
        self.out.extend((self.text[j], j, j + 1) for j in range(self.i, self.i + length))
        self.forward(length)

    def line_break(self) -> tuple[str, int, int]:
        """scan_line_break: the break's value (empty if none) and its span."""
        start = self.i
        ch = self.peek()
        if ch in "\r\n\x85":
            self.forward(2 if self.prefix(2) == "\r\n" else 1)
            return "\n", start, self.i
        if ch in "\u2028\u2029":
            self.forward()
            return ch, start, self.i
        return "", start, start

    def at_separator(self) -> bool:
        return self.prefix(3) in _SEPARATORS and self.peek(3) in "\0 \t" + _BREAKS

    # -- plain -------------------------------------------------------------------------------------------------

    def plain(self) -> None:
        indent = self.sc.indent + 1
        flow = self.sc.flow
        stops = "\0 \t" + _BREAKS
        after_colon = stops + (",[]{}" if flow else "")
        spaces: list[tuple[str, int, int]] | None = []
        while True:
            length = 0
            if self.peek() == "#":
                break
            while True:
                ch = self.peek(length)
                if ch in stops or (ch == ":" and self.peek(length + 1) in after_colon) or (flow and ch in ",?[]{}"):
                    break
                length += 1
            if length == 0:
                break
            self.out.extend(spaces or ())
            self.copy(length)
            spaces = self.plain_spaces()
            if not spaces or self.peek() == "#" or (not flow and self.column < indent):
                break

    def plain_spaces(self) -> list[tuple[str, int, int]] | None:
        length = 0
        while self.peek(length) == " ":
            length += 1
        first = self.i
        self.forward(length)
        if self.peek() not in _BREAKS:
            return [(" ", j, j + 1) for j in range(first, first + length)]
        line_break = self.line_break()
        if self.at_separator():
            return None
        breaks: list[tuple[str, int, int]] = []
        while self.peek() in " " + _BREAKS:
            if self.peek() == " ":
                self.forward()
            else:
                breaks.append(self.line_break())
                if self.at_separator():
                    return None
        return [*self._fold(line_break, breaks), *breaks]

    @staticmethod
    def _fold(line_break: tuple[str, int, int], breaks: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """A line break folded: kept if not LF, else a space when no empty line follows, else nothing."""
        if line_break[0] != "\n":
            return [line_break]
        return [] if breaks else [(" ", line_break[1], line_break[2])]

    # -- quoted ------------------------------------------------------------------------------------------------

    def quoted(self, double: bool) -> None:
        quote = self.peek()
        self.forward()
        self.non_spaces(double)
        while self.peek() != quote and self.peek() != "\0":
            self.spaces()
            self.non_spaces(double)

    def non_spaces(self, double: bool) -> None:
        import yaml  # already imported: the file was read with it

        replacements, codes = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS, yaml.scanner.Scanner.ESCAPE_CODES
        stops = "'\"\\\0 \t" + _BREAKS
        while True:
            length = 0
            while self.peek(length) not in stops:
                length += 1
            self.copy(length)
            ch = self.peek()
            start = self.i
            if not double and ch == "'" and self.peek(1) == "'":
                self.forward(2)
                self.out.append(("'", start, self.i))
            elif (double and ch == "'") or (not double and ch in '"\\'):
                self.copy(1)
            elif double and ch == "\\":
                self.forward()
                ch = self.peek()
                if ch in replacements:
                    self.forward()
                    self.out.append((replacements[ch], start, self.i))
                elif ch in codes:
                    self.forward()
                    code = int(self.prefix(codes[ch]), 16)
                    self.forward(codes[ch])
                    self.out.append((chr(code), start, self.i))
                elif ch in _BREAKS:  # an escaped line break: it and the next line's indentation are nothing
                    self.line_break()
                    self.out.extend(self.quoted_breaks())
                else:
                    return
            else:
                return

    def spaces(self) -> None:
        length = 0
        while self.peek(length) in " \t":
            length += 1
        first = self.i
        self.forward(length)
        if self.peek() in _BREAKS:
            line_break = self.line_break()
            breaks = self.quoted_breaks()
            self.out.extend(self._fold(line_break, breaks))
            self.out.extend(breaks)
        elif self.peek() != "\0":
            self.out.extend((self.text[j], j, j + 1) for j in range(first, first + length))

    def quoted_breaks(self) -> list[tuple[str, int, int]]:
        breaks: list[tuple[str, int, int]] = []
        while True:
            while self.peek() in " \t":
                self.forward()
            if self.peek() not in _BREAKS:
                return breaks
            breaks.append(self.line_break())

    # -- block -------------------------------------------------------------------------------------------------

    def block(self, folded: bool) -> None:
        self.forward()  # the indicator
        chomping: bool | None = None
        increment: int | None = None
        for _ in range(2):  # chomping and indentation indicators, in either order
            ch = self.peek()
            if ch in "+-" and chomping is None:
                chomping = ch == "+"
            elif ch in "123456789" and increment is None:
                increment = int(ch)
            else:
                break
            self.forward()
        while self.peek() == " ":
            self.forward()
        if self.peek() == "#":
            while self.peek() not in "\0" + _BREAKS:
                self.forward()
        self.line_break()
        min_indent = max(self.sc.indent + 1, 1)
        if increment is None:
            breaks, most = self.block_indentation()
            indent = max(min_indent, most)
        else:
            indent = min_indent + increment - 1
            breaks = self.block_breaks(indent)
        line_break: tuple[str, int, int] = ("", self.i, self.i)
        while self.column == indent and self.peek() != "\0":
            self.out.extend(breaks)
            leading_non_space = self.peek() not in " \t"
            length = 0
            while self.peek(length) not in "\0" + _BREAKS:
                length += 1
            self.copy(length)
            line_break = self.line_break()
            breaks = self.block_breaks(indent)
            if not (self.column == indent and self.peek() != "\0"):
                break
            if folded and line_break[0] == "\n" and leading_non_space and self.peek() not in " \t":
                if not breaks:
                    self.out.append((" ", line_break[1], line_break[2]))
            else:
                self.out.append(line_break)
        if chomping is not False and line_break[0]:
            self.out.append(line_break)
        if chomping is True:
            self.out.extend(breaks)

    def block_indentation(self) -> tuple[list[tuple[str, int, int]], int]:
        breaks: list[tuple[str, int, int]] = []
        most = 0
        while self.peek() in " " + _BREAKS:
            if self.peek() != " ":
                breaks.append(self.line_break())
            else:
                self.forward()
                most = max(most, self.column)
        return breaks, most

    def block_breaks(self, indent: int) -> list[tuple[str, int, int]]:
        breaks: list[tuple[str, int, int]] = []
        while self.column < indent and self.peek() == " ":
            self.forward()
        while self.peek() in _BREAKS:
            breaks.append(self.line_break())
            while self.column < indent and self.peek() == " ":
                self.forward()
        return breaks


def _value_spans(text: str, sc: _Scalar) -> list[Span] | None:
    """Per character of the scalar's value, the span of the source it came from; None if scanning it again does not
    give its value (a text that is not the one read: then no place inside it is given)."""
    scan = _Rescan(text, sc)
    try:
        if sc.style is None:
            scan.plain()
        elif sc.style in ("'", '"'):
            scan.quoted(sc.style == '"')
        elif sc.style in ("|", ">"):
            scan.block(sc.style == ">")
        else:
            return None
    except (ValueError, IndexError):  # pragma: no cover - the token was scanned once already
        return None
    if "".join(ch for ch, _, _ in scan.out) != sc.value:
        return None
    return [(start, end) for _, start, end in scan.out]


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
            # per scalar token, by the index where it ends (a node's end mark is its token's; its start mark may
            # be a tag's or an anchor's): where it starts and what the scanner knew there (_Scalar)
            self.scalar_tokens: dict[int, tuple[int, int, int, int, bool]] = {}

        def _scanned(self, scan: Callable[[], Any]) -> Any:
            indent, flow = self.indent, bool(self.flow_level)  # as the scan starts
            token = scan()
            mark = token.start_mark
            self.scalar_tokens[token.end_mark.index] = (mark.index, mark.line, mark.column, indent, flow)
            return token

        def scan_plain(self) -> Any:
            return self._scanned(super().scan_plain)

        def scan_flow_scalar(self, style: str) -> Any:
            return self._scanned(lambda: super(_Loader, self).scan_flow_scalar(style))

        def scan_block_scalar(self, style: str) -> Any:
            return self._scanned(lambda: super(_Loader, self).scan_block_scalar(style))

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

    def __init__(self, doc: YamlDoc, tokens: dict[int, tuple[int, int, int, int, bool]] | None = None) -> None:
        import yaml

        self.doc = doc
        self.tokens = {} if tokens is None else tokens
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
                if _BAD_KEY.search(key) or not key:
                    # A name is shown on pages and tables and makes the paths of messages (awards.cards.most): an
                    # empty one read as nothing (a kind named "" was a placement's), a line break broke the tables,
                    # a dot made two paths read alike (bonuses.a.b).
                    raise self._error(
                        key_node,
                        f"{key!r} is not a name: a key is not empty, has no tab, line break or '.', and does not "
                        "start or end with a space",
                        path,
                    )
                if key in out:
                    first = self.doc.keys.get((*path, key), (0, 0))[0]
                    raise self._error(key_node, f"duplicate key {key!r} (first given on line {first})", (*path, key))
                self.doc.keys[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, (*path, key), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        token = self.tokens.get(node.end_mark.index)
        if token is not None and isinstance(node.value, str):
            start, line, col, indent, flow = token
            self.doc.scalars[path] = _Scalar(node.value, node.style, start, line, col, indent, flow)
        # Checked before PyYAML's constructor reads it: past Python's int/str limit (4,300 digits) int() failed
        # there. Where the schema sets no range (points, a table's values, a property), a number of a few hundred
        # digits became a score no average can turn into a float, and one of 4,300 a score no record can write
        # (tests/data/hostile/limit-number-digits.yaml).
        if node.tag == _INT_TAG and len(str(node.value).lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
            raise self._error(node, f"number too large (more than {MAX_INT_DIGITS} digits)", path)
        value = self.constructor.construct_object(node, deep=True)
        if type(value) is int and len(str(abs(value))) > MAX_INT_DIGITS:  # 0xFFFFFFFFFFFFFFFF: 18 signs, 20 digits
            raise self._error(node, f"number too large (more than {MAX_INT_DIGITS} digits)", path)
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
    tokens: dict[int, tuple[int, int, int, int, bool]] = {}
    try:
        loader = _loader_class()(text, file)
        tokens = loader.scalar_tokens
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except yaml.reader.ReaderError as exc:
        # a NUL or another control character: at its place, named (lines end as YAML ends them: \r\n, \r, \n)
        line, col = _position(text, 0, 0, 0, exc.position)
        line, col = line + 1, col + 1
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
    doc.data = _Builder(doc, tokens).build(node, (), 0)
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
