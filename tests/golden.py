"""The golden-image check the three games' golden tests share: compare a rendered PNG with its pinned file, or
write it when the game's update variable is set (then look at it before committing)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest


def check_golden(png: bytes, path: Path, update_var: str, tmp_path: Path, test_file: str) -> None:
    """Fail with the new image's path when `png` differs from the pinned `path`; regenerate with `update_var`."""
    if os.environ.get(update_var) == "update":
        path.write_bytes(png)
        pytest.skip(f"regenerated {path}; look at it before committing")
    assert path.exists(), f"missing {path}: run {update_var}=update (see {test_file}'s docstring)"
    if png != path.read_bytes():
        new = tmp_path / path.name
        new.write_bytes(png)
        pytest.fail(f"{path.stem}: the board image changed (new one in {new}). If on purpose, regenerate with "
                    f"{update_var}=update .venv/bin/python -m pytest {test_file}")
