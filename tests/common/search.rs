//! The heaviest settings a cloth accepts, found by asking its setters (shared
//! by tests and `benches/limits.rs`).

use xpbd_cloth::{Cloth, ClothError};

/// The largest whole value from `low` to `high` that `set` accepts (it must
/// accept `low`); the cloth is left with that value.
pub fn largest_accepted(
    cloth: &mut Cloth,
    set: fn(&mut Cloth, u32) -> Result<(), ClothError>,
    low: u32,
    high: u32,
) -> u32 {
    set(cloth, low).unwrap();
    let (mut low, mut high) = (low, high);
    while low < high {
        let middle = (low + high).div_ceil(2);
        if set(cloth, middle).is_ok() {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    set(cloth, low).unwrap();
    low
}
