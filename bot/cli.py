"""`playpost`: run the Discord bot, the local console, a transcript, or replay an export."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from games.core import IllegalAction, get_game
from storage import BackupUnsupported, GameRecord, LogEntry, StorageDamaged, StorageUnavailable, open_storage
from storage.check import passed, start_check

from . import build_bot
from .console import Console, play_transcript, typed_line
from .manager import GameManager, rebuild_all, replay_export
from .migrate import migrate_main
from .ops import damaged_advice, database_problem, heartbeat_problem, restore, take_backup
from .replays import MAX_BYTES, export_gif, record_gif
from .selfplay import selfplay
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


def _lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """Read stdin in a daemon thread (a pending read never holds up the exit); None at end of input."""
    def read() -> None:
        for raw in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, raw)
        loop.call_soon_threadsafe(queue.put_nowait, None)
    threading.Thread(target=read, name="playpost-stdin", daemon=True).start()


async def local_main(db: str, out: Path, user: str) -> int:
    manager = await _manager(db)
    console = Console(manager=manager, out_dir=out)
    console.resume_numbering()
    print(f"playpost local console on {db}. Type `/game help`, a button's number to press it, or "
          f"`name> /command ...` to act as someone else. You are {user}. Ctrl-D quits.", flush=True)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    stop = asyncio.Event()
    # SIGTERM: the line being handled is finished, no further line is read, the database is closed, exit 0
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    _lines(loop, queue)
    try:
        while not stop.is_set():
            print(f"{user}> ", end="", flush=True)
            getting = asyncio.ensure_future(queue.get())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({getting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not getting.done():
                getting.cancel()
                break
            raw = getting.result()
            if raw is None:
                print()
                break
            raw = raw.strip()
            if not raw:
                continue
            raw = typed_line(raw, user)
            try:
                await console.line(raw)
            except StorageUnavailable as exc:  # a read outside the command's own answer (logged once by storage)
                print(f"  The database refused that ({exc.cause}); nothing changed. Try again later.")
            sys.stdout.flush()
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        manager.close()
        await manager.storage.close()
    if stop.is_set():
        print("\nStopped (SIGTERM); every move shown above is saved.", flush=True)
    return 0


async def backup_main(db: str, directory: Path, keep: int | None) -> int:
    store = await open_storage(db)
    try:
        dest = await take_backup(store, directory, keep=keep)
    finally:
        await store.close()
    print(f"Backup written to {dest}")
    return 0


def restore_main(backup: Path, db: str) -> int:
    if db.startswith(("postgres://", "postgresql://")):
        print("playpost restore is for SQLite files; for PostgreSQL restore a pg_dump with pg_restore.",
              file=sys.stderr)
        return 2
    path = Path(db.removeprefix("sqlite:///").removeprefix("sqlite://"))
    try:
        kept = restore(backup, path)
    except StorageDamaged as exc:
        print(f"Not restored: {exc}. The database was left as it was; pick another backup.", file=sys.stderr)
        return 3
    print(f"Restored {backup} to {path}." + (f" The file it replaced is kept as {kept}." if kept else ""))
    print(f"Check it with `playpost rebuild --db {path}` before starting the bot.")
    return 0


def health_main(settings: Settings, skip_heartbeat: bool) -> int:
    """Exit 0 when the bot is connected (fresh heartbeat) and its database writable; else 1 with the reason."""
    problems = [p for p in (
        None if skip_heartbeat else heartbeat_problem(settings.heartbeat_path(),
                                                      settings.playpost_heartbeat_max_age),
        database_problem(settings.playpost_db),
    ) if p]
    for p in problems:
        print(f"unhealthy: {p}", file=sys.stderr)
    if not problems:
        print("healthy")
    return 1 if problems else 0


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


async def transcript_records(path: Path) -> list[tuple[GameRecord, list[LogEntry]]]:
    """Play a transcript into a temporary database (no images) and return every game it started, with its log."""
    out: list[tuple[GameRecord, list[LogEntry]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "replay.sqlite3")
        await play_transcript(path.read_text(encoding="utf-8").splitlines(), Path(tmp) / "out", db=db,
                              render=False, write=lambda _: None)
        store = await open_storage(db)
        try:
            gid = 1
            while (rec := await store.get_game(gid)) is not None:
                if rec.status != "lobby":
                    out.append((rec, await store.log(gid)))
                gid += 1
        finally:
            await store.close()
    return out


async def replay_file_gif(path: Path) -> tuple[bytes, str]:
    """The replay GIF of an export file or of the last game a transcript plays, and a line saying what it is."""
    if path.suffix.lower() == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return export_gif(data), f"{data['game']} game #{data['id']} ({len(data['log'])} actions)"
    games = await transcript_records(path)
    if not games:
        raise IllegalAction("The transcript starts no game.", "Give a transcript that plays a game, or an export.")
    rec, entries = games[-1]
    return record_gif(rec, entries), f"{rec.kind} game #{rec.id} ({len(entries)} actions, {rec.status})"


async def replay_gif_main(path: Path, out: Path) -> int:
    started = time.perf_counter()
    try:
        gif, what = await replay_file_gif(path)
    except IllegalAction as exc:
        print(f"{exc.reason} {exc.hint}".strip())
        return 1
    out.write_bytes(gif)
    took = time.perf_counter() - started
    print(f"Replay of {what}: {out} ({len(gif) / 1e6:.2f} MB, {took:.1f} s).")
    if len(gif) > MAX_BYTES:
        print("Warning: larger than Discord's 10 MB upload limit.")
    return 0


def replay_main(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    engine, state = replay_export(data)
    st = engine.status(state)
    print(f"{engine.name}: replayed {len(data['log'])} actions; phase {st.phase}, round {st.round}, "
          f"finished {st.finished}.")
    if data.get("state_sha256"):
        print("State identical to the recorded one.")
    return 0


DB_HELP = "SQLite file or postgresql://user@host:port/db URL (default: PLAYPOST_DB or data/playpost.sqlite3)"


def _run_settings(settings: Settings, args: argparse.Namespace) -> Settings:
    """The settings with `playpost run`'s options laid over the environment's."""
    update: dict[str, object] = {}
    if args.shards is not None:
        update["playpost_shards"] = args.shards
    if args.shard_count is not None:
        update["playpost_shard_count"] = args.shard_count
    if args.db is not None:
        update["playpost_db"] = args.db
    return settings.model_copy(update=update)


def selfplay_main(game: str, games: int, seats: str, json_path: str | None, options: list[str], seed: int,
                  quiet: bool) -> int:
    """Computer against computer with the pure engines; prints win rates, decision times, lengths."""
    engine = get_game(game)
    labels = [s.strip() for s in seats.split(",") if s.strip()]
    opts = dict(o.split("=", 1) for o in options)

    def each(i: int, rep: object) -> None:
        if not quiet:
            print(f"game {i + 1}/{games} done", file=sys.stderr, flush=True)

    report = selfplay(engine, labels, games, options=opts, seed=seed, each=each)
    data = report.to_json()
    print(f"{engine.name}: {games} games, seats {', '.join(labels)}" + (f", options {opts}" if opts else ""))
    for label, rate in data["win_rate"].items():
        lo, hi = data["win_rate_95"][label]
        print(f"  {label:>7}: wins {rate:6.1%} (95 % interval {lo:.1%}-{hi:.1%}), "
              f"decision {data['mean_decision_ms'][label]:.1f} ms mean, {data['max_decision_ms'][label]:.0f} ms max "
              f"({data['max_decision_cpu_ms'][label]:.0f} ms max in CPU time)")
    print(f"  game length: {data['mean_actions']:.1f} actions, {data['mean_rounds']:.1f} rounds; "
          f"unfinished {data['unfinished']}")
    for name, frac in data["progress"].items():
        print(f"  {name}: {frac:.1%}")
    if json_path:
        Path(json_path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def run_discord(settings: Settings) -> int:
    db = settings.playpost_db
    on_file = not db.startswith(("postgres://", "postgresql://"))
    if on_file:  # the integrity check reads the whole file on the other core while discord.py and the commands load
        start_check(db)
    bot = build_bot(settings)
    if on_file:
        # refuse a damaged file before connecting anywhere (the probe's open waits for the check's verdict); the
        # bot opens the file again in setup_hook, and that open takes the verdict rather than reading it all again
        async def probe() -> None:
            await (await open_storage(db)).close()
        asyncio.run(probe())
        passed(db)
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactFilter(token))
    bot.run(token, log_handler=None)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="playpost", description=__doc__)
    sub = parser.add_subparsers(dest="cmd")
    p_run = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    p_run.add_argument("--shards", default=None,
                       help="the gateway shards this process runs, e.g. 0,1 or 0-3 (default: PLAYPOST_SHARDS; "
                            "unset: one process, unsharded); needs --shard-count")
    p_run.add_argument("--shard-count", type=int, default=None,
                       help="how many shards in all, the same in every process (default: PLAYPOST_SHARD_COUNT)")
    p_run.add_argument("--db", default=None, help=DB_HELP)
    p_local = sub.add_parser("local", help="the local console")
    p_local.add_argument("--db", default=None, help=DB_HELP)
    p_local.add_argument("--out", default="data/images", help="where board images are written")
    p_local.add_argument("--user", default="you", help="your name at the table")
    p_script = sub.add_parser("script", help="run a transcript file")
    p_script.add_argument("file", type=Path)
    p_script.add_argument("--out", required=True, type=Path, help="directory for images and files")
    p_script.add_argument("--db", default=None,
                          help="SQLite file or postgresql:// URL (default: a fresh temporary SQLite file)")
    p_replay = sub.add_parser("replay", help="rebuild a game from a /game export file; with --gif, draw it animated")
    p_replay.add_argument("file", type=Path, help="a /game export (.json), or with --gif also a transcript")
    p_replay.add_argument("--gif", type=Path, default=None,
                          help="write an animated GIF of the game, one frame per turn (a transcript: its last game)")
    p_rebuild = sub.add_parser("rebuild", help="replay live games' logs with the current rules (after a rules fix)")
    p_rebuild.add_argument("--db", default=None, help=DB_HELP)
    p_rebuild.add_argument("--write", action="store_true", help="save rebuilt states (default: only report)")
    p_migrate = sub.add_parser("migrate-db", help="copy every game and its log to another database, "
                               "checking each by replaying its log (SQLite <-> PostgreSQL)")
    p_migrate.add_argument("source", help="the database to read: a SQLite file or a postgresql:// URL")
    p_migrate.add_argument("target", help="the database to fill (it must have no games yet)")
    p_backup = sub.add_parser("backup", help="write an online backup of the database into DIR (the bot may run)")
    p_backup.add_argument("dir", type=Path)
    p_backup.add_argument("--db", default=None, help="SQLite file (default: PLAYPOST_DB)")
    p_backup.add_argument("--keep", type=int, default=None, help="then delete all but the newest KEEP backups in DIR")
    p_restore = sub.add_parser("restore", help="put a backup in place of the database (stop the bot first)")
    p_restore.add_argument("backup", type=Path)
    p_restore.add_argument("--db", default=None, help="SQLite file (default: PLAYPOST_DB)")
    p_health = sub.add_parser("health", help="exit 0 if the bot is connected and its database writable")
    p_health.add_argument("--no-heartbeat", action="store_true", help="check only the database")
    p_bench = sub.add_parser("bench", help="measure moves, images and scale")
    p_bench.add_argument("--json", default=None, help="also write the figures as JSON here")
    p_bench.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    p_bench.add_argument("--only", default=None, help="comma-separated sections to run, e.g. image,pipeline")
    p_self = sub.add_parser("selfplay", help="computer players against each other, without Discord")
    p_self.add_argument("game")
    p_self.add_argument("--games", type=int, default=20)
    p_self.add_argument("--seats", required=True, help="levels, one per seat: hard,normal,random (easy = random)")
    p_self.add_argument("--json", default=None, help="also write the figures as JSON here")
    p_self.add_argument("--option", action="append", default=[], help="a game option, e.g. scenario=heist")
    p_self.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed+i)")
    p_self.add_argument("--quiet", action="store_true", help="no progress lines")
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
    try:
        return _run(parser, args, settings)
    except StorageDamaged as exc:
        print(damaged_advice(exc, settings.playpost_backup_dir), file=sys.stderr)
        return 3
    except BackupUnsupported as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except StorageUnavailable as exc:
        print(f"The database cannot be used: {exc}. Check the disk (free space, permissions) and try again.",
              file=sys.stderr)
        return 3


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: Settings) -> int:
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
        settings = _run_settings(settings, args)
        try:
            settings.shards()
        except ValueError as exc:
            print(f"playpost run: {exc}", file=sys.stderr)
            return 2
        return run_discord(settings)
    if args.cmd == "migrate-db":
        return asyncio.run(migrate_main(args.source, args.target))
    if args.cmd == "local":
        return asyncio.run(local_main(args.db or settings.playpost_db, Path(args.out), args.user))
    if args.cmd == "script":
        return asyncio.run(script_main(args.file, args.out, args.db))
    if args.cmd == "replay":
        if args.gif is not None:
            return asyncio.run(replay_gif_main(args.file, args.gif))
        return replay_main(args.file)
    if args.cmd == "rebuild":
        return asyncio.run(rebuild_main(args.db or settings.playpost_db, args.write))
    if args.cmd == "selfplay":
        return selfplay_main(args.game, args.games, args.seats, args.json, args.option, args.seed, args.quiet)
    if args.cmd == "backup":
        return asyncio.run(backup_main(args.db or settings.playpost_db, args.dir, args.keep))
    if args.cmd == "restore":
        return restore_main(args.backup, args.db or settings.playpost_db)
    if args.cmd == "health":
        return health_main(settings, args.no_heartbeat)
    if args.cmd == "bench":
        try:  # the benchmark is a tool of the checkout (tools/bench), not part of the bot
            from tools.bench.run import main as bench_main
        except ModuleNotFoundError as exc:
            if exc.name not in ("tools", "tools.bench"):
                raise
            print("playpost bench runs from a checkout of playpost (tools/bench/ is not installed here)",
                  file=sys.stderr)
            return 2
        return bench_main(json_path=args.json, quick=args.quick, only=args.only)
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
