//! Words the panels show whose truth depends on the endpoint reconciler or the behaviour: what a
//! behaviour stands for, why an address left or joined `default/kubernetes`, what Crash and Stop
//! do. The UI picks none of these itself; it passes the typed reconciler and behaviour here.

use crate::contract::state::ApiserverStatus;
use crate::k8s::api::Behavior;
use crate::k8s::reconcilers::ReconcilerType;
use crate::lang::Lang;

/// What a reader is told a behaviour stands for: [`Behavior::label`], or its Chinese rendering.
pub fn behavior_label(b: Behavior, lang: Lang) -> &'static str {
    match lang {
        Lang::En => b.label(),
        Lang::Zh => match b {
            Behavior::V1_20 => "1.20（最接近原始文章）",
            Behavior::V1_29 => "1.29（1.28–1.32）",
            Behavior::V1_33 => "1.33（双写）",
            Behavior::V1_35 => "1.35（1.35–1.37，当前）",
        },
    }
}

/// One sentence on what differs under `b` (the configuration form's help for the option).
pub fn behavior_summary(b: Behavior, lang: Lang) -> &'static str {
    match b {
        Behavior::V1_20 => lang.pick(
            "Plain random scan, no static bands; both repairs run at start inside the bootstrap hook (readiness waits for them); the last apiserver to stop keeps its endpoint.",
            "纯随机扫描，没有静态段；两个修复在启动时于 bootstrap 钩子中运行（就绪要等它们完成）；最后一个停止的 apiserver 会保留它的 endpoint。",
        ),
        Behavior::V1_29 => lang.pick(
            "Static bands, one repair run at start in its own post-start hook, last apiserver clears its endpoint.",
            "静态段，启动时在独立的 post-start 钩子中运行一次修复，最后一个 apiserver 也会清除自己的 endpoint。",
        ),
        Behavior::V1_33 => lang.pick(
            "ClusterIPs are IPAddress objects inside ServiceCIDRs, repaired by RepairIPAddress; the bitmap is still written beside them (dual-write) but no longer repaired.",
            "ClusterIP 是 ServiceCIDR 中的 IPAddress 对象，由 RepairIPAddress 修复；位图仍被同时写入（双写），但不再有人修复它。",
        ),
        Behavior::V1_35 => lang.pick(
            "IPAddress objects only: there is no ClusterIP bitmap any more, and the /12 limit of the range is gone.",
            "只有 IPAddress 对象：不再有 ClusterIP 位图，网段的 /12 上限也已取消。",
        ),
    }
}

/// Why `ip` left the `default/kubernetes` Endpoints in the rewrite by `writer`, from the status
/// of the apiserver advertising it (`None`: no apiserver does).
pub fn address_left(
    reconciler: ReconcilerType,
    owner: Option<ApiserverStatus>,
    writer: &str,
    lang: Lang,
) -> String {
    use ApiserverStatus::*;
    let text = match (reconciler, owner) {
        (ReconcilerType::Lease, Some(Stopped | Stopping)) => {
            lang.pick("stopped gracefully: it deleted its lease", "已优雅退出：它删除了自己的租约")
        }
        (ReconcilerType::Lease, Some(Crashed)) => {
            lang.pick("crashed: its lease expired", "已崩溃：它的租约已过期")
        }
        (ReconcilerType::Lease, Some(Isolated)) => {
            lang.pick("cut off from etcd: its lease expired", "与 etcd 失联：它的租约已过期")
        }
        (ReconcilerType::Lease, _) => lang.pick("its lease is gone", "它的租约已不存在"),
        (ReconcilerType::MasterCount, Some(Stopped | Stopping)) => lang.pick(
            "stopped gracefully: it took its own address out",
            "已优雅退出：它把自己的地址移除了",
        ),
        (ReconcilerType::MasterCount, _) => {
            return match lang {
                Lang::En => {
                    format!("trimmed by {writer} (more addresses than --apiserver-count)")
                }
                Lang::Zh => format!("被 {writer} 裁掉（地址数多于 --apiserver-count）"),
            }
        }
        (ReconcilerType::None, _) => lang.pick(
            "removed, not by an apiserver: with reconciler none they never write these Endpoints",
            "不是 apiserver 移除的：reconciler 为 none 时它们从不写这些 Endpoints",
        ),
    };
    text.to_string()
}

/// Why `ip` joined the `default/kubernetes` Endpoints.
pub fn address_added(reconciler: ReconcilerType, lang: Lang) -> &'static str {
    match reconciler {
        ReconcilerType::Lease => lang.pick("its lease is live", "它的租约仍然有效"),
        ReconcilerType::MasterCount => lang.pick("added itself", "它把自己加了进去"),
        ReconcilerType::None => lang.pick(
            "added, not by an apiserver: with reconciler none they never write these Endpoints",
            "不是 apiserver 添加的：reconciler 为 none 时它们从不写这些 Endpoints",
        ),
    }
}

/// The `selector` line of the `default/kubernetes` Service: who writes its Endpoints.
pub fn selector_note(reconciler: ReconcilerType, lang: Lang) -> &'static str {
    match reconciler {
        ReconcilerType::None => lang.pick(
            "none: the endpoints controller leaves it alone, and with reconciler none no apiserver writes its Endpoints",
            "无：endpoints 控制器不管它，而 reconciler 为 none 时也没有 apiserver 写它的 Endpoints",
        ),
        _ => lang.pick(
            "none: the endpoints controller leaves it alone; the apiservers write its Endpoints",
            "无：endpoints 控制器不管它；它的 Endpoints 由 apiserver 写入",
        ),
    }
}

/// The tooltip of an apiserver's Crash button.
pub fn crash_hint(reconciler: ReconcilerType, lang: Lang) -> &'static str {
    match reconciler {
        ReconcilerType::Lease => lang.pick(
            "Dies at once: its lease stays until the TTL runs out, and its address with it",
            "立即崩溃：它的租约会一直保留到 TTL 耗尽，它的地址也随之保留",
        ),
        ReconcilerType::MasterCount => lang.pick(
            "Dies at once: it has no lease; its address stays in default/kubernetes until another apiserver trims the list to --apiserver-count",
            "立即崩溃：它没有租约；它的地址会留在 default/kubernetes 中，直到另一个 apiserver 把列表裁到 --apiserver-count",
        ),
        ReconcilerType::None => lang.pick(
            "Dies at once: with reconciler none no apiserver writes default/kubernetes' Endpoints, so nothing changes there",
            "立即崩溃：reconciler 为 none 时没有 apiserver 写 default/kubernetes 的 Endpoints，所以那里什么也不变",
        ),
    }
}

/// The tooltip of an apiserver's Stop button.
pub fn stop_hint(reconciler: ReconcilerType, behavior: Behavior, lang: Lang) -> &'static str {
    match reconciler {
        ReconcilerType::Lease if behavior.legacy() => lang.pick(
            "Graceful: deletes its lease and takes its address out at once, except the last apiserver: with no lease left it refuses to empty the Endpoints",
            "优雅退出：立即删除自己的租约并移除自己的地址；但最后一个 apiserver 例外：没有租约剩下时，它拒绝清空 Endpoints",
        ),
        ReconcilerType::Lease => lang.pick(
            "Graceful: deletes its lease and takes its address out at once, the last apiserver too",
            "优雅退出：立即删除自己的租约并移除自己的地址，最后一个 apiserver 也是如此",
        ),
        ReconcilerType::MasterCount => lang.pick(
            "Graceful: takes its own address out of default/kubernetes at once (it has no lease)",
            "优雅退出：立即把自己的地址从 default/kubernetes 中移除（它没有租约）",
        ),
        ReconcilerType::None => lang.pick(
            "Graceful: it stops; with reconciler none nothing takes its address out of default/kubernetes",
            "优雅退出：它停止运行；reconciler 为 none 时没有谁会把它的地址从 default/kubernetes 中移除",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_behaviour_has_its_label_in_both_languages() {
        for &b in Behavior::ALL {
            assert_eq!(behavior_label(b, Lang::En), b.label());
            // The Chinese label names the same release.
            assert!(behavior_label(b, Lang::Zh).starts_with(b.as_str()), "{b}");
            assert_ne!(behavior_summary(b, Lang::En), behavior_summary(b, Lang::Zh));
        }
    }

    #[test]
    fn master_count_trims_it_has_no_leases() {
        let mc = ReconcilerType::MasterCount;
        let left = address_left(mc, Some(ApiserverStatus::Running), "apiserver-b", Lang::En);
        assert_eq!(left, "trimmed by apiserver-b (more addresses than --apiserver-count)");
        let crashed = address_left(mc, Some(ApiserverStatus::Crashed), "apiserver-a", Lang::En);
        assert!(!crashed.contains("lease"), "{crashed}");
        assert_eq!(address_added(mc, Lang::En), "added itself");
        assert!(!crash_hint(mc, Lang::En).contains("TTL"));
        for &r in ReconcilerType::ALL {
            for lang in Lang::ALL {
                assert!(!address_left(r, None, "x", lang).is_empty());
            }
        }
    }

    #[test]
    fn lease_texts_keep_their_leases() {
        let lease = ReconcilerType::Lease;
        let left = address_left(lease, Some(ApiserverStatus::Crashed), "apiserver-b", Lang::En);
        assert_eq!(left, "crashed: its lease expired");
        assert_eq!(address_added(lease, Lang::Zh), "它的租约仍然有效");
        assert!(stop_hint(lease, Behavior::V1_20, Lang::En).contains("except the last"));
        assert!(stop_hint(lease, Behavior::V1_35, Lang::En).contains("the last apiserver too"));
    }
}
