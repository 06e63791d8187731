# playpost: the Discord bot in a slim image; games are stored in SQLite on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PLAYPOST_DB=/data/playpost.sqlite3 \
    PLAYPOST_HEARTBEAT=/data/heartbeat \
    PLAYPOST_BACKUP_DIR=/data/backups

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY storage ./storage
RUN pip install . && useradd --create-home --uid 10001 playpost && mkdir /data && chown playpost /data

USER playpost
VOLUME ["/data"]
# healthy while the bot is connected to Discord (it touches PLAYPOST_HEARTBEAT every 30 s while connected;
# older than 120 s is unhealthy) and its database takes a write (a full disk or a read-only file is unhealthy)
HEALTHCHECK --interval=60s --timeout=15s --start-period=60s --retries=3 CMD ["playpost", "health"]
# docker stop sends SIGTERM: the bot answers new commands "restarting", finishes those in flight, closes the
# database and exits 0 (within PLAYPOST_SHUTDOWN_GRACE, 8 s, well inside docker's 10 s)
STOPSIGNAL SIGTERM
CMD ["playpost", "run"]
