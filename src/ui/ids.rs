//! Element ids unique to each instance of the lab. Labels and ARIA name elements by id
//! (`<label for>`, `aria-labelledby`, `aria-describedby`, `aria-controls`), and two instances in
//! one document must not share one: the first instance alive in a document keeps the bare ids
//! that pages and tests select (`#svc-name`); the n-th alive at once prefixes them `labN-`. A
//! shadow root scopes ids itself, so the first instance in each keeps bare ids too.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::prelude::*;

/// The ids of one instance: `id(bare)` is the one to put in the DOM.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Ids {
    prefix: Rc<str>,
}

impl Ids {
    /// This instance's id for `bare`.
    pub(crate) fn id(&self, bare: &str) -> String {
        format!("{}{bare}", self.prefix)
    }

    /// A selector of this instance's element with id `bare`.
    pub(crate) fn sel(&self, bare: &str) -> String {
        format!("#{}{bare}", self.prefix)
    }
}

/// The ids of the instance the calling component is in.
#[hook]
pub(crate) fn use_ids() -> Ids {
    use_context::<Ids>().unwrap_or_default()
}

/// An instance's number in its document or shadow root.
struct Claim {
    serial: u64,
    number: usize,
    scope: web_sys::Node,
    lab: web_sys::Element,
}

thread_local! {
    static CLAIMS: RefCell<Vec<Claim>> = const { RefCell::new(Vec::new()) };
    static SERIAL: Cell<u64> = const { Cell::new(0) };
}

/// Claims the smallest number that no other instance in `lab`'s document or shadow root holds.
/// An instance whose element left the page without its app being destroyed holds none: its ids
/// are in no document any more.
fn claim(serial: u64, lab: web_sys::Element) -> usize {
    let scope = lab.get_root_node();
    CLAIMS.with(|claims| {
        let mut claims = claims.borrow_mut();
        claims.retain(|c| c.lab.is_connected());
        let taken: Vec<usize> = claims.iter().filter(|c| c.scope == scope).map(|c| c.number).collect();
        let number = (1..).find(|n| !taken.contains(n)).expect("a free number");
        claims.push(Claim { serial, number, scope, lab });
        number
    })
}

/// The App's ids, `root` being its outermost element. Bare on the first render; once the
/// element is in the page, a later instance of the same document renders again with its prefix.
#[hook]
pub(crate) fn use_instance_ids(root: NodeRef) -> Ids {
    let ids = use_state_eq(Ids::default);
    {
        let ids = ids.clone();
        use_effect_with((), move |_| {
            let serial = SERIAL.with(|s| {
                s.set(s.get() + 1);
                s.get()
            });
            if let Some(lab) = root.cast::<web_sys::Element>() {
                let number = claim(serial, lab);
                if number > 1 {
                    ids.set(Ids { prefix: format!("lab{number}-").into() });
                }
            }
            move || CLAIMS.with(|c| c.borrow_mut().retain(|c| c.serial != serial))
        });
    }
    (*ids).clone()
}
