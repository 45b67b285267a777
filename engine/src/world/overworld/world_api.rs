//! The overworld as the `world` trait script handles read (RFC 0013's block read).

use pallet_api::Value;

use super::Overworld;
use crate::world::block_read::{active_block_id_at, BlockReadError};

/// `mod.world` as overworld hook and event sites lend it to script handles
/// (`pallet_api::access::with_world`) ([`active_block_id_at`]).
impl pallet_api::facades::WorldApi for Overworld {
    fn active_block_at(
        &self,
        map_id: &str,
        block_x: &Value,
        block_y: &Value,
    ) -> Result<u8, BlockReadError> {
        active_block_id_at(Some(self.map()), map_id, block_x, block_y)
    }
}
