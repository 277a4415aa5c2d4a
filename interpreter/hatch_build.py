"""The optional compiled build: ``pip install .`` compiles the modules a deal runs through with Cython.

A wheel built from this tree (``pip install .``, ``pip wheel .``) compiles the modules listed under
``[tool.hatch.build.targets.wheel.hooks.custom] modules`` in ``pyproject.toml`` with Cython in pure-Python mode:
the ``.py`` files as they are, with Python's semantics kept (annotations are not read as C types and no variable
is given a C type by inference), so that the compiled modules play the very same deals and moves as the source
(``make test-compiled`` checks it). The extension modules go into the wheel beside their ``.py`` files, which
Python then no longer imports. docs/performance.md ("The compiled build") gives what it buys.

The build stays pure Python, and says why, when it cannot or should not compile:

- ``PIGLIA_PURE=1`` is set (``make`` sets it for the checkout's own editable install);
- there is no C compiler or no ``Python.h`` (Cython is then not even fetched);
- compiling fails for any other reason (the compiler's last words are shown, and the wheel is the pure one).

An editable install (``pip install -e .``) never compiles: an extension module beside a ``.py`` file would be
imported instead of it, and run stale after every edit of the source.

This file is read by hatchling only; Piglia itself never imports it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CYTHON = "cython==3.1.4"  # the version the build was measured and tested with
SETUPTOOLS = "setuptools>=68"  # Cython's build_ext; not in a new virtual environment since Python 3.12

# Python's semantics, not C's: an annotation ``-> tuple`` would otherwise refuse a tuple subclass (a build move),
# and a float inferred as a C double changed ismcts's sums in the last bits (tests/test_ismcts_identical.py).
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "infer_types": False}

# Run in a child process with the build environment's Python, so that a compiler's failure is reported, not fatal.
COMPILE = """
import json
import sys
from Cython.Build import cythonize
from setuptools import Distribution
from setuptools.command.build_ext import build_ext
directives = json.loads(sys.argv[1])
lib, temp, jobs, modules = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
extensions = cythonize(modules, compiler_directives=directives, nthreads=jobs, quiet=True)
if sys.platform != "win32":
    for extension in extensions:
        extension.extra_compile_args.append("-g0")  # no debugging symbols: a third of the size of the wheel
dist = Distribution({"ext_modules": extensions})
cmd = build_ext(dist)
cmd.build_lib, cmd.build_temp, cmd.parallel = lib, temp, jobs
cmd.ensure_finalized()
cmd.run()
"""


def pure_reason(environ: dict[str, str] | None = None) -> str | None:
    """Why the build must stay pure Python on this machine, or None when it may compile."""
    env = os.environ if environ is None else environ
    if env.get("PIGLIA_PURE", "").strip() not in ("", "0"):
        return "PIGLIA_PURE is set"
    compiler = shlex.split(env.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({compiler[0] if compiler else 'CC is empty'} not found)"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python.h (install the Python headers, e.g. python3-dev)"
    return None


def compile_modules(source: Path, modules: list[str], work: Path, jobs: int) -> dict[str, str]:
    """Compile ``modules`` (paths relative to ``source``, the folder holding the ``piglia`` package) in ``work``;
    returns each extension module's path mapped to its path in the wheel. Raises ``RuntimeError`` with the
    compiler's last output when compiling fails."""
    tree = work / "src"
    # a copy, so that no generated .c or .so is ever written beside the checkout's sources
    shutil.copytree(source / "piglia", tree / "piglia", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    lib = work / "lib"
    run = subprocess.run(
        [sys.executable, "-c", COMPILE, json.dumps(DIRECTIVES), str(lib), str(work / "temp"), str(jobs), *modules],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if run.returncode:
        raise RuntimeError((run.stderr or run.stdout)[-2000:])
    built = {str(p): p.relative_to(lib).as_posix() for p in sorted(lib.rglob("*")) if p.suffix in (".so", ".pyd")}
    missing = {Path(m).with_suffix("").as_posix() for m in modules} - {b.split(".", 1)[0] for b in built.values()}
    if missing:
        raise RuntimeError(f"no extension module was built for {', '.join(sorted(missing))}")
    return built


class CompiledBuildHook(BuildHookInterface[Any]):
    """hatchling's build hook: compile the configured modules into a standard (not editable) wheel."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return [] if pure_reason() else [CYTHON, SETUPTOOLS]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "standard" or self.target_name != "wheel":
            return  # an editable install runs the source itself
        reason = pure_reason()
        if reason is not None:
            self.app.display_info(f"piglia: pure-Python build ({reason})")
            return
        modules = list(self.config.get("modules", []))
        self._work = Path(tempfile.mkdtemp(prefix="piglia-compiled-"))
        self.app.display_info(f"piglia: compiling {len(modules)} modules with Cython (a minute or two)")
        try:
            built = compile_modules(Path(self.root, "interpreter"), modules, self._work, os.cpu_count() or 1)
        except (RuntimeError, OSError) as exc:
            self.app.display_warning(f"piglia: compiling failed, the build is pure Python:\n{exc}")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # the wheel is for this Python and platform only
        build_data["force_include"].update(built)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
