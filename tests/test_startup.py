"""A command starts with only what it runs (issue 12), and the on-disk cache that lets it is only ever a shortcut.

``import piglia`` loads its public names on first use; a rule file that loaded cleanly is remembered (its merged
data, its clean schema check, its parsed expressions: piglia.diskcache), so the next process reads no YAML and
imports neither jsonschema nor Lark. What must hold: every public name works as before, the cached path gives the
very same variant and records as the full one, and a changed, corrupt, stale or unwritable cache never changes a
result or an error message. The speed itself is measured by benchmarks/startup.py, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import ROOT, piglia_env

HEAVY = ("jsonschema", "lark", "yaml", "rich", "importlib.metadata", "piglia.players", "piglia.web", "markdown_it")


def python(code: str, cache: Path | None, *, cwd: Path | None = None) -> str:
    """Run ``code`` in a fresh interpreter with this checkout and the cache folder ``cache`` (None: no cache)."""
    env = piglia_env()
    env.pop("PIGLIA_NO_CACHE", None)
    if cache is None:
        env["PIGLIA_NO_CACHE"] = "1"
    else:
        env["PIGLIA_CACHE_DIR"] = str(cache)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


LOAD = """
import json, sys
import piglia
try:
    v = piglia.load_variant(sys.argv[1] if len(sys.argv) > 1 else {ref!r})
    result = {{"sha256": v.sha256, "rules": json.dumps(dict(v.rules)), "source": v.source}}
except piglia.SpecErrors as exc:
    result = {{"errors": [e.format() for e in exc.errors]}}
except piglia.SpecError as exc:
    result = {{"errors": [exc.format()]}}
result["imported"] = sorted(m for m in {heavy!r} if m in sys.modules)
from piglia.spec import resolution_notes
result["notes"] = resolution_notes({ref!r})
print(json.dumps(result))
"""


def load(ref: str, cache: Path | None, *, cwd: Path | None = None) -> dict[str, Any]:
    """Load ``ref`` in a fresh process: the variant's fingerprint and rules, or its errors; what was imported."""
    result: dict[str, Any] = json.loads(python(LOAD.format(ref=ref, heavy=HEAVY), cache, cwd=cwd))
    return result


def outcome(result: dict[str, Any]) -> dict[str, Any]:
    """A load's result but what it imported."""
    return {k: v for k, v in result.items() if k != "imported"}


# -- lazy names ---------------------------------------------------------------------------------------------------


def test_import_piglia_imports_none_of_the_heavy_modules() -> None:
    out = python(f"import sys, piglia; print(sorted(m for m in {HEAVY!r} if m in sys.modules))", None)
    assert out.strip() == "[]"


def test_every_public_name_is_there_as_before() -> None:
    from importlib import import_module

    for name in piglia.__all__:
        home = piglia._HOMES[name]
        assert getattr(piglia, name) is getattr(import_module(home), name), name
    star = python("from piglia import *\nprint(sorted(k for k in dir() if not k.startswith('__')))", None)
    assert star.strip() == str(sorted(piglia.__all__))
    assert set(piglia.__all__) <= set(dir(piglia))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = piglia.nothing_here


def test_piglia_simulate_stays_the_function_when_its_module_is_imported_first() -> None:
    # The function and the submodule share the name; importing the submodule sets the package's attribute.
    out = python(
        """
        from piglia.simulate import Summary, simulate
        import piglia, piglia.simulate
        assert piglia.simulate is simulate, piglia.simulate
        summary = piglia.simulate(piglia.load_variant("scopa"), deals=2, seed=1)
        print(type(summary) is Summary, summary.deals >= 2)
        """,
        None,
    )
    assert out.split() == ["True", "True"]


# -- the cache: the same results ----------------------------------------------------------------------------------


def test_a_remembered_rule_file_gives_the_same_variant_without_yaml_jsonschema_or_lark(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    full = load("scopa", None)
    first = load("scopa", cache)
    second = load("scopa", cache)
    assert "yaml" in full["imported"] and "jsonschema" in full["imported"]
    assert outcome(first) == outcome(full) and outcome(second) == outcome(full)
    assert second["imported"] == []
    assert {p.name for p in cache.iterdir()} == {"rules-loaded", "schema-checked", "dsl-parsed"}


def test_records_are_byte_identical_with_and_without_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    records = {}
    for run, where in (("none", None), ("cold", cache), ("warm", cache)):
        out = tmp_path / f"{run}.jsonl"
        python(
            f"""
            import sys
            from piglia.cli import main
            sys.exit(main(["simulate", "cicera", "--matches", "2", "--seed", "5", "--record", {str(out)!r}]))
            """,
            where,
        )
        records[run] = out.read_bytes()
    assert records["none"] == records["cold"] == records["warm"]
    assert records["none"].count(b"\n") > 10


# -- the cache: never stale ---------------------------------------------------------------------------------------

CHILD = """\
name: child
extends: {parent}
match:
  target: {target}
"""


def test_an_edited_file_or_an_edited_parent_is_read_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    parent = tmp_path / "parent.yaml"
    parent.write_text("name: parent\nextends: scopa\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text(CHILD.format(parent="./parent.yaml", target=11), encoding="utf-8")
    good = load(str(child), cache)
    assert "sha256" in good and load(str(child), cache)["sha256"] == good["sha256"]
    # the file itself: a value the schema refuses, reported at its line and column
    child.write_text(CHILD.format(parent="./parent.yaml", target='"eleven"'), encoding="utf-8")
    assert load(str(child), cache)["errors"] == load(str(child), None)["errors"]
    assert any(":4:11: match.target:" in e for e in load(str(child), cache)["errors"])
    # its parent: a change there changes the child's rules
    child.write_text(CHILD.format(parent="./parent.yaml", target=11), encoding="utf-8")
    parent.write_text("name: parent\nextends: scopa\nmatch:\n  deals: 3\n", encoding="utf-8")
    changed = load(str(child), cache)
    assert changed["sha256"] != good["sha256"] and outcome(changed) == outcome(load(str(child), None))


def test_an_extends_that_now_resolves_to_another_file_is_followed(tmp_path: Path) -> None:
    # `extends: lib/base.yaml` is looked for beside the file first, then in the working directory.
    cache = tmp_path / "cache"
    here, work = tmp_path / "here", tmp_path / "work"
    (work / "lib").mkdir(parents=True)
    here.mkdir()
    (work / "lib" / "base.yaml").write_text("name: base\nextends: scopa\n", encoding="utf-8")
    child = here / "child.yaml"
    child.write_text(CHILD.format(parent="lib/base.yaml", target=11), encoding="utf-8")
    first = load(str(child), cache, cwd=work)
    assert "sha256" in first
    (here / "lib").mkdir()
    (here / "lib" / "base.yaml").write_text("name: base\nextends: scopa\nmatch:\n  deals: 2\n", encoding="utf-8")
    second = load(str(child), cache, cwd=work)
    assert second["sha256"] != first["sha256"]
    assert outcome(second) == outcome(load(str(child), None, cwd=work))


def test_a_note_about_a_file_beside_a_built_in_is_given_from_the_cache_too(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (tmp_path / "scopa.yaml").write_text("name: mine\nextends: scopa\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text(CHILD.format(parent="scopa", target=11), encoding="utf-8")
    full = load(str(child), None)
    assert full["notes"] and "is the built-in variant scopa" in full["notes"][0]
    load(str(child), cache)
    assert load(str(child), cache)["notes"] == full["notes"]


def test_a_plugin_changes_the_schema_and_so_the_key(tmp_path: Path) -> None:
    # The example plugin's file is refused without the plugin, even after it was loaded (and cached) with it.
    cache = tmp_path / "cache"
    wild = tmp_path / "wild.yaml"
    wild.write_text((ROOT / "tests" / "plugins" / "wild.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code = f"import sys; sys.path.insert(0, {str(ROOT / 'tests' / 'plugins')!r})\n" + LOAD.format(
        ref=str(wild), heavy=HEAVY
    )
    with_plugin = json.loads(python(code, cache))
    assert "sha256" in with_plugin
    assert "sha256" in json.loads(python(code, cache))
    without = load(str(wild), cache)
    assert without["errors"] == load(str(wild), None)["errors"]
    assert any("'wild' is not one of" in e for e in without["errors"])


# -- the cache: damaged or out of reach ---------------------------------------------------------------------------


def test_corrupt_or_truncated_entries_are_misses(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    full = load("scopa", None)
    load("scopa", cache)
    entries = sorted(p for p in cache.rglob("*.entry"))
    assert entries
    for i, entry in enumerate(entries):
        raw = entry.read_bytes()
        # in turn: cut short, a changed payload byte, garbage, empty
        entry.write_bytes([raw[: len(raw) // 2], raw[:-1] + b"!", b"\x00\xff garbage", b""][i % 4])
    again = load("scopa", cache)
    assert outcome(again) == outcome(full)
    assert "yaml" in again["imported"]
    # and the entries were written whole again
    assert load("scopa", cache)["imported"] == []


def test_a_well_formed_entry_with_a_bad_ast_is_a_miss_and_nothing_is_evaluated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Entries with a right checksum (as only piglia writes them) but not an AST of the node classes it knows.
    from piglia import diskcache

    cache = tmp_path / "cache"
    load("scopa", cache)
    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(cache))
    witness = tmp_path / "evaluated"
    bad_nodes = [
        {"": f"__import__('pathlib').Path({str(witness)!r}).touch() or Name", "offset": 0, "length": 1, "id": "x"},
        {"": "Name", "offset": 0, "length": 1, "id": ["not", "text"]},
        {"": "Name", "offset": 0, "length": 1, "identifier": "x"},
        {"": "Expr", "offset": 0, "length": 1},
        [1, 2, 3],
    ]
    entries = sorted((cache / "dsl-parsed").iterdir())
    assert entries
    for i, entry in enumerate(entries):
        payload = json.dumps(bad_nodes[i % len(bad_nodes)]).encode()
        diskcache.store("dsl-parsed", entry.name.removesuffix(".entry"), payload)
    again = load("scopa", cache)
    assert "lark" in again["imported"]  # every expression was parsed again
    assert outcome(again) == outcome(load("scopa", None))
    assert not witness.exists()


def test_an_unwritable_cache_is_no_cache_and_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = load("scopa", blocker / "cache")  # cannot be created: its parent is a file
    assert result["sha256"] == load("scopa", None)["sha256"]
    assert blocker.read_text(encoding="utf-8") == "not a folder"
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert load("scopa", locked)["sha256"] == result["sha256"]
        assert list(locked.iterdir()) == []


def test_a_dsl_error_reads_the_same_with_a_warm_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load("scopa", cache)  # the cache now holds scopa's expressions
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: scopa\nbonuses:\n  scopa:\n    when: count(table) == 0 and\n", encoding="utf-8")
    errors = load(str(bad), cache)["errors"]
    assert errors == load(str(bad), None)["errors"]
    assert any(":5:" in e and "expected an expression" in e for e in errors)


def test_the_cache_folder_follows_the_platform_conventions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from piglia import diskcache

    monkeypatch.delenv("PIGLIA_CACHE_DIR", raising=False)
    monkeypatch.delenv("PIGLIA_NO_CACHE", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_dir() == tmp_path / "piglia"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert diskcache.cache_dir() == tmp_path / "home" / ".cache" / "piglia"
    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path / "mine"))
    assert diskcache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("PIGLIA_NO_CACHE", "1")
    assert diskcache.cache_dir() is None


def test_the_cache_stays_small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from piglia import diskcache

    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path))
    for i in range(40):
        diskcache.store("kind", f"{i + 1:064x}", b"x%d" % i)  # none of these keys starts a pruning
    folder = tmp_path / "kind"
    for i, entry in enumerate(sorted(folder.iterdir())):
        os.utime(entry, (1_000_000 + i, 1_000_000 + i))  # written in key order
    left_over = folder / ".tmp-died-while-writing"
    left_over.write_bytes(b"half")
    os.utime(left_over, (time.time() - 7200, time.time() - 7200))
    diskcache.prune(folder, limit=20)
    kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == 15 and kept[0] == f"{26:064x}.entry"  # the newest three quarters of the limit
    assert diskcache.load("kind", f"{40:064x}") == b"x39" and diskcache.load("kind", f"{1:064x}") is None
    # a write whose key starts with 00 prunes its kind
    monkeypatch.setattr(diskcache, "MAX_ENTRIES", 8)
    diskcache.store("kind", "00" + "f" * 62, b"new")
    assert len(list(folder.iterdir())) == 6 and diskcache.load("kind", "00" + "f" * 62) == b"new"


def test_the_cache_stays_small_in_bytes_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new rule file is a new key, and a file of a megabyte can merge to several: under the count alone a
    kind of entries grew to gigabytes. A big entry now starts a look at its kind, which then keeps three quarters
    of the bytes allowed, the newest; an entry of more than an eighth of the budget is not kept at all."""
    from piglia import diskcache

    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("piglia.diskcache.MAX_BYTES", 512 * 1024)
    folder = tmp_path / "kind"
    big = 40 * 1024  # over the budget's 512th, under its eighth
    for i in range(40):  # 1.6 MB written, none of the keys starts a pruning by itself
        diskcache.store("kind", f"{i + 1:064x}", bytes([i]) * big)
        os.utime(folder / f"{i + 1:064x}.entry", (1_000_000 + i, 1_000_000 + i))  # written in key order
        assert sum(p.stat().st_size for p in folder.iterdir()) <= 512 * 1024 + big + 200
    assert diskcache.load("kind", f"{40:064x}") == bytes([39]) * big  # the newest are kept
    assert diskcache.load("kind", f"{1:064x}") is None
    diskcache.store("kind", "ab" * 32, b"y" * (64 * 1024 + 1))  # more than an eighth: not kept
    assert diskcache.load("kind", "ab" * 32) is None
    # small entries alone are checked now and then only, as before (the count's test above)
    for i in range(5):
        diskcache.store("small", f"{i + 1:064x}", b"z")
    assert len(list((tmp_path / "small").iterdir())) == 5


# -- the cache: the sampled opening deals ---------------------------------------------------------------------------


def test_a_remembered_file_deals_no_sampled_openings_unless_the_engine_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from piglia import probe, spec

    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path / "cache"))
    dealt: list[str] = []
    real = probe.probe_openings

    def counting(variant: Any, fail: Any, **kwargs: Any) -> None:
        dealt.append(variant.name)
        real(variant, fail, **kwargs)

    monkeypatch.setattr(probe, "probe_openings", counting)
    monkeypatch.setattr(spec, "_CACHE", {})
    first = spec.load_variant("scopa")
    assert dealt == ["scopa"]  # a first load deals them
    monkeypatch.setattr(spec, "_CACHE", {})
    again = spec.load_variant("scopa")
    assert dealt == ["scopa"] and again is not first and again.sha256 == first.sha256  # remembered: not again
    # another engine (an edited module, another Python, a plugin's code) is another key: they are dealt again
    monkeypatch.setattr(spec, "engine_stamp", lambda: "another engine")
    monkeypatch.setattr(spec, "_CACHE", {})
    assert spec.load_variant("scopa").sha256 == first.sha256
    assert dealt == ["scopa", "scopa"]


def test_the_engine_stamp_follows_the_engine_and_its_plugins_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from piglia import spec
    from piglia.mechanics.base import register_mechanic, unregister_mechanic
    from piglia.mechanics.capture import KindMechanic

    stamp = spec.engine_stamp()
    assert stamp is not None and str(Path(spec.__file__)) in stamp and str(Path(probe_file())) in stamp
    assert sys.version in stamp
    # a mechanic registered from a module with a file: its file is in the stamp; from none: nothing is remembered
    plugin = tmp_path / "some_plugin.py"
    plugin.write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import some_plugin  # type: ignore[import-not-found]

    class Kind(KindMechanic):  # a capture kind derives from KindMechanic (registration checks it)
        key = "stamp-test"

    Kind.__module__ = some_plugin.__name__
    register_mechanic(Kind)
    try:
        assert str(plugin) in (spec.engine_stamp() or "")
        monkeypatch.setitem(sys.modules, "fileless", types.ModuleType("fileless"))  # as `python -c`'s __main__
        Kind.__module__ = "fileless"
        register_mechanic(Kind)
        assert spec.engine_stamp() is None
    finally:
        unregister_mechanic(Kind)
        monkeypatch.delitem(sys.modules, "some_plugin")
    assert spec.engine_stamp() == stamp


def probe_file() -> str:
    from piglia import probe

    return probe.__file__ or ""


def test_a_file_the_sampled_openings_refuse_is_never_remembered(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    hostile = ROOT / "tests" / "data" / "hostile" / "redeal-always.yaml"
    first = load(str(hostile), cache)
    assert first["errors"] and any("redeal" in e for e in first["errors"])
    assert not (cache / "rules-loaded").exists() or not list((cache / "rules-loaded").iterdir())
    assert load(str(hostile), cache)["errors"] == first["errors"] == load(str(hostile), None)["errors"]


# -- what a warm run imports ------------------------------------------------------------------------------------------

WARM_UNUSED = ("piglia.probe", "piglia.yamlpos", "piglia.dsl.words")


def test_a_warm_simulate_imports_none_of_what_it_does_not_run(tmp_path: Path) -> None:
    """A rule file remembered clean is neither read (the YAML reader), nor phrased, nor probed again."""
    cache = tmp_path / "cache"
    run = f"""
    import contextlib, io, sys
    from piglia.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", "scopa", "--deals", "1", "--seed", "1"]) == 0
    print(sorted(m for m in {WARM_UNUSED!r} if m in sys.modules))
    """
    python(run, cache)  # the first run fills the cache
    assert python(run, cache).split() == ["[]"]
