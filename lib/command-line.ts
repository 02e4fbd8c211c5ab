import { type ParseArgsOptionDescriptor, parseArgs } from 'node:util';

// The command line of every command a person runs (test/unit/bin/help.test.ts): `--help` (or
// `-h`) prints the usage and exits 0 before the command does anything; an unknown option,
// a missing value or a stray argument gets one sentence and the usage on stderr, and exit 2,
// never a stack trace.

type Options = Record<string, ParseArgsOptionDescriptor>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

/** The options given, or the command ends: `--help` with its usage (exit 0), a mistake with one sentence (exit 2). */
export function commandLine<const O extends Options>(usage: string, options: O): Values<O> {
  return parsed(usage, options, false).values;
}

/** As `commandLine`, for a command that also takes arguments: the options and the arguments given. */
export function commandLineWithArguments<const O extends Options>(
  usage: string,
  options: O,
): { values: Values<O>; positionals: string[] } {
  return parsed(usage, options, true);
}

function parsed<const O extends Options>(
  usage: string,
  options: O,
  allowPositionals: boolean,
): { values: Values<O>; positionals: string[] } {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    }));
  } catch (error) {
    return usageError(usage, mistakeOf(error as Error & { code?: string }));
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  delete values.help;
  return { values: values as Values<O>, positionals };
}

/** Ends the command with one sentence and the usage on stderr, exit 2: the caller's mistake. */
export function usageError(usage: string, sentence: string): never {
  console.error(`${sentence}\n${usage}`);
  process.exit(2);
}

/** Node's parse error in one sentence: the option it is about, and what is wrong with it. */
function mistakeOf(error: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `option ${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']+)'/.exec(error.message)?.[1] ?? ''}`.trimEnd();
    default:
      return error.message.split('. ')[0] ?? error.message;
  }
}
