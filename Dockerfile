# The bot in a container, with the PostgreSQL driver (compose.yaml runs two of them on one
# PostgreSQL; docs/deploy.md). A single container on SQLite works too: mount a volume on
# /home/belote/data and set DATABASE_PATH=/home/belote/data/belote.sqlite3.
FROM python:3.11-slim
RUN useradd --create-home belote
WORKDIR /home/belote/app
COPY pyproject.toml README.md LICENSE setup.py ./
COPY belote_cli belote_cli
COPY bot bot
COPY cogs cogs
COPY db db
COPY game game
COPY i18n i18n
COPY rendering rendering
COPY service service
COPY web web
RUN pip install --no-cache-dir '.[postgres]'
USER belote
WORKDIR /home/belote
# discord.py closes the bot cleanly on SIGTERM (docker stop): tables are saved as they go.
CMD ["belote-bot"]
