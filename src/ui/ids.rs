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

    /// The ids of a part drawn several times in this instance (each step of a handout): `more`
    /// added to the prefix.
    pub(crate) fn within(&self, more: &str) -> Ids {
        Ids { prefix: format!("{}{more}", self.prefix).into() }
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

/// An instance, from its first render on, and its number in its document or shadow root once
/// it has one.
struct Claim {
    serial: u64,
    root: NodeRef,
    number: Option<usize>,
    scope: Option<web_sys::Node>,
}

thread_local! {
    /// In the order the instances first rendered.
    static CLAIMS: RefCell<Vec<Claim>> = const { RefCell::new(Vec::new()) };
    static SERIAL: Cell<u64> = const { Cell::new(0) };
}

/// Numbers every instance whose element is in the page, in the order they first rendered (the
/// effects of instances rendered together may run in another order): each takes the smallest
/// number no other instance in its document or shadow root holds. An instance whose element
/// left the page without its app being destroyed holds none: its ids are in no document.
fn number_all(claims: &mut Vec<Claim>) {
    let gone = |c: &Claim| c.root.get().is_some_and(|n| !n.is_connected());
    claims.retain(|c| !gone(c));
    for i in 0..claims.len() {
        let Some(lab) =
            claims[i].root.cast::<web_sys::Element>().filter(|_| claims[i].number.is_none())
        else {
            continue;
        };
        let scope = lab.get_root_node();
        let same = |c: &Claim| c.scope.as_ref() == Some(&scope);
        let taken: Vec<usize> =
            claims.iter().filter(|c| same(c)).filter_map(|c| c.number).collect();
        claims[i].number = (1..).find(|n| !taken.contains(n));
        claims[i].scope = Some(scope);
    }
}

/// The App's ids, `root` being its outermost element: bare on the first render; once the
/// element is in the page, a later instance of the same document renders again with its prefix.
#[hook]
pub(crate) fn use_instance_ids(root: NodeRef) -> Ids {
    let ids = use_state_eq(Ids::default);
    let serial = *use_state(move || {
        let serial = SERIAL.with(|s| {
            s.set(s.get() + 1);
            s.get()
        });
        let claim = Claim { serial, root, number: None, scope: None };
        CLAIMS.with(|c| c.borrow_mut().push(claim));
        serial
    });
    {
        let ids = ids.clone();
        use_effect_with((), move |_| {
            let number = CLAIMS.with(|c| {
                let mut claims = c.borrow_mut();
                number_all(&mut claims);
                claims.iter().find(|c| c.serial == serial).and_then(|c| c.number)
            });
            if let Some(n) = number.filter(|n| *n > 1) {
                ids.set(Ids { prefix: format!("lab{n}-").into() });
            }
            move || CLAIMS.with(|c| c.borrow_mut().retain(|c| c.serial != serial))
        });
    }
    (*ids).clone()
}
