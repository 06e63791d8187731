"""`playpost`: run the Discord bot, the local console, a transcript, or replay an export."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

from storage import open_storage

from . import build_bot
from .console import Console, play_transcript
from .manager import GameManager, rebuild_all, replay_export
from .settings import Settings


class RedactFilter(logging.Filter):
    """Replaces a secret wherever it would appear in a log record."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret and self.secret in record.getMessage():
            record.msg = record.getMessage().replace(self.secret, "[token]")
            record.args = ()
        return True


def _setup_logging(level: str) -> None:
    """One line per record, key=value fields, UTC timestamps."""
    handler = logging.StreamHandler(sys.stderr)
    fmt = logging.Formatter("ts=%(asctime)s level=%(levelname)s logger=%(name)s msg=%(message)s",
                            datefmt="%Y-%m-%dT%H:%M:%SZ")
    fmt.converter = __import__("time").gmtime
    handler.setFormatter(fmt)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


async def _manager(db: str, **kwargs) -> GameManager:
    return GameManager(await open_storage(db), **kwargs)


async def script_main(path: Path, out: Path, db: str | None) -> int:
    await play_transcript(path.read_text(encoding="utf-8").splitlines(), out, db=db)
    return 0


async def local_main(db: str, out: Path, user: str) -> int:
    manager = await _manager(db)
    console = Console(manager=manager, out_dir=out)
    console.resume_numbering()
    print(f"playpost local console on {db}. Type `/game help`, or `name> /command ...` to act as "
          f"someone else. You are {user}. Ctrl-D quits.")
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                raw = await loop.run_in_executor(None, input, f"{user}> ")
            except EOFError:
                print()
                break
            raw = raw.strip()
            if not raw:
                continue
            if raw.startswith("/") or raw.startswith("button "):
                raw = f"{user}> {raw}"
            elif ">" in raw.split(" ", 1)[0] or "> " in raw:
                user = raw.split(">", 1)[0].split("#", 1)[0].strip() or user
            await console.line(raw)
    finally:
        await manager.storage.close()
    return 0


async def rebuild_main(db: str, write: bool) -> int:
    manager = await _manager(db)
    try:
        report = await rebuild_all(manager, write=write)
    finally:
        await manager.storage.close()
    for game_id, what in report:
        print(f"game {game_id}: {what}")
    bad = [r for r in report if r[1].startswith("does not replay")]
    return 1 if bad else 0


def replay_main(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    engine, state = replay_export(data)
    st = engine.status(state)
    print(f"{engine.name}: replayed {len(data['log'])} actions; phase {st.phase}, round {st.round}, "
          f"finished {st.finished}.")
    if data.get("state_sha256"):
        print("State identical to the recorded one.")
    return 0


def run_discord(settings: Settings) -> int:
    bot = build_bot(settings)
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactFilter(token))
    bot.run(token, log_handler=None)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="playpost", description=__doc__)
    sub = parser.add_subparsers(dest="cmd")
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    p_local = sub.add_parser("local", help="the local console")
    p_local.add_argument("--db", default=None, help="SQLite file (default: PLAYPOST_DB or data/playpost.sqlite3)")
    p_local.add_argument("--out", default="data/images", help="where board images are written")
    p_local.add_argument("--user", default="you", help="your name at the table")
    p_script = sub.add_parser("script", help="run a transcript file")
    p_script.add_argument("file", type=Path)
    p_script.add_argument("--out", required=True, type=Path, help="directory for images and files")
    p_script.add_argument("--db", default=None, help="SQLite file (default: a fresh temporary one)")
    p_replay = sub.add_parser("replay", help="rebuild a game from a /game export file")
    p_replay.add_argument("file", type=Path)
    p_rebuild = sub.add_parser("rebuild", help="replay live games' logs with the current rules (after a rules fix)")
    p_rebuild.add_argument("--db", default=None, help="SQLite file (default: PLAYPOST_DB)")
    p_rebuild.add_argument("--write", action="store_true", help="save rebuilt states (default: only report)")
    p_bench = sub.add_parser("bench", help="measure moves, images and scale")
    p_bench.add_argument("--json", default=None, help="also write the figures as JSON here")
    p_bench.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    p_fuzz = sub.add_parser("fuzz", help="guided and random legal play, every action checked (from a checkout)")
    try:  # like bench, the fuzzer is a tool of the checkout (tools/fuzz), not part of the bot
        from tools.fuzz.run import add_arguments as fuzz_arguments
    except ModuleNotFoundError as exc:
        if exc.name not in ("tools", "tools.fuzz"):
            raise
        p_fuzz.add_argument("rest", nargs="*")
    else:
        fuzz_arguments(p_fuzz)
    args = parser.parse_args(argv)
    settings = Settings()
    has_token = bool(settings.discord_token and settings.discord_token.get_secret_value())
    discord_mode = args.cmd == "run" or (args.cmd is None and has_token)
    _setup_logging(settings.playpost_log_level if discord_mode else "WARNING")
    if args.cmd is None:
        if settings.discord_token and settings.discord_token.get_secret_value():
            return run_discord(settings)
        return asyncio.run(local_main(settings.playpost_db, Path("data/images"), "you"))
    if args.cmd == "run":
        if not settings.discord_token or not settings.discord_token.get_secret_value():
            print("DISCORD_TOKEN is not set. Put it in the environment or a .env file; "
                  "`playpost local` plays without Discord.", file=sys.stderr)
            return 2
        return run_discord(settings)
    if args.cmd == "local":
        return asyncio.run(local_main(args.db or settings.playpost_db, Path(args.out), args.user))
    if args.cmd == "script":
        return asyncio.run(script_main(args.file, args.out, args.db))
    if args.cmd == "replay":
        return replay_main(args.file)
    if args.cmd == "rebuild":
        return asyncio.run(rebuild_main(args.db or settings.playpost_db, args.write))
    if args.cmd == "bench":
        try:  # the benchmark is a tool of the checkout (tools/bench), not part of the bot
            from tools.bench.run import main as bench_main
        except ModuleNotFoundError as exc:
            if exc.name not in ("tools", "tools.bench"):
                raise
            print("playpost bench runs from a checkout of playpost (tools/bench/ is not installed here)",
                  file=sys.stderr)
            return 2
        return bench_main(json_path=args.json, quick=args.quick)
    if args.cmd == "fuzz":
        try:
            from tools.fuzz.run import fuzz_main
        except ModuleNotFoundError as exc:
            if exc.name not in ("tools", "tools.fuzz"):
                raise
            print("playpost fuzz runs from a checkout of playpost (tools/fuzz/ is not installed here)",
                  file=sys.stderr)
            return 2
        return fuzz_main(args)
    parser.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
