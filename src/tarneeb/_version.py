"""The package version, in a module of its own: the core reads it without the package face."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
