/**
 * `.ci/run` installs Prometheus and Alertmanager without stopping anything by name: it sources the script
 * (which then runs nothing) and calls its `install_debian_tools` with stand-ins for apt-get and systemctl on
 * PATH. The stand-in apt-get "starts" the prometheus and prometheus-alertmanager services the way the packages'
 * postinst scripts do, unless the policy-rc.d in place answers 101. Checked: the script's own policy is in place during the install and removed after; a policy
 * that was already there is left as it was; a service the install started is stopped through systemctl; a
 * service that was running before is not touched; nothing is stopped by process name.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const SCRIPT = join(ROOT, '.ci/run');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * What the real tools would do, as files in `state`: `running` while the Prometheus service runs,
 * `running.prometheus-alertmanager` while the Alertmanager service runs, `log` of calls.
 */
const APT_GET = `#!/bin/bash
echo "apt-get $*" >>"$STATE/log"
if [ "$1" = install ]; then
  for unit in prometheus prometheus-alertmanager; do
    case " $* " in *" $unit "*) ;; *) continue ;; esac
    if [ -x "$POLICY_RC_D" ]; then "$POLICY_RC_D" $unit start; code=$?; else code=none; fi
    echo "policy during install of $unit: $code" >>"$STATE/log"
    # invoke-rc.d starts the service unless the policy answers 101.
    if [ "$code" != 101 ]; then touch "$STATE/$([ $unit = prometheus ] && echo running || echo running.$unit)"; fi
  done
fi
exit 0
`;
const SYSTEMCTL = `#!/bin/bash
echo "systemctl $*" >>"$STATE/log"
unit="\${@: -1}"
file="$STATE/$([ "$unit" = prometheus ] && echo running || echo "running.$unit")"
case "$1" in
  is-active) [ -e "$file" ] ;;
  stop) rm -f "$file" ;;
  *) exit 1 ;;
esac
`;

interface Sandbox {
  state: string;
  policy: string;
  log(): string[];
  install(): Promise<void>;
}

function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'tj-ci-run-'));
  dirs.push(dir);
  const bin = join(dir, 'bin');
  const state = join(dir, 'state');
  mkdirSync(bin);
  mkdirSync(state);
  for (const [name, text] of [['apt-get', APT_GET], ['systemctl', SYSTEMCTL]] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  // Only the tools the function needs besides the stand-ins: no promtool, prometheus or chromium, so it installs.
  for (const tool of ['chmod', 'rm', 'touch', 'dirname']) {
    const real = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (real) symlinkSync(real, join(bin, tool));
  }
  const policy = join(dir, 'policy-rc.d');
  return {
    state,
    policy,
    log: () => (existsSync(join(state, 'log')) ? readFileSync(join(state, 'log'), 'utf8').trim().split('\n') : []),
    install: async () => {
      await run('/bin/bash', ['-c', `source ${JSON.stringify(SCRIPT)} && install_debian_tools`], {
        env: { PATH: bin, STATE: state, POLICY_RC_D: policy, HOME: dir },
        timeout: 30_000,
      });
    },
  };
}

describe('.ci/run installs Prometheus and Alertmanager and stops only what its install started', () => {
  it('stops nothing by process name', () => {
    const code = readFileSync(SCRIPT, 'utf8')
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('#'))
      .join('\n');
    expect(code).not.toMatch(/\b(pkill|killall|pgrep|pidof)\b/);
    expect(code).not.toMatch(/\bkill\b/);
  });

  it('with no policy-rc.d: its own policy (exit 101) is in place during the install, removed after; nothing starts or is stopped', async () => {
    const s = sandbox();
    await s.install();
    expect(s.log()).toContain('policy during install of prometheus: 101');
    expect(s.log()).toContain('policy during install of prometheus-alertmanager: 101');
    expect(existsSync(s.policy)).toBe(false);
    expect(existsSync(join(s.state, 'running'))).toBe(false);
    expect(existsSync(join(s.state, 'running.prometheus-alertmanager'))).toBe(false);
    expect(s.log().some((l) => l.startsWith('systemctl stop'))).toBe(false);
  });

  it('with a policy that allows starts: that policy is kept as it was, and the service the install started is stopped through systemctl', async () => {
    const s = sandbox();
    const allow = '#!/bin/sh\n# someone else\'s\nexit 0\n';
    writeFileSync(s.policy, allow);
    chmodSync(s.policy, 0o755);
    await s.install();
    expect(s.log()).toContain('policy during install of prometheus: 0');
    expect(s.log()).toContain('policy during install of prometheus-alertmanager: 0');
    expect(readFileSync(s.policy, 'utf8')).toBe(allow);
    expect(s.log()).toContain('systemctl stop prometheus');
    expect(s.log()).toContain('systemctl stop prometheus-alertmanager');
    expect(existsSync(join(s.state, 'running'))).toBe(false);
    expect(existsSync(join(s.state, 'running.prometheus-alertmanager'))).toBe(false);
  });

  it('a Prometheus service that was running before the install is left running; the Alertmanager the install started is stopped', async () => {
    const s = sandbox();
    writeFileSync(s.policy, '#!/bin/sh\nexit 0\n');
    chmodSync(s.policy, 0o755);
    writeFileSync(join(s.state, 'running'), '');
    await s.install();
    expect(s.log().some((l) => l.startsWith('apt-get install'))).toBe(true);
    expect(s.log().filter((l) => l.startsWith('systemctl stop'))).toEqual(['systemctl stop prometheus-alertmanager']);
    expect(existsSync(join(s.state, 'running'))).toBe(true);
    expect(existsSync(join(s.state, 'running.prometheus-alertmanager'))).toBe(false);
  });

  it('an Alertmanager service that was running before the install is left running', async () => {
    const s = sandbox();
    writeFileSync(s.policy, '#!/bin/sh\nexit 0\n');
    chmodSync(s.policy, 0o755);
    writeFileSync(join(s.state, 'running.prometheus-alertmanager'), '');
    await s.install();
    expect(s.log().filter((l) => l.startsWith('systemctl stop'))).toEqual(['systemctl stop prometheus']);
    expect(existsSync(join(s.state, 'running.prometheus-alertmanager'))).toBe(true);
  });

  it('installs nothing when promtool, prometheus, prometheus-alertmanager, chromium and openssl are there', async () => {
    const s = sandbox();
    for (const tool of ['promtool', 'prometheus', 'prometheus-alertmanager', 'chromium', 'openssl']) {
      writeFileSync(join(s.state, '..', 'bin', tool), '#!/bin/sh\nexit 0\n');
      chmodSync(join(s.state, '..', 'bin', tool), 0o755);
    }
    await s.install();
    expect(s.log()).toEqual([]);
  });
});
