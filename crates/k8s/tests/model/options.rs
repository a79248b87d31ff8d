#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::options::*;
use k8s::portallocator::PortRange;

use crate::{ip, net};

fn err(value: &str) -> String {
    parse_service_cluster_ip_range(value).unwrap_err()
}

#[test]
fn empty_flag_is_the_deprecated_default() {
    let r = parse_service_cluster_ip_range("").unwrap();
    assert_eq!(r.primary, net("10.0.0.0/24"));
    assert_eq!(r.secondary, None);
    assert_eq!(r.kubernetes_service_ip(), ip("10.0.0.1"));
    assert!(default_range_warning().starts_with("No CIDR for service cluster IPs specified. Default value which was 10.0.0.0/24 is deprecated"));
}

#[test]
fn kubernetes_service_ip_is_the_first_address() {
    assert_eq!(
        parse_service_cluster_ip_range("10.96.0.0/12").unwrap().kubernetes_service_ip(),
        ip("10.96.0.1")
    );
    assert_eq!(
        parse_service_cluster_ip_range("10.96.3.7/12").unwrap().kubernetes_service_ip(),
        ip("10.96.0.1")
    );
    assert_eq!(
        parse_service_cluster_ip_range("fd00:10:96::/108").unwrap().kubernetes_service_ip(),
        ip("fd00:10:96::1")
    );
}

#[test]
fn unparsable_entries_are_named() {
    assert_eq!(err("10.96.0.0/33"), "invalid CIDR \"10.96.0.0/33\"");
    assert_eq!(err("banana"), "invalid CIDR \"banana\"");
    assert_eq!(err("10.96.0.0/12,nope"), "invalid CIDR \"nope\"");
    assert_eq!(err("10.96.0.0/12,"), "invalid CIDR \"\"");
}

#[test]
fn at_least_eight_addresses() {
    let small = "error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses";
    assert_eq!(err("10.0.0.0/30"), small);
    assert_eq!(err("10.0.0.0/32"), small);
    assert!(parse_service_cluster_ip_range("10.0.0.0/29").is_ok());
    assert_eq!(err("fd00::/126"), small);
    assert!(parse_service_cluster_ip_range("fd00::/125").is_ok());
}

#[test]
fn mask_limits() {
    assert_eq!(err("10.0.0.0/11"), "specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12");
    assert!(parse_service_cluster_ip_range("10.0.0.0/12").is_ok());
    assert_eq!(err("fd00::/64"), "specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108");
    assert_eq!(
        err("10.0.0.0/16,fd00::/64"),
        "specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108"
    );
}

#[test]
fn dual_stack_rules() {
    let r = parse_service_cluster_ip_range("10.96.0.0/16,fd00:10:96::/112").unwrap();
    assert_eq!(r.networks(), vec![net("10.96.0.0/16"), net("fd00:10:96::/112")]);
    assert_eq!(
        err("10.96.0.0/16,10.97.0.0/16"),
        "--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family"
    );
    assert_eq!(
        err("10.96.0.0/16,fd00::/112,10.97.0.0/16"),
        "--service-cluster-ip-range must not contain more than two entries"
    );
    let v6_first = parse_service_cluster_ip_range("fd00::/112,10.96.0.0/16").unwrap();
    assert_eq!(v6_first.kubernetes_service_ip(), ip("fd00::1"));
}

#[test]
fn node_port_flags() {
    assert_eq!(parse_service_node_port_range("").unwrap(), PortRange::DEFAULT);
    let range = PortRange::DEFAULT;
    assert!(validate_kubernetes_service_node_port(0, &range).is_ok());
    assert!(validate_kubernetes_service_node_port(30443, &range).is_ok());
    assert_eq!(
        validate_kubernetes_service_node_port(70000, &range).unwrap_err(),
        "--kubernetes-service-node-port 70000 must be between 0 and 65535, inclusive. If 0, the Kubernetes master service will be of type ClusterIP"
    );
    assert_eq!(
        validate_kubernetes_service_node_port(443, &range).unwrap_err(),
        "kubernetes service node port range 30000-32767 doesn't contain 443"
    );
    assert_eq!(
        validate_apiserver_count(0).unwrap_err(),
        "--apiserver-count should be a positive number, but value '0' provided"
    );
    assert!(validate_apiserver_count(3).is_ok());
}
