//! Plain words for the event feed: what a Kubernetes event or log line means for a learner.
//! Kubernetes' own reasons and messages are always shown verbatim next to these; only the
//! explanation is translated (both texts side by side, as everywhere in the lab).

use crate::k8s::event::{Event, EventKind};
use crate::lang::Lang;

/// A one-sentence explanation of `e` in `lang`, when there is something to add to its own text.
pub fn explain(e: &Event, lang: Lang) -> Option<String> {
    // In Chinese a Latin name is set off from the text after it by a space; 集群 is not.
    let who = match (e.apiserver.is_empty(), lang) {
        (true, Lang::En) => "The cluster".to_string(),
        (true, Lang::Zh) => "集群".to_string(),
        (false, Lang::En) => e.apiserver.clone(),
        (false, Lang::Zh) => format!("{} ", e.apiserver),
    };
    repair(&e.kind, &who, &e.object, lang).or_else(|| apiserver(&e.kind, &who, lang))
}

/// The repair loops' events and leak checks, about the Service `obj`.
fn repair(kind: &EventKind, who: &str, obj: &str, lang: Lang) -> Option<String> {
    let en = lang == Lang::En;
    let text = match kind {
        EventKind::ClusterIpNotAllocated => if en {
            format!("{who}'s repair loop found {obj}'s ClusterIP not allocated in etcd (a bit of the bitmap up to 1.32, an IPAddress object from 1.33) and allocated it again.")
        } else {
            format!("{who}的修复循环发现 {obj} 的 ClusterIP 在 etcd 中没有被分配（1.32 及以前是位图中的一位，1.33 起是一个 IPAddress 对象），于是重新把它分配。")
        },
        EventKind::ClusterIpAlreadyAllocated => if en {
            format!("{obj} holds a ClusterIP that another Service already holds (up to 1.32: one earlier in namespace/name order; from 1.33: the one its IPAddress names); only recreating it fixes that.")
        } else {
            format!("{obj} 的 ClusterIP 已被另一个 Service 占用（1.32 及以前：按 namespace/name 排在它前面的那个；1.33 起：IPAddress 所指向的那个）；只有删除并重建它才能解决。")
        },
        EventKind::ClusterIpOutOfRange => if en {
            format!("{obj}'s ClusterIP lies outside the Service range (--service-cluster-ip-range; from 1.33 every ServiceCIDR); the repair loop cannot keep it and says so again at every pass.")
        } else {
            format!("{obj} 的 ClusterIP 不在 Service 网段之内（--service-cluster-ip-range；1.33 起是所有 ServiceCIDR）；修复循环无法为它保留这个地址，并且每一轮都会再报一次。")
        },
        EventKind::ClusterIpWrongReference => if en {
            format!("{who}'s RepairIPAddress found the IPAddress of {obj}'s ClusterIP naming something else that does not hold it, and recreated it for {obj}.")
        } else {
            format!("{who}的 RepairIPAddress 发现 {obj} 的 ClusterIP 所对应的 IPAddress 指向了别的对象（而那个对象并不持有它），于是为 {obj} 重新创建了这个 IPAddress。")
        },
        EventKind::IpAddressLeaked => if en {
            format!("The IPAddress {obj} names a Service that does not exist and is older than the 60 s grace period, so {who}'s RepairIPAddress deleted it: one check, no three-run counter as with the bitmap.")
        } else {
            format!("IPAddress {obj} 指向的 Service 不存在，而且已超过 60 秒宽限期，所以{who}的 RepairIPAddress 删除了它：只看一次，不像位图那样数三轮。")
        },
        EventKind::IpAddressModified => if en {
            format!("The IPAddress {obj} was made by the ClusterIP allocator but now names something that is not a Service, so {who}'s RepairIPAddress deleted it.")
        } else {
            format!("IPAddress {obj} 由 ClusterIP 分配器创建，却指向了一个不是 Service 的对象，所以{who}的 RepairIPAddress 删除了它。")
        },
        EventKind::IpAddressWrongReference => if en {
            format!("The IPAddress {obj} names a Service that exists but holds another ClusterIP, so {who}'s RepairIPAddress deleted it (the Service's own IPAddress is checked on its own).")
        } else {
            format!("IPAddress {obj} 指向的 Service 存在，但持有的是另一个 ClusterIP，所以{who}的 RepairIPAddress 删除了它（该 Service 自己的 IPAddress 会单独检查）。")
        },
        EventKind::DefaultServiceCidrInconsistent => if en {
            format!("{who} found the ServiceCIDR kubernetes with other CIDRs than its --service-cluster-ip-range: the first apiserver's object stays; change the flags, or delete the object (an apiserver then recreates it from its own flags).")
        } else {
            format!("{who}发现名为 kubernetes 的 ServiceCIDR 的网段与自己的 --service-cluster-ip-range 不同：保留第一个 apiserver 创建的对象；要么改参数，要么删除这个对象（之后由某个 apiserver 按自己的参数重新创建）。")
        },
        EventKind::ClusterIpNotValid => if en {
            format!("{obj}'s ClusterIP cannot be used by this cluster; the repair loop skips it.")
        } else {
            format!("{obj} 的 ClusterIP 在这个集群中不可用；修复循环会跳过它。")
        },
        EventKind::PortNotAllocated => if en {
            format!("{who}'s repair loop found {obj}'s NodePort missing from the bitmap and set it again.")
        } else {
            format!("{who}的修复循环发现 {obj} 的 NodePort 在位图中没有被标记，于是重新把它标记为已分配。")
        },
        EventKind::PortAlreadyAllocated => if en {
            format!("{obj} uses a NodePort that another Service (earlier in namespace/name order) already uses.")
        } else {
            format!("{obj} 使用的 NodePort 已被另一个排在它前面（按 namespace/name 排序）的 Service 占用。")
        },
        EventKind::PortOutOfRange => if en {
            format!("{obj}'s NodePort lies outside --service-node-port-range.")
        } else {
            format!("{obj} 的 NodePort 不在 --service-node-port-range 之内。")
        },
        EventKind::LeakFlagged => lang
            .pick(
                "Allocated in etcd but used by no Service: flagged now and kept; if the next run still finds no Service it is kept once more, and the third run frees it (in case its Service is still being created).",
                "在 etcd 中已分配，却没有任何 Service 在用：现在先标记为疑似泄漏并保留；如果下一轮修复仍找不到它的 Service，就再保留一次，第三轮才释放它（以防它的 Service 还在创建中）。",
            )
            .to_string(),
        EventKind::LeakCleanedUp => lang
            .pick(
                "The third repair run that saw this allocation without a Service frees it.",
                "连续第三轮修复仍然发现这个分配没有对应的 Service，于是将它释放。",
            )
            .to_string(),
        EventKind::LeakNotAllocatable => lang
            .pick(
                "A suspected leak that no longer fits the configured range is dropped at once.",
                "疑似泄漏的分配已不在配置的范围之内，直接丢弃。",
            )
            .to_string(),
        _ => return None,
    };
    Some(text)
}

/// An apiserver's life, its reconciler and etcd, and the lab's refusals.
fn apiserver(kind: &EventKind, who: &str, lang: Lang) -> Option<String> {
    let en = lang == Lang::En;
    let text = match kind {
        EventKind::ActionFailed => lang
            .pick(
                "The lab could not carry out this action (the message is Kubernetes' error text when an apiserver refused it, else the lab's own words); the cluster is unchanged.",
                "实验无法执行这个操作（若是 apiserver 拒绝了它，消息就是 Kubernetes 的错误原文，否则是实验自己的话）；集群没有任何变化。",
            )
            .to_string(),
        EventKind::EndpointsReset { .. } => if en {
            format!("{who} rewrote the kubernetes Endpoints (and, in Kubernetes, the kubernetes EndpointSlice): with leases, to the IPs that hold an unexpired lease; with master-count, after adding itself and trimming the list to --apiserver-count.")
        } else {
            format!("{who}重写了 kubernetes 的 Endpoints（在 Kubernetes 中还有名为 kubernetes 的 EndpointSlice）：使用租约时，改为持有未过期租约的那些 IP；使用 master-count 时，是先加入自己，再把列表裁剪到 --apiserver-count 个。")
        },
        EventKind::LeaseExpired { ip: key } => {
            if en {
                format!("A note of the lab's own: etcd deleted the lease {key} because nobody renewed it within its TTL, so that apiserver counts as gone. etcd itself logs nothing for this.")
            } else {
                format!("这是实验自己的注记：etcd 删除了租约 {key}，因为在 TTL 内没有人续约，这个 apiserver 因此被视为已经下线。etcd 自己不会为此打印日志。")
            }
        }
        EventKind::StaleEndpointRemoved => if en {
            format!("{who} started and removed any endpoint of its own. With leases this means the last run did not exit cleanly; master-count and none print this on every start.")
        } else {
            format!("{who}启动后删除了自己的任何 endpoint。使用租约时，这说明上一次运行没有正常退出；master-count 和 none 则每次启动都会打印这一行。")
        },
        EventKind::RemoveEndpointsFailed => if en {
            format!("{who} could not remove its own endpoint. Under 1.20 a \"key not found\" at start only means that no lease of its own was left from an earlier run: 1.20 prints it on every clean start.")
        } else {
            format!("{who}未能删除自己的 endpoint。在 1.20 下，启动时出现 \"key not found\" 只说明上一次运行没有留下自己的租约：1.20 每次正常启动都会打印它。")
        },
        EventKind::ReconcilerShutdown => if en {
            format!("{who} is shutting down gracefully: it stops reconciling and tries to remove its own endpoint at once (with leases: deletes its lease and rewrites the Endpoints).")
        } else {
            format!("{who}正在优雅关闭：停止协调，并立即尝试移除自己的 endpoint（使用租约时：删除自己的租约并重写 Endpoints）。")
        },
        EventKind::SyncFailed => if en {
            format!("{who} could not update the kubernetes Service and Endpoints this round; it tries again next interval.")
        } else {
            format!("{who}本轮未能更新 kubernetes Service 和 Endpoints；下个周期会再试。")
        },
        EventKind::RefusedToEraseEndpoints => lang
            .pick(
                "With no lease left, the reconciler refuses to leave the kubernetes Service without endpoints.",
                "租约已全部消失，reconciler 拒绝让 kubernetes Service 变成没有任何 endpoint。",
            )
            .to_string(),
        EventKind::InitialCheckFailed => {
            if en {
                format!("{who} could not complete its first allocation check and exits.")
            } else {
                format!("{who}未能完成首次分配检查，进程退出。")
            }
        }
        EventKind::RemoveEndpointsTimedOut => if en {
            format!("{who} could not remove its endpoint before the shutdown timeout; its lease will expire instead.")
        } else {
            format!("{who}未能在关闭超时之前删除自己的 endpoint；只能等它的租约过期。")
        },
        _ => return None,
    };
    Some(text)
}
