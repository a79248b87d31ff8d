//! The edges where serde's derived readers would read kubectl's output otherwise than the import
//! always did (it read each document as a `serde_json::Value` until issue 36): for each, what
//! the import says, and what a plain derive of the same fields ([`Naive`]) does instead. The
//! messages are the ones the import gave before it read typed fields.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{import, read, scenario, Options};

/// The fields the import reads, derived as serde derives them (`Option` for what may be
/// absent, unknown fields ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Naive {
    api_version: Option<String>,
    kind: Option<String>,
    items: Option<Vec<Naive>>,
    metadata: NaiveMetadata,
    spec: NaiveSpec,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct NaiveMetadata {
    name: Option<String>,
    namespace: Option<String>,
    labels: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct NaiveSpec {
    #[serde(rename = "type")]
    type_: Option<String>,
    cluster_ip: Option<String>,
    ports: Option<Vec<NaivePort>>,
    publish_not_ready_addresses: Option<bool>,
    selector: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct NaivePort {
    port: Option<i64>,
}

fn naive(text: &str) -> Result<Naive, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

fn naive_yaml(text: &str) -> Result<Naive, String> {
    serde_yaml::from_str(text).map_err(|e| e.to_string())
}

/// The `kubernetes` Service, so that an import has a range to guess.
const KUBERNETES: &str = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"kubernetes","namespace":"default"},"spec":{"clusterIP":"10.96.0.1","ports":[{"port":443}]}}"#;

/// A list of the `kubernetes` Service and `item`.
fn list(item: &str) -> String {
    format!(r#"{{"kind":"List","items":[{KUBERNETES},{item}]}}"#)
}

/// The Service `shop/web` with this `spec`.
fn web(spec: &str) -> String {
    list(&format!(
        r#"{{"kind":"Service","metadata":{{"name":"web","namespace":"shop"}},"spec":{spec}}}"#
    ))
}

fn refusal(text: &str) -> String {
    read(text).expect_err("refused")
}

#[test]
fn a_key_given_twice_counts_its_last_value() {
    let twice = list(r#"{"kind":"Service","kind":"Pod","metadata":{"name":"p"}}"#);
    assert_eq!(
        refusal(&twice),
        "document 1: items[1] (Pod default/p): kind Pod is not one the lab reads (Service, Endpoints, EndpointSlice, ServiceCIDR, IPAddress)"
    );
    let labels =
        list(r#"{"kind":"Service","metadata":{"name":"web","labels":{"a":1,"a":"x"}},"spec":{}}"#);
    let c = read(&labels).unwrap();
    assert_eq!(c.services[1].labels, BTreeMap::from([("a".into(), "x".into())]));
    // A derived reader refuses the document.
    assert!(naive(&twice).unwrap_err().starts_with("duplicate field `kind`"));
    assert!(naive(&labels).is_err());
}

#[test]
fn a_value_of_another_type_where_kubectl_prints_a_string_or_a_boolean_is_as_if_absent() {
    // A number for `type` is no type: the default, ClusterIP.
    let c = read(&web(r#"{"type":5,"clusterIP":"10.96.0.7"}"#)).unwrap();
    assert_eq!(c.services[1].type_, crate::k8s::api::ServiceType::ClusterIP);
    // "true" is no `true`.
    let c = read(&web(r#"{"clusterIP":"10.96.0.7","publishNotReadyAddresses":"true"}"#)).unwrap();
    assert!(!c.services[1].publish_not_ready_addresses);
    // A `kind` that is no string leaves the typed list's.
    let typed = r#"{"kind":"ServiceList","items":[{"kind":5,"metadata":{"name":"web"}}]}"#;
    assert_eq!(read(typed).unwrap().services[0].name, "web");
    // `conditions.ready: null` is unset: ready.
    let slice = list(
        r#"{"kind":"EndpointSlice","metadata":{"name":"k"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.9"],"conditions":{"ready":null}}]}"#,
    );
    assert!(read(&slice).unwrap().endpoint_slices[0].endpoints[0].ready);
    // A derived reader refuses each document.
    for text in
        [web(r#"{"type":5}"#), web(r#"{"publishNotReadyAddresses":"true"}"#), typed.to_string()]
    {
        assert!(naive(&text).unwrap_err().starts_with("invalid type: "), "{text}");
    }
}

#[test]
fn a_port_number_is_an_integer_as_a_json_value_tells_one() {
    let at = "document 1: items[1] (Service shop/web): spec.ports[0].port: ";
    for (port, said) in [
        ("80.0", "not a port number: 80.0"),
        ("1e2", "not a port number: 100.0"),
        ("-0", "not a port number: -0.0"),
        ("\"80\"", "not a port number: \"80\""),
        ("99999999999999999999", "not a port number: 1e+20"),
        ("18446744073709551615", "not a port number: 18446744073709551615"),
        ("70000", "70000 is not a port number (1-65535)"),
        ("null", "missing"),
        ("{\"a\":[1]}", "not a port number: {\"a\":[1]}"),
    ] {
        let text = web(&format!(r#"{{"ports":[{{"port":{port}}}]}}"#));
        assert_eq!(refusal(&text), format!("{at}{said}"), "{port}");
        if !["null", "70000"].contains(&port) {
            // A derived reader refuses the document in its own words, naming no field.
            assert!(naive(&text).unwrap_err().starts_with("invalid "), "{port}");
        }
    }
}

#[test]
fn null_reads_as_absent_but_null_items_are_not_a_list() {
    assert_eq!(refusal(r#"{"kind":"List","items":null}"#), "document 1: items: not a list");
    // A derived `Option` takes null for absent: the list would be read as one object.
    assert!(naive(r#"{"kind":"List","items":null}"#).unwrap().items.is_none());
    let c = read(&web(r#"{"clusterIP":"10.96.0.7","ports":null,"selector":null}"#)).unwrap();
    assert!(c.services[1].ports.is_empty() && c.services[1].selector.is_none());
    // An empty selector is one (it selects nothing), unlike none.
    let c = read(&web(r#"{"clusterIP":"10.96.0.7","selector":{}}"#)).unwrap();
    assert_eq!(c.services[1].selector, Some(BTreeMap::new()));
    let c = read(&web(r#"{"ports":[{"port":80,"nodePort":null,"targetPort":null}]}"#)).unwrap();
    assert_eq!((c.services[1].ports[0].node_port, &c.services[1].ports[0].target_port), (0, &None));
}

#[test]
fn a_field_the_lab_does_not_read_must_still_be_json() {
    // serde_json's value read refused these; a derived reader skips an unknown field unseen
    // (`IgnoredAny`), which lets them pass.
    for (status, said) in [
        (r#"{"x":1e400}"#, "number out of range at line 1 column 287"),
        (r#""\ud800""#, "unexpected end of hex escape at line 1 column 285"),
        (r#""\ud800\u0041""#, "lone leading surrogate in hex escape at line 1 column 290"),
    ] {
        let text = list(&format!(
            r#"{{"kind":"Service","metadata":{{"name":"web","namespace":"shop"}},"spec":{{"clusterIP":"10.96.0.7"}},"status":{status}}}"#
        ));
        assert_eq!(refusal(&text), format!("document 1: not JSON: {said}"), "{status}");
        assert!(naive(&text).is_ok(), "{status}");
    }
}

#[test]
fn a_value_that_is_no_object_where_kubectl_prints_one() {
    // As an object without the fields.
    assert_eq!(
        refusal(&list(r#"{"kind":"Service","metadata":[1],"spec":{}}"#)),
        "document 1: items[1] (Service default/): metadata.name: missing"
    );
    assert_eq!(
        refusal(r#"{"kind":"ServiceList","items":[5]}"#),
        "document 1: items[0] (Service default/): metadata.name: missing"
    );
    // Quoted, where it has neither kind nor apiVersion.
    assert_eq!(
        refusal(&list("5")),
        "document 1: items[1] not kubectl output: expected objects with apiVersion and kind (5 has neither)"
    );
    assert_eq!(
        refusal(r#"[{"kind":"Service"}]"#),
        "document 1: not kubectl output: expected objects with apiVersion and kind ([{\"kind\":\"Service\"}] has neither)"
    );
    assert!(naive(&list(r#"{"kind":"Service","metadata":[1]}"#)).is_err());
    assert!(naive(r#"{"kind":"ServiceList","items":[5]}"#).is_err());
}

#[test]
fn what_is_no_kubectl_output_is_named_by_its_first_keys() {
    // Sorted, each once (a key given twice counts once), four at most.
    assert_eq!(
        refusal(r#"{"e":1,"d":2,"c":3,"b":4,"a":5,"a":6}"#),
        "document 1: not kubectl output: expected objects with apiVersion and kind (an object of a, b, c, d, … has neither)"
    );
    assert_eq!(
        refusal(r#"{"d":2,"c":3,"b":4,"a":5,"a":6}"#),
        "document 1: not kubectl output: expected objects with apiVersion and kind (an object of a, b, c, d has neither)"
    );
    // `apiVersion: null` is an apiVersion.
    assert_eq!(
        refusal(r#"{"apiVersion":null,"metadata":{"name":"x"}}"#),
        "document 1: (an object without a kind): kind: missing"
    );
    // A derived reader keeps none of the keys it does not know, nor a null apiVersion.
    assert!(naive(r#"{"e":1}"#).is_ok_and(|n| n.kind.is_none() && n.api_version.is_none()));
    assert!(naive(r#"{"apiVersion":null}"#).is_ok_and(|n| n.api_version.is_none()));
}

#[test]
fn labels_are_checked_in_the_order_of_their_keys() {
    let text =
        list(r#"{"kind":"Service","metadata":{"name":"web","labels":{"z":1,"a":2}},"spec":{}}"#);
    assert_eq!(
        refusal(&text),
        "document 1: items[1] (Service default/web): metadata.labels: a: not a string: 2"
    );
    // A derived reader refuses the first in the text, in its own words.
    assert!(naive(&text).unwrap_err().starts_with("invalid type: integer `1`"));
}

#[test]
fn yaml_is_read_as_its_json_value_is() {
    // `.nan` is null: no port.
    let nan = "kind: Service\nmetadata:\n  name: kubernetes\n  namespace: default\nspec:\n  clusterIP: 10.96.0.1\n  ports:\n  - port: .nan\n";
    assert_eq!(
        refusal(nan),
        "document 1: (Service default/kubernetes): spec.ports[0].port: missing"
    );
    assert!(naive_yaml(nan).unwrap_err().contains("invalid type: floating point `NaN`"));
    // A tag is refused in the words of a JSON value's read, under the field's path.
    let tagged = "kind: Service\nmetadata:\n  name: kubernetes\n  labels: !Foo {a: b}\n";
    assert_eq!(
        refusal(tagged),
        "document 1: not YAML: metadata.labels: invalid type: enum, expected any valid JSON value at line 4 column 11"
    );
    // A derived reader takes the tagged map for labels.
    assert!(naive_yaml(tagged).is_ok_and(|n| n.metadata.labels.is_some()));
    // A key that is no string, as a JSON value's read says it (the first key of an object).
    let key = "kind: Service\nmetadata:\n  ? [a]\n  : b\n";
    assert_eq!(
        refusal(key),
        "document 1: not YAML: metadata: invalid type: sequence, expected a string key at line 3 column 5"
    );
    let huge = "kind: Service\nmetadata:\n  name: kubernetes\nspec:\n  healthCheckNodePort: 99999999999999999999999999999\n";
    assert_eq!(
        refusal(huge),
        "document 1: not YAML: spec.healthCheckNodePort: JSON number out of range at line 5 column 24"
    );
}

#[test]
fn a_subsets_ports_are_checked_before_its_addresses() {
    let text = list(
        r#"{"kind":"Endpoints","metadata":{"name":"kubernetes","namespace":"default"},"subsets":[{"addresses":[{"ip":"x"}],"ports":[{"port":0}]}]}"#,
    );
    assert_eq!(
        refusal(&text),
        "document 1: items[1] (Endpoints default/kubernetes): subsets[0].ports[0].port: 0 is not a port number (1-65535)"
    );
}

#[test]
fn what_the_import_passes_on_unchecked_the_contract_refuses() {
    // An Endpoints port's protocol is not the import's to check.
    let text = list(
        r#"{"kind":"Endpoints","metadata":{"name":"kubernetes","namespace":"default"},"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":6443,"protocol":"FOO"}]}]}"#,
    );
    assert_eq!(read(&text).unwrap().endpoints[0].subsets[0].ports[0].protocol, "FOO");
    assert_eq!(
        import(&text, &Options::default()).err().unwrap(),
        "initial.endpoints[0].subsets[0].ports[0].protocol: unknown variant `FOO`, expected one of `TCP`, `UDP`, `SCTP`"
    );
    // Nor is a behaviour: written as given, refused by the check as the flag.
    let options = Options { behavior: Some("9.9".into()), ..Options::default() };
    let file = scenario(
        &read(&list("{\"kind\":\"Service\",\"metadata\":{\"name\":\"a\"}}")).unwrap(),
        &options,
    );
    assert_eq!(file.unwrap().behavior, "9.9");
    assert_eq!(
        import(KUBERNETES, &options).err().unwrap(),
        "--behavior: unknown variant `9.9`, expected one of `1.20`, `1.29`, `1.33`, `1.35`"
    );
}

/// The file as it was printed through a `serde_json::Value`: its keys sorted, a field left out
/// when empty. The model's own types print theirs in another order (a Service's `namespace`
/// first): the file's types are its own.
#[test]
fn the_file_prints_its_keys_sorted_as_it_always_did() {
    let text = list(
        r#"{"kind":"Service","metadata":{"name":"web","namespace":"shop","labels":{"b":"2","a":"1"}},"spec":{"type":"NodePort","clusterIP":"10.96.0.7","clusterIPs":["10.96.0.7"],"selector":{},"ports":[{"name":"http","port":80,"nodePort":30080,"targetPort":"web","protocol":"UDP"}],"healthCheckNodePort":30081,"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","publishNotReadyAddresses":true}}"#,
    );
    let file = scenario(&read(&text).unwrap(), &Options::default()).unwrap();
    let printed = serde_json::to_string(&file).unwrap();
    assert_eq!(
        printed,
        r#"{"behavior":"1.29","cluster":{"apiservers":[{"advertise_address":"192.168.10.11","name":"apiserver-1"}],"secure_port":6443,"service_cluster_ip_range":"10.96.0.0/16","service_node_port_range":"30000-32767"},"initial":{"cluster_ip_allocation":{"allocated":["10.96.0.1","10.96.0.7"],"range":"10.96.0.0/16"},"endpoints":[],"namespaces":["default","shop"],"node_port_allocation":{"allocated":[30080,30081],"range":"30000-32767"},"services":[{"cluster_ip":"10.96.0.1","name":"kubernetes","namespace":"default","ports":[{"port":443,"protocol":"TCP"}],"type":"ClusterIP"},{"cluster_ip":"10.96.0.7","cluster_ips":["10.96.0.7"],"health_check_node_port":30081,"ip_families":["IPv4"],"ip_family_policy":"SingleStack","labels":{"a":"1","b":"2"},"name":"web","namespace":"shop","ports":[{"name":"http","node_port":30080,"port":80,"protocol":"UDP","target_port":"web"}],"publish_not_ready_addresses":true,"selector":{},"type":"NodePort"}]},"name":"imported","title":{"en":"An imported cluster","zh":"导入的集群"},"until":"5m"}"#
    );
    // The same keys as a JSON value prints them (sorted).
    let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(value.to_string(), printed);
    let model = crate::k8s::api::Service { name: "web".into(), ..Default::default() };
    assert!(serde_json::to_string(&model).unwrap().starts_with(r#"{"namespace":"#));
}
