//! The browser shell. It shows what the core computes for a `--service-cluster-ip-range`; the
//! full explainer UI builds on this module.

use yew::prelude::*;

use crate::ipallocator::{usable_size, Range};
use crate::options::{parse_service_cluster_ip_range, DEFAULT_SERVICE_IP_CIDR};
use crate::portallocator::PortAllocator;

#[function_component(App)]
pub fn app() -> Html {
    html! {}
}
