/**
 * The Kubernetes manifests (issue 20, item 6) against the Kubernetes schemas (kubernetes-models, the
 * API's OpenAPI schemas as validators, offline), and against what the service needs of them: traffic
 * on /ready, restarts on /health, a preStop pause before the drain, a disruption budget, an
 * autoscaler on the Deployment, and Redis beside it.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';

const DIR = join(import.meta.dirname, '..', '..', 'deploy', 'kubernetes');

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec: Record<string, unknown> };

const MODELS: Record<string, (m: Manifest) => { validate(): void }> = {
  'apps/v1 Deployment': (m) => new Deployment(m as never),
  'apps/v1 StatefulSet': (m) => new StatefulSet(m as never),
  'v1 Service': (m) => new Service(m as never),
  'policy/v1 PodDisruptionBudget': (m) => new PodDisruptionBudget(m as never),
  'autoscaling/v2 HorizontalPodAutoscaler': (m) => new HorizontalPodAutoscaler(m as never),
};

describe('deploy/kubernetes', () => {
  const manifests: Manifest[] = readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(DIR, f), 'utf8')).map((d) => d.toJS() as Manifest));
  const find = (kind: string, name: string): Manifest => {
    const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name}`);
    return found;
  };

  it('holds only objects the Kubernetes schemas accept', () => {
    expect(manifests.length).to.be.greaterThan(0);
    for (const m of manifests) {
      const model = MODELS[`${m.apiVersion} ${m.kind}`];
      expect(model, `${m.apiVersion} ${m.kind} has a schema here`).to.be.a('function');
      expect(() => model(m).validate(), `${m.kind} ${m.metadata.name}`).not.to.throw();
    }
  });

  it('rejects a broken object (the validation is real)', () => {
    const broken = structuredClone(find('Deployment', 'cpet-api'));
    (broken.spec as { replicas: unknown }).replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).to.throw();
  });

  it('routes on /ready, restarts on /health, pauses before the drain, and outlasts it', () => {
    const pod = (find('Deployment', 'cpet-api').spec as { template: { spec: Record<string, unknown> } }).template.spec as {
      terminationGracePeriodSeconds: number;
      containers: {
        readinessProbe: { httpGet: { path: string } };
        livenessProbe: { httpGet: { path: string } };
        lifecycle: { preStop: { sleep: { seconds: number } } };
        env: { name: string; value?: string }[];
      }[];
    };
    const [api] = pod.containers;
    expect(api.readinessProbe.httpGet.path).to.equal('/ready');
    expect(api.livenessProbe.httpGet.path).to.equal('/health');
    const drainS = Number(api.env.find((e) => e.name === 'DRAIN_TIMEOUT_S')?.value);
    expect(api.lifecycle.preStop.sleep.seconds + drainS).to.be.below(pod.terminationGracePeriodSeconds);
    expect(api.env.find((e) => e.name === 'REDIS_URL')?.value).to.match(/^redis:\/\/redis:6379\//);
  });

  it('keeps instances through disruptions and scales the Deployment, with Redis beside it', () => {
    const labels = (find('Deployment', 'cpet-api').spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
    expect((find('PodDisruptionBudget', 'cpet-api').spec as { selector: { matchLabels: unknown } }).selector.matchLabels).to.deep.equal(labels);
    expect((find('HorizontalPodAutoscaler', 'cpet-api').spec as { scaleTargetRef: unknown }).scaleTargetRef).to.deep.equal({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'cpet-api' });
    find('StatefulSet', 'redis');
    find('Service', 'redis');
  });
});
