//! LuaJIT's `bit` library on Lua 5.1: 32-bit operations on Lua numbers, results normalised to
//! signed 32-bit integers exactly as LuaJIT's `bit.tobit` does (numbers are reduced modulo 2^32,
//! fractions round to nearest, ties to even).

use mlua::{Lua, MultiValue, Table, Value as LuaValue, Variadic};

/// LuaJIT's `tobit`: the number modulo 2^32 as a signed 32-bit integer.
pub fn tobit(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    let rounded = round_half_even(x);
    let wrapped = rounded.rem_euclid(4_294_967_296.0);
    (wrapped as u32) as i32
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

fn arg(v: &LuaValue, pos: usize, name: &str) -> mlua::Result<i32> {
    match v {
        LuaValue::Integer(i) => Ok(tobit(*i as f64)),
        LuaValue::Number(n) => Ok(tobit(*n)),
        LuaValue::String(s) => s
            .to_str()
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .map(tobit)
            .ok_or_else(|| bad(pos, name)),
        _ => Err(bad(pos, name)),
    }
}

fn bad(pos: usize, name: &str) -> mlua::Error {
    mlua::Error::runtime(format!("bad argument #{pos} to '{name}' (number expected)"))
}

fn fold(args: &MultiValue, name: &str, init: i32, op: fn(i32, i32) -> i32) -> mlua::Result<f64> {
    if args.is_empty() {
        return Err(bad(1, name));
    }
    let mut acc = init;
    for (i, v) in args.iter().enumerate() {
        acc = op(acc, arg(v, i + 1, name)?);
    }
    Ok(f64::from(acc))
}

fn shift(lua: &Lua, name: &'static str, op: fn(i32, u32) -> i32) -> mlua::Result<mlua::Function> {
    lua.create_function(move |_, (x, n): (LuaValue, LuaValue)| {
        let x = arg(&x, 1, name)?;
        let n = (arg(&n, 2, name)? & 31) as u32;
        Ok(f64::from(op(x, n)))
    })
}

/// Build the `bit` table.
pub fn install(lua: &Lua) -> mlua::Result<Table> {
    let bit = lua.create_table()?;
    bit.set(
        "tobit",
        lua.create_function(|_, x: LuaValue| Ok(f64::from(arg(&x, 1, "tobit")?)))?,
    )?;
    bit.set(
        "bnot",
        lua.create_function(|_, x: LuaValue| Ok(f64::from(!arg(&x, 1, "bnot")?)))?,
    )?;
    bit.set(
        "band",
        lua.create_function(|_, a: MultiValue| fold(&a, "band", -1, |x, y| x & y))?,
    )?;
    bit.set(
        "bor",
        lua.create_function(|_, a: MultiValue| fold(&a, "bor", 0, |x, y| x | y))?,
    )?;
    bit.set(
        "bxor",
        lua.create_function(|_, a: MultiValue| fold(&a, "bxor", 0, |x, y| x ^ y))?,
    )?;
    bit.set(
        "lshift",
        shift(lua, "lshift", |x, n| ((x as u32) << n) as i32)?,
    )?;
    bit.set(
        "rshift",
        shift(lua, "rshift", |x, n| ((x as u32) >> n) as i32)?,
    )?;
    bit.set("arshift", shift(lua, "arshift", |x, n| x >> n)?)?;
    bit.set(
        "rol",
        shift(lua, "rol", |x, n| (x as u32).rotate_left(n) as i32)?,
    )?;
    bit.set(
        "ror",
        shift(lua, "ror", |x, n| (x as u32).rotate_right(n) as i32)?,
    )?;
    bit.set(
        "bswap",
        lua.create_function(|_, x: LuaValue| {
            Ok(f64::from((arg(&x, 1, "bswap")? as u32).swap_bytes() as i32))
        })?,
    )?;
    bit.set(
        "tohex",
        lua.create_function(|_, args: Variadic<LuaValue>| {
            let x = arg(args.first().unwrap_or(&LuaValue::Nil), 1, "tohex")?;
            let n = match args.get(1) {
                None | Some(LuaValue::Nil) => 8,
                Some(v) => arg(v, 2, "tohex")?,
            };
            let upper = n < 0;
            let digits = n.unsigned_abs().min(8) as usize;
            let text = if upper {
                format!("{:08X}", x as u32)
            } else {
                format!("{:08x}", x as u32)
            };
            Ok(text[8 - digits..].to_owned())
        })?,
    )?;
    Ok(bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_luajit_results() {
        let lua = Lua::new();
        lua.globals().set("bit", install(&lua).unwrap()).unwrap();
        let checks: &[(&str, f64)] = &[
            ("bit.tobit(0xffffffff)", -1.0),
            ("bit.tobit(2^32 + 5)", 5.0),
            ("bit.band(0xff, 0x0f, 0x3)", 3.0),
            ("bit.bor(1, 2, 4)", 7.0),
            ("bit.bxor(5, 1)", 4.0),
            ("bit.bnot(0)", -1.0),
            ("bit.lshift(1, 31)", -2_147_483_648.0),
            ("bit.lshift(1, 32)", 1.0),
            ("bit.rshift(-1, 28)", 15.0),
            ("bit.arshift(-16, 2)", -4.0),
            ("bit.rol(0x80000000, 1)", 1.0),
            ("bit.bswap(0x12345678)", 2_018_915_346.0),
        ];
        for (expr, want) in checks {
            let got: f64 = lua.load(format!("return {expr}")).eval().unwrap();
            assert_eq!(got, *want, "{expr}");
        }
        let hex: String = lua.load("return bit.tohex(255)").eval().unwrap();
        assert_eq!(hex, "000000ff");
        let hex: String = lua.load("return bit.tohex(-1, -4)").eval().unwrap();
        assert_eq!(hex, "FFFF");
    }
}
