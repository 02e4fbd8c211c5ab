import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerDescription } from '../../lib/constructs/consumer-function';
import { TENANT_ALIAS_RESOURCE_TYPE } from '../../lib/constructs/tenant-aliases';
import { CONSUMERS, ROUTES, routeKey } from '../../lib/service';
import { buildApp } from './harness';

interface LambdaResource {
  Type: string;
  Properties: { Description: string; Code: { S3Key: string }; ServiceToken?: { 'Fn::GetAtt': [string, string] } };
}

/** The one test that bundles for real, with the local esbuild (no Docker), as `cdk synth` does. */
describe('asset bundling', () => {
  it('bundles every route and consumer handler into a minified ESM file with source map and the AWS SDK inside', () => {
    const { app, stack } = buildApp({ bundle: true });
    const assembly = app.synth();
    const resources = assembly.getStackArtifact(stack.artifactId).template.Resources as Record<string, LambdaResource>;
    // The tenant-alias custom resources' provider is aws-cdk-lib's prebuilt handler, not ours.
    const providerIds = new Set(
      Object.values(resources)
        .filter((r) => r.Type === TENANT_ALIAS_RESOURCE_TYPE)
        .map((r) => r.Properties.ServiceToken?.['Fn::GetAtt'][0]),
    );
    expect(providerIds.size).toBe(1);
    const functions = Object.entries(resources)
      .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !providerIds.has(id))
      .map(([, r]) => r);
    expect(functions.map((f) => f.Properties.Description).sort()).toEqual(
      [...ROUTES.map(routeKey), ...CONSUMERS.map(consumerDescription)].sort(),
    );

    for (const fn of functions) {
      // The asset's S3 key is its content hash, which also names its staging directory.
      const hash = fn.Properties.Code.S3Key.replace(/\.zip$/, '');
      const bundle = join(assembly.directory, `asset.${hash}`, 'index.mjs');
      expect(existsSync(bundle), `${fn.Properties.Description}: ${bundle}`).toBe(true);
      expect(existsSync(`${bundle}.map`)).toBe(true);
      const code = readFileSync(bundle, 'utf8');
      expect(code).toContain('createRequire');
      // Bundled, not left to the runtime's copy: no bare import of an SDK package remains.
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(statSync(bundle).size).toBeLessThan(2 * 1024 * 1024);
    }
  });
});
