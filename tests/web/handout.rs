//! Component tests of a tour's handout (src/ui/handout.rs): `print` lays out one block per step,
//! each with its narration in the reader's language and a still stage, and the lab's tour offers
//! the link that opens it.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use kube_bootstrap_lab::lab::catalogue;
use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::within::all;
use crate::dom::{document, settle, until, Mounted};

const TOUR: &str = "lease-crash-vs-stop";

fn props(lang: Lang, print: bool) -> AppProps {
    yew::props!(AppProps { tour: Some(yew::AttrValue::from(TOUR)), lang, print })
}

#[wasm_bindgen_test]
async fn the_handout_shows_every_step_with_its_narration_beside_a_still_stage() {
    let tour = catalogue::tour(TOUR).unwrap().unwrap();
    for lang in [Lang::En, Lang::Zh] {
        let root = Mounted::<App>::new(props(lang, true));
        settle().await;
        until("the handout is drawn", || {
            root.query_selector(".handout-step .stage svg").unwrap().is_some()
        })
        .await;
        let steps = all(&root, ".handout-step");
        assert_eq!(steps.len(), tour.steps.len(), "one block per step");
        for (i, (block, step)) in steps.iter().zip(&tour.steps).enumerate() {
            let say =
                block.query_selector(".handout-say").unwrap().unwrap().text_content().unwrap();
            assert_eq!(
                say,
                step.say.get(lang),
                "step {}: its narration in the reader's language",
                i + 1
            );
            assert_eq!(
                block.get_attribute("data-step").as_deref(),
                Some((i + 1).to_string().as_str())
            );
            assert_eq!(all(block, ".stage svg").len(), 1, "step {}: one stage", i + 1);
            assert!(
                all(block, ".packets, [aria-live], .legend").is_empty(),
                "step {}: still: no packets, no live region",
                i + 1
            );
            let figure = block.query_selector(".handout-figure").unwrap().unwrap();
            assert_eq!(figure.get_attribute("role").as_deref(), Some("img"));
            assert!(
                figure.query_selector("[inert]").unwrap().is_some(),
                "nothing in the picture takes the focus"
            );
            // The step's spots the stage draws are marked on it (not the time controls: no picture of theirs).
            let marked: Vec<String> = all(block, "[data-tour-spot]")
                .iter()
                .filter_map(|e| e.get_attribute("data-tour-spot"))
                .collect();
            for h in step.highlight.iter().map(ToString::to_string) {
                assert_eq!(
                    marked.contains(&h),
                    h != "controls",
                    "step {}: its highlight {h} marked on its stage: {marked:?}",
                    i + 1
                );
            }
            assert!(
                marked.iter().all(|m| step.highlight.iter().any(|h| &h.to_string() == m)),
                "step {}: only its spots",
                i + 1
            );
        }
        let ids: Vec<String> = all(&root, "[id]").iter().map(|e| e.id()).collect();
        let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "no id twice: {ids:?}");
        let title = root.query_selector("h1").unwrap().unwrap().text_content().unwrap();
        assert_eq!(title, tour.title.get(lang));
        assert!(
            root.query_selector("button.primary").unwrap().unwrap().text_content().unwrap()
                == lang.pick("Print", "打印")
        );
        root.remove();
    }
}

/// Each step says the instant the lab's clock shows there (step 1 plays on to 25 s); a step that
/// asks prints its question with every answer, and the right answer with its why on the answers
/// after the last step, or upside down under the question, as the trainer chose.
#[wasm_bindgen_test]
async fn the_handout_prints_the_lab_s_instants_and_each_question_with_its_answers() {
    use kube_bootstrap_lab::lab::handout::AnswersAt;
    let tour = catalogue::tour(TOUR).unwrap().unwrap();
    let text = |e: &Element, sel: &str| {
        e.query_selector(sel).unwrap().map(|e| e.text_content().unwrap()).unwrap_or_default()
    };
    for lang in [Lang::En, Lang::Zh] {
        for at in [AnswersAt::End, AnswersAt::UpsideDown] {
            let root = Mounted::<App>::new(yew::props!(AppProps {
                tour: Some(yew::AttrValue::from(TOUR)),
                lang,
                print: true,
                answers: at
            }));
            settle().await;
            until("the handout is drawn", || {
                root.query_selector(".handout-step .stage svg").unwrap().is_some()
            })
            .await;
            let steps = all(&root, ".handout-step");
            let first = text(&steps[0], ".handout-time");
            assert!(
                first.starts_with(lang.pick("at 25s ·", "时刻 25s ·")),
                "step 1 at the lab's 25 s: {first}"
            );
            let key = all(&root, ".handout-key-item");
            for (i, (block, step)) in steps.iter().zip(&tour.steps).enumerate() {
                let Some(ask) = &step.ask else {
                    assert!(
                        block.query_selector(".handout-question").unwrap().is_none(),
                        "step {}: no question",
                        i + 1
                    );
                    continue;
                };
                let question = text(block, ".handout-question");
                assert!(
                    question.contains(ask.question.get(lang)),
                    "step {}: its question: {question}",
                    i + 1
                );
                let choices: Vec<String> = all(block, ".handout-choices li")
                    .iter()
                    .map(|e| e.text_content().unwrap())
                    .collect();
                assert_eq!(choices.len(), ask.answers.len(), "step {}: every answer", i + 1);
                for (c, a) in choices.iter().zip(&ask.answers) {
                    assert!(c.contains(a.get(lang)), "{c}");
                }
                let right = ask.answers[ask.right].get(lang);
                let solution = text(block, ".handout-solution.upside-down");
                let keyed = key
                    .iter()
                    .find(|k| k.get_attribute("data-step") == Some((i + 1).to_string()))
                    .map(|k| k.text_content().unwrap());
                match at {
                    AnswersAt::End => {
                        let keyed = keyed.expect("the answer on the answers page");
                        assert!(
                            keyed.contains(right) && keyed.contains(ask.why.get(lang)),
                            "{keyed}"
                        );
                        assert!(solution.is_empty(), "not under the question");
                    }
                    AnswersAt::UpsideDown => {
                        assert!(
                            solution.contains(right) && solution.contains(ask.why.get(lang)),
                            "{solution}"
                        );
                        assert!(keyed.is_none(), "no answers page");
                    }
                }
            }
            // The trainer's choice, on screen: a select in the bar, set to what was asked for.
            let select: web_sys::HtmlSelectElement = root
                .query_selector(".handout-answers-at select")
                .unwrap()
                .unwrap()
                .dyn_into()
                .unwrap();
            assert_eq!(select.value(), at.name());
            root.remove();
        }
    }
}

/// A trainer's tour given inline prints too: no address opens it, so no link back.
#[wasm_bindgen_test]
async fn a_tour_file_given_inline_prints_without_a_link_back() {
    let text = catalogue::TOURS.iter().find(|(n, _)| *n == TOUR).unwrap().1;
    let root = Mounted::<App>::new(yew::props!(AppProps {
        tour_file: Some(yew::AttrValue::from(text)),
        print: true
    }));
    settle().await;
    until("the handout is drawn", || {
        root.query_selector(".handout-step .stage svg").unwrap().is_some()
    })
    .await;
    assert_eq!(
        all(&root, ".handout-step").len(),
        catalogue::tour(TOUR).unwrap().unwrap().steps.len()
    );
    assert!(all(&root, ".handout-back, .handout-link").is_empty());
    root.remove();
}

#[wasm_bindgen_test]
async fn a_tour_offers_its_handout_and_an_unknown_tour_opens_the_lab() {
    let root = Mounted::<App>::new(props(Lang::Zh, false));
    settle().await;
    until("the tour card", || root.query_selector(".tour").unwrap().is_some()).await;
    let link = root.query_selector("a.print-tour").unwrap().expect("a Print this tour link");
    let href = link.get_attribute("href").unwrap();
    assert!(href.ends_with(&format!("?tour={TOUR}&print&lang=zh")), "{href}");
    assert_eq!(link.text_content().unwrap(), "打印此导览");
    root.remove();
    // No such tour: the lab, and its notice says so.
    let root = Mounted::<App>::new(yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("no-such-tour")),
        print: true
    }));
    settle().await;
    until("the lab", || root.query_selector(".stage").unwrap().is_some()).await;
    assert!(root.query_selector(".handout").unwrap().is_none());
    assert!(root.text_content().unwrap().contains("There is no tour"), "the notice names the tour");
    root.remove();
    let _ = document();
}
