//! Event bus rules: priority order, snapshot dispatch, contained failures, once, unsubscribe,
//! owner cleanup, the `mod.<id>.*` emit rule.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use pallet_api::{Event, EventId, LinkError, Runtime, Value};

struct Ping;
impl Event for Ping {
    const NAME: &'static str = "test.ping";
    const ID: EventId = EventId(200);
    type Payload = u32;
}

struct Pong;
impl Event for Pong {
    const NAME: &'static str = "test.pong";
    const ID: EventId = EventId(201);
    type Payload = ();
}

fn tracer() -> Rc<RefCell<Vec<String>>> {
    Rc::new(RefCell::new(Vec::new()))
}

#[test]
fn no_listener_means_no_list_and_a_swallowed_emit() {
    let rt = Runtime::new();
    assert!(!rt.wants_event::<Ping>());
    rt.emit::<Ping>(7);
    assert!(!rt.has_listeners::<Ping>());
    assert_eq!(rt.event_list_count(), 0);
}

#[test]
fn listeners_run_by_priority_then_load_order_then_registration() {
    let rt = Runtime::new();
    rt.set_load_order(["a", "b"]);
    let t = tracer();
    for (owner, prio, tag) in [
        ("b", 0, "b0"),
        ("a", 0, "a0"),
        ("x", 5, "x5"),
        ("a", 0, "a0'"),
    ] {
        let t = t.clone();
        rt.on::<Ping, _>(owner, prio, move |n| {
            t.borrow_mut().push(format!("{tag}:{n}"));
            Ok(())
        });
    }
    rt.emit::<Ping>(1);
    assert_eq!(*t.borrow(), vec!["x5:1", "a0:1", "a0':1", "b0:1"]);
}

#[test]
fn a_failing_listener_is_contained_and_siblings_run() {
    let rt = Runtime::new();
    let t = tracer();
    let t1 = t.clone();
    rt.on::<Ping, _>("bad", 10, |_| Err(LinkError::new("kaput")));
    rt.on::<Ping, _>("good", 0, move |_| {
        t1.borrow_mut().push("good".into());
        Ok(())
    });
    rt.emit::<Ping>(3);
    assert_eq!(*t.borrow(), vec!["good"]);
    let d = rt.drain_diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, "[bad] event test.ping: kaput");
}

#[test]
fn dispatch_walks_a_snapshot() {
    let rt = Rc::new(Runtime::new());
    let t = tracer();
    let victim = Rc::new(RefCell::new(None));
    // First listener unsubscribes the second and itself, and adds a third.
    let (rt1, v1, t1) = (rt.clone(), victim.clone(), t.clone());
    let first = rt.on::<Ping, _>("m", 2, move |_| {
        t1.borrow_mut().push("first".into());
        if let Some(h) = v1.borrow_mut().take() {
            rt1.unsubscribe_event(&h);
        }
        rt1.remove_owner("m");
        let t3 = t1.clone();
        rt1.on::<Ping, _>("late", 0, move |_| {
            t3.borrow_mut().push("late".into());
            Ok(())
        });
        Ok(())
    });
    let t2 = t.clone();
    *victim.borrow_mut() = Some(rt.on::<Ping, _>("n", 1, move |_| {
        t2.borrow_mut().push("second".into());
        Ok(())
    }));
    rt.emit::<Ping>(0);
    // Snapshot: the second still ran this time; the late one did not.
    assert_eq!(*t.borrow(), vec!["first", "second"]);
    t.borrow_mut().clear();
    rt.emit::<Ping>(0);
    assert_eq!(*t.borrow(), vec!["late"]);
    assert!(!rt.unsubscribe_event(&first));
}

#[test]
fn once_fires_once_even_when_reemitted_from_inside() {
    let rt = Rc::new(Runtime::new());
    let count = Rc::new(Cell::new(0));
    let (rt1, c1) = (rt.clone(), count.clone());
    rt.once::<Ping, _>("m", 0, move |n| {
        c1.set(c1.get() + 1);
        if *n == 0 {
            rt1.emit::<Ping>(1);
        }
        Ok(())
    });
    rt.emit::<Ping>(0);
    rt.emit::<Ping>(0);
    assert_eq!(count.get(), 1);
    assert!(!rt.wants_event::<Ping>(), "the emptied list is dropped");
}

#[test]
fn unsubscribe_and_remove_owner_drain_lists() {
    let rt = Runtime::new();
    let h = rt.on::<Ping, _>("a", 0, |_| Ok(()));
    rt.on::<Pong, _>("a", 0, |_| Ok(()));
    rt.on::<Pong, _>("b", 0, |_| Ok(()));
    rt.on_named("mod.a.tick", "a", 0, false, |_| Ok(()));
    assert!(rt.unsubscribe_event(&h));
    assert!(!rt.unsubscribe_event(&h));
    assert!(!rt.wants_event::<Ping>());
    assert_eq!(rt.remove_owner("a"), 2);
    assert!(rt.wants_event::<Pong>());
    assert!(!rt.wants_named_event("mod.a.tick"));
    assert_eq!(rt.remove_owner("b"), 1);
    assert_eq!(rt.event_list_count(), 0);
}

#[test]
fn mods_may_only_emit_their_own_namespace() {
    let rt = Runtime::new();
    let got = Rc::new(RefCell::new(Vec::new()));
    let g = got.clone();
    rt.on_named("mod.clock.hour_changed", "listener", 0, false, move |v| {
        g.borrow_mut().push(v.clone());
        Ok(())
    });
    let payload = Value::map([("hour", Value::Int(7))]);
    assert!(rt
        .emit_mod("clock", "mod.clock.hour_changed", &payload)
        .is_ok());
    assert_eq!(*got.borrow(), vec![payload.clone()]);
    for forged in [
        "battle.ended",
        "mod.other.hour_changed",
        "mod.clock",
        "mod.clock.",
        "mod.clockwork.tick",
        "clock.tick",
    ] {
        let err = rt.emit_mod("clock", forged, &payload).unwrap_err();
        assert_eq!(
            err.to_string(),
            "[clock] mods may only emit mod.clock.* events"
        );
    }
    assert_eq!(got.borrow().len(), 1);
}
