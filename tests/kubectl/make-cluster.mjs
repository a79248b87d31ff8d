// Writes a cluster of N Services shaped like `kubectl get svc -A -o json` from a real cluster,
// then the `kubernetes` Endpoints, as one paste: `node tests/kubectl/make-cluster.mjs 10000 > c.json`.
// Every Service type appears (ClusterIP, NodePort, LoadBalancer with healthCheckNodePort,
// headless, ExternalName), some dual-stack, all with managedFields and status; ClusterIPs are
// in 10.96.0.0/12 and fd00:10:96::/108, NodePorts in 30000-32767. Three planted faults give
// known findings: a ClusterIP out of the range, a ClusterIP shared by two Services and a
// NodePort shared by two Services.
const n = Number(process.argv[2] ?? 10000);
if (!Number.isInteger(n) || n < 10 || n > 300000) {
  console.error("usage: make-cluster.mjs N (10 to 300000 Services)");
  process.exit(2);
}

const v4 = (i) => `10.${96 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
const v6 = (i) => `fd00:10:96::${i >> 16 ? `${(i >> 16).toString(16)}:` : ''}${(i & 0xffff).toString(16)}`;
const uid = (i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
const managed = (time) => [
  { apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { "f:ports": {}, "f:selector": {}, "f:type": {} } },
    manager: "kubectl-client-side-apply", operation: "Update", time },
];

function service(i, namespace, name, spec, extra = {}) {
  const time = "2025-03-02T08:11:40Z";
  return {
    apiVersion: "v1", kind: "Service",
    metadata: { creationTimestamp: time, labels: { app: name }, managedFields: managed(time), name, namespace,
      resourceVersion: String(1000 + i), uid: uid(i), ...extra },
    spec: { internalTrafficPolicy: "Cluster", sessionAffinity: "None", ...spec },
    status: { loadBalancer: spec.type === "LoadBalancer" ? { ingress: [{ ip: `203.0.113.${i % 250}` }] } : {} },
  };
}

const items = [
  service(0, "default", "kubernetes", {
    clusterIP: "10.96.0.1", clusterIPs: ["10.96.0.1"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
    ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }], type: "ClusterIP",
  }, { labels: { component: "apiserver", provider: "kubernetes" } }),
  service(1, "kube-system", "kube-dns", {
    clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.10"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
    ports: [{ name: "dns", port: 53, protocol: "UDP", targetPort: 53 }, { name: "dns-tcp", port: 53, protocol: "TCP", targetPort: 53 }],
    selector: { "k8s-app": "kube-dns" }, type: "ClusterIP",
  }),
];
let nodePort = 30000;
const ports = (i, type) => {
  const port = { name: "http", port: 80, protocol: "TCP", targetPort: 8080 };
  if (type === "NodePort" || type === "LoadBalancer") port.nodePort = nodePort <= 32767 ? nodePort++ : undefined;
  return [port];
};
for (let i = 2; items.length < n; i++) {
  const namespace = `team-${i % 40}`;
  const name = `svc-${String(i).padStart(6, "0")}`;
  const kind = i % 10;
  const ip = v4(1000 + i);
  if (kind === 7) {
    items.push(service(i, namespace, name, { type: "ExternalName", externalName: `${name}.example.com` }));
  } else if (kind === 8) {
    items.push(service(i, namespace, name, {
      clusterIP: "None", clusterIPs: ["None"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
      ports: ports(i, "ClusterIP"), selector: { app: name }, type: "ClusterIP",
    }));
  } else if (kind === 9) {
    items.push(service(i, namespace, name, {
      clusterIP: ip, clusterIPs: [ip, v6(1000 + i)], ipFamilies: ["IPv4", "IPv6"], ipFamilyPolicy: "PreferDualStack",
      ports: ports(i, "ClusterIP"), selector: { app: name }, type: "ClusterIP",
    }));
  } else {
    const type = kind === 3 ? "NodePort" : kind === 5 && i % 20 === 5 ? "LoadBalancer" : "ClusterIP";
    const spec = {
      clusterIP: ip, clusterIPs: [ip], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
      ports: ports(i, type), selector: { app: name }, type,
    };
    if (type === "LoadBalancer") {
      spec.externalTrafficPolicy = "Local";
      spec.healthCheckNodePort = nodePort <= 32767 ? nodePort++ : undefined;
    }
    items.push(service(i, namespace, name, JSON.parse(JSON.stringify(spec))));
  }
}
// The planted faults, on the last Services.
const last = (k) => items[items.length - k].spec;
Object.assign(last(1), { clusterIP: "10.200.0.5", clusterIPs: ["10.200.0.5"], type: "ClusterIP" });
Object.assign(last(2), { clusterIP: "10.96.3.240", clusterIPs: ["10.96.3.240"], type: "ClusterIP" });
Object.assign(last(3), { clusterIP: "10.96.3.240", clusterIPs: ["10.96.3.240"], type: "NodePort",
  ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080, nodePort: 30000 }] });
for (const k of [1, 2, 3]) delete last(k).externalName, (last(k).ipFamilies = ["IPv4"]), (last(k).ipFamilyPolicy = "SingleStack");

process.stdout.write(JSON.stringify({ apiVersion: "v1", kind: "List", items, metadata: { resourceVersion: "" } }, null, 1));
process.stdout.write("\n");
process.stdout.write(JSON.stringify({
  apiVersion: "v1", kind: "Endpoints",
  metadata: { labels: { "endpointslice.kubernetes.io/skip-mirror": "true" }, name: "kubernetes", namespace: "default" },
  subsets: [{ addresses: [{ ip: "192.168.10.11" }, { ip: "192.168.10.12" }, { ip: "192.168.10.13" }],
    ports: [{ name: "https", port: 6443, protocol: "TCP" }] }],
}, null, 1));
process.stdout.write("\n");
