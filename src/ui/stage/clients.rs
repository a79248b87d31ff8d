//! The client pods under the stage's row, for a scenario that declares them (`View::clients`): each
//! node with its kube-proxy's list (marked while it lags the EndpointSlice), each pod with its
//! connection through the `kubernetes` Service's ClusterIP to an apiserver, the failures where
//! they happen, the run's figures so far and a strip of each pod's failures over time. HTML
//! rather than the stage's SVG, so that it wraps at any width; all of it read from the view.

use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::clients::{
    Attempt, ClientFigures, Clients, Endpoint, Failure, Link, NodeView, Outcome, Pod,
};
use crate::lang::Lang;
use crate::ui::spots::Mark;

/// How long (virtual ms) a new connection is drawn flying after it was made.
const FRESH_MS: u64 = 1_500;

/// What an attempt came to, in words.
pub(crate) fn outcome_text(o: Outcome, lang: Lang) -> &'static str {
    match o {
        Outcome::Connected => lang.pick("connected", "已连接"),
        Outcome::Dialing => lang.pick("no answer yet, timing out", "无应答，等待超时"),
        Outcome::Failed(f) => failure_text(f, lang),
        Outcome::Closed => lang.pick("closed idle, no error", "空闲时关闭，没有错误"),
        Outcome::Retried(Failure::GoAway) => {
            lang.pick("GOAWAY under its GET: sent again in 1s", "GET 进行中收到 GOAWAY：1s 后重发")
        }
        Outcome::Retried(Failure::Lost) => {
            lang.pick("lost under its GET: sent again in 1s", "GET 进行中连接丢失：1s 后重发")
        }
        Outcome::Retried(_) => {
            lang.pick("reset under its GET: sent again in 1s", "GET 进行中被重置：1s 后重发")
        }
    }
}

fn failure_text(f: Failure, lang: Lang) -> &'static str {
    match f {
        Failure::Refused => lang.pick("refused", "被拒绝"),
        Failure::Timeout => lang.pick("timed out", "超时"),
        Failure::Reset => lang.pick("reset", "被重置"),
        Failure::GoAway => lang.pick("GOAWAY", "收到 GOAWAY"),
        Failure::Lost => lang.pick("connection lost", "连接丢失"),
    }
}

/// The class of an outcome (its colour and mark).
fn outcome_class(o: Outcome) -> &'static str {
    match o {
        Outcome::Connected => "ok",
        Outcome::Dialing => "dialing",
        Outcome::Failed(Failure::Refused) => "refused",
        Outcome::Failed(Failure::Timeout) => "timeout",
        Outcome::Failed(_) | Outcome::Retried(_) => "broken",
        Outcome::Closed => "idle",
    }
}

/// An endpoint as `ip (apiserver)`.
pub(crate) fn endpoint_text(e: &Endpoint) -> String {
    if e.apiserver.is_empty() {
        e.ip.clone()
    } else {
        format!("{} ({})", e.ip, e.apiserver)
    }
}

/// The view's client pods (none without them) at the clock's instant.
#[derive(Properties, PartialEq, Clone)]
pub(crate) struct ClientsViewProps {
    pub(crate) clients: Option<std::rc::Rc<Clients>>,
    pub(crate) now: u64,
}

/// Everything the clients add under the stage; nothing without them. A tour step's highlight
/// `clients` marks their figures (the region is taller than a phone's screen).
#[function_component]
pub(crate) fn ClientsView(p: &ClientsViewProps) -> Html {
    let lang = crate::ui::use_lang();
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Clients);
    clients(p.clients.as_deref(), p.now, lang, &spot)
}

fn clients(c: Option<&Clients>, now: u64, lang: Lang, spot: &Mark) -> Html {
    let Some(c) = c else { return html! {} };
    let label = lang.pick(
        "Client pods: their connections through the kubernetes Service and each node's kube-proxy",
        "客户端 Pod：经 kubernetes Service 与各节点 kube-proxy 建立的连接",
    );
    html! {
        // A div with a role, not a `section`: no landmark element reaches a host page's rules.
        <div role="region" class="clients-view" aria-label={label}>
            <p class="clients-title">{ title(c, lang) }</p>
            { figures(c, lang, spot) }
            <ul class="client-nodes">
                { for c.nodes.iter().map(|n| node(c, n, now, lang)) }
            </ul>
            { strip(c, now, lang) }
        </div>
    }
}

fn title(c: &Clients, lang: Lang) -> String {
    let ip = if c.service_ip.is_empty() { "—" } else { c.service_ip.as_str() };
    match lang {
        Lang::En => format!("Client pods → {ip}:443 → kube-proxy → apiserver"),
        Lang::Zh => format!("客户端 Pod → {ip}:443 → kube-proxy → apiserver"),
    }
}

/// The run's figures so far: the windows, the share of new connections that failed, the longest
/// wait (at the scenario's end, `bootstrap-sim run`'s `clients`).
fn figures(c: &Clients, lang: Lang, spot: &Mark) -> Html {
    let f = &c.figures;
    let windows: Vec<String> = f
        .windows
        .iter()
        .map(|w| {
            let who = if w.apiserver.is_empty() { &w.address } else { &w.apiserver };
            span_text(who, w.from_ms, w.duration_ms, w.until_ms.is_some(), lang)
        })
        .collect();
    let windows = if windows.is_empty() {
        lang.pick("none so far", "目前没有").to_string()
    } else {
        windows.join("; ")
    };
    let share = format!("{:.1} %", f.failed_share * 100.0);
    let failed = match lang {
        Lang::En => format!("{} of {} ({share})", f.failed, f.attempts),
        Lang::Zh => format!("{} / {}（{share}）", f.failed, f.attempts),
    };
    let wait = if f.longest_wait_client.is_empty() {
        "—".to_string()
    } else {
        format!("{} ({})", format_ms(f.longest_wait_ms), f.longest_wait_client)
    };
    let mut rows = vec![
        (
            lang.pick(
                "Window in which a new connection could land on a dead apiserver",
                "新连接可能落到失效 apiserver 的时间窗口",
            ),
            windows,
        ),
        (lang.pick("New connections that failed", "失败的新连接"), failed),
        (lang.pick("Longest wait for a connection", "等待连接的最长时间"), wait),
    ];
    if let Some(spans) = rejecting(f, lang) {
        let key = lang.pick(
            "No endpoint listed: kube-proxy's REJECT refuses every new connection",
            "没有列出端点：kube-proxy 的 REJECT 拒绝每个新连接",
        );
        rows.insert(1, (key, spans));
    }
    html! {
        <dl class={classes!("client-figures", spot.class())} data-tour-spot={spot.attr()}>
            { for rows.into_iter().map(|(k, v)| html! { <div><dt>{ k }</dt><dd>{ v }</dd></div> }) }
        </dl>
    }
}

/// A span of the figures, `who: how long (from when)`, and whether it is still open.
fn span_text(who: &str, from_ms: u64, duration_ms: u64, closed: bool, lang: Lang) -> String {
    let (len, from) = (format_ms(duration_ms), format_ms(from_ms));
    match (closed, lang) {
        (true, Lang::En) => format!("{who}: {len} (from {from})"),
        (true, Lang::Zh) => format!("{who}：{len}（自 {from}）"),
        (false, Lang::En) => format!("{who}: {len} so far (from {from}), still open"),
        (false, Lang::Zh) => format!("{who}：至今 {len}（自 {from}），仍未结束"),
    }
}

/// The spans in which kube-proxies listed no endpoint (under `none`, the whole run), the nodes
/// of one span together, and how many connections their REJECT refused; `None` when that
/// refused none and none is open (the kube-proxies' empty lists before the first apiserver's
/// slice reached them, at boot, exposed nobody).
fn rejecting(f: &ClientFigures, lang: Lang) -> Option<String> {
    if f.rejected == 0 && f.rejecting.iter().all(|r| r.until_ms.is_some()) {
        return None;
    }
    let mut spans: Vec<(u64, Option<u64>, u64, Vec<&str>)> = Vec::new();
    for r in &f.rejecting {
        match spans.iter_mut().find(|s| (s.0, s.1) == (r.from_ms, r.until_ms)) {
            Some(s) => s.3.push(&r.node),
            None => spans.push((r.from_ms, r.until_ms, r.duration_ms, vec![&r.node])),
        }
    }
    let said: Vec<String> = spans
        .iter()
        .map(|(from, until, len, nodes)| {
            span_text(&nodes.join(", "), *from, *len, until.is_some(), lang)
        })
        .collect();
    Some(match lang {
        Lang::En => format!("{}; {} refused", said.join("; "), f.rejected),
        Lang::Zh => format!("{}；{} 个被拒绝", said.join("；"), f.rejected),
    })
}

/// A node: its kube-proxy's list against the EndpointSlice, and its pods.
fn node(c: &Clients, n: &NodeView, now: u64, lang: Lang) -> Html {
    let list_label = match lang {
        Lang::En => format!("kube-proxy on {} sends new connections to", n.name),
        Lang::Zh => format!("{} 上的 kube-proxy 把新连接发往", n.name),
    };
    let dead = lang.pick("takes no connection", "不接受连接");
    let pods = c.pods.iter().filter(|p| p.node == n.name);
    html! {
        <li class={classes!("client-node", n.lagging.then_some("lagging"))} data-node={n.name.clone()}>
            <div class="node-head">
                <b>{ &n.name }</b>{ " " }<span class="proxy">{ "kube-proxy" }</span>
                if let Some(text) = slow_text(n, lang) {
                    { " · " }<span class="slow-badge">{ text }</span>
                }
                if n.lagging {
                    { " · " }<span class="lag-badge">{ lang.pick("lags the EndpointSlice", "落后于 EndpointSlice") }</span>
                }
            </div>
            <ul class="proxy-list" aria-label={list_label}>
                if n.listed.is_empty() {
                    <li class="endpoint reject">{ lang.pick("no endpoint: REJECT", "没有端点：REJECT") }</li>
                }
                { for n.listed.iter().map(|e| {
                    let stale = !c.slice.iter().any(|s| s.ip == e.ip);
                    html! {
                        <li class={classes!("endpoint", (!e.answers).then_some("dead"), stale.then_some("stale"))}>
                            <span class="addr">{ endpoint_text(e) }</span>
                            if !e.answers { { " · " }<span class="why">{ dead }</span> }
                            if stale { { " · " }<span class="why">{ lang.pick("gone from the slice", "已不在 EndpointSlice 中") }</span> }
                        </li>
                    }
                }) }
                { for n.missing.iter().map(|ip| html! {
                    <li class="endpoint missing">{ ip }{ " · " }
                        <span class="why">{ lang.pick("in the slice, not yet here", "已在 EndpointSlice 中，尚未同步") }</span></li>
                }) }
            </ul>
            <ul class="client-pods">
                { for pods.map(|p| pod(c, p, now, lang)) }
            </ul>
        </li>
    }
}

/// What a slow kube-proxy takes for each sync, if it is one.
fn slow_text(n: &NodeView, lang: Lang) -> Option<String> {
    let t = format_ms(n.slow_apply_ms?);
    Some(match lang {
        Lang::En => format!("slow: {t} per iptables-restore"),
        Lang::Zh => format!("较慢：每次 iptables-restore {t}"),
    })
}

/// A pod and its connection: pod → ClusterIP → endpoint, the failure drawn at the hop where it
/// happened (kube-proxy's REJECT, the endpoint's refusal, a dial timing out on the way).
fn pod(c: &Clients, p: &Pod, now: u64, lang: Lang) -> Html {
    let last = p.attempts.last();
    let (to, outcome) = match (&p.link, last) {
        (Link::Up { to, .. } | Link::Draining { to, .. }, _) => {
            (Some(to.clone()), Some(Outcome::Connected))
        }
        (Link::Closed, Some(a)) if a.outcome == Outcome::Closed => (None, Some(Outcome::Closed)),
        (Link::Dialing { to, .. } | Link::Silent { to, .. }, _) => {
            (Some(to.clone()), Some(Outcome::Dialing))
        }
        (Link::Closed, Some(a)) => (a.ip.as_ref().map(|ip| endpoint_of(c, ip, a)), Some(a.outcome)),
        (Link::Closed, None) => (None, None),
    };
    let state = match (&p.link, outcome) {
        (Link::Dialing { until, .. }, _) => match lang {
            Lang::En => format!("timing out in {}", format_ms(until.saturating_sub(now))),
            Lang::Zh => format!("{} 后超时", format_ms(until.saturating_sub(now))),
        },
        (Link::Draining { until, .. }, _) => match lang {
            Lang::En => format!(
                "GOAWAY: its watch streams on until the server closes the connection in {}",
                format_ms(until.saturating_sub(now))
            ),
            Lang::Zh => format!(
                "收到 GOAWAY：watch 继续传输，直到服务器在 {} 后关闭连接",
                format_ms(until.saturating_sub(now))
            ),
        },
        (Link::Silent { closes_at, .. }, _) => match lang {
            Lang::En => format!(
                "silent, its host down: the health check closes it in {}",
                format_ms(closes_at.saturating_sub(now))
            ),
            Lang::Zh => {
                format!(
                    "无响应，主机已宕机：健康检查将在 {} 后关闭连接",
                    format_ms(closes_at.saturating_sub(now))
                )
            }
        },
        (_, Some(o)) => outcome_text(o, lang).to_string(),
        (_, None) => lang.pick("not started", "尚未启动").to_string(),
    };
    let class = outcome.map_or("idle", outcome_class);
    let fresh = last.filter(|a| now.saturating_sub(a.time_ms) < FRESH_MS && a.time_ms <= now);
    let rejected = matches!(&p.link, Link::Closed) && last.is_some_and(|a| a.ip.is_none());
    let via = if c.service_ip.is_empty() { "10.96.0.1" } else { c.service_ip.as_str() };
    html! {
        <li class={classes!("client-pod", class)} data-pod={p.name.clone()}>
            <span class="pod-name">{ &p.name }</span>
            <span class={classes!("hop", "via", rejected.then_some("fails-here"))}>{ format!("→ {via}") }</span>
            if let Some(to) = &to {
                <span class={classes!("hop", "to", (!rejected && class != "ok").then_some("fails-here"))}>
                    { format!("→ {}", endpoint_text(to)) }</span>
            }
            <span class="conn-state">{ state }</span>
            if let Some(a) = fresh {
                <span class={classes!("flying", outcome_class(a.outcome))} key={a.time_ms.to_string()} aria-hidden="true" />
            }
        </li>
    }
}

/// The endpoint of a past attempt, as the view names it now.
fn endpoint_of(c: &Clients, ip: &str, a: &Attempt) -> Endpoint {
    let known = c.slice.iter().chain(c.nodes.iter().flat_map(|n| &n.listed)).find(|e| e.ip == ip);
    known.cloned().unwrap_or(Endpoint {
        ip: ip.to_string(),
        apiserver: a.apiserver.clone(),
        answers: false,
    })
}

/// Each pod's failures over the scenario's time, with the windows shaded and the instant shown.
fn strip(c: &Clients, now: u64, lang: Lang) -> Html {
    let span = c.until_ms.max(now).max(1) as f64;
    let pct = |t: u64| format!("{:.2}%", t as f64 * 100.0 / span);
    let windows: Vec<Html> = c
        .figures
        .windows
        .iter()
        .map(|w| {
            let end = w.until_ms.unwrap_or(now);
            let style =
                format!("left:{};width:{}", pct(w.from_ms), pct(end.saturating_sub(w.from_ms)));
            html! { <span class="window" {style} /> }
        })
        .collect();
    let rows = c.pods.iter().map(|p| {
        let fails: Vec<&Attempt> =
            p.attempts.iter().filter(|a| matches!(a.outcome, Outcome::Failed(_))).collect();
        let said: Vec<String> = fails
            .iter()
            .map(|a| format!("{} {}", outcome_text(a.outcome, lang), format_ms(a.time_ms)))
            .collect();
        let label = match (fails.is_empty(), lang) {
            (true, Lang::En) => format!("{}: no failure so far", p.name),
            (true, Lang::Zh) => format!("{}：目前没有失败", p.name),
            (false, Lang::En) => format!("{}: {} failures: {}", p.name, fails.len(), said.join(", ")),
            (false, Lang::Zh) => format!("{}：{} 次失败：{}", p.name, fails.len(), said.join("，")),
        };
        html! {
            <li class="strip-row">
                <span class="strip-name" aria-hidden="true">{ &p.name }</span>
                <span class="strip-track" role="img" aria-label={label}>
                    { windows.clone() }
                    { for fails.iter().map(|a| html! {
                        <span class={classes!("fail", outcome_class(a.outcome))} style={format!("left:{}", pct(a.time_ms))} />
                    }) }
                    <span class="now" style={format!("left:{}", pct(now))} />
                </span>
            </li>
        }
    });
    let legend = [
        ("refused", lang.pick("refused", "被拒绝")),
        ("timeout", lang.pick("timed out", "超时")),
        ("broken", lang.pick("reset, GOAWAY or lost", "重置、GOAWAY 或丢失")),
        ("window", lang.pick("dead apiserver listed", "失效 apiserver 仍被列出")),
    ];
    html! {
        <div class="client-strip">
            <p class="strip-title">{ match lang {
                Lang::En => format!("Each pod's failures, 0 to {}", format_ms(c.until_ms)),
                Lang::Zh => format!("每个 Pod 的失败，0 至 {}", format_ms(c.until_ms)),
            } }</p>
            <ul class="strip-rows">{ for rows }</ul>
            <ul class="strip-legend" aria-hidden="true">
                { for legend.iter().map(|(k, t)| html! { <li><span class={classes!("key", *k)} />{ *t }</li> }) }
            </ul>
        </div>
    }
}

/// The table view's part: each pod's connection and the outcomes of its attempts, each node's
/// kube-proxy list; nothing without clients.
pub(crate) fn tables(c: Option<&Clients>, lang: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let Some(c) = c else { return html! {} };
    let col = |en: &str, zh: &str| html! { <th scope="col">{ lang.pick(en, zh).to_string() }</th> };
    let connection = |p: &Pod| match &p.link {
        Link::Up { to, since } => match lang {
            Lang::En => format!("to {} since {}", endpoint_text(to), format_ms(*since)),
            Lang::Zh => format!("连到 {}，自 {}", endpoint_text(to), format_ms(*since)),
        },
        Link::Dialing { to, until } => match lang {
            Lang::En => {
                format!("dialing {}, times out at {}", endpoint_text(to), format_ms(*until))
            }
            Lang::Zh => format!("正在拨号 {}，{} 超时", endpoint_text(to), format_ms(*until)),
        },
        Link::Draining { to, until } => match lang {
            Lang::En => format!(
                "to {}, an open request after GOAWAY, closed by the server at {} at the latest",
                endpoint_text(to),
                format_ms(*until)
            ),
            Lang::Zh => format!(
                "连到 {}，收到 GOAWAY 后仍在进行的请求，服务器最迟在 {} 关闭",
                endpoint_text(to),
                format_ms(*until)
            ),
        },
        Link::Silent { to, closes_at } => match lang {
            Lang::En => format!(
                "to {}, silent (host down), closed by the health check at {}",
                endpoint_text(to),
                format_ms(*closes_at)
            ),
            Lang::Zh => format!(
                "连到 {}，无响应（主机宕机），健康检查在 {} 关闭",
                endpoint_text(to),
                format_ms(*closes_at)
            ),
        },
        Link::Closed => lang.pick("none", "无").to_string(),
    };
    let outcomes = |p: &Pod| {
        let said: Vec<String> = p
            .attempts
            .iter()
            .map(|a| {
                let to = a.ip.clone().unwrap_or_else(|| "REJECT".to_string());
                format!("{} {} → {to}", format_ms(a.time_ms), outcome_text(a.outcome, lang))
            })
            .collect();
        if said.is_empty() {
            lang.pick("none yet", "暂无").to_string()
        } else {
            said.join("; ")
        }
    };
    html! {
        <>
            <div class="table-wrap">
                <table id={ids.id("table-clients")}>
                    <caption>{ title(c, lang) }</caption>
                    <thead><tr>{ col("Pod", "Pod") }{ col("Node", "节点") }{ col("Connection", "连接") }{ col("Attempts and outcomes", "尝试与结果") }</tr></thead>
                    <tbody>
                        { for c.pods.iter().map(|p| html! {
                            <tr key={p.name.clone()}>
                                <th scope="row">{ &p.name }</th><td>{ &p.node }</td>
                                <td>{ connection(p) }</td><td>{ outcomes(p) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <div class="table-wrap">
                <table id={ids.id("table-kube-proxies")}>
                    <caption>{ lang.pick("What each node's kube-proxy sends new connections to", "各节点 kube-proxy 把新连接发往何处") }</caption>
                    <thead><tr>{ col("Node", "节点") }{ col("kube-proxy lists", "kube-proxy 列出") }{ col("Lags the EndpointSlice", "落后于 EndpointSlice") }</tr></thead>
                    <tbody>
                        { for c.nodes.iter().map(|n| {
                            let listed: Vec<String> = n.listed.iter().map(|e| {
                                if e.answers { endpoint_text(e) } else { format!("{} ✖", endpoint_text(e)) }
                            }).collect();
                            html! {
                                <tr key={n.name.clone()}>
                                    <th scope="row">{ &n.name }
                                        if let Some(text) = slow_text(n, lang) { { " (" }{ text }{ ")" } }
                                    </th>
                                    <td>{ if listed.is_empty() { "REJECT".to_string() } else { listed.join(", ") } }</td>
                                    <td>{ if n.lagging { lang.pick("yes", "是") } else { lang.pick("no", "否") } }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        </>
    }
}

// Drawn only for a scenario with client pods: its code is in the panels' chunk, out of every
// other reader's first view (issue 37).
lazy_component!(pub(crate) LazyClientsView(lazy_clients_view, load_clients_view) = ClientsView [ClientsViewProps] in panels);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::clients::Rejecting;

    fn figures(rejecting: Vec<Rejecting>, rejected: u64) -> ClientFigures {
        ClientFigures {
            windows: Vec::new(),
            attempts: rejected,
            failed: rejected,
            rejecting,
            rejected,
            failed_share: 1.0,
            broken: 0,
            retried: 0,
            longest_wait_ms: 0,
            longest_wait_client: String::new(),
        }
    }

    fn span(node: &str, until_ms: Option<u64>) -> Rejecting {
        Rejecting {
            node: node.into(),
            from_ms: 0,
            until_ms,
            duration_ms: until_ms.unwrap_or(120_000),
        }
    }

    #[test]
    fn nodes_that_list_no_endpoint_are_one_row_with_what_reject_refused() {
        let open = ["node-1", "node-2", "node-3"].map(|n| span(n, None)).to_vec();
        assert_eq!(
            rejecting(&figures(open, 143), Lang::En).as_deref(),
            Some("node-1, node-2, node-3: 2m0s so far (from 0s), still open; 143 refused")
        );
        // The empty lists at boot, before any pod dialled, expose nobody: no row.
        let boot = vec![span("node-1", Some(162)), span("node-2", Some(294))];
        assert_eq!(rejecting(&figures(boot, 0), Lang::Zh), None);
    }
}
