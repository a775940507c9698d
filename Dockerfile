# The gpushare-sim image for sweeps on a Kubernetes cluster (docs/sweep.md):
#   docker build -t registry.example.com/gpushare-sim:0.1.0 .
#   gpushare-sim emit sweep-job --grid GRID --shards N \
#       --image registry.example.com/gpushare-sim:0.1.0 | kubectl apply -f -
# Debian 12 and its packages only, installed by the project's own script;
# the Release binary on the PATH, no tests or benchmarks built.
FROM debian:12
WORKDIR /src
COPY . .
RUN bash scripts/install-deps --build-only \
 && cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release \
      -DGS_BUILD_TESTS=OFF -DGS_BUILD_BENCH=OFF \
 && cmake --build /tmp/build -j"$(nproc)" --target gpushare-sim \
 && install -m 0755 /tmp/build/gpushare-sim /usr/local/bin/gpushare-sim \
 && rm -rf /tmp/build /var/lib/apt/lists/*
WORKDIR /work
ENTRYPOINT ["gpushare-sim"]
CMD ["--help"]
