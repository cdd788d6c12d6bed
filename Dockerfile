# mockd in a container.
#
#   docker build -t mockd .
#   docker run --rm -p 127.0.0.1:8080:8080 -v "$PWD/MockData:/data/MockData:ro" mockd
#
# Mount points (both read-only is fine; mockd never writes to them):
#   /data/MockData   the mock files            (MOCKD_ROOT)   default: this repo's MockData/
#   /data/routes     the route tables, if any  (MOCKD_ROUTES) default: this repo's routes/
# Every serve option can be set with MOCKD_* variables (docker run -e MOCKD_SCENARIO=empty)
# or as arguments (docker run mockd serve --scenario empty). See docs/DEPLOYMENT.md.

ARG SWIFT_IMAGE=docker.io/library/swift:6.3-bookworm

# ---------------------------------------------------------------------------- build stage
FROM ${SWIFT_IMAGE} AS build
# debian-archive-keyring: brought up to bookworm's current one, which holds the trixie keys
# that libmicrohttpd's source index (Debian 13's) is checked with.
RUN apt-get -q update \
 && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends \
      dpkg-dev xz-utils make pkg-config libssl-dev zlib1g-dev ca-certificates debian-archive-keyring \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src

# libmicrohttpd 1.0.x (Debian 13's source, without HTTPS), libcurl (bookworm's, HTTP(S) only)
# and wslay (WebSocket framing, from bookworm's aria2 source) as static libraries: see the script
# for why Debian's own .a files cannot be linked. Its own layer, so a change in Sources/ does not
# rebuild them.
COPY scripts/static-deps.sh scripts/debian-source.sh /usr/local/bin/
RUN static-deps.sh /opt/static-deps

# The context as .dockerignore filters it: Package.swift, Sources/, and Tests/ without its
# sources (SwiftPM wants the folders of the test targets that Package.swift declares).
COPY . .
# One static executable (`make static` builds the same): no shared library, no dynamic loader.
# The cache mount keeps SwiftPM's build folder (checkouts and objects) between builds on one
# machine, so a change in Sources/ recompiles mockd but not its dependencies; the binary is
# copied out of it.
RUN --mount=type=cache,target=/src/.build,id=mockd-swift-static-build,sharing=locked \
    STATIC_DEPS=/opt/static-deps scripts/build-static.sh /out/mockd

# The runtime's few files, gathered here: the user, and the CA bundle for https upstreams.
RUN mkdir -p /rootfs/etc/ssl/certs /rootfs/data \
 && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
 && echo 'mockd:x:10001:10001:mockd:/nonexistent:/sbin/nologin' > /rootfs/etc/passwd \
 && echo 'mockd:x:10001:' > /rootfs/etc/group

# -------------------------------------------------------------------------- runtime stage
# Nothing but mockd, its data, the CA certificates and the user: no shell, no libc, no
# package manager. `docker run --entrypoint` has nothing else to run; debug from the host.
FROM scratch
COPY --from=build /rootfs/ /
COPY --from=build /out/mockd /usr/local/bin/mockd
COPY MockData/ /data/MockData/
COPY routes/ /data/routes/

# Listening on 0.0.0.0 inside the container, mockd warns at start that the admin API and the
# journal are open to the network, and redacts credential values (Authorization, Cookie,
# *token*, *secret*…) in the journal. Close the admin API with a token, which `mockd health`
# (the HEALTHCHECK below) sends too:
#   docker run -e MOCKD_ADMIN_TOKEN=$(openssl rand -hex 16) -p 127.0.0.1:8080:8080 mockd
# then `curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/__mockd/requests`.
# Or remove it with MOCKD_NO_ADMIN=true. Reached by a DNS name with dots, the admin API also
# needs MOCKD_ALLOWED_HOSTS=that.name (loopback, IP addresses and single-label names work as is).
ENV PATH=/usr/local/bin \
    MOCKD_HOST=0.0.0.0 \
    MOCKD_PORT=8080 \
    MOCKD_ROOT=/data/MockData \
    MOCKD_ROUTES=/data/routes

USER 10001:10001
WORKDIR /data
EXPOSE 8080
STOPSIGNAL SIGTERM
# `mockd health` reads MOCKD_HOST/MOCKD_PORT, so it asks the port the server listens on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["mockd", "health"]
ENTRYPOINT ["/usr/local/bin/mockd"]
CMD ["serve"]

LABEL org.opencontainers.image.title="mockd" \
      org.opencontainers.image.description="Mock HTTP server: serves MockData/ files and route tables" \
      org.opencontainers.image.documentation="docs/DEPLOYMENT.md"
