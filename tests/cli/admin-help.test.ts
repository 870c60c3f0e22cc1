import { expect } from 'chai';
import type { AdminCliDependencies } from '../../adapters/cli/admin-services.js';
import { runAdminCli } from '../../adapters/cli/run-admin-cli.js';
import { MemoryIo } from './support/memory-io.js';

/** Every command of DESIGN section 4 (sync comes with a later issue) and its flags. */
const COMMANDS: readonly (readonly [string[], string[]])[] = [
  [['migrate'], []],
  [['company', 'create'], ['--name']],
  [['key', 'issue'], ['--company', '--scopes', '--name', '--expires-at', '--actor']],
  [['key', 'revoke'], ['--id', '--actor']],
  [['key', 'list'], ['--company']],
  [['platform-token', 'issue'], ['--name', '--out']],
  [['platform-token', 'revoke'], ['--id']],
  [['platform-token', 'list'], []],
  [['vacancy', 'upsert'], ['--company', '--file']],
  [['vacancy', 'delete'], ['--company', '--id']],
  [['candidate', 'add'], ['--company', '--file']],
  [['candidate', 'update-resume'], ['--company', '--id', '--file']],
  [['candidate', 'move'], ['--company', '--id', '--stage']],
  [['candidate', 'transfer'], ['--company', '--id', '--vacancy']],
  [['candidate', 'delete'], ['--company', '--id']],
  [['board', 'set-columns'], ['--company', '--vacancy', '--columns']],
  [['import', 'hh'], ['--company', '--vacancies', '--resumes', '--vacancy']],
  [['seed', 'demo'], ['--vacancies', '--candidates']],
  [['check', 'renderings'], ['--repair']],
];

/** Dependencies that fail the test if a command reaches for a database. */
function untouchable(): AdminCliDependencies & { opened: number } {
  const deps = {
    opened: 0,
    async open() {
      deps.opened++;
      throw new Error('no database in this test');
    },
    async migrate() {
      deps.opened++;
      throw new Error('no database in this test');
    },
    async close() {},
  };
  return deps;
}

describe('admin CLI usage (in process)', () => {
  it('answers --help for every command with its flags, on stdout, with status 0 and no database', async () => {
    for (const [command, flags] of COMMANDS) {
      const io = new MemoryIo();
      const deps = untouchable();
      const status = await runAdminCli([...command, '--help'], deps, io);
      expect(status, command.join(' ')).to.equal(0);
      expect(io.stdout).to.contain(`Usage: admin ${command.join(' ')} [options]`);
      for (const flag of flags) expect(io.stdout, `${command.join(' ')} ${flag}`).to.contain(flag);
      expect(io.stderr).to.equal('');
      expect(deps.opened).to.equal(0);
    }
  });

  it('lists every command group in the top-level help', async () => {
    const io = new MemoryIo();
    expect(await runAdminCli(['--help'], untouchable(), io)).to.equal(0);
    for (const group of ['migrate', 'company', 'key', 'platform-token', 'vacancy', 'candidate', 'board', 'import', 'seed', 'check']) expect(io.stdout).to.match(new RegExp(`^  ${group}\\b`, 'm'));
  });

  it('reports a usage error on one line of stderr with a non-zero status, before opening anything', async () => {
    const cases: [string[], RegExp][] = [
      [['key', 'issue', '--scopes', 'vacancies:read'], /^error: required option '--company <id>' not specified$/],
      [['key', 'issu'], /^error: unknown command 'issu' \(Did you mean issue\?\)$/],
      [['seed', 'demo', '--candidates', 'many'], /^error: option '--candidates <n>' argument 'many' is invalid\. Expected a whole number/],
      [['key', 'issue', '--company', 'c', '--scopes', 'vacancies:read', '--expires-at', 'tomorrow'], /RFC 3339/],
      [['import', 'hh', '--company', 'c', '--vacancies', 'a.json', '--resumes', 'b.json'], /cannot be used with option '--resumes/],
      [['company', 'create', '--name', 'x', 'extra'], /too many arguments/],
      [['platform-token', 'issue'], /^error: required option '--name <name>' not specified$/],
    ];
    for (const [args, message] of cases) {
      const io = new MemoryIo();
      const deps = untouchable();
      const status = await runAdminCli(args, deps, io);
      expect(status, args.join(' ')).to.not.equal(0);
      expect(io.stdout).to.equal('');
      expect(io.stderr.trimEnd().split('\n'), args.join(' ')).to.have.length(1);
      expect(io.stderr.trimEnd()).to.match(message);
      expect(deps.opened).to.equal(0);
    }
  });

  it('reports a failure to open the stores on one line and closes what it opened', async () => {
    const io = new MemoryIo();
    let closed = 0;
    const deps: AdminCliDependencies = {
      open: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1\nat somewhere');
      },
      migrate: async () => ({}),
      close: async () => {
        closed++;
      },
    };
    expect(await runAdminCli(['company', 'create', '--name', 'x'], deps, io)).to.equal(1);
    expect(io.stderr).to.equal('error: unexpected failure: connect ECONNREFUSED 127.0.0.1:1 at somewhere\n');
    expect(closed).to.equal(1);
  });
});
