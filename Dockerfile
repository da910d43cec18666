# Builds the release binary and runs the service. SQLite in /data by default; set DATABASE_URL
# for PostgreSQL.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# `dist`: optimised across crates (Cargo.toml, [profile.dist]).
RUN cargo build --profile dist --locked

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/dist/despatch /usr/local/bin/despatch
WORKDIR /var/lib/despatch
ENV DESPATCH_BIND=0.0.0.0:8080 DATABASE_URL=sqlite:/var/lib/despatch/data/despatch.db?mode=rwc
EXPOSE 8080
VOLUME /var/lib/despatch/data
CMD ["despatch", "serve"]
