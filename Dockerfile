# hintgate as a shared HTTP gateway: MCP at /mcp, the dashboard and REST API at /, on port 8080.
# See docs/deploy.md for the settings, replicas on one PostgreSQL, TLS in front, and sizing.
#
#   docker build -t hintgate .
#   docker run -p 8080:8080 -v hintgate-data:/data \
#       -v "$PWD/hintgate.yaml:/etc/hintgate/hintgate.yaml:ro" hintgate

FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HINTGATE_DATA_DIR=/data

WORKDIR /opt/hintgate
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin hintgate \
    && mkdir -p /data /etc/hintgate \
    && chown hintgate:hintgate /data

USER hintgate
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080

# /api/health needs no token and answers 200 while the gateway serves ("ok", or "degraded" while an upstream
# is down or recording fails: that is for alerts, not for restarting the container).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/api/health', timeout=4).status != 200)"]

ENTRYPOINT ["hintgate", "serve", "--http", "0.0.0.0:8080"]
CMD ["--config", "/etc/hintgate/hintgate.yaml"]
