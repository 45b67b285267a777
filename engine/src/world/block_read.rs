//! RFC 0013 `activeBlockAt(mapId, blockX, blockY)`: a copied scalar block id from the active
//! map, or one of five stable reasons. Checks run in the Lua engine's order (RFC 0013):
//!
//! 1. no active overworld map → `no overworld`
//! 2. `mapId` is not the active map → `map is not active`
//! 3. a coordinate of the wrong type, NaN, ±inf or fractional → `invalid block coordinates`
//! 4. the map's width/height are not positive → `block unavailable`
//! 5. a coordinate outside the map → `block coordinates out of bounds`
//! 6. storage missing/short, or the storage slot and the map accessor disagree → `block unavailable`
//!
//! The read takes `&ActiveMap`: it cannot mutate map or save state.

use pallet_api::Value;

use super::active_map::ActiveMap;

pub use pallet_api::reasons::BlockReadError;

/// The block read as the `world` facade answers it (`WorldApi::active_block_at`, for the game
/// and for the overworld alike): [`active_block_at`], with block ids above 255 (not Gen 1
/// block ids) read as `block unavailable`.
pub fn active_block_id_at(
    map: Option<&ActiveMap>,
    map_id: &str,
    bx: &Value,
    by: &Value,
) -> Result<u8, BlockReadError> {
    let block = active_block_at(map, map_id, bx, by)?;
    u8::try_from(block).map_err(|_| BlockReadError::BlockUnavailable)
}

/// The block read proper. `map` is the active map, `None` when there is no overworld.
pub fn active_block_at(
    map: Option<&ActiveMap>,
    map_id: &str,
    bx: &Value,
    by: &Value,
) -> Result<u32, BlockReadError> {
    let map = map.ok_or(BlockReadError::NoOverworld)?;
    if map.id() != map_id {
        return Err(BlockReadError::MapNotActive);
    }
    let (Some(x), Some(y)) = (integral(bx), integral(by)) else {
        return Err(BlockReadError::InvalidBlockCoordinates);
    };
    let (width, height) = map.dims();
    if width == 0 || height == 0 {
        return Err(BlockReadError::BlockUnavailable);
    }
    let in_range =
        |c: Option<i64>, limit: u32| c.and_then(|c| u32::try_from(c).ok()).filter(|c| *c < limit);
    let (Some(x), Some(y)) = (in_range(x, width), in_range(y, height)) else {
        return Err(BlockReadError::BlockCoordinatesOutOfBounds);
    };
    let storage = map.storage();
    if storage.len() as u64 != u64::from(width) * u64::from(height) {
        return Err(BlockReadError::BlockUnavailable);
    }
    let stored = storage
        .get((y * width + x) as usize)
        .copied()
        .ok_or(BlockReadError::BlockUnavailable)?;
    let accessed = map.block_at(x, y).ok_or(BlockReadError::BlockUnavailable)?;
    if stored != accessed {
        return Err(BlockReadError::BlockUnavailable);
    }
    Ok(stored)
}

/// A coordinate as the RFC reads it: `None` for the wrong type, a non-finite or a fractional
/// number (`invalid block coordinates`); `Some(None)` for an integral number too large to be an
/// exact integer (`1e300`: integral, so it is out of bounds rather than invalid, as in Lua where
/// every number is a float); `Some(Some(i))` otherwise.
fn integral(v: &Value) -> Option<Option<i64>> {
    match *v {
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 => Some(v.as_exact_int()),
        _ => v.as_exact_int().map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::store::embedded;
    use crate::world::GameVersion;

    fn dock(v: GameVersion) -> ActiveMap {
        let set = embedded(v).unwrap();
        let def = set.get("VERMILION_DOCK").unwrap().clone();
        let ts = set.tilesets["dock"].clone();
        ActiveMap::new(def, ts)
    }

    const I: fn(i64) -> Value = Value::Int;

    #[test]
    fn reasons_in_order() {
        let m = dock(GameVersion::Red);
        use BlockReadError::*;
        assert_eq!(
            active_block_at(None, "VERMILION_DOCK", &I(0), &I(0)),
            Err(NoOverworld)
        );
        // Map check precedes coordinate checks.
        assert_eq!(
            active_block_at(Some(&m), "PALLET_TOWN", &Value::Nil, &I(0)),
            Err(MapNotActive)
        );
        for bad in [
            Value::Nil,
            Value::Str("1".into()),
            Value::Float(f64::NAN),
            Value::Float(f64::INFINITY),
            Value::Float(f64::NEG_INFINITY),
            Value::Float(1.5),
            Value::Bool(true),
        ] {
            assert_eq!(
                active_block_at(Some(&m), "VERMILION_DOCK", &bad, &I(0)),
                Err(InvalidBlockCoordinates),
                "{bad:?}"
            );
            assert_eq!(
                active_block_at(Some(&m), "VERMILION_DOCK", &I(0), &bad),
                Err(InvalidBlockCoordinates),
                "{bad:?}"
            );
        }
        // Invalid beats out-of-bounds.
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(-1), &Value::Float(0.5)),
            Err(InvalidBlockCoordinates)
        );
        for (x, y) in [
            (-1, 0),
            (0, -1),
            (14, 0),
            (0, 6),
            (i64::MAX, 0),
            (i64::MIN, 0),
        ] {
            assert_eq!(
                active_block_at(Some(&m), "VERMILION_DOCK", &I(x), &I(y)),
                Err(BlockCoordinatesOutOfBounds),
                "{x},{y}"
            );
        }
        // Integral floats beyond exact integers are out of bounds, not invalid (Lua numbers).
        for big in [1e300, -1e300, 1e16, -2.0, 14.0] {
            assert_eq!(
                active_block_at(Some(&m), "VERMILION_DOCK", &Value::Float(big), &I(0)),
                Err(BlockCoordinatesOutOfBounds),
                "{big}"
            );
            assert_eq!(
                active_block_at(Some(&m), "VERMILION_DOCK", &I(0), &Value::Float(big)),
                Err(BlockCoordinatesOutOfBounds),
                "{big}"
            );
        }
        // ... but a fractional coordinate is invalid even when the other is far out.
        assert_eq!(
            active_block_at(
                Some(&m),
                "VERMILION_DOCK",
                &Value::Float(1e300),
                &Value::Float(0.5)
            ),
            Err(InvalidBlockCoordinates)
        );
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(7), &I(1)),
            Ok(22)
        );
        assert_eq!(
            active_block_at(
                Some(&m),
                "VERMILION_DOCK",
                &Value::Float(7.0),
                &Value::Float(1.0)
            ),
            Ok(22)
        );
    }

    #[test]
    fn malformed_storage_is_unavailable() {
        use BlockReadError::*;
        let mut m = dock(GameVersion::Red);
        m.corrupt_def_for_test(|d| d.width = 0);
        // Bad dims are checked before bounds.
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(99), &I(0)),
            Err(BlockUnavailable)
        );

        let mut m = dock(GameVersion::Red);
        m.corrupt_storage_for_test(|b| b.truncate(10));
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(0), &I(0)),
            Err(BlockUnavailable)
        );

        let mut m = dock(GameVersion::Red);
        m.corrupt_storage_for_test(|b| b[0] = 5);
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(0), &I(0)),
            Err(BlockUnavailable)
        );
        // Other slots still read fine.
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(1), &I(0)),
            Ok(2)
        );
        // Out of bounds is still reported before the storage check.
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(20), &I(0)),
            Err(BlockCoordinatesOutOfBounds)
        );
    }

    #[test]
    fn replaced_blocks_read_back_and_read_never_mutates() {
        let mut m = dock(GameVersion::Red);
        m.set_block(5, 1, 1).unwrap();
        let before: Vec<u32> = m.storage().to_vec();
        let replaced = m.replaced().clone();
        for y in -1..8 {
            for x in -1..16 {
                let _ = active_block_at(Some(&m), "VERMILION_DOCK", &I(x), &I(y));
            }
        }
        assert_eq!(m.storage(), &before[..]);
        assert_eq!(m.replaced(), &replaced);
        assert_eq!(
            active_block_at(Some(&m), "VERMILION_DOCK", &I(5), &I(1)),
            Ok(1)
        );
    }

    #[test]
    fn versions_answer_from_their_own_data() {
        let red = dock(GameVersion::Red);
        let blue = dock(GameVersion::Blue);
        let yellow = dock(GameVersion::Yellow);
        let read = |m: &ActiveMap, x, y| active_block_at(Some(m), "VERMILION_DOCK", &I(x), &I(y));
        assert_eq!(read(&red, 3, 0), Ok(3));
        assert_eq!(read(&blue, 3, 0), Ok(3));
        assert_eq!(read(&yellow, 3, 0), Ok(0));
        assert_eq!(read(&yellow, 2, 0), Ok(3));
        // The ship blocks are where the dock script erases them, in every version.
        for m in [&red, &blue, &yellow] {
            let ship: Vec<u32> = (1..=2)
                .flat_map(|y| (5..=8).map(move |x| (x, y)))
                .map(|(x, y)| read(m, x, y).unwrap())
                .collect();
            assert_eq!(ship, vec![20, 21, 22, 23, 24, 25, 26, 27]);
        }
    }
}
