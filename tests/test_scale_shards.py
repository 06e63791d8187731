"""Shards: which process runs which gateway shards (settings, `playpost run --shards`), where a guild's games go,
and the compose.yaml that splits the shards between two processes on one PostgreSQL."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.cli import main
from bot.discord_adapter.app import PlaypostBot, ShardedPlaypostBot, build_bot
from bot.settings import Settings, parse_shards, shard_of
from e2e.discord_double import shard_of as discords_shard_of

ROOT = Path(__file__).parent.parent


def test_shard_lists_and_ranges_parse_and_bad_ones_are_refused():
    assert parse_shards("0,1") == [0, 1]
    assert parse_shards("3, 0-2") == [0, 1, 2, 3]
    assert parse_shards("2-3,3") == [2, 3]
    for bad in ("", "a", "1-", "3-1", "-1", "1,,x"):
        with pytest.raises(ValueError):
            parse_shards(bad)


def test_settings_name_this_process_shards_out_of_the_count():
    assert Settings().shards() is None  # the default: one process, unsharded
    assert Settings(playpost_shards="2,3", playpost_shard_count=4).shards() == ([2, 3], 4)
    assert Settings(playpost_shard_count=2).shards() == ([0, 1], 2)  # all of them
    for bad in ({"playpost_shards": "0"}, {"playpost_shards": "4", "playpost_shard_count": 4},
                {"playpost_shard_count": 0}):
        with pytest.raises(ValueError):
            Settings(**bad).shards()


def test_a_guild_goes_to_discords_shard():
    for guild in (1100000000000000010, 81064087802, 4194304 * 7 + 5):
        assert shard_of(guild, 4) == discords_shard_of(str(guild), 4) == (guild >> 22) % 4
    assert shard_of(4194304 * 6, 4) == 2


def test_the_bot_is_sharded_only_when_shards_are_set():
    plain = build_bot(Settings(discord_token="t"))
    assert type(plain) is PlaypostBot
    sharded = build_bot(Settings(discord_token="t", playpost_shards="1,3", playpost_shard_count=4))
    assert isinstance(sharded, ShardedPlaypostBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 3], 4)


def test_run_refuses_inconsistent_shards_before_connecting(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setattr("bot.cli._setup_logging", lambda level: None)  # leave the test run's logging alone
    assert main(["run", "--shards", "4", "--shard-count", "4"]) == 2
    assert "shard ids [4] are not in 0..3" in capsys.readouterr().err
    assert main(["run", "--shards", "0,1"]) == 2
    assert "PLAYPOST_SHARD_COUNT" in capsys.readouterr().err


def test_compose_runs_postgresql_and_two_processes_splitting_every_shard_once():
    doc = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = doc["services"]
    assert services["db"]["image"].startswith("postgres:") and "healthcheck" in services["db"]
    bots = {name: s for name, s in services.items() if name != "db"}
    assert len(bots) == 2
    counts, shards = set(), []
    for name, bot in bots.items():
        env = bot["environment"]
        assert env["PLAYPOST_DB"].startswith("postgresql://") and "@db:5432/" in env["PLAYPOST_DB"], name
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN"), name  # from .env, never written here
        assert bot["depends_on"]["db"]["condition"] == "service_healthy", name
        assert bot["restart"] == "unless-stopped", name
        ids, count = Settings(playpost_shards=env["PLAYPOST_SHARDS"],
                              playpost_shard_count=int(env["PLAYPOST_SHARD_COUNT"])).shards()  # type: ignore[misc]
        counts.add(count)
        shards += ids
    assert len(counts) == 1 and sorted(shards) == list(range(counts.pop()))  # each shard in exactly one process


def test_a_database_password_is_not_logged():
    from bot.discord_adapter.app import _redacted

    assert _redacted("postgresql://playpost:s3cr@t:x@db:5432/playpost") == "postgresql://playpost:***@db:5432/playpost"
    assert _redacted("postgresql://postgres@127.0.0.1:5432/test") == "postgresql://postgres@127.0.0.1:5432/test"
    assert _redacted("data/playpost.sqlite3") == "data/playpost.sqlite3"
