// Reads the Containerfile with dockerfile-ast: its stages, and how the final stage starts the
// server (argv, environment, user), so a test can start the server exactly as the image does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';

export const CONTAINERFILE = fileURLToPath(new URL('../../Containerfile', import.meta.url));

/**
 * The stages of a Containerfile, in order: `{ from, name, instructions }`, where `from` is the
 * `FROM` instruction and `instructions` every instruction after it up to the next `FROM`.
 */
export function parseStages(text = readFileSync(CONTAINERFILE, 'utf8')) {
  const stages = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      stages.push({ from: instruction, name: instruction.getBuildStage() ?? undefined, instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1).instructions.push(instruction);
    }
  }
  return stages;
}

/**
 * The ARGs declared before the first FROM, with their defaults: `{ NAME: value }` (`undefined` for
 * an ARG without one). Only these may appear in a FROM.
 */
export function globalArgs(text = readFileSync(CONTAINERFILE, 'utf8')) {
  const args = {};
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') break;
    if (instruction.getKeyword() !== 'ARG') continue;
    for (const property of instruction.getProperties()) args[property.getName()] = property.getValue() ?? undefined;
  }
  return args;
}

/**
 * The FROM of a stage with the global ARGs' defaults (or `buildArgs`) substituted, parsed again:
 * a `From` whose getRegistry()/getImageName()/getImageTag() describe the image it names.
 */
export function resolveFrom(stage, args, buildArgs = {}) {
  const values = { ...args, ...buildArgs };
  const text = stage.from.getImage().replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, bare) => {
    const value = values[braced ?? bare];
    if (value === undefined) throw new Error(`FROM ${stage.from.getImage()}: ARG ${braced ?? bare} has no value`);
    return value;
  });
  return DockerfileParser.parse(`FROM ${text}\n`).getFROMs()[0];
}

/** The exec-form (JSON array) arguments of CMD or ENTRYPOINT; a shell form throws, naming the line. */
export function execForm(instruction) {
  const strings = instruction.getJSONStrings();
  if (strings.length === 0 || instruction.getOpeningBracket() === null) {
    throw new Error(`${instruction.getKeyword()} on line ${instruction.getRange().start.line + 1} is not in exec form (a JSON array)`);
  }
  return strings.map((string) => string.getJSONValue());
}

/**
 * `HEALTHCHECK [flags] CMD …` of a stage: `{ flags: {interval: '30s', …}, argv }` (`argv` of
 * the exec form, or `['/bin/sh', '-c', text]` for the shell form), or `undefined` without one.
 */
export function healthcheckOf(stage) {
  const instruction = stage.instructions.filter((i) => i.getKeyword() === 'HEALTHCHECK').at(-1);
  if (instruction === undefined) return undefined;
  const flags = Object.fromEntries(instruction.getFlags().map((flag) => [flag.getName(), flag.getValue()]));
  const subcommand = instruction.getSubcommand();
  if (subcommand === null || subcommand.getValue().toUpperCase() !== 'CMD') return { flags, argv: undefined };
  const text = instruction.getArgumentsContent().slice(instruction.getArgumentsContent().indexOf(subcommand.getValue()) + subcommand.getValue().length).trim();
  return { flags, argv: text.startsWith('[') ? JSON.parse(text) : ['/bin/sh', '-c', text] };
}

/** `ENV` of a stage, in order, later ones winning: `{ NAME: value }` (what the Containerfile sets; the base image adds its own, such as PATH). */
export function envOf(stage) {
  const env = {};
  for (const instruction of stage.instructions.filter((i) => i.getKeyword() === 'ENV')) {
    for (const property of instruction.getProperties()) env[property.getName()] = property.getUnescapedValue() ?? '';
  }
  return env;
}

/**
 * How the image starts the server, from the final stage of the Containerfile:
 * - `argv`: ENTRYPOINT followed by CMD (`['/usr/bin/tini', '--', 'node', 'dist/lib/cli/main.js', 'serve']`);
 *   `entrypoint` and `cmd` separately;
 * - `env`: the stage's ENV (`HOST`, `PORT`, `BROWSER_REPL_CHROME`, …);
 * - `user`: the USER value as written, with `uid` and `gid` (numbers, resolved through the
 *   stage's `useradd --uid`/`groupadd --gid` when USER names a user) or `undefined` when unknown;
 * - `workdir`: the last WORKDIR (the package root in the image), `expose`: the EXPOSEd ports.
 */
export function imageRuntime(file = CONTAINERFILE) {
  const stages = parseStages(readFileSync(file, 'utf8'));
  const stage = stages.at(-1);
  if (stage === undefined) throw new Error(`${file} has no FROM`);
  const last = (keyword) => stage.instructions.filter((i) => i.getKeyword() === keyword).at(-1);
  const entrypoint = last('ENTRYPOINT') === undefined ? [] : execForm(last('ENTRYPOINT'));
  const cmd = last('CMD') === undefined ? [] : execForm(last('CMD'));
  const user = last('USER')?.getArguments().map((a) => a.getValue()).join(' ');
  const workdir = last('WORKDIR')?.getArguments().map((a) => a.getValue()).join(' ');
  const expose = stage.instructions.filter((i) => i.getKeyword() === 'EXPOSE').flatMap((i) => i.getArguments().map((a) => a.getValue()));
  return { argv: [...entrypoint, ...cmd], entrypoint, cmd, env: envOf(stage), user, ...resolveUser(stage, user), workdir, expose };
}

/** Numeric uid and gid of `USER name[:group]` or `USER uid[:gid]`, from the stage's own useradd/groupadd. */
export function resolveUser(stage, user) {
  if (user === undefined) return { uid: undefined, gid: undefined };
  const [name, group] = user.split(':');
  const runs = stage.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() ?? '').join('\n');
  const created = (command, flag, who) => {
    for (const match of runs.matchAll(new RegExp(`${command}\\s+([^&;|\\n]*)`, 'g'))) {
      const words = match[1].trim().split(/\s+/);
      if (words.at(-1) !== who) continue;
      const index = words.indexOf(flag);
      if (index !== -1 && /^\d+$/.test(words[index + 1] ?? '')) return Number(words[index + 1]);
    }
    return undefined;
  };
  const uid = /^\d+$/.test(name) ? Number(name) : created('useradd', '--uid', name);
  let gid;
  if (group !== undefined) gid = /^\d+$/.test(group) ? Number(group) : created('groupadd', '--gid', group);
  else if (!/^\d+$/.test(name)) gid = created('useradd', '--gid', name);
  return { uid, gid };
}
