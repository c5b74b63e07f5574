# Sourced by scripts/test: install (when missing) and start the real servers the
# integration and browser tiers need — PostgreSQL, Redis, Chromium — privately, on
# loopback, in a scratch directory, and stop them on exit. nginx is installed for the
# deployment tier (tests/deploy/), which starts its own, with its own configuration.

need_packages() {
    local missing=()
    # Debian's own: the tests that restart Redis look for it on the system PATH, not in .venv
    [ -x /usr/bin/redis-server ] || missing+=(redis-server)
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "Installing ${missing[*]} from Debian's packages" >&2
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

SERVICES_DIR=""
start_services() {
    SERVICES_DIR="$(mktemp -d /tmp/durak-services.XXXXXX)"
    chmod 755 "$SERVICES_DIR"
    local pg_bin pg_port="${TEST_PG_PORT:-55432}" redis_port="${TEST_REDIS_PORT:-56379}"
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    mkdir -p "$SERVICES_DIR/pg"
    local as_pg=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres:postgres "$SERVICES_DIR/pg"
        as_pg=(runuser -u postgres --)
    fi
    "${as_pg[@]}" "$pg_bin/initdb" -D "$SERVICES_DIR/pg/data" -U postgres -A trust >/dev/null
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$SERVICES_DIR/pg/data" -l "$SERVICES_DIR/pg/log" -w \
        -o "-p $pg_port -k $SERVICES_DIR/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
        start >/dev/null
    PG_CTL=("${as_pg[@]}" "$pg_bin/pg_ctl" -D "$SERVICES_DIR/pg/data")
    "${as_pg[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres durak
    CREATEDB=("${as_pg[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres)
    redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
        --dir "$SERVICES_DIR" --daemonize yes --pidfile "$SERVICES_DIR/redis.pid" \
        --logfile "$SERVICES_DIR/redis.log"
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/durak"
    export REDIS_URL="redis://127.0.0.1:$redis_port/0"
    for _ in $(seq 50); do
        redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    echo "PostgreSQL at $DATABASE_URL, Redis at $REDIS_URL" >&2
}

# Another database on the same PostgreSQL (for a second pytest run beside the first).
create_database() {
    "${CREATEDB[@]}" "$1"
}

stop_services() {
    [ -n "$SERVICES_DIR" ] || return 0
    "${PG_CTL[@]}" stop -m fast >/dev/null 2>&1 || true
    [ -f "$SERVICES_DIR/redis.pid" ] && kill "$(cat "$SERVICES_DIR/redis.pid")" 2>/dev/null || true
    rm -rf "$SERVICES_DIR"
    SERVICES_DIR=""
}
