#!/usr/bin/env node
// The trainer's checker without Rust: `kube-bootstrap-lab tour check FILE` and `tour run FILE`
// (`npx kube-bootstrap-lab …` where the package is installed), on the page's own wasm
// (kube-bootstrap-lab_bg.wasm beside embed.js): the same answers as `bootstrap-sim tour check|run`,
// byte for byte, with its exit codes: 0 valid (every step arrived), 1 a step never arrived
// (`run`), 2 invalid input, one line `error: <field path>: <message>` on stderr. FILE `-` is
// the standard input. Needs Node.js 18 or later, nothing else.
import { readFileSync } from 'node:fs';

const NAME = 'kube-bootstrap-lab';
const USAGE = `usage: ${NAME} tour check FILE | tour run FILE | --help | --version`;
const HELP = `${USAGE}

Checks a tour file (docs/tour.md in this package) with the lab's own reader, as the page does:
  tour check FILE   exit 0 and no output when FILE is a valid tour
  tour run FILE     plays the tour through every step and prints one JSON object (the step
                    instants, and why a step never arrived)
FILE - reads the standard input. Exit codes: 0 valid, or every step arrived (run); 1 a step
never arrived (run); 2 invalid input, as one line on stderr: error: <field path>: <message>
`;

const here = new URL('../', import.meta.url);

/** Writes `text` to a stream and waits until it is handed over (a pipe may be slower than exit). */
const write = (stream, text) => new Promise((resolve) => (text ? stream.write(text, () => resolve()) : resolve()));

async function exit(code, stdout = '', stderr = '') {
  await write(process.stdout, stdout);
  await write(process.stderr, stderr);
  process.exit(code);
}

// What the Rust CLI says of a file it cannot read (`std::fs::read_to_string`'s errors).
const IO = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', EISDIR: 'Is a directory', ENOTDIR: 'Not a directory', ELOOP: 'Too many levels of symbolic links' };

/** The file's text, as Rust reads it (UTF-8, strictly; a byte-order mark is kept), or why not. */
function readText(path) {
  let bytes;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    const why = IO[e.code] ? `${IO[e.code]} (os error ${-e.errno})` : e.message;
    return { error: `${path}: ${why}` };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { error: `${path}: stream did not contain valid UTF-8` };
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && ['--help', '-h', 'help'].includes(args[0])) await exit(0, HELP);
if (args.length === 1 && ['--version', '-V'].includes(args[0])) {
  const { version } = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
  await exit(0, `${NAME} ${version}\n`);
}
const [group, command, file] = args;
if (args.length !== 3 || group !== 'tour' || !['check', 'run'].includes(command)) await exit(2, '', `error: ${USAGE}\n`);

const read = readText(file);
if (read.error) await exit(2, '', `error: ${read.error}\n`);

// The page's module: its start looks for the page's element and, with no window here, returns.
const lab = await import(new URL(`${NAME}.js`, here).href);
lab.initSync({ module: readFileSync(new URL(`${NAME}_bg.wasm`, here)) });
const answer = command === 'check' ? lab.tour_check(read.text) : lab.tour_run(read.text);
await exit(answer.code, answer.stdout, answer.stderr);
