//! The event bus's listener buckets: dispatch order as the sorted list had it, registration
//! cost independent of how many listeners an event already has.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::diagnostics::Diagnostics;
use crate::event_bus::{EventBus, Subscription};
use crate::value::Value;

fn sub(owner: &str, rank: u32, priority: i32, once: bool) -> Subscription {
    Subscription {
        owner: Rc::from(owner),
        rank,
        priority,
        once,
    }
}

/// Register `(owner rank, priority)` listeners on `ping` in order; each records its index.
fn register(bus: &EventBus, seen: &Rc<RefCell<Vec<usize>>>, regs: &[(u32, i32)]) {
    for (i, &(rank, priority)) in regs.iter().enumerate() {
        let seen = seen.clone();
        bus.on_named(
            "ping",
            sub(&format!("m{rank}"), rank, priority, false),
            Rc::new(move |_: &Value| {
                seen.borrow_mut().push(i);
                Ok(())
            }),
        );
    }
}

/// What the sorted list did: priority high first, then rank, then registration.
fn reference(regs: &[(u32, i32)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..regs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(regs[i].1), regs[i].0, i));
    order
}

/// A small deterministic generator (xorshift).
fn regs(n: usize, seed: u64, ranks: u32, priorities: i32) -> Vec<(u32, i32)> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let rank = (x % u64::from(ranks)) as u32;
            let priority = ((x >> 20) % priorities as u64) as i32 - priorities / 2;
            (rank, priority)
        })
        .collect()
}

#[test]
fn dispatch_order_is_priority_then_rank_then_registration() {
    for seed in [1, 7, 99, 12345] {
        let regs = regs(400, seed, 5, 9);
        let bus = EventBus::default();
        let seen = Rc::new(RefCell::new(Vec::new()));
        register(&bus, &seen, &regs);
        bus.emit_named(&Diagnostics::default(), "ping", &Value::Nil);
        assert_eq!(*seen.borrow(), reference(&regs), "seed {seed}");
    }
}

#[test]
fn removal_and_once_keep_the_order_of_the_rest() {
    let regs = regs(60, 3, 3, 5);
    let bus = EventBus::default();
    let seen = Rc::new(RefCell::new(Vec::new()));
    register(&bus, &seen, &regs);
    let fired = Rc::new(RefCell::new(0));
    let f = fired.clone();
    bus.on_named(
        "ping",
        sub("m9", 9, 100, true),
        Rc::new(move |_: &Value| {
            *f.borrow_mut() += 1;
            Ok(())
        }),
    );
    let removed = bus.remove_owner("m1");
    let d = Diagnostics::default();
    bus.emit_named(&d, "ping", &Value::Nil);
    bus.emit_named(&d, "ping", &Value::Nil);
    assert_eq!(*fired.borrow(), 1, "a once listener fires once");
    let kept: Vec<usize> = reference(&regs)
        .into_iter()
        .filter(|&i| regs[i].0 != 1)
        .collect();
    assert_eq!(removed, regs.len() - kept.len());
    let twice: Vec<usize> = kept.iter().chain(kept.iter()).copied().collect();
    assert_eq!(*seen.borrow(), twice);
}

#[test]
fn thirty_two_thousand_registrations_are_fast_in_any_order() {
    // 32 mods × 1 000 listeners (each under events.max_listeners), priorities that put every
    // new listener near the front (the sorted list shifted all the others each time).
    let n: i32 = 32_000;
    let worst: Vec<(u32, i32)> = (0..n).map(|i| ((i % 32) as u32, i)).collect();
    let bus = EventBus::default();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let began = Instant::now();
    register(&bus, &seen, &worst);
    let took = began.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    bus.emit_named(&Diagnostics::default(), "ping", &Value::Nil);
    assert_eq!(*seen.borrow(), reference(&worst));
}

#[test]
fn a_listener_registered_during_a_dispatch_runs_from_the_next_one() {
    let bus = Rc::new(EventBus::default());
    let count = Rc::new(RefCell::new(0usize));
    let (b, c) = (Rc::downgrade(&bus), count.clone());
    bus.on_named(
        "ping",
        sub("m0", 0, 0, false),
        Rc::new(move |_: &Value| {
            *c.borrow_mut() += 1;
            let c2 = c.clone();
            if let Some(bus) = b.upgrade() {
                bus.on_named(
                    "ping",
                    sub("m0", 0, 0, false),
                    Rc::new(move |_: &Value| {
                        *c2.borrow_mut() += 1;
                        Ok(())
                    }),
                );
            }
            Ok(())
        }),
    );
    let d = Diagnostics::default();
    bus.emit_named(&d, "ping", &Value::Nil);
    assert_eq!(
        *count.borrow(),
        1,
        "the snapshot ran only the first listener"
    );
    bus.emit_named(&d, "ping", &Value::Nil);
    assert_eq!(*count.borrow(), 3);
}
