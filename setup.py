"""Build burraco: the engine compiled with mypyc where it can be, else pure Python.

Everything else about the package is in pyproject.toml; this file only adds the
compiled engine.  The modules compiled are ``COMPILED_MODULES`` of
``src/burraco/compiled.py`` (read here without importing the package).

``BURRACO_COMPILE`` decides:

- unset or ``auto`` (the default): compile where mypyc is importable (the build
  backend asks for mypy whenever a C compiler is found); if compiling fails
  (no working C compiler, say), warn and install the pure-Python package;
- ``1``: compile, and fail the build if that fails (``./test`` uses this);
- ``0``: do not compile (the pure-Python package).

The Python sources always ship beside the extensions: ``BURRACO_PURE=1`` runs them.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
import sysconfig
from pathlib import Path
from typing import Any, List, Tuple

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
MODE = os.environ.get("BURRACO_COMPILE", "auto").strip().lower() or "auto"
if MODE in ("1", "yes", "true", "on"):
    MODE = "1"
elif MODE in ("0", "no", "false", "off"):
    MODE = "0"
elif MODE != "auto":
    sys.exit(f"BURRACO_COMPILE must be 0, 1 or auto, not {MODE!r}")


def _constant(name: str) -> Any:
    """A constant of ``burraco/compiled.py``, read without importing the package."""
    tree = ast.parse((SRC / "burraco" / "compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            return ast.literal_eval(node.value)
    raise SystemExit(f"src/burraco/compiled.py defines no {name}")


MODULES: Tuple[str, ...] = _constant("COMPILED_MODULES")
GROUP: str = _constant("GROUP")
MANIFEST: str = _constant("MANIFEST")


def _say(msg: str) -> None:
    print(f"burraco setup: {msg}", file=sys.stderr)


def _source(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def compiled_extensions() -> List[Any]:
    """The mypyc extensions of the engine, or none (see the module's docstring)."""
    if MODE == "0":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if MODE == "1":
            raise SystemExit("BURRACO_COMPILE=1 but mypyc (from mypy) is not installed")
        _say("mypyc is not installed: building the pure-Python package")
        return []
    paths = [str(_source(m).relative_to(HERE)) for m in MODULES]
    cwd = os.getcwd()
    os.chdir(HERE)  # mypy reads its configuration (pyproject.toml) from here
    try:
        return list(mypycify(paths, group_name=GROUP, opt_level="3"))
    except (Exception, SystemExit) as e:
        if MODE == "1":
            raise
        _say(f"mypyc could not compile the engine ({e}): building the pure-Python package")
        return []
    finally:
        os.chdir(cwd)


class BuildExt(build_ext):
    """Builds the compiled engine; where that fails and compiling was not required,
    removes whatever part was built and leaves the pure-Python package.  After a
    successful build, writes the digests of the compiled sources beside the
    extensions (``burraco.compiled`` runs the sources if they changed since)."""

    def run(self) -> None:
        if not self.extensions:
            return
        if self.inplace:  # a module dropped from the list must not stay compiled
            keep = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            for old in (SRC / "burraco").rglob("*" + suffix):  # subpackages too (bots)
                if old.resolve() not in keep:
                    old.unlink()
        try:
            super().run()
        except Exception as e:  # no C compiler, or it failed
            if MODE == "1":
                raise
            for ext in self.extensions:
                out = Path(self.get_ext_fullpath(ext.name))
                if out.exists():
                    out.unlink()
            _say(f"could not compile the engine ({e}): installing the pure-Python package")
            return
        target = Path(self.get_ext_fullpath(f"{GROUP}__mypyc")).parent
        lines = [f"{m} {hashlib.sha256(_source(m).read_bytes()).hexdigest()}\n"
                 for m in MODULES]
        (target / MANIFEST).write_text("".join(lines), encoding="utf-8")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildExt})
