//! The frames behind a Lua link's persistent `next`: one per running invocation of the link,
//! each lending the invocation's `Next` (type- and lifetime-erased) to the Lua `next` closure
//! (`crate::rawcall`), with the generation and busy checks that keep it sound.

use std::cell::{Cell, RefCell};

use crate::errors::{NEXT_REENTRANT, NEXT_STALE};

/// One running invocation of a link: the `Next` it lends to its Lua `next`.
#[derive(Clone, Copy)]
struct Frame {
    /// `*mut Next<'_, H>` of the invocation, type- and lifetime-erased (see [`NextSlot`]).
    next: *mut (),
    gen: u64,
    /// The invocation's `next` is running (its downstream is executing).
    busy: bool,
}

/// The frames of one link's running invocations, innermost last.
///
/// Safety argument for the one raw pointer: a frame is pushed by `TypedLink::call` (`crate::link`) right
/// before it calls into Lua and popped (by [`FrameGuard`], also on unwind) right after, while
/// that call holds the exclusive `&mut Next` the pointer came from and does not touch it in
/// Rust. The Lua `next` dereferences the pointer only when its generation matches the
/// innermost frame and that frame is not `busy` (so there is never a second `&mut` to the same
/// `Next`), and only for the duration of its own call.
#[derive(Default)]
pub(crate) struct NextSlot {
    frames: RefCell<Vec<Frame>>,
    gen: Cell<u64>,
}

pub(crate) struct FrameGuard<'a> {
    slot: &'a NextSlot,
    depth: usize,
}

impl Drop for FrameGuard<'_> {
    fn drop(&mut self) {
        self.slot.frames.borrow_mut().truncate(self.depth);
    }
}

pub(crate) struct BusyGuard<'a> {
    slot: &'a NextSlot,
    index: usize,
}

impl Drop for BusyGuard<'_> {
    fn drop(&mut self) {
        if let Some(frame) = self.slot.frames.borrow_mut().get_mut(self.index) {
            frame.busy = false;
        }
    }
}

impl NextSlot {
    pub(crate) fn push(&self, next: *mut ()) -> (u64, FrameGuard<'_>) {
        let gen = self.gen.get() + 1;
        self.gen.set(gen);
        let mut frames = self.frames.borrow_mut();
        let depth = frames.len();
        frames.push(Frame {
            next,
            gen,
            busy: false,
        });
        (gen, FrameGuard { slot: self, depth })
    }

    /// The `Next` of the running invocation tagged `gen`, marked busy until the guard drops.
    pub(crate) fn enter(&self, gen: f64) -> Result<(*mut (), BusyGuard<'_>), &'static str> {
        let mut frames = self.frames.borrow_mut();
        let index = frames.len().wrapping_sub(1);
        if let Some(top) = frames.get_mut(index).filter(|top| top.gen as f64 == gen) {
            if top.busy {
                return Err(NEXT_REENTRANT);
            }
            top.busy = true;
            return Ok((top.next, BusyGuard { slot: self, index }));
        }
        if frames.iter().any(|f| f.gen as f64 == gen) {
            Err(NEXT_REENTRANT)
        } else {
            Err(NEXT_STALE)
        }
    }
}
