//! A cloth whose constraints have all torn, made through the public API (shared
//! by tests and `benches/limits.rs`): constraints too soft to hold, strong
//! gravity, and pins that hold every other particle while its neighbours fall
//! (a checkerboard tears the edges, alternate rows the diagonals).

use xpbd_cloth::{Cloth, GridSize, Params};

/// Tears every constraint of `cloth` (a grid of `size`) apart and leaves every
/// particle free, with `cloth`'s parameters as they were.
pub fn tear_all(cloth: &mut Cloth, size: GridSize) {
    let params = cloth.params();
    cloth
        .set_params(Params {
            stiffness: 1e-9,
            gravity: -1e4,
            tear_stretch: 1.01,
            iterations: 1,
            substeps: 1,
            ..Params::default()
        })
        .unwrap();
    let GridSize { width, height } = size;
    let pin_where = |cloth: &mut Cloth, pinned: &dyn Fn(usize, usize) -> bool| {
        for i in 0..height {
            for j in 0..width {
                cloth.set_pinned(i * width + j, pinned(i, j)).unwrap();
            }
        }
    };
    pin_where(cloth, &|i, j| (i + j) % 2 == 0);
    cloth.step();
    pin_where(cloth, &|i, _| i % 2 == 0);
    cloth.step();
    pin_where(cloth, &|_, _| false);
    assert_eq!(cloth.num_constraints(), 0, "every constraint tore");
    assert!(cloth.is_finite());
    cloth.set_params(params).unwrap();
}
