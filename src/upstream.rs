//! PLACEHOLDER until the inspector branch lands (its file replaces this one).
#[derive(Clone, Debug, PartialEq)]
pub enum Subject {
    Apiserver(String),
    Key(String),
    Packet(crate::etcd::Write),
    ClusterIp(String),
    NodePort(u16),
    IpAddress(String),
    Event(crate::event::EventKind),
}
