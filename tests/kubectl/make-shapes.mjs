// Writes the fixtures of the shapes a paste takes besides `-o json` of a `List`, each from a
// distribution with its own service-cluster-ip-range default: `node tests/kubectl/make-shapes.mjs`
// (run from the repository root; rewrites tests/kubectl/shape-*.{json,txt}).
//   shape-eks-typed.json       a `ServiceList` and an `EndpointsList` (as the API and
//                              `kubectl cluster-info dump` print them: items without `kind`),
//                              EKS (10.100.0.0/16): only the kubernetes and kube-dns Services
//   shape-k3s-prompt.txt       a terminal copied whole: prompt and command lines before each
//                              document, k3s (10.43.0.0/16), ClusterIPs past 10.43.127.255
//   shape-kind-concat.json     several documents one after another (a `List`, an Endpoints,
//                              a `ServiceCIDRList`, an `IPAddressList`), kind (10.96.0.0/16)
//   shape-kind-no-endpoints.json  kind's Services alone: the range and the apiserver guessed
//   shape-not-kubectl.json     a dump in another format (no apiVersion, no kind)
//   shape-kind-yaml.txt        `-o yaml` after its command line, two documents (`---`)
import { writeFileSync } from "node:fs";

const time = "2026-01-12T09:30:00Z";
const uid = (i) => `6f1c2a9e-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
const meta = (i, namespace, name, labels) => ({
  creationTimestamp: time, ...(labels ? { labels } : {}), name, ...(namespace ? { namespace } : {}),
  resourceVersion: String(400 + i), uid: uid(i),
});
const svc = (i, namespace, name, ip, ports, extra = {}, kind = true) => ({
  ...(kind ? { apiVersion: "v1", kind: "Service" } : {}),
  metadata: meta(i, namespace, name, extra.labels),
  spec: { clusterIP: ip, clusterIPs: [ip], internalTrafficPolicy: "Cluster", ipFamilies: ["IPv4"],
    ipFamilyPolicy: "SingleStack", ports, sessionAffinity: "None", type: "ClusterIP", ...(extra.spec ?? {}) },
  status: { loadBalancer: {} },
});
const https = [{ name: "https", port: 443, protocol: "TCP", targetPort: 443 }];
const dns = [{ name: "dns", port: 53, protocol: "UDP", targetPort: 53 }, { name: "dns-tcp", port: 53, protocol: "TCP", targetPort: 53 }];
const apiserver = { labels: { component: "apiserver", provider: "kubernetes" } };
const endpoints = (ips, port, kind = true) => ({
  ...(kind ? { apiVersion: "v1", kind: "Endpoints" } : {}),
  metadata: meta(90, "default", "kubernetes", { "endpointslice.kubernetes.io/skip-mirror": "true" }),
  subsets: [{ addresses: ips.map((ip) => ({ ip })), ports: [{ name: "https", port, protocol: "TCP" }] }],
});
const typed = (kind, items) => ({ apiVersion: "v1", items, kind, metadata: { resourceVersion: "5120" } });
const list = (items) => ({ apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } });
const json = (v) => JSON.stringify(v, null, 4) + "\n";
const out = (name, text) => writeFileSync(new URL(name, import.meta.url), text);

// EKS: the API's own typed lists, items without kind; two apiservers on 443.
out("shape-eks-typed.json",
  json(typed("ServiceList", [
    svc(1, "default", "kubernetes", "10.100.0.1", https, apiserver, false),
    svc(2, "kube-system", "kube-dns", "10.100.0.10", dns, { spec: { selector: { "k8s-app": "kube-dns" } } }, false),
  ])) +
  json(typed("EndpointsList", [endpoints(["192.168.71.20", "192.168.120.7"], 443, false)])));

// k3s: a terminal copied with its prompts; ClusterIPs spread over the /16.
const k3s = [
  svc(1, "default", "kubernetes", "10.43.0.1", [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }], apiserver),
  svc(2, "kube-system", "kube-dns", "10.43.0.10", dns, { spec: { selector: { "k8s-app": "kube-dns" } } }),
  svc(3, "kube-system", "metrics-server", "10.43.88.150", https, { spec: { selector: { "k8s-app": "metrics-server" } } }),
  svc(4, "kube-system", "traefik", "10.43.201.34",
    [{ name: "web", nodePort: 31845, port: 80, protocol: "TCP", targetPort: "web" }],
    { spec: { type: "LoadBalancer", externalTrafficPolicy: "Cluster", selector: { "app.kubernetes.io/name": "traefik" } } }),
];
out("shape-k3s-prompt.txt",
  "pi@k3s-main:~$ kubectl get svc -A -o json\n" + json(list(k3s)) +
  "pi@k3s-main:~$ kubectl get endpoints kubernetes -o json\n" + json(endpoints(["192.168.1.50"], 6443)));

// kind, 1.33+: the four documents one after another, as `kubectl get … ; kubectl get …` prints.
const kind = [
  svc(1, "default", "kubernetes", "10.96.0.1", [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }], apiserver),
  svc(2, "kube-system", "kube-dns", "10.96.0.10", dns, { spec: { selector: { "k8s-app": "kube-dns" } } }),
  svc(3, "shop", "web", "10.96.143.9", [{ port: 80, protocol: "TCP", targetPort: 8080 }], { spec: { selector: { app: "web" } } }),
];
const ipaddress = (i, ip, namespace, name) => ({
  metadata: { ...meta(i, null, ip, { "ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" }) },
  spec: { parentRef: { group: "", name, namespace, resource: "services" } },
});
out("shape-kind-concat.json",
  json(list(kind)) + json(endpoints(["172.18.0.2"], 6443)) +
  json({ apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDRList", metadata: { resourceVersion: "812" },
    items: [{ metadata: meta(50, null, "kubernetes"), spec: { cidrs: ["10.96.0.0/16"] },
      status: { conditions: [{ lastTransitionTime: time, message: "Kubernetes Service CIDR is ready", reason: "", status: "True", type: "Ready" }] } }] }) +
  json({ apiVersion: "networking.k8s.io/v1", kind: "IPAddressList", metadata: { resourceVersion: "812" },
    items: kind.map((s, i) => ipaddress(60 + i, s.spec.clusterIP, s.metadata.namespace, s.metadata.name)) }));

out("shape-kind-no-endpoints.json", json(list(kind)));

// Not kubectl output: the same Services in some tool's own format.
out("shape-not-kubectl.json", json({
  services: kind.map((s) => ({ name: s.metadata.name, namespace: s.metadata.namespace, clusterIP: s.spec.clusterIP })),
}));

// `-o yaml`, as kubectl prints it (two-space indent, `- ` items, plain scalars where YAML allows),
// after its command line: kind's Services and the kubernetes Endpoints, `---` between.
function yaml(v, indent = "") {
  const scalar = (x) => {
    if (typeof x !== "string") return String(x);
    // Quoted as kubectl quotes them: what YAML would read as a number, a boolean or a time.
    const plain = /^[A-Za-z0-9_/][A-Za-z0-9._/:-]*$/.test(x) && !/^-?[0-9]+(\.[0-9]+)?$/.test(x)
      && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(x) && !/^[0-9]{4}-[0-9]{2}-[0-9]{2}T/.test(x);
    return plain ? x : JSON.stringify(x);
  };
  if (Array.isArray(v)) {
    if (v.length === 0) return " []";
    return v.map((x) => `\n${indent}- ` + (typeof x === "object" && x !== null ? yaml(x, indent + "  ").replace(/^\n\s*/, "") : scalar(x))).join("");
  }
  if (typeof v === "object" && v !== null) {
    const keys = Object.keys(v);
    if (keys.length === 0) return " {}";
    return keys.map((k) => {
      const x = v[k];
      const inner = typeof x === "object" && x !== null ? yaml(x, Array.isArray(x) ? indent : indent + "  ") : " " + scalar(x);
      return `\n${indent}${k}:${inner}`;
    }).join("");
  }
  return " " + scalar(v);
}
out("shape-kind-yaml.txt",
  "$ kubectl get svc -A -o yaml; echo ---; kubectl get endpoints kubernetes -o yaml\n" +
  yaml(list(kind)).replace(/^\n/, "") + "\n---\n" + yaml(endpoints(["172.18.0.2"], 6443)).replace(/^\n/, "") + "\n");
