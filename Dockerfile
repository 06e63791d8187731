# playpost: the Discord bot in a slim image; games are stored in SQLite on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PLAYPOST_DB=/data/playpost.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY storage ./storage
RUN pip install . && useradd --create-home --uid 10001 playpost && mkdir /data && chown playpost /data

USER playpost
VOLUME ["/data"]
# healthy while the process runs and its database opens and answers
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s \
  CMD python -c "import sqlite3,os; sqlite3.connect(os.environ['PLAYPOST_DB']).execute('PRAGMA user_version').fetchone()" || exit 1
CMD ["playpost", "run"]
