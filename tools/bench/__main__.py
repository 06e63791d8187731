"""`python -m tools.bench [--json PATH] [--quick]`, the same as `playpost bench`."""
from __future__ import annotations

import argparse

from .run import main

if __name__ == "__main__":  # not when a render worker (spawned) imports this module again
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description="measure moves, images and scale")
    parser.add_argument("--json", default=None, help="also write the figures as JSON here")
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument("--only", default=None, help="comma-separated sections to run, e.g. image,pipeline")
    args = parser.parse_args()
    raise SystemExit(main(json_path=args.json, quick=args.quick, only=args.only))
