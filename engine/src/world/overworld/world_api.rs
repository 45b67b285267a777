//! The overworld as the `world` trait script handles read (RFC 0013's block read).

use pallet_api::Value;

use super::Overworld;
use crate::world::block_read::{active_block_at, BlockReadError};

/// `mod.world` as overworld hook and event sites lend it to script handles
/// (`pallet_api::access::with_world`). Block ids above 255 are not Gen 1 block ids and read as
/// `block unavailable`.
impl pallet_api::facades::WorldApi for Overworld {
    fn active_block_at(
        &self,
        map_id: &str,
        block_x: &Value,
        block_y: &Value,
    ) -> Result<u8, BlockReadError> {
        let block = active_block_at(Some(self.map()), map_id, block_x, block_y)?;
        u8::try_from(block).map_err(|_| BlockReadError::BlockUnavailable)
    }
}
