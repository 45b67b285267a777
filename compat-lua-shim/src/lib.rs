//! Legacy Lua mod shim. Not implemented yet: see issue 10 and `README.md`.
