"""`python -m tools.fuzz GAME ...`: the same as `playpost fuzz` (the coverage run uses it)."""
from __future__ import annotations

import argparse

from .run import add_arguments, fuzz_main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="playpost fuzz")
    add_arguments(parser)
    raise SystemExit(fuzz_main(parser.parse_args()))
