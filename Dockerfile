# syntax=docker/dockerfile:1
# ArchiveGate: the `archivegate serve` HTTP service in a slim Debian image (docs/OPERATIONS.md). Ships
# `archivegate` (the CLI) and `archivegate-server` beside it, which `archivegate serve` execs.
#
#   docker build -t archivegate .
#   docker run --rm -p 8080:8080 -v archivegate-data:/app/data archivegate
#
# No Docker engine runs on our machines: scripts/check-image lints this file, builds the binary
# with the very `swift build` line below and proves that the runtime stage's packages provide every
# shared library it loads. Keep those two lines (`RUN swift build …`, the runtime `apt-get install`)
# in the form the script parses: one plain `RUN swift build … --product NAME` line per binary, one
# runtime `apt-get install` list.

# ---------------------------------------------------------------------------------------------
# Build stage: the official Swift image of the toolchain we develop with.
FROM swift:6.3.1-bookworm AS build

# Headers and link libraries of the system-library targets (CCurl uses libcurl's headers only: the
# binary dlopens libcurl.so.4 on the first fetch; compression links zlib, CSQLite3 links the system
# SQLite for `archivegate scan-db`; the store's SQLite is sqlite-nio's own, bundled).
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libcurl4-openssl-dev libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Dependencies in their own layer: rebuilt only when the manifest or the pins change.
# `Package.resolved*` matches nothing on a clone without pins, and COPY accepts that.
COPY Package.swift Package.resolved* ./
RUN swift package resolve

# Every folder a target of Package.swift names: SwiftPM refuses a manifest with a missing one, even
# for targets this build skips (Tests/, Fuzz/). scripts/check-image builds from exactly these.
COPY Sources ./Sources
COPY Tests ./Tests
COPY Fuzz ./Fuzz
# The static Swift runtime (stdlib, Foundation, ICU data) is linked in: the runtime stage needs no
# Swift toolchain, only the C libraries listed there. Two programs: the CLI links no server code, so
# each of its calls starts fast (docs/BENCHMARKS.md, "Start-up"); `archivegate serve` execs the server.
RUN swift build -c release --static-swift-stdlib --product archivegate
# One plain command per product, not one RUN joined with &&: scripts/check-image and scripts/load
# read and run each `RUN swift build` line as it is (SwiftPM builds one --product per call).
# hadolint ignore=DL3059
RUN swift build -c release --static-swift-stdlib --product archivegate-server
RUN install -D -m 0755 -t /staging "$(swift build -c release --show-bin-path)/archivegate" \
        "$(swift build -c release --show-bin-path)/archivegate-server"

# ---------------------------------------------------------------------------------------------
# Runtime stage: what the binary loads (ldd: zlib1g, libsqlite3-0; libc6, libgcc-s1 and libstdc++6
# are already in the base image; with dlopen on the first fetch: libcurl4 and its dependencies —
# without them fetching fails with fetch.unavailable), CA certificates for the fetch module's
# HTTPS, tzdata for time zones, and curl for HEALTHCHECK alone (the image has no other HTTP client
# and `archivegate` has no health-check subcommand; curl adds ~300 KB on top of libcurl4).
FROM debian:bookworm-slim AS runtime

# Unpinned on purpose: bookworm's archive drops superseded versions (security updates), so a
# pinned version would stop building; the base image tag already fixes the release.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates curl libcurl4 libsqlite3-0 tzdata zlib1g \
    && rm -rf /var/lib/apt/lists/*

# A fixed non-root uid/gid, so volume ownership is predictable on every host.
RUN groupadd --system --gid 10001 archivegate \
    && useradd --system --no-log-init --uid 10001 --gid archivegate \
        --home-dir /app --shell /usr/sbin/nologin archivegate \
    && mkdir -p /app/data \
    && chown archivegate:archivegate /app/data

COPY --from=build /staging/archivegate /staging/archivegate-server /usr/local/bin/

WORKDIR /app
# Shipped config (server.json, an empty tenants/, the example policies), owned by root and
# read-only for the service: the image carries no tenant (the demo tenant lives in
# examples/demo-tenant/, which only scripts/serve loads). Mount your own over it:
# `-v ./my-config:/app/config:ro`.
COPY config /app/config
# SQLite result store and any other state. Scaling out: point replicas at a shared store instead.
VOLUME ["/app/data"]

# Numeric, so that orchestrators can verify runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8080

# Through sh so that ARCHIVEGATE_HTTP_PORT, when set, is honoured; --noproxy keeps a configured
# http_proxy from intercepting the probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["sh", "-c", "curl --fail --silent --show-error --noproxy '*' --max-time 4 --output /dev/null http://127.0.0.1:${ARCHIVEGATE_HTTP_PORT:-8080}/healthz || exit 1"]

ENTRYPOINT ["archivegate"]
# Inside a container the server must listen on 0.0.0.0: the shipped server.json (and the built-in
# default) bind 127.0.0.1, which is the container's own loopback and unreachable through -p.
CMD ["serve", "--config", "/app/config", "--host", "0.0.0.0"]
