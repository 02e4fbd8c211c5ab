// Context values given on the command line (`-c partners='[...]'`) arrive as strings,
// values in cdk.json as JSON, so a reader accepts both.

/** The value, parsed when it is a string holding a JSON array or object. */
export function maybeJson(value: string): unknown {
  const trimmed = value.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new Error(`context value is not valid JSON: ${value}`);
  }
}
