//! Plain words for the event feed: what a Kubernetes event or log line means for a learner.
//! Kubernetes' own reasons and messages are always shown verbatim next to these; only the
//! explanation is translated (both texts side by side, as everywhere in the lab).

use crate::event::{Event, EventKind};
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
            format!("{who}'s repair loop found {obj}'s ClusterIP missing from the bitmap in etcd and set it again.")
        } else {
            format!("{who}的修复循环发现 {obj} 的 ClusterIP 在 etcd 的位图中没有被标记，于是重新把它标记为已分配。")
        },
        EventKind::ClusterIpAlreadyAllocated => if en {
            format!("{obj} holds a ClusterIP that an earlier Service (in namespace/name order) already holds; only recreating it fixes that.")
        } else {
            format!("{obj} 的 ClusterIP 已被另一个排在它前面（按 namespace/name 排序）的 Service 占用；只有删除并重建它才能解决。")
        },
        EventKind::ClusterIpOutOfRange => if en {
            format!("{obj}'s ClusterIP lies outside --service-cluster-ip-range (was the range changed?); the repair loop cannot keep it.")
        } else {
            format!("{obj} 的 ClusterIP 不在 --service-cluster-ip-range 之内（是不是改过网段？）；修复循环无法为它保留这个地址。")
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
                "Allocated in etcd but used by no Service: flagged now, kept for two more repair runs in case its Service is still being created.",
                "在 etcd 中已分配，却没有任何 Service 在用：现在先标记为疑似泄漏，再保留两轮修复，以防它的 Service 还在创建中。",
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
                "The API server refused the request; the cluster is unchanged.",
                "apiserver 拒绝了这个请求；集群没有任何变化。",
            )
            .to_string(),
        EventKind::EndpointsReset { .. } => if en {
            format!("{who} rewrote the kubernetes Endpoints so that they list exactly the apiservers it believes are alive.")
        } else {
            format!("{who}重写了 kubernetes 的 Endpoints，让它恰好列出自己认为仍然存活的 apiserver。")
        },
        EventKind::LeaseExpired { ip: key } => {
            if en {
                format!("etcd deleted the lease {key}: nobody renewed it within its TTL, so that apiserver counts as gone.")
            } else {
                format!("etcd 删除了租约 {key}：在 TTL 内没有人续约，因此这个 apiserver 被视为已经下线。")
            }
        }
        EventKind::StaleEndpointRemoved => if en {
            format!("{who} started and removed its own old endpoint: the last run did not shut down cleanly.")
        } else {
            format!("{who}启动后删除了自己残留的旧 endpoint：上一次运行没有正常关闭。")
        },
        EventKind::ReconcilerShutdown => if en {
            format!("{who} is shutting down gracefully: it deletes its lease and rewrites the Endpoints at once.")
        } else {
            format!("{who}正在优雅关闭：立即删除自己的租约并重写 Endpoints。")
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
