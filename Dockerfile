# A small image holding the portable bgsim, for running sweeps on a cluster
# (deploy/kubernetes/, docs/sweeps.md).
#
#   docker build -t registry.example.com/bgsim:0.1.0 .
#   docker push registry.example.com/bgsim:0.1.0      # note the digest it prints
#   docker run --rm -v "$PWD:/work" registry.example.com/bgsim:0.1.0 \
#     sweep /scenarios/podcast-feed-one-per-wake.json --param rateLimiter.growth=1.5,2 --out /work/out
#
# One build stage: Swift's Debian 12 image compiles the static-stdlib release binary
# (scripts/build-static.sh, which also checks it needs no Swift library). The shipped image is
# Debian 12 slim, the same glibc the binary was linked against, with the binary and the
# scenario library (at /scenarios; mount a folder over it for your own scenarios).
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# Package.swift names the command plugin's target, so its folder must be there for the manifest.
COPY Plugins ./Plugins
COPY Tests ./Tests
COPY scripts/build-static.sh ./scripts/
RUN scripts/build-static.sh /out

FROM ${BASE_IMAGE}
COPY --from=build /out/bgsim /usr/local/bin/bgsim
COPY Scenarios /scenarios
WORKDIR /work
ENTRYPOINT ["bgsim"]
CMD ["--help"]
