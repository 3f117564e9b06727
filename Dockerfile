FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules_data ./rules_data
COPY assets ./assets
RUN pip install --no-cache-dir -e . && useradd --create-home --uid 10001 gamemaster \
    && mkdir -p /data && chown gamemaster /data
USER gamemaster
ENV DATA_DIR=/data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
