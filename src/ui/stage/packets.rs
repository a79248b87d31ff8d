//! Packets: each request on the wire flies from its sender to its key, shaped and coloured
//! by the loop that sent it; a bounced one turns back halfway. Packets of one kind that leave
//! within a moment of each other merge into one with a count (at high speed), and a lease
//! that leaves etcd fades out where it stood.

use crate::lab::{Loop, WireOp, Write};

use super::layout::Layout;
use super::rows::{slot, Row, RowId};

/// How long a packet flies (real ms); the CSS animation of the same length removes it.
pub(crate) const FLIGHT_MS: f64 = 900.0;
/// Packets of one kind leaving within this long (real ms) of each other merge.
pub(crate) const MERGE_MS: f64 = 300.0;
/// The most packets in flight at once; past it, new ones merge into the oldest of their kind.
pub(crate) const MAX_IN_FLIGHT: usize = 48;

/// One packet in flight.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Packet {
    pub(crate) id: u64,
    pub(crate) write: Write,
    /// The requests it stands for (merged ones counted).
    pub(crate) count: u32,
    /// When it left (the UI's clock, ms).
    pub(crate) born: f64,
    pub(crate) from: (f64, f64),
    pub(crate) to: (f64, f64),
}

impl Packet {
    fn same_kind(&self, w: &Write) -> bool {
        let a = &self.write;
        a.sender == w.sender
            && a.via == w.via
            && a.op == w.op
            && RowId::of(&a.key) == RowId::of(&w.key)
    }

    /// Its class names: `packet via-<loop> op-<op>`.
    pub(crate) fn classes(&self) -> String {
        format!("packet {}", shape_classes(self.write.via, self.write.op))
    }
}

/// `via-<loop> op-<op>`, in the wire's own (kebab-case) names: a packet's, and its legend's.
pub(crate) fn shape_classes(via: Loop, op: WireOp) -> String {
    let name = |v: serde_json::Result<serde_json::Value>| {
        v.ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    };
    format!("via-{} op-{}", name(serde_json::to_value(via)), name(serde_json::to_value(op)))
}

/// What is in flight, and the lease keys fading out.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Flight {
    pub(crate) packets: Vec<Packet>,
    pub(crate) fading: Vec<(String, f64)>,
    next_id: u64,
}

/// Where a request leaves from: its apiserver, the controller-manager or the lab's strip;
/// `None` for etcd's own expiries (they start at the key itself) and for unknown senders.
fn sender_port(w: &Write, layout: &Layout, apiservers: &[String]) -> Option<(f64, f64)> {
    match w.via {
        Loop::Ttl => None,
        Loop::ControllerManager => Some(layout.kcm_port()),
        Loop::Lab => Some(layout.lab_port()),
        _ => apiservers.iter().position(|a| a == &w.sender).map(|i| layout.apiserver_port(i)),
    }
}

impl Flight {
    /// Sends `wire` off at `now` (real ms).
    pub(crate) fn launch(
        &mut self,
        wire: &[Write],
        now: f64,
        layout: &Layout,
        apiservers: &[String],
        rows: &[Row],
    ) {
        for w in wire {
            if matches!(w.op, WireOp::Expire | WireOp::Delete)
                && matches!(RowId::of(&w.key), RowId::Lease(_))
            {
                self.fading.retain(|(k, _)| k != &w.key);
                self.fading.push((w.key.clone(), now));
            }
            if let Some(p) =
                self.packets.iter_mut().rev().find(|p| p.same_kind(w) && now - p.born < MERGE_MS)
            {
                p.count += 1;
                continue;
            }
            if self.packets.len() >= MAX_IN_FLIGHT {
                if let Some(p) = self.packets.iter_mut().find(|p| p.same_kind(w)) {
                    p.count += 1;
                }
                continue;
            }
            let Some(i) = slot(rows, &w.key) else { continue };
            let sender = sender_port(w, layout, apiservers);
            if sender.is_none() && w.via != Loop::Ttl {
                continue;
            }
            let to = layout.row_port(i, sender.unwrap_or(layout.kcm_port()));
            let from = sender.unwrap_or(to);
            self.next_id += 1;
            self.packets.push(Packet {
                id: self.next_id,
                write: w.clone(),
                count: 1,
                born: now,
                from,
                to,
            });
        }
    }

    /// Forgets what landed or faded by `now` (when animations did not say so themselves).
    pub(crate) fn prune(&mut self, now: f64) {
        self.packets.retain(|p| now - p.born < FLIGHT_MS * 2.0);
        self.fading.retain(|(_, t)| now - t < FLIGHT_MS * 3.0);
    }

    pub(crate) fn land(&mut self, id: u64) {
        self.packets.retain(|p| p.id != id);
    }

    pub(crate) fn faded(&mut self, key: &str) {
        self.fading.retain(|(k, _)| k != key);
    }

    pub(crate) fn fading_keys(&self) -> Vec<String> {
        self.fading.iter().map(|(k, _)| k.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(sender: &str, key: &str, via: Loop, op: WireOp) -> Write {
        Write { time_ms: 0, key: key.into(), op, sender: sender.into(), via, reason: None }
    }

    fn rows() -> Vec<Row> {
        ["/masterleases/192.168.10.11", "/services/endpoints/default/kubernetes"]
            .iter()
            .map(|k| Row {
                id: RowId::of(k),
                key: k.to_string(),
                detail: String::new(),
                ttl: None,
                missing: false,
                fading: false,
            })
            .collect()
    }

    #[test]
    fn packets_of_one_kind_merge_within_a_moment_and_not_after() {
        let layout = Layout::new(960.0, 1, 2, Default::default());
        let names = vec!["apiserver-a".to_string()];
        let lease = write(
            "apiserver-a",
            "/masterleases/192.168.10.11",
            Loop::EndpointReconciler,
            WireOp::Put,
        );
        let mut f = Flight::default();
        f.launch(&[lease.clone(), lease.clone()], 0.0, &layout, &names, &rows());
        assert_eq!((f.packets.len(), f.packets[0].count), (1, 2));
        f.launch(std::slice::from_ref(&lease), MERGE_MS + 1.0, &layout, &names, &rows());
        assert_eq!(f.packets.len(), 2);
        let ep = write(
            "apiserver-a",
            "/services/endpoints/default/kubernetes",
            Loop::EndpointReconciler,
            WireOp::Put,
        );
        f.launch(&[ep], MERGE_MS + 2.0, &layout, &names, &rows());
        assert_eq!(f.packets.len(), 3, "another key is another kind");
        let first = f.packets[0].id;
        f.land(first);
        assert_eq!(f.packets.len(), 2);
    }

    #[test]
    fn an_expired_lease_fades_and_its_packet_starts_at_the_key() {
        let layout = Layout::new(960.0, 1, 2, Default::default());
        let names = vec!["apiserver-a".to_string()];
        let expiry = write("etcd", "/masterleases/192.168.10.11", Loop::Ttl, WireOp::Expire);
        let mut f = Flight::default();
        f.launch(&[expiry], 0.0, &layout, &names, &rows());
        assert_eq!(f.fading_keys(), ["/masterleases/192.168.10.11"]);
        assert_eq!(f.packets[0].from, f.packets[0].to);
        f.prune(FLIGHT_MS * 4.0);
        assert!(f.packets.is_empty() && f.fading.is_empty());
    }

    #[test]
    fn classes_name_the_loop_and_the_op() {
        let p = Packet {
            id: 1,
            write: write("a", "/x", Loop::ControllerManager, WireOp::Bounce),
            count: 1,
            born: 0.0,
            from: (0.0, 0.0),
            to: (1.0, 1.0),
        };
        assert_eq!(p.classes(), "packet via-controller-manager op-bounce");
    }
}
