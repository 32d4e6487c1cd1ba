# Dealer's Choice: docker run -e DISCORD_TOKEN=... -v dealers-choice:/data IMAGE
FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends libenchant-2-2 hunspell-en-us hunspell-en-gb hunspell-tools fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 dealer \
    && mkdir /data && chown dealer:dealer /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY engine ./engine
COPY data ./data
COPY docs ./docs
RUN pip install --no-cache-dir -e .

USER dealer
ENV DATABASE=/data/dealers_choice.sqlite3 \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
