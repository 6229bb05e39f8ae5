"""The build backend: setuptools', asking for mypy (which ships mypyc) only when
the engine is to be compiled (``BURRACO_COMPILE`` not ``0`` and a C compiler
found); ``setup.py`` does the rest."""

from __future__ import annotations

import os
import shutil
import sysconfig
from typing import Any, Dict, List, Optional

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (the PEP 517 hooks)

MYPY = "mypy>=1.11"


def _compile_wanted() -> bool:
    mode = os.environ.get("BURRACO_COMPILE", "auto").strip().lower()
    if mode in ("0", "no", "false", "off"):
        return False
    if mode in ("1", "yes", "true", "on"):
        return True
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def _extra() -> List[str]:
    return [MYPY] if _compile_wanted() else []


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    """setuptools' requirements, and mypy when the engine is to be compiled."""
    return list(_setuptools.get_requires_for_build_wheel(config_settings)) + _extra()


def get_requires_for_build_editable(
        config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    """setuptools' requirements, and mypy when the engine is to be compiled."""
    return list(_setuptools.get_requires_for_build_editable(config_settings)) + _extra()
