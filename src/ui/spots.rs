//! Where the parts a tour step names are drawn: the elements of one instance of the lab that
//! stand for each [`Spot`] (the stage marks its own with `data-spot`).

use crate::lab::parts::{Part, Spot};

/// The element(s) of `spot` inside one instance of the lab.
pub(crate) fn selector(spot: &Spot) -> String {
    match spot {
        Spot::Part(p) => part_selector(*p).to_string(),
        Spot::Apiserver(name) => {
            format!(".card[data-apiserver=\"{}\"]", name.replace(['"', '\\'], ""))
        }
    }
}

fn part_selector(part: Part) -> &'static str {
    match part {
        Part::Controls => ".controls",
        Part::Stage => ".stage",
        Part::Apiservers => ".panel.apiservers",
        Part::Etcd => ".panel.etcd",
        Part::Leases => "ul.leases",
        Part::Ranges => "ul.ranges",
        Part::KubernetesService => ".panel.kubernetes",
        Part::Endpoints => ".addresses",
        Part::EndpointSlice => ".slice",
        Part::Events => ".panel.feed",
        Part::Bitmaps => ".panel.bitmaps",
        Part::ClusterIp => "[data-tour=\"cluster-ip\"]",
        Part::NodePort => "[data-tour=\"node-port\"]",
        Part::IpAddresses => "[data-tour=\"ip-addresses\"]",
        Part::ServiceCidrs => ".panel.service-cidrs",
        Part::Services => ".panel.services",
        Part::Pods => ".panel.pods",
        Part::Import => ".panel.import",
        Part::Corrupt => ".corrupt",
    }
}
