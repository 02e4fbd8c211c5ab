import type { RouteDefinition } from '#lib/service/index';

// Route selection as an HTTP API does it: the method must be equal (no HEAD or OPTIONS
// fallback without a route for them), the path is compared segment by segment, `{name}`
// takes exactly one non-empty segment and `{name+}` the rest of the path. When several
// routes match, the most specific wins: at the first segment where they differ, a literal
// beats a parameter, which beats a greedy parameter.

export interface RouteMatch<R extends RouteDefinition = RouteDefinition> {
  readonly route: R;
  /** URL-decoded, as the event's `pathParameters` carries them. */
  readonly pathParameters: Record<string, string>;
}

type Segment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'greedy'; readonly name: string };

interface CompiledRoute<R> {
  readonly route: R;
  readonly segments: readonly Segment[];
}

export class RouteTable<R extends RouteDefinition = RouteDefinition> {
  private readonly compiled: readonly CompiledRoute<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes
      .map((route) => ({ route, segments: parseTemplate(route.path) }))
      .sort((a, b) => compareSpecificity(a.segments, b.segments));
  }

  match(method: string, rawPath: string): RouteMatch<R> | undefined {
    const segments = rawPath.split('/').slice(1);
    for (const { route, segments: template } of this.compiled) {
      if (route.method !== method) continue;
      const pathParameters = matchSegments(template, segments);
      if (pathParameters) return { route, pathParameters };
    }
    return undefined;
  }
}

export function parseTemplate(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const greedy = /^\{(.+)\+\}$/.exec(part);
      if (greedy) return { kind: 'greedy', name: greedy[1] as string };
      const param = /^\{(.+)\}$/.exec(part);
      if (param) return { kind: 'param', name: param[1] as string };
      return { kind: 'literal', value: part };
    });
}

function matchSegments(template: readonly Segment[], actual: readonly string[]): Record<string, string> | undefined {
  const parameters: Record<string, string> = {};
  for (const [index, segment] of template.entries()) {
    if (segment.kind === 'greedy') {
      const rest = actual.slice(index).join('/');
      if (!rest) return undefined;
      parameters[segment.name] = decode(rest);
      return parameters;
    }
    const value = actual[index];
    if (value === undefined) return undefined;
    if (segment.kind === 'literal') {
      if (value !== segment.value) return undefined;
    } else {
      if (!value) return undefined;
      parameters[segment.name] = decode(value);
    }
  }
  return actual.length === template.length ? parameters : undefined;
}

const RANK: Record<Segment['kind'], number> = { literal: 0, param: 1, greedy: 2 };

function compareSpecificity(a: readonly Segment[], b: readonly Segment[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = RANK[(a[index] as Segment).kind] - RANK[(b[index] as Segment).kind];
    if (difference !== 0) return difference;
  }
  return b.length - a.length;
}

/** A malformed escape (`%E0%A4%A`) is passed on as sent rather than failing the request. */
function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
