"""Collection rules for the whole tree (the module doctests under src/ included).

Modules of optional parts import their framework at the top; where it is not
installed, their doctests are not collected (their tests in tests/ skip with a
reason). Under TARNEEB_REQUIRE_EXTRAS=1 (CI) nothing is left out.
"""

from __future__ import annotations

import importlib.util
import os


def _missing(*modules: str) -> bool:
    return any(importlib.util.find_spec(m) is None for m in modules)


collect_ignore_glob: list[str] = []
if os.environ.get("TARNEEB_REQUIRE_EXTRAS") != "1":
    if _missing("numpy", "pettingzoo", "gymnasium"):
        collect_ignore_glob.append("src/tarneeb/env/*.py")
    elif _missing("pyspiel"):
        collect_ignore_glob.append("src/tarneeb/env/openspiel_game.py")
    if _missing("textual"):
        collect_ignore_glob += ["src/tarneeb/tui/app.py", "src/tarneeb/tui/render.py"]
