# The bot's image: `docker compose up` (docker-compose.yml) runs two of these over one PostgreSQL.
# Settings come from the environment (.env.example says what each one means).
FROM python:3.11-slim

# fonts-noto-cjk and fonts-noto-core: the fallback fonts for names in scripts DejaVu lacks on boards
# (Chinese, Japanese, Korean; Thai, Arabic, Devanagari...: renderers/draw.py FALLBACK_FONTS); the Latin
# fonts ship in data/fonts.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk fonts-noto-core \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The dependencies first, so a change to the code alone does not reinstall them.
COPY pyproject.toml README.md ./
COPY bot/__init__.py bot/__init__.py
COPY renderers/__init__.py renderers/__init__.py
RUN pip install .
# Then the code, installed in place: the bot finds data/ (fonts, maps) beside its package.
COPY . .
RUN pip install --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin bot \
    && mkdir -p /app/data \
    && chown -R bot:bot /app/data

USER bot
# SIGINT, not SIGTERM: Python as process 1 ignores SIGTERM, and SIGINT lets the bot close cleanly (it
# hands its shard leases back, so the other process can take them at once).
STOPSIGNAL SIGINT
CMD ["python", "-m", "bot"]
