//! Component tests of tours and embedding: a tour steps forward, back (at once) and into the
//! sandbox; `mount` puts independent instances on one page, reports bad options inside the
//! widget, and `unmount` removes them.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use kube_bootstrap_lab::lab::catalogue;
use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::mount::mount;
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::{document, new_root, options, until_long as until};

/// The first element matching `sel` inside `root` (instances may share a page: never by id
/// through the document, and an `#id` as that instance names it).
fn find(root: &Element, sel: &str) -> Option<Element> {
    root.query_selector(&crate::dom::in_instance(root, sel)).unwrap()
}

fn text(root: &Element, sel: &str) -> String {
    find(root, sel).and_then(|e| e.text_content()).unwrap_or_default()
}

fn click(root: &Element, sel: &str) {
    find(root, sel)
        .unwrap_or_else(|| panic!("no {sel}"))
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
}

/// Presses "Link to this moment" and reads the link it shows.
async fn share_link(root: &Element) -> String {
    click(root, "#share");
    until("the link shows", || find(root, "#share-link").is_some()).await;
    find(root, "#share-link").unwrap().dyn_into::<web_sys::HtmlInputElement>().unwrap().value()
}

#[wasm_bindgen_test]
async fn a_tour_steps_forward_back_at_once_and_ends_in_the_sandbox() {
    let t = catalogue::tour("kubernetes-service").unwrap().unwrap();
    let root = new_root();
    let props = yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("kubernetes-service")),
        lang: Lang::Zh
    });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("the tour card shows", || find(&root, "#tour-say").is_some()).await;
    assert_eq!(text(&root, "#tour-say"), t.steps[0].say.get(Lang::Zh));
    let n = t.steps.len();
    assert_eq!(text(&root, "#tour-progress"), format!("第 1 步，共 {n} 步"));
    until("the first step highlights a part of the UI", || find(&root, ".tour-spot").is_some())
        .await;
    // Forward plays to the step's instant, then stops there.
    click(&root, "#tour-next");
    until("step 2 is reached", || {
        text(&root, "#tour-progress") == format!("第 2 步，共 {n} 步")
            && find(&root, ".lab[data-moving]").is_none()
    })
    .await;
    assert_eq!(text(&root, "#tour-say"), t.steps[1].say.get(Lang::Zh));
    click(&root, "#tour-next");
    until("step 3 is reached", || {
        text(&root, "#tour-progress") == format!("第 3 步，共 {n} 步")
            && find(&root, ".lab[data-moving]").is_none()
    })
    .await;
    let clock3 = text(&root, "#clock");
    click(&root, "#tour-next");
    until("step 4 is reached", || {
        text(&root, "#tour-progress") == format!("第 4 步，共 {n} 步")
            && find(&root, ".lab[data-moving]").is_none()
    })
    .await;
    // Back restores the remembered instant at once: no playing back through time.
    click(&root, "#tour-back");
    gloo_timers::future::TimeoutFuture::new(40).await;
    assert_eq!(text(&root, "#tour-progress"), format!("第 3 步，共 {n} 步"));
    assert!(find(&root, ".lab[data-moving]").is_none());
    assert_eq!(text(&root, "#clock"), clock3);
    // Forward again to a step already seen: at once too.
    click(&root, "#tour-next");
    gloo_timers::future::TimeoutFuture::new(40).await;
    assert_eq!(text(&root, "#tour-progress"), format!("第 4 步，共 {n} 步"));
    assert!(find(&root, ".lab[data-moving]").is_none());
    click(&root, "#tour-back");
    gloo_timers::future::TimeoutFuture::new(40).await;
    // Leaving keeps the state: the sandbox.
    click(&root, "#tour-leave");
    until("the tour card is gone", || find(&root, "#tour-say").is_none()).await;
    assert_eq!(text(&root, "#clock"), clock3);
    root.remove();
}

#[wasm_bindgen_test]
async fn acting_during_a_tour_ends_it_with_the_state_it_reached() {
    let root = new_root();
    let props = yew::props!(AppProps { tour: Some(yew::AttrValue::from("lease-crash-vs-stop")) });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("the tour card shows", || find(&root, "#tour-say").is_some()).await;
    let crash = root.query_selector_all("#apiserver-apiserver-a button").unwrap();
    let crash = (0..crash.length())
        .filter_map(|i| crash.item(i)?.dyn_into::<HtmlElement>().ok())
        .find(|b| b.text_content().unwrap_or_default().contains("Crash"))
        .expect("a crash button");
    crash.click();
    until("the tour card is gone", || find(&root, "#tour-say").is_none()).await;
    until("apiserver-a crashed", || find(&root, "#apiserver-apiserver-a.crashed").is_some()).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn mounted_instances_are_independent_and_unmount_cleanly() {
    let (a, b) = (new_root(), new_root());
    let mut first = mount(
        a.clone(),
        options(&[("scenario", "crash-vs-graceful-stop"), ("lang", "zh"), ("theme", "dark")]),
        None,
    );
    let mut second = mount(
        b.clone(),
        options(&[("scenario", "nodeport-duplicate"), ("panels", "pods,events")]),
        None,
    );
    until("both render", || find(&a, ".lab").is_some() && find(&b, ".lab").is_some()).await;
    assert!(first.problems().is_empty() && second.problems().is_empty());
    let (la, lb) = (find(&a, ".lab").unwrap(), find(&b, ".lab").unwrap());
    assert_eq!(
        (la.get_attribute("lang").as_deref(), la.get_attribute("data-theme").as_deref()),
        (Some("zh"), Some("dark"))
    );
    assert_eq!(
        (lb.get_attribute("lang").as_deref(), lb.get_attribute("data-theme")),
        (Some("en"), None)
    );
    // panels=: only the chosen ones.
    assert!(find(&b, ".panel.pods").is_some() && find(&b, ".panel.feed").is_some());
    assert!(find(&b, ".panel.etcd").is_none() && find(&b, ".panel.apiservers").is_none());
    // Playing one does not move the other.
    let clock_b = text(&b, "#clock");
    click(&a, "#step");
    until("the first instance moved", || text(&a, "#clock") != "t = 0s").await;
    assert_eq!(text(&b, "#clock"), clock_b);
    // Keys reach only the focused instance.
    let key = |el: &Element, k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        el.dispatch_event(
            &web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
    };
    let before_a = text(&a, "#clock");
    key(&lb, "ArrowRight");
    until("the second instance stepped", || text(&b, "#clock") != clock_b).await;
    assert_eq!(text(&a, "#clock"), before_a);
    first.unmount();
    until("the first instance is gone", || find(&a, ".lab").is_none()).await;
    assert!(find(&b, ".lab").is_some(), "unmounting one leaves the other");
    second.unmount();
    until("the second instance is gone", || find(&b, ".lab").is_none()).await;
    a.remove();
    b.remove();
}

#[wasm_bindgen_test]
async fn bad_options_are_reported_in_the_widget_and_never_rendered_as_html() {
    let root = new_root();
    let mut lab = mount(
        root.clone(),
        options(&[("lang", "fr"), ("tour", "<b>nope</b>"), ("colour", "red")]),
        Some("https://lab.example/index.html".into()),
    );
    until("it renders", || find(&root, "#action-error").is_some()).await;
    assert_eq!(
        lab.problems(),
        vec![
            "option lang: \"fr\" is not one of en, zh".to_string(),
            "unknown option \"colour\"".to_string()
        ]
    );
    let msg = text(&root, "#action-error");
    assert!(
        msg.contains("option lang") && msg.contains("There is no tour \"<b>nope</b>\""),
        "{msg}"
    );
    assert!(find(&root, "#action-error b").is_none());
    // The default scenario opened; an embedded instance links to the lab's own page.
    assert!(find(&root, "#kubernetes-ip").is_some());
    let link = share_link(&root).await;
    assert!(link.starts_with("https://lab.example/index.html#scenario="), "{link}");
    assert!(
        !web_sys::window().unwrap().location().href().unwrap().contains("#scenario="),
        "the host page's address is left alone"
    );
    lab.unmount();
    root.remove();
}

#[wasm_bindgen_test]
async fn an_autoplaying_tour_moves_on_by_itself_until_the_reader_takes_over() {
    let root = new_root();
    let props = yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("kubernetes-service")),
        autoplay: true
    });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("the tour card shows", || find(&root, "#tour-auto").is_some()).await;
    let n = catalogue::tour("kubernetes-service").unwrap().unwrap().steps.len();
    // A reading pause (4 to 20 s), then the move.
    for _ in 0..120 {
        if text(&root, "#tour-progress") == format!("Step 2 of {n}") {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(250).await;
    }
    assert_eq!(text(&root, "#tour-progress"), format!("Step 2 of {n}"));
    until("step 2 is reached", || find(&root, ".lab[data-moving]").is_none()).await;
    click(&root, "#tour-back");
    until("the reader took over", || find(&root, "#tour-auto").is_none()).await;
    assert_eq!(text(&root, "#tour-progress"), format!("Step 1 of {n}"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_tour_opens_at_a_step_and_links_back_to_it() {
    let root = new_root();
    let mut lab = mount(
        root.clone(),
        options(&[("tour", "etcd-outage"), ("step", "3"), ("lang", "zh")]),
        Some("https://lab.example/index.html?scenario=x#old".into()),
    );
    let n = catalogue::tour("etcd-outage").unwrap().unwrap().steps.len();
    until("step 3 shows", || text(&root, "#tour-progress") == format!("第 3 步，共 {n} 步")).await;
    click(&root, "#tour-next");
    until("step 4 shows", || text(&root, "#tour-progress") == format!("第 4 步，共 {n} 步")).await;
    let link = share_link(&root).await;
    assert_eq!(link, "https://lab.example/index.html?tour=etcd-outage&step=4&lang=zh");
    lab.unmount();
    root.remove();
}

#[wasm_bindgen_test]
async fn a_panic_is_told_in_every_instance_never_a_blank_page() {
    let (a, b, gone) = (new_root(), new_root(), new_root());
    let mut first = mount(a.clone(), options(&[]), None);
    let mut second = mount(b.clone(), options(&[("lang", "zh")]), None);
    let mut unmounted = mount(gone.clone(), options(&[]), None);
    until("all render", || [&a, &b, &gone].iter().all(|r| find(r, ".lab").is_some())).await;
    unmounted.unmount();
    // A bug anywhere in the module, in a task of its own: the module cannot go on after it.
    gloo_timers::callback::Timeout::new(0, || panic!("a test of the failure notice")).forget();
    until("the notice shows", || find(&a, ".lab-failure").is_some()).await;
    let (told_a, told_b) = (text(&a, ".lab-failure"), text(&b, ".lab-failure"));
    let told_gone = find(&gone, ".lab-failure").is_some();
    first.unmount();
    second.unmount();
    for r in [a, b, gone] {
        r.remove();
    }
    assert!(
        told_a.starts_with("The lab stopped because of an internal error; reload the page")
            && told_a.contains("a test of the failure notice"),
        "{told_a}"
    );
    assert!(told_b.starts_with("实验室因内部错误而停止"), "{told_b}");
    assert!(!told_gone, "an unmounted instance is no longer told");
}

/// Adds the lab's stylesheets to the page (what is hidden or laid out depends on them).
fn add_styles() -> Element {
    let style = document().create_element("style").unwrap();
    // Every stylesheet the page links (index.html), as an embedding page would load them.
    let css = concat!(
        include_str!("../../static/style.css"),
        include_str!("../../static/bitmap.css"),
        include_str!("../../static/stage.css"),
        include_str!("../../static/inspector.css"),
    );
    style.set_text_content(Some(css));
    document().head().unwrap().append_child(&style).unwrap();
    style
}

/// Whether the first `sel` inside `root` takes room on the page (`display: none` takes none).
fn shown(root: &Element, sel: &str) -> bool {
    let r = find(root, sel).unwrap_or_else(|| panic!("no {sel}")).get_bounding_client_rect();
    r.width() > 0.0 && r.height() > 0.0
}

#[wasm_bindgen_test]
async fn minimal_controls_show_the_story_and_nothing_that_edits() {
    let style = add_styles();
    let (full, minimal) = (new_root(), new_root());
    let tour = [("tour", "kubernetes-service"), ("scenario", "nodeport-duplicate")];
    let mut a = mount(full.clone(), options(&tour), None);
    let mut b = mount(minimal.clone(), options(&[tour[0], tour[1], ("controls", "minimal")]), None);
    until("both render", || {
        find(&full, "#tour-say").is_some() && find(&minimal, "#tour-say").is_some()
    })
    .await;
    let story =
        ["#play", "#scrubber", "#tour-say", "#tour-next", "#kubernetes-ip", ".bitmap-canvas"];
    let editing = [
        ".topbar",
        "#tour-pick",
        "#lang",
        "#scenario-pick",
        "#configure",
        "#share",
        "#back",
        "#step",
        "#speed",
        "#add-apiserver",
        ".card-actions",
        "#etcd-outage",
        "#delete-kubernetes",
        "#create-service",
        "#create-pod",
        "#corrupt",
        ".services td:last-child button",
        ".stage-button[data-spot=corrupt]",
    ];
    let seen = |root: &Element, sels: &[&str]| {
        sels.iter().map(|s| (s.to_string(), shown(root, s))).collect::<Vec<_>>()
    };
    let (full_story, full_editing) = (seen(&full, &story), seen(&full, &editing));
    let (min_story, min_editing) = (seen(&minimal, &story), seen(&minimal, &editing));
    a.unmount();
    b.unmount();
    full.remove();
    minimal.remove();
    style.remove();
    assert!(
        full_story.iter().chain(&full_editing).all(|(_, s)| *s),
        "the full view shows everything: {full_story:?} {full_editing:?}"
    );
    assert!(min_story.iter().all(|(_, s)| *s), "minimal keeps the story: {min_story:?}");
    let left: Vec<_> = min_editing.iter().filter(|(_, s)| *s).collect();
    assert!(left.is_empty(), "minimal shows editing controls: {left:?}");
}

#[wasm_bindgen_test]
async fn the_tour_menu_is_in_tour_order_and_a_button_starts_the_first_tour() {
    let number = |title: &str| title.split_once(". ").and_then(|(n, _)| n.parse::<u32>().ok());
    for (lang, start) in [("en", "Start the guided tour"), ("zh", "开始导览")] {
        // Untouched, the lab plays its opening story: the button shows over it.
        let root = new_root();
        let mut lab = mount(root.clone(), options(&[("lang", lang)]), None);
        until("it renders", || find(&root, "#tour-start").is_some()).await;
        let list = root.query_selector_all("#tour-pick option").unwrap();
        let titles: Vec<String> = (1..list.length())
            .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
            .collect();
        let label = text(&root, "#tour-start");
        click(&root, "#tour-start");
        let picked = || {
            find(&root, "#tour-pick")
                .unwrap()
                .dyn_into::<web_sys::HtmlSelectElement>()
                .unwrap()
                .value()
        };
        until("a tour starts", || {
            !["", kube_bootstrap_lab::ui::STORY].contains(&picked().as_str())
        })
        .await;
        let picked = picked();
        let button_left = find(&root, "#tour-start").is_some();
        lab.unmount();
        root.remove();
        let numbers: Vec<Option<u32>> = titles.iter().map(|t| number(t)).collect();
        let from = numbers[0].unwrap_or_else(|| panic!("{lang}: {titles:?}"));
        let expected: Vec<Option<u32>> = (from..from + titles.len() as u32).map(Some).collect();
        assert_eq!(numbers, expected, "{lang}: the menu in tour order: {titles:?}");
        assert_eq!(titles.len(), catalogue::tour_names().count());
        assert_eq!(label, start);
        let first = catalogue::tour(&picked).unwrap().unwrap();
        assert_eq!(
            number(first.title.get(Lang::En)),
            Some(1),
            "{lang}: the button starts tour 1, not {picked}"
        );
        assert!(!button_left, "{lang}: no Start button while a tour runs");
    }
}

#[wasm_bindgen_test]
async fn the_layout_follows_the_labs_width_not_the_windows() {
    let style = add_styles();
    let mut seen = Vec::new();
    for (width, columns) in [(1440, 12), (750, 2), (390, 1)] {
        let root = new_root();
        root.set_attribute("style", &format!("width: {width}px")).unwrap();
        let mut lab = mount(root.clone(), options(&[]), None);
        until("it renders", || find(&root, "#kubernetes-ip").is_some()).await;
        let window = web_sys::window().unwrap();
        let grid = window.get_computed_style(&find(&root, ".grid").unwrap()).unwrap().unwrap();
        let tracks =
            grid.get_property_value("grid-template-columns").unwrap().split_whitespace().count();
        let (ip, panel) =
            (find(&root, "#kubernetes-ip").unwrap(), find(&root, ".panel.kubernetes").unwrap());
        let inside =
            ip.get_bounding_client_rect().right() <= panel.get_bounding_client_rect().right() + 0.5;
        let lab_el = find(&root, ".lab").unwrap();
        let no_overflow = lab_el.scroll_width() <= lab_el.client_width();
        // What sticks out, to name it when it does.
        let right = lab_el.get_bounding_client_rect().right() + 0.5;
        let all = lab_el.query_selector_all("*").unwrap();
        let out: Vec<String> = (0..all.length())
            .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
            .filter(|e| e.get_bounding_client_rect().right() > right)
            .take(6)
            .map(|e| format!("{}.{}", e.tag_name(), e.get_attribute("class").unwrap_or_default()))
            .collect();
        seen.push((width, tracks, columns, inside, no_overflow, out));
        lab.unmount();
        root.remove();
    }
    style.remove();
    for (width, tracks, columns, inside, no_overflow, out) in seen {
        assert_eq!(tracks, columns, "a {width}px lab has {columns} grid columns");
        assert!(inside, "{width}px: 10.96.0.1 is inside its panel");
        assert!(no_overflow, "{width}px: nothing overflows the lab: {out:?}");
    }
}

/// Where `root` highlights `spot`: the marked elements' classes, on the stage and off it.
fn marks(root: &Element, spot: &str) -> (Vec<String>, Vec<String>) {
    let all = root.query_selector_all(&format!("[data-tour-spot=\"{spot}\"]")).unwrap();
    let els: Vec<Element> =
        (0..all.length()).filter_map(|i| all.item(i)?.dyn_into().ok()).collect();
    assert!(
        els.iter().all(|e| e.class_list().contains("tour-spot")),
        "{spot}: marked by its class and its name together"
    );
    let class = |e: &Element| e.get_attribute("class").unwrap_or_default();
    let (on, off): (Vec<_>, Vec<_>) =
        els.iter().partition(|e| e.closest(".stage").unwrap().is_some());
    (on.into_iter().map(class).collect(), off.into_iter().map(class).collect())
}

/// The spots the card's "Look at" offers.
fn looks(root: &Element) -> Vec<String> {
    let all = root.query_selector_all(".tour-look button").unwrap();
    (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<Element>().ok()?.get_attribute("data-spot"))
        .collect()
}

#[wasm_bindgen_test]
async fn a_steps_highlight_is_drawn_by_the_panel_that_shows_it_and_leaves_with_the_step() {
    use kube_bootstrap_lab::lab::parts::Part;
    let root = new_root();
    // No stage and no bitmaps: the panels shown carry what they draw, and nothing else is offered.
    let props = yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("kubernetes-service")),
        step: Some(2),
        panels: Some(std::rc::Rc::new(vec![Part::KubernetesService, Part::Etcd]))
    });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("step 2 shows", || text(&root, "#tour-progress").starts_with("Step 2 of")).await;
    // Step 2 names the Service and the ClusterIP bitmap.
    assert_eq!(
        marks(&root, "kubernetes-service"),
        (vec![], vec!["panel kubernetes tour-spot".to_string()])
    );
    assert_eq!(marks(&root, "cluster-ip"), (vec![], vec![]), "no bitmaps panel: drawn nowhere");
    assert_eq!(looks(&root), ["kubernetes-service"]);
    click(&root, "#tour-next");
    until("step 3 is reached", || text(&root, "#tour-progress").starts_with("Step 3 of")).await;
    // Step 3 names the Endpoints and the leases: their lists carry it, the Service's panel no more.
    assert_eq!(marks(&root, "endpoints").1, ["addresses tour-spot"]);
    assert_eq!(marks(&root, "leases").1, ["leases tour-spot"]);
    assert_eq!(marks(&root, "kubernetes-service"), (vec![], vec![]));
    assert_eq!(root.query_selector_all(".tour-spot").unwrap().length(), 2);
    assert_eq!(looks(&root), ["endpoints", "leases"]);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_step_is_highlighted_on_the_stage_when_it_draws_it_else_in_the_details() {
    let root = new_root();
    let props = yew::props!(AppProps { tour: Some(yew::AttrValue::from("ipaddress-objects")) });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("the tour card shows", || find(&root, "#tour-say").is_some()).await;
    let spots = ["ranges", "etcd", "apiserver:apiserver-a", "service-cidrs"];
    assert_eq!(looks(&root), spots);
    // The stage draws all four (rows, its etcd, an apiserver): there alone.
    for spot in spots {
        let (on, off) = marks(&root, spot);
        assert!(!on.is_empty() && off.is_empty(), "{spot}: on the stage {on:?}, below {off:?}");
    }
    // Seen as a table, the stage draws nothing: the details carry them.
    click(&root, "#stage-as-table");
    until("the table shows", || find(&root, "#table-view").is_some()).await;
    assert_eq!(marks(&root, "etcd"), (vec![], vec!["panel etcd tour-spot".to_string()]));
    assert_eq!(marks(&root, "ranges").1, ["ranges tour-spot", "ranges objects tour-spot"]);
    assert_eq!(marks(&root, "apiserver:apiserver-a").1.len(), 1);
    assert_eq!(marks(&root, "service-cidrs").1, ["panel service-cidrs tour-spot"]);
    assert_eq!(looks(&root), spots);
    root.remove();
}

#[wasm_bindgen_test]
async fn minimal_controls_offer_no_look_at_what_they_hide() {
    let root = new_root();
    // Step 5 names the corruption form and the bitmaps; minimal hides the form (and its button).
    let props = yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("clusterip-bitmap-leak")),
        step: Some(5),
        minimal: true
    });
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("step 5 shows", || text(&root, "#tour-progress").starts_with("Step 5 of")).await;
    assert_eq!(looks(&root), ["bitmaps"]);
    assert_eq!(
        marks(&root, "corrupt").0.len(),
        1,
        "still marked on the stage, where the CSS hides it"
    );
    root.remove();
}

/// A host's dark or language switch (`Instance::set`, what the element's `theme` and `lang`
/// attributes call): applied in place, the reader keeps the tour step and the clock; anything
/// else, or a bad value, is named and changes nothing.
#[wasm_bindgen_test]
async fn theme_and_lang_change_in_place() {
    let root = new_root();
    let mut lab =
        mount(root.clone(), options(&[("tour", "kubernetes-service"), ("theme", "light")]), None);
    until("the tour renders", || find(&root, "#tour-next").is_some()).await;
    for step in ["Step 2 ", "Step 3 "] {
        click(&root, "#tour-next");
        until(step, || {
            text(&root, "#tour-progress").starts_with(step)
                && find(&root, ".lab[data-moving]").is_none()
        })
        .await;
    }
    let clock = text(&root, "#clock");
    let problems = lab.set(options(&[("theme", "dark"), ("lang", "zh")]));
    assert!(problems.is_empty(), "{problems:?}");
    until("dark and Chinese", || find(&root, ".lab[data-theme=dark][lang=zh]").is_some()).await;
    assert!(
        text(&root, "#tour-progress").starts_with("第 3 步"),
        "{}",
        text(&root, "#tour-progress")
    );
    assert_eq!(text(&root, "#clock"), clock, "the clock stays");
    let refused =
        lab.set(options(&[("tour", "etcd-outage"), ("theme", "pink"), ("link", "#t=5s")]));
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(
        find(&root, ".lab[data-theme=dark]").is_some()
            && text(&root, "#tour-progress").starts_with("第 3 步")
    );
    lab.unmount();
    root.remove();
}
