//! Memory: what a cloth really allocates against what `footprint::cloth_bytes`
//! says, and that running out of memory is an error, never an abort.
//!
//! An allocator wraps the system one and, per thread (tests run in parallel),
//! counts bytes and allocations and can refuse every request above a budget.
//! A refused request inside a plain `Vec` allocation aborts the whole test
//! binary, so a test that passes with a budget shows that the code under test
//! allocates fallibly.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::error::ClothError;
use xpbd_cloth::memory;
use xpbd_cloth::model::footprint;
use xpbd_cloth::model::Shape;
use xpbd_cloth::params::{FixedPreset, GridSize, SolverOrder};
use xpbd_cloth::raster::{rgb, Frame, MAX_FRAME_PIXELS};
use xpbd_cloth::Cloth;

struct Counting;

thread_local! {
    /// Bytes allocated now, the most at any moment, and allocations made.
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    /// Requests that would take `LIVE` above this fail.
    static BUDGET: Cell<usize> = const { Cell::new(usize::MAX) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.with(Cell::get);
        if live.saturating_add(layout.size()) > BUDGET.with(Cell::get) {
            return std::ptr::null_mut();
        }
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            LIVE.with(|l| l.set(live + layout.size()));
            PEAK.with(|p| p.set(p.get().max(live + layout.size())));
            COUNT.with(|c| c.set(c.get() + 1));
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.with(|l| l.set(l.get().saturating_sub(layout.size())));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the peak bytes it had allocated at once
/// (above what was live before) and the number of allocations it made.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let live = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(live));
    let count = COUNT.with(Cell::get);
    let result = f();
    let peak = PEAK.with(Cell::get) - live;
    (result, peak, COUNT.with(Cell::get) - count)
}

/// Runs `f` while at most `bytes` more may be allocated.
fn with_budget<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    let live = LIVE.with(Cell::get);
    BUDGET.with(|b| b.set(live + bytes));
    let result = f();
    BUDGET.with(|b| b.set(usize::MAX));
    result
}

fn size(width: usize, height: usize) -> GridSize {
    GridSize { width, height }
}

#[test]
fn a_cloth_allocates_what_its_estimate_says() {
    for (w, h) in [(2, 2), (40, 30), (100, 100), (500, 500)] {
        let (cloth, peak, _) = measure(|| Cloth::try_new(size(w, h), FixedPreset::Two).unwrap());
        let kept = footprint::cloth_bytes(size(w, h));
        let held = cloth.heap_bytes();
        // on top of the estimate: the run list of the coloured order
        // (with room for twice the runs, so that tearing never allocates)
        let lists = held - kept;
        assert!(
            held >= kept && lists <= kept / 20 + 16384,
            "{w} × {h}: holds {held} bytes, estimate {kept}"
        );
        // building needs what the cloth keeps, and no more than the estimate
        let build = footprint::cloth_build_bytes(size(w, h));
        assert!(
            peak as u64 >= kept && peak as u64 <= build,
            "{w} × {h}: peak {peak} bytes while building, kept {kept}, estimate {build}"
        );
    }
}

#[test]
fn a_cloth_too_big_for_the_memory_left_is_an_error_and_nothing_leaks() {
    let grid = size(500, 500);
    let needed = footprint::cloth_build_bytes(grid) as usize;
    let before = LIVE.with(Cell::get);
    // Budgets below the need fail at every stage of the construction: grid,
    // constraint order, particle arrays, scratch.
    for fraction in [0.01, 0.2, 0.4, 0.6, 0.8, 0.9, 0.99] {
        let budget = (needed as f64 * fraction) as usize;
        let error = with_budget(budget, || Cloth::try_new(grid, FixedPreset::Two)).unwrap_err();
        assert!(
            matches!(error, ClothError::OutOfMemory { field: "width", .. }),
            "{error:?}"
        );
        assert_eq!(error.code(), "out_of_memory");
        let message = error.to_string();
        drop(error);
        let mib = memory::mib(needed as u64);
        assert!(
            message.starts_with(&format!("out of memory: a 500 × 500 cloth needs {mib} MiB")),
            "{message}"
        );
        drop(message);
        assert_eq!(
            LIVE.with(Cell::get),
            before,
            "a failed build frees what it took"
        );
    }
    // with what the estimate says it builds
    let cloth = with_budget(needed + 64 * 1024, || {
        Cloth::try_new(grid, FixedPreset::Two)
    });
    assert!(cloth.is_ok(), "the estimate is enough: {:?}", cloth.err());
}

#[test]
fn stepping_dragging_and_forces_allocate_nothing() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let mut cloth = grid_cloth(30, 20);
        cloth.set_solver_order(order).unwrap();
        cloth.set_substeps(3).unwrap();
        cloth.grab(310).unwrap();
        let (_, _, allocations) = measure(|| {
            for k in 0..100 {
                cloth.drag(3.0 + 0.05 * k as f64, -5.0).unwrap();
                cloth.step();
                let _ = cloth.constraint_forces();
            }
            cloth.release();
            cloth.steps(50).unwrap();
        });
        assert_eq!(allocations, 0, "{order:?}: allocations while stepping");
    }
}

#[test]
fn bending_and_tethers_reserve_when_switched_on_and_step_without_allocating() {
    let mut cloth = grid_cloth(30, 20);
    let plain = cloth.heap_bytes();
    // without the memory (room for the error message only): refused, and
    // nothing changed
    let error = with_budget(4096, || cloth.set_bending_stiffness(100.0)).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("out_of_memory", "bendingStiffness")
    );
    let error = with_budget(4096, || cloth.set_tethers(true)).unwrap_err();
    assert_eq!((error.code(), error.field()), ("out_of_memory", "tethers"));
    assert_eq!(cloth.params().bending_stiffness, 0.0);
    assert!(!cloth.params().tethers);
    assert_eq!(cloth.heap_bytes(), plain);
    // with it: about two bending pairs per particle (21 bytes each), the
    // neighbour lists (8 bytes per constraint end, almost 4 constraints per
    // particle) and the tethers' 16 bytes per particle: about 120 bytes per
    // particle on top of the cloth's own 190 or so
    cloth.set_bending_stiffness(100.0).unwrap();
    cloth.set_tethers(true).unwrap();
    let added = cloth.heap_bytes() - plain;
    let per_particle = added as f64 / cloth.num_particles() as f64;
    assert!(
        (100.0..=130.0).contains(&per_particle),
        "{per_particle} bytes per particle for bending and tethers"
    );
    cloth.grab(310).unwrap();
    let (_, _, allocations) = measure(|| {
        for k in 0..100 {
            cloth.drag(3.0 + 0.05 * k as f64, -5.0).unwrap();
            cloth.step();
            if k % 10 == 0 {
                cloth.set_pinned(k, k % 20 == 0).unwrap();
            }
        }
        // switching off and on again reuses what is reserved
        cloth.set_tethers(false).unwrap();
        cloth.steps(5).unwrap();
        cloth.set_tethers(true).unwrap();
        cloth.steps(5).unwrap();
    });
    assert_eq!(
        allocations, 0,
        "allocations while stepping with bending and tethers"
    );
    // (a number setter may allocate for its checks, so it is measured by size)
    let held = cloth.heap_bytes();
    cloth.set_bending_stiffness(0.0).unwrap();
    cloth.set_bending_stiffness(300.0).unwrap();
    assert_eq!(
        cloth.heap_bytes(),
        held,
        "bending switched on again reserves nothing"
    );
    // tearing (which may grow only the coloured order's run list, fallibly)
    // follows the tears in reserved buffers: without memory, the same cloth
    let build = || {
        let mut cloth = grid_cloth(30, 20);
        cloth.set_bending_stiffness(100.0).unwrap();
        cloth.set_tethers(true).unwrap();
        cloth.set_tear_stretch(1.1).unwrap();
        cloth.grab(310).unwrap();
        cloth
    };
    let (mut fed, mut starved) = (build(), build());
    let pull = |cloth: &mut Cloth| {
        for k in 0..100 {
            cloth.drag(3.0 + 0.05 * k as f64, -25.0).unwrap();
            cloth.step();
        }
    };
    pull(&mut fed);
    with_budget(0, || pull(&mut starved));
    assert!(fed.torn_count() > 10, "torn: {}", fed.torn_count());
    assert_eq!(starved.torn_count(), fed.torn_count());
    assert_eq!(starved.positions(), fed.positions());
}

#[test]
fn contacts_and_wind_allocate_nothing_while_stepping() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let mut cloth = grid_cloth(30, 20);
        cloth.set_solver_order(order).unwrap();
        cloth.set_substeps(3).unwrap();
        cloth.set_self_collision(true).unwrap();
        cloth.set_wind_x(5.0).unwrap();
        let ground = Shape::Ground { y: -6.0 };
        let id = cloth.add_collider(ground).unwrap();
        let circle = Shape::Circle {
            x: 3.0,
            y: -3.0,
            radius: 1.0,
        };
        cloth.add_collider(circle).unwrap();
        let (_, _, allocations) = measure(|| {
            for k in 0..100 {
                cloth
                    .move_collider(id, 0.0, -6.0 + 0.01 * k as f64)
                    .unwrap();
                cloth.step();
            }
            let _ = cloth.pick_collider(3.0, -3.0).unwrap();
            cloth.remove_collider(id).unwrap();
            cloth.steps(50).unwrap();
        });
        assert_eq!(
            allocations, 0,
            "{order:?}: allocations while stepping with contacts"
        );
    }
}

/// Tearing removes constraints in place; only the list of runs may grow, and
/// without memory for it the cloth steps on with the same result.
#[test]
fn tearing_without_memory_gives_the_same_cloth() {
    // built alike rather than cloned: a clone's scratch buffers start empty
    let build = || {
        let mut cloth = grid_cloth(30, 20);
        cloth.set_tear_stretch(1.05).unwrap();
        cloth.grab(310).unwrap();
        cloth
    };
    let (mut cloth, mut starved) = (build(), build());
    let pull = |cloth: &mut Cloth| {
        for k in 0..100 {
            cloth.drag(3.0 + 0.05 * k as f64, -25.0).unwrap();
            cloth.step();
        }
    };
    pull(&mut cloth);
    with_budget(0, || pull(&mut starved));
    assert!(
        cloth.torn_count() > 100,
        "the cloth tore: {}",
        cloth.torn_count()
    );
    assert_eq!(starved.torn_count(), cloth.torn_count());
    assert_eq!(starved.constraint_ids(), cloth.constraint_ids());
    let bits = |c: &Cloth| {
        c.positions()
            .iter()
            .map(|p| p.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&starved), bits(&cloth), "positions bit for bit");
}

#[test]
fn reordering_allocates_nothing() {
    let mut cloth = grid_cloth(100, 100);
    cloth.steps(5).unwrap();
    let before = cloth.clone();
    // the rearrangement works in buffers reserved when the cloth was built
    with_budget(0, || cloth.set_solver_order(SolverOrder::Original)).unwrap();
    assert_eq!(cloth.params().solver_order, SolverOrder::Original);
    assert_ne!(cloth.constraint_ids(), before.constraint_ids());
    with_budget(0, || cloth.set_solver_order(SolverOrder::Colored)).unwrap();
    assert_eq!(cloth.constraint_ids(), before.constraint_ids(), "and back");
}

#[test]
fn a_frame_without_memory_is_an_error_and_keeps_its_pixels() {
    let mut frame = Frame::default();
    frame.reset(40, 30, rgb(0x123456)).unwrap();
    let error = with_budget(1 << 20, || frame.reset(4096, 4096, rgb(0xffffff))).unwrap_err();
    assert_eq!(error.code(), "out_of_memory");
    assert_eq!(error.field(), "ctx");
    assert_eq!(
        error.to_string(),
        "out of memory: a 4096 × 4096 pixel frame needs 64 MiB"
    );
    assert_eq!((frame.width(), frame.height()), (40, 30));
    assert_eq!(frame.pixel(39, 29), rgb(0x123456));
    // too big to ever draw, however the product wraps: refused, not allocated
    for (w, h) in [
        (65536, 65536),
        (usize::MAX, 2),
        (MAX_FRAME_PIXELS + 1, 1),
        (4097, 4096),
    ] {
        let error = frame.reset(w, h, 0).unwrap_err();
        assert_eq!(error.code(), "invalid_value", "{w} × {h}");
        assert_eq!((frame.width(), frame.height()), (40, 30));
    }
}
