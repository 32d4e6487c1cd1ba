# Dealer's Choice, the bot alone: Debian bookworm's Python 3.11, the enchant dictionaries and the
# font the card pictures use. Not in the image: the loopback Discord, the tests, the benchmarks.
#
#   docker build -t dealers-choice .
#   docker run -d --restart unless-stopped -e DISCORD_TOKEN=... -v dealers-choice:/data dealers-choice
#
# `.ci/image` builds this with buildah (no Docker engine needed) on a bookworm base made with
# debootstrap when no registry is reachable, and proves the bot answers through the loopback.
ARG BASE=docker.io/library/debian:bookworm-slim
FROM ${BASE}

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3 python3-venv ca-certificates \
        libenchant-2-2 hunspell-en-us hunspell-en-gb hunspell-sv hunspell-tools fonts-dejavu-core \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/*

# The dependencies first, from pyproject.toml alone, so a code change does not reinstall them.
# The project itself is not pip-installed: it reads data/ and docs/ beside its packages.
# Behind a TLS-inspecting proxy, hand pip its CA bundle for this step only (never kept):
#   docker build --secret id=ca_bundle,src=/etc/ssl/certs/ca-certificates.crt ...
COPY pyproject.toml /tmp/pyproject.toml
RUN --mount=type=secret,id=ca_bundle,required=false \
    if [ -s /run/secrets/ca_bundle ]; then export PIP_CERT=/run/secrets/ca_bundle; fi \
    && python3 -m venv /opt/venv \
    && /opt/venv/bin/python -c 'import tomllib; print("\n".join(tomllib.load(open("/tmp/pyproject.toml", "rb"))["project"]["dependencies"]))' >/tmp/requirements.txt \
    && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check -r /tmp/requirements.txt \
    && rm /tmp/pyproject.toml /tmp/requirements.txt

RUN groupadd --system --gid 10001 dealer \
    && useradd --system --uid 10001 --gid dealer --create-home --home-dir /home/dealer dealer \
    && mkdir /data && chown dealer:dealer /data

WORKDIR /app
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
COPY web ./web
COPY data ./data
COPY docs ./docs
RUN /opt/venv/bin/python -m compileall -q engine bot cogs web

# DATABASE may instead be a postgresql:// URL; DATA_DIR keeps the word lists on /data then too.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    DATABASE=/data/dealers_choice.sqlite3 \
    DATA_DIR=/data
LABEL org.opencontainers.image.title="Dealer's Choice" \
      org.opencontainers.image.description="A Discord bot that hosts poker-flavoured card games"
USER dealer
VOLUME ["/data"]
# The bot shuts down cleanly on SIGINT (Ctrl-C); `docker stop` sends this instead of SIGTERM.
STOPSIGNAL SIGINT
CMD ["python", "-m", "bot"]
