#!/usr/bin/env bash
# Replays the runtime stage of the Dockerfile without a Docker engine, in a clean temporary directory, and checks
# the result the way the image would run:
#   1. every COPY of the stage, in order (sources from the build context, `--from=build` ones from the build
#      stage's output: the repository's dist/, built by `npm run build`; VERIFY_BUILD=1 replays the build stage
#      too, in its own clean directory), and every `npm ci` of its RUN lines; each context path the Dockerfile
#      copies must be let through by .dockerignore;
#   2. `ENTRYPOINT --version` prints the package.json version;
#   3. no package that the lockfile marks dev-only is installed, and `npm ls --omit=dev` finds nothing missing;
#   4. ENTRYPOINT + CMD starts as a non-root user (setpriv, else runuser), on a config listening on free loopback
#      ports; /readyz answers 200 and the Dockerfile's own HEALTHCHECK command exits 0;
#   5. SIGTERM stops it cleanly: exit 0, "tracejudge stopped" logged, the ports closed.
# Not replayed: the base image (node:20-bookworm-slim, not pulled), RUN lines other than `npm ci` (system changes
# such as the /var/lib/tracejudge directory), USER itself (a local user stands in for `node`), node being PID 1,
# and the engine running HEALTHCHECK on its schedule.
# Usage: bash scripts/image/verify.sh   (VERIFY_KEEP=1 keeps the temporary directory; it is printed)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dockerfile="$root/Dockerfile"
work="$(mktemp -d "${TMPDIR:-/tmp}/tj-image-XXXXXX")"
app="$work/app"
pid=""

say() { printf 'verify: %s\n' "$*"; }
fail() {
  printf 'verify: FAILED: %s\n' "$*" >&2
  if [ -f "$work/stderr" ]; then tail -n 20 "$work/stderr" >&2; fi
  exit 1
}
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  if [ "${VERIFY_KEEP:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# A small JSON query: jsq FILE 'expression over v' (the parsed file).
jsq() { node -e 'const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const r = (0, eval)(`(v) => ${process.argv[2]}`)(v); process.stdout.write(typeof r === "string" ? r : JSON.stringify(r));' "$1" "$2"; }

node "$here/dockerfile.mjs" "$dockerfile" runtime >"$work/runtime.json"
node "$here/dockerfile.mjs" "$dockerfile" build >"$work/build.json"
say "runtime stage: $(jsq "$work/runtime.json" 'v.length') instructions"

# Context paths the Dockerfile copies must not be excluded by .dockerignore (an allow-list: `*`, then `!path`).
for src in $(node -e '
  const steps = [...JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), ...JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"))];
  process.stdout.write(steps.filter((s) => s.op === "COPY" && !s.from).flatMap((s) => s.sources).join("\n"));' "$work/runtime.json" "$work/build.json"); do
  grep -qxF "!${src}" "$root/.dockerignore" || grep -qxF "!${src}/" "$root/.dockerignore" || fail ".dockerignore does not let $src into the build context"
done
say ".dockerignore lets every copied path through"

# Replays the COPY and `npm ci` steps of one stage into DIR; FROM_BUILD is where `--from=build` paths come from.
replay_stage() {
  local steps="$1" dir="$2" from_build="$3"
  mkdir -p "$dir"
  local n i op
  n="$(jsq "$steps" 'v.length')"
  for ((i = 0; i < n; i++)); do
    op="$(jsq "$steps" "v[$i].op")"
    case "$op" in
      COPY)
        local from dest base
        from="$(jsq "$steps" "v[$i].from ?? ''")"
        dest="$(jsq "$steps" "v[$i].dest")"
        while IFS= read -r src || [ -n "$src" ]; do
          if [ -n "$from" ]; then
            [ "$from" = build ] || fail "COPY --from=$from: only the build stage is known"
            base="$from_build/${src#/app/}"
          else
            base="$root/$src"
          fi
          [ -e "$base" ] || fail "COPY source $src does not exist ($base)"
          if [ "${dest%/}" != "$dest" ] || [ "$dest" = . ] || [ "$dest" = ./ ]; then
            mkdir -p "$dir/$dest"
            cp -R "$base" "$dir/$dest"
          else
            mkdir -p "$(dirname "$dir/$dest")"
            cp -R "$base" "$dir/$dest"
          fi
        done < <(jsq "$steps" "v[$i].sources.join('\n')")
        ;;
      RUN)
        local cmd part
        cmd="$(jsq "$steps" "v[$i].args")"
        # Each `&&` part that is npm ci or npm run runs here; anything else changes the system, not the app.
        while IFS= read -r part || [ -n "$part" ]; do
          part="$(printf '%s' "$part" | sed -e 's/^ *//' -e 's/ *$//')"
          case "$part" in
            "npm ci"* | "npm run "*)
              say "RUN $part"
              (cd "$dir" && npm_config_prefer_offline=true npm_config_update_notifier=false $part) >"$work/npm.log" 2>&1 || { cat "$work/npm.log" >&2; fail "$part"; }
              ;;
            *) say "not replayed: RUN $part" ;;
          esac
        done < <(printf '%s' "$cmd" | sed 's/&&/\n/g')
        ;;
    esac
  done
}

if [ "${VERIFY_BUILD:-0}" = 1 ]; then
  say "replaying the build stage"
  replay_stage "$work/build.json" "$work/build" "/nonexistent"
  build_out="$work/build"
else
  [ -f "$root/dist/cli/main.js" ] || fail "no dist/ (run npm run build, or VERIFY_BUILD=1 to replay the build stage)"
  build_out="$root"
  say "build stage output: $root/dist (npm run build)"
fi
replay_stage "$work/runtime.json" "$app" "$build_out"

entrypoint="$(jsq "$work/runtime.json" '(v.filter((s) => s.op === "ENTRYPOINT").pop() ?? { exec: [] }).exec.join("\n")')"
cmd="$(jsq "$work/runtime.json" '(v.filter((s) => s.op === "CMD").pop() ?? { exec: [] }).exec.join("\n")')"
mapfile -t ENTRY <<<"$entrypoint"
mapfile -t CMD <<<"$cmd"
mapfile -t HEALTH < <(jsq "$work/runtime.json" '(v.filter((s) => s.op === "HEALTHCHECK").pop() ?? { exec: [] }).exec.join("\n")')
[ "${#ENTRY[@]}" -gt 0 ] && [ -n "${ENTRY[0]}" ] || fail "no ENTRYPOINT in exec form"
mapfile -t ENVS < <(jsq "$work/runtime.json" 'v.filter((s) => s.op === "ENV").flatMap((s) => Object.entries(s.env).map(([k, x]) => `${k}=${x}`)).join("\n")')

# 2. --version
want="$(node -p 'require(process.argv[1]).version' "$app/package.json")"
got="$(cd "$app" && env -i PATH="$PATH" "${ENVS[@]}" "${ENTRY[@]}" --version)"
[ "$got" = "$want" ] || fail "${ENTRY[*]} --version printed '$got', package.json says '$want'"
say "ok: ${ENTRY[*]} --version = $got"

# 3. Production dependencies only.
dev="$(node -e '
  const fs = require("fs"), path = require("path");
  const [app] = process.argv.slice(1);
  const lock = JSON.parse(fs.readFileSync(path.join(app, "package-lock.json"), "utf8"));
  const devOnly = Object.entries(lock.packages).filter(([p, e]) => p !== "" && e.dev === true).map(([p]) => p);
  const present = devOnly.filter((p) => fs.existsSync(path.join(app, p)));
  process.stdout.write(`${devOnly.length} ${present.join(",")}`);' "$app")"
[ "${dev#* }" = "" ] || fail "dev-only packages installed: ${dev#* }"
[ "${dev%% *}" -gt 0 ] || fail "the lockfile marks no package dev-only (cannot tell)"
(cd "$app" && npm ls --omit=dev --all >/dev/null 2>"$work/npm-ls.log") || { cat "$work/npm-ls.log" >&2; fail "npm ls --omit=dev: missing or invalid production dependencies"; }
for devdep in $(node -p 'Object.keys(require(process.argv[1]).devDependencies ?? {}).join(" ")' "$app/package.json"); do
  if [ -e "$app/node_modules/$devdep" ] && ! node -e 'const l = require(process.argv[1]); process.exit(l.packages["node_modules/" + process.argv[2]]?.dev ? 1 : 0)' "$app/package-lock.json" "$devdep"; then
    fail "devDependency $devdep is installed"
  fi
done
say "ok: production dependencies only (${dev%% *} dev-only packages of the lockfile absent; npm ls --omit=dev clean)"

# 4. Start ENTRYPOINT + CMD as a non-root user.
if [ "$(id -u)" = 0 ]; then
  if id node >/dev/null 2>&1; then user=node; else user=nobody; fi
  uid="$(id -u "$user")"
  gid="$(id -g "$user")"
  if command -v setpriv >/dev/null 2>&1; then
    as_user=(setpriv --reuid="$uid" --regid="$gid" --clear-groups --)
  elif command -v runuser >/dev/null 2>&1; then
    as_user=(runuser -u "$user" --)
  else
    fail "running as root and neither setpriv nor runuser is available to switch to a non-root user"
  fi
  chmod -R a+rX "$work"
else
  user="$(id -un)"
  uid="$(id -u)"
  as_user=()
fi
cat >"$work/config.yaml" <<'YAML'
sources:
  otlp:
    http: { host: 127.0.0.1, port: 0 }
    grpc: { host: 127.0.0.1, port: 0 }
emit:
  stdout: { enabled: false }
  prometheus: { host: 127.0.0.1, port: 0 }
telemetry: { shutdownTimeoutMs: 5000 }
YAML
chmod a+r "$work/config.yaml"
say "starting as $user (uid $uid): ${ENTRY[*]} ${CMD[*]} -c config.yaml"
(
  cd "$app"
  exec env -i PATH="$PATH" HOME=/tmp TRACEJUDGE_LOG_LEVEL=info "${ENVS[@]}" "${as_user[@]}" "${ENTRY[@]}" "${CMD[@]}" -c "$work/config.yaml"
) >"$work/stdout" 2>"$work/stderr" &
pid=$!

started=""
for _ in $(seq 1 600); do
  started="$(grep -m1 '"msg":"tracejudge started"' "$work/stderr" || true)"
  [ -n "$started" ] && break
  kill -0 "$pid" 2>/dev/null || fail "the service exited before it started"
  sleep 0.1
done
[ -n "$started" ] || fail "no \"tracejudge started\" within 60 s"
metrics="$(printf '%s' "$started" | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => process.stdout.write(String(JSON.parse(s).ports.metrics ?? "")))')"
http="$(printf '%s' "$started" | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => process.stdout.write(String(JSON.parse(s).ports.http ?? "")))')"
[ -n "$metrics" ] || fail "the started line has no metrics port"
running_uid="$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")"
[ "$running_uid" != 0 ] || fail "the service runs as root"
say "ok: running as uid $running_uid (pid $pid), OTLP/HTTP :$http, metrics :$metrics"

status="$(node -e 'fetch(process.argv[1]).then((r) => process.stdout.write(String(r.status)), (e) => process.stdout.write(String(e)))' "http://127.0.0.1:$metrics/readyz")"
[ "$status" = 200 ] || fail "/readyz answered $status"
if [ "${#HEALTH[@]}" -gt 0 ] && [ -n "${HEALTH[0]}" ]; then
  (cd "$app" && env -i PATH="$PATH" "${ENVS[@]}" TRACEJUDGE_HEALTH_URL="http://127.0.0.1:$metrics/readyz" "${as_user[@]}" "${HEALTH[@]}") || fail "the HEALTHCHECK command exited $?"
  say "ok: /readyz 200, and the Dockerfile's HEALTHCHECK command exits 0"
else
  fail "no HEALTHCHECK CMD in exec form"
fi

# 5. SIGTERM: a clean stop.
kill -TERM "$pid"
code=""
for _ in $(seq 1 300); do
  if ! kill -0 "$pid" 2>/dev/null; then
    set +e
    wait "$pid"
    code=$?
    set -e
    break
  fi
  sleep 0.1
done
[ -n "$code" ] || fail "still running 30 s after SIGTERM"
pid=""
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
grep -q '"msg":"tracejudge stopped"' "$work/stderr" || fail "no \"tracejudge stopped\" log line"
for port in "$http" "$metrics"; do
  if node -e 'const s = require("net").connect(Number(process.argv[1]), "127.0.0.1"); s.on("connect", () => process.exit(0)); s.on("error", () => process.exit(1));' "$port"; then
    fail "port $port still open after the exit"
  fi
done
say "ok: SIGTERM → \"tracejudge stopped\", exit 0, ports closed"
say "PASS (not verified here: docker build itself, pulling the base image, RUN lines other than npm ci, USER, node as PID 1 in a container, the engine's HEALTHCHECK schedule)"
