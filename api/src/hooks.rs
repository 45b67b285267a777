//! Typed wrapper hooks: the [`Hook`] trait, the typed [`Next`] a link receives, and the link
//! failure type.
//!
//! # Chain rules (the contract every host relies on)
//!
//! * **Order.** Links run outermost first. Higher `priority` is outer. Ties are broken by the
//!   owner's *load rank* (the loader's mod order; owners the loader never ranked come after all
//!   ranked owners, in order of first appearance), then by registration order. The order is total
//!   and stable — a deliberate tightening of the Lua engine, whose `table.sort` was unstable.
//! * **`next`.** [`Next::call`] continues downstream with the current arguments;
//!   [`Next::call_with`] replaces the arguments for the links below (and vanilla) only — the
//!   calling link and the links above it keep theirs.
//! * **Vanilla** runs at most once per [`Runtime::call`](crate::Runtime::call). A second arrival
//!   at the bottom of the chain (a link that calls `next` twice) receives a clone of the first
//!   vanilla result instead of re-running it. Vanilla is plain Rust: whatever it returns
//!   (including an `Err` inside `Out`) travels up the chain unchanged, and a panic in vanilla is
//!   never caught.
//! * **Failure.** A link returns `Err(LinkError)` to fail. Failing *before* its `next` returned,
//!   it is skipped: the rest of the chain runs with the arguments the failed link received.
//!   Failing *after* `next` returned, the downstream result (the last one `next` returned) is
//!   kept and vanilla is not re-run. Both are reported to the runtime's diagnostics feed as
//!   `"[owner] hook <name> failed: <err> -- link skipped"` /
//!   `"[owner] hook <name> failed after next: <err> -- downstream result kept"`.
//! * **Short-circuit.** A link that returns without calling `next` owns the answer: lower links
//!   and vanilla do not run.
//! * **Length.** A hook holds at most [`MAX_LINKS`] links; a further `wrap` is refused — reported
//!   as `"[owner] hook <name>: link not installed: the hook already has <MAX_LINKS> links"`, and
//!   its handle removes nothing. Every link a dispatch reaches (and every failed link it skips)
//!   is one nested call, so the cap bounds the stack a dispatch can use; it also bounds the
//!   copy-on-write cost of subscribing.
//! * **Empty chain.** No subscriber means `call` is exactly `vanilla(&args)`: no clone, no
//!   allocation; `wants_hook` is a bit test.
//! * **Vanilla borrows.** Vanilla receives a reference to the arguments in force at the bottom
//!   (the site's, or the last replacement), so a subscribed call never copies the arguments for
//!   it; a vanilla that needs an owned field clones just that field.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::ptr::NonNull;
use std::rc::Rc;

/// The most links one hook's chain holds (see the chain rules above).
pub const MAX_LINKS: usize = 1024;

/// Dense index of a hook in the catalog; used for the constant-time `wants_hook` bitset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId(pub u16);

/// A hook: its stable name, catalog index, argument and result types.
///
/// The bus never clones `Args` (links and vanilla borrow them; `Clone` is there for links that
/// build a replacement from them). `Out` is cloned once per link that calls `next` (so the
/// downstream result survives a link failing after `next`), free for the scalar outs most hooks
/// have.
pub trait Hook: 'static {
    const NAME: &'static str;
    const ID: HookId;
    type Args: Clone + 'static;
    type Out: Clone + 'static;
}

/// Why a link failed. The message ends up in the diagnostics feed; it never reaches the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(Box<str>);

impl LinkError {
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        LinkError(message.into().into_owned().into_boxed_str())
    }
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LinkError {}

impl From<String> for LinkError {
    fn from(s: String) -> Self {
        LinkError(s.into_boxed_str())
    }
}

impl From<&'static str> for LinkError {
    fn from(s: &'static str) -> Self {
        LinkError(s.into())
    }
}

/// What a link returns.
pub type LinkResult<T> = Result<T, LinkError>;

/// The signature of a native link: `|next, args| -> LinkResult<Out>`.
pub type LinkFn<H> =
    dyn Fn(&mut Next<'_, H>, &<H as Hook>::Args) -> LinkResult<<H as Hook>::Out> + 'static;

/// A link as the bus calls it: a plain function pointer taking the wrapper's address, the rest
/// of the chain, the arguments in force and the bottom, and returning the answer.
///
/// Built by [`erase`] around the author's closure: the function is the wrapper's own body
/// (monomorphized for it), so calling a link is one indirect call through an address held in
/// the chain entry, with no vtable in between. The parameters travel in registers, the wrapper
/// builds the author's [`Next`] in its own frame, and it applies the failure rule itself, so
/// nothing but the answer crosses the type-erased call: no error value, no cursor in memory,
/// and for the scalar outs of hot hooks the answer comes back in a register.
///
/// `unsafe` because the first parameter must be the address of the wrapper the function was
/// made for (which [`SharedLink`] guarantees by never separating the two).
pub(crate) type LinkCall<H> = for<'a> unsafe fn(
    NonNull<()>,
    &'a [LinkEntry<H>],
    &'a <H as Hook>::Args,
    &'a mut (dyn Bottom<H> + 'a),
) -> <H as Hook>::Out;

/// A wrapped link: its call function, the wrapper's address (taken once, so calling a link
/// is one indirect call through `call` with no `Rc` to follow and no vtable to read) and the
/// allocation holding the wrapper. Shared, so copy-on-write chain rebuilds never clone a
/// closure. The fields are private and only [`share`] makes one, so `call` and `data` always
/// belong together.
pub(crate) struct SharedLink<H: Hook> {
    call: LinkCall<H>,
    data: NonNull<()>,
    wrapper: Rc<dyn Any>,
}

impl<H: Hook> Clone for SharedLink<H> {
    fn clone(&self) -> Self {
        SharedLink {
            call: self.call,
            data: self.data,
            wrapper: self.wrapper.clone(),
        }
    }
}

impl<H: Hook> SharedLink<H> {
    /// Run the link with the rest of the chain below it.
    #[inline(always)]
    fn run<'a>(
        &self,
        rest: &'a [LinkEntry<H>],
        args: &'a H::Args,
        bottom: &'a mut (dyn Bottom<H> + 'a),
    ) -> H::Out {
        // SAFETY: `share` made `call` as `call_wrapper::<H, W>` for the `W` it moved into
        // `wrapper`'s allocation, and `data` as that `W`'s address; the three are never
        // separated (private fields, copied together by `clone`), and `self.wrapper` keeps the
        // `W` alive while `self` is borrowed.
        unsafe { (self.call)(self.data, rest, args, bottom) }
    }
}

/// The call function of wrapper type `W`: `data` is a `W`'s address.
///
/// # Safety
/// `data` must point at a live `W`.
unsafe fn call_wrapper<'a, H, W>(
    data: NonNull<()>,
    rest: &'a [LinkEntry<H>],
    args: &'a H::Args,
    bottom: &'a mut (dyn Bottom<H> + 'a),
) -> H::Out
where
    H: Hook,
    W: for<'b> Fn(&'b [LinkEntry<H>], &'b H::Args, &'b mut (dyn Bottom<H> + 'b)) -> H::Out,
{
    // SAFETY: the caller passes a live `W` (see the function's contract).
    let wrapper = unsafe { data.cast::<W>().as_ref() };
    wrapper(rest, args, bottom)
}

/// Pair wrapper `w` with its call function.
fn share<H, W>(w: W) -> SharedLink<H>
where
    H: Hook,
    W: for<'b> Fn(&'b [LinkEntry<H>], &'b H::Args, &'b mut (dyn Bottom<H> + 'b)) -> H::Out
        + 'static,
{
    let wrapper: Rc<dyn Any> = Rc::new(w);
    SharedLink {
        call: call_wrapper::<H, W>,
        data: NonNull::from(&*wrapper).cast(),
        wrapper,
    }
}

/// Wrap an author's link for the bus. The wrapper owns the chain rule for its link: `Ok` is the
/// answer; `Err` is reported under `owner` and then, if `next` had returned, the last downstream
/// result is the answer ("failed after next"), otherwise the rest of the chain runs with the
/// arguments this link received ("failed" — skipped).
pub(crate) fn erase<H, F>(owner: Rc<str>, link: F) -> SharedLink<H>
where
    H: Hook,
    F: Fn(&mut Next<'_, H>, &H::Args) -> LinkResult<H::Out> + 'static,
{
    share::<H, _>(
        move |rest: &[LinkEntry<H>], args: &H::Args, bottom: &mut (dyn Bottom<H> + '_)| {
            let mut next = Next {
                rest,
                args,
                bottom,
                downstream: None,
            };
            match link(&mut next, args) {
                Ok(out) => out,
                Err(error) => failed(&owner, error, next.downstream, rest, args, next.bottom),
            }
        },
    )
}

/// The failure path of a link, kept out of line: report it; a link that failed after `next`
/// returned answers with the downstream result, one that failed before is skipped and the rest
/// of the chain runs with the arguments it received.
#[cold]
#[inline(never)]
fn failed<H: Hook>(
    owner: &str,
    error: LinkError,
    downstream: Option<H::Out>,
    rest: &[LinkEntry<H>],
    args: &H::Args,
    bottom: &mut dyn Bottom<H>,
) -> H::Out {
    bottom.report(owner, &error, downstream.is_some());
    match downstream {
        Some(kept) => kept,
        None => dispatch(rest, args, bottom),
    }
}

/// The bottom of a chain: runs vanilla at most once and records failures. Implemented by the bus
/// (one implementation per vanilla closure type, so this is the one type-erased call a dispatch
/// makes besides the links themselves).
pub(crate) trait Bottom<H: Hook> {
    fn vanilla(&mut self, args: &H::Args) -> H::Out;
    fn report(&mut self, owner: &str, error: &LinkError, after_next: bool);
}

/// One installed link.
pub(crate) struct LinkEntry<H: Hook> {
    pub(crate) link: SharedLink<H>,
    pub(crate) priority: i32,
    pub(crate) rank: u32,
    pub(crate) seq: u64,
    pub(crate) owner: Rc<str>,
}

impl<H: Hook> Clone for LinkEntry<H> {
    fn clone(&self) -> Self {
        LinkEntry {
            link: self.link.clone(),
            priority: self.priority,
            rank: self.rank,
            seq: self.seq,
            owner: self.owner.clone(),
        }
    }
}

/// The typed continuation a link receives. Calling it runs every link below this one, then
/// vanilla (at most once), and returns their answer.
///
/// A `Next` is a cursor in its link's own frame: the rest of the chain snapshot (a borrowed
/// slice), the arguments in force, and the dispatch's bottom. Calling it is one indirect call
/// into the next link's wrapper (or into vanilla at the bottom) with those three in registers.
/// Nothing is boxed or allocated.
pub struct Next<'a, H: Hook> {
    rest: &'a [LinkEntry<H>],
    args: &'a H::Args,
    bottom: &'a mut (dyn Bottom<H> + 'a),
    downstream: Option<H::Out>,
}

impl<'a, H: Hook> Next<'a, H> {
    /// Continue with the current arguments (Lua: `next()` with no arguments).
    #[inline]
    pub fn call(&mut self) -> H::Out {
        let args = self.args;
        self.run(args)
    }

    /// Continue with `args` replacing the current arguments for everything downstream
    /// (Lua: `next(a, …)`). The calling link and the links above it keep their arguments.
    #[inline]
    pub fn call_with(&mut self, args: H::Args) -> H::Out {
        self.run(&args)
    }

    /// The arguments this link received (the same value its `args` parameter holds).
    pub fn args(&self) -> &H::Args {
        self.args
    }

    /// How many links sit below this one.
    pub fn remaining_links(&self) -> usize {
        self.rest.len()
    }

    /// The last result `next` returned to this link, if it has called `next` yet.
    pub fn downstream(&self) -> Option<&H::Out> {
        self.downstream.as_ref()
    }

    #[inline(always)]
    fn run(&mut self, args: &H::Args) -> H::Out {
        let out = dispatch(self.rest, args, &mut *self.bottom);
        self.downstream = Some(out.clone());
        out
    }
}

/// Run `links` (outermost first) around the bottom: the core of every subscribed call. One
/// step — the first link's wrapper with the rest of the chain, or vanilla when no link is left —
/// inlined into [`Next::call`] and the bus, so a chain of `n` links is `n` indirect calls plus
/// one into vanilla, with no loop and no frame of its own.
#[inline(always)]
pub(crate) fn dispatch<'b, H: Hook>(
    links: &'b [LinkEntry<H>],
    args: &'b H::Args,
    bottom: &'b mut (dyn Bottom<H> + 'b),
) -> H::Out {
    match links.split_first() {
        Some((entry, rest)) => entry.link.run(rest, args, bottom),
        None => bottom.vanilla(args),
    }
}
