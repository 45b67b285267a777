//! The cut-down `os` table legacy mods get: `time`, `date`, `clock`, `difftime` — nothing else.
//!
//! Wall-clock time inside a legacy mod is the mod's own business (daily gifts, timestamps), but
//! Pallet runs must be reproducible, so the clock is a host option ([`Clock`]):
//!
//! * [`Clock::Fixed`] (the default): `os.time()` returns the configured epoch second every time;
//!   `os.clock()` is *virtual CPU time*: the Lua instructions this mod has executed divided by
//!   [`VIRTUAL_HZ`]. Same inputs, same outputs.
//! * [`Clock::Wall`]: the system clock and a monotonic per-mod timer (opt-in for players who
//!   want real daily gifts).
//!
//! Both modes compute calendar fields in **UTC** (`os.date` ignores the host time zone, and
//! `os.time{...}` reads its table as UTC), so a transcript never depends on where it ran.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use mlua::{Lua, Table, Value as LuaValue};

/// Virtual instructions per second for `os.clock()` under [`Clock::Fixed`].
pub const VIRTUAL_HZ: f64 = 100_000_000.0;

/// 2000-01-01T00:00:00Z: the default fixed epoch.
pub const DEFAULT_EPOCH: i64 = 946_684_800;

/// Where `os.time` and `os.clock` read time from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Deterministic: a fixed epoch second and instruction-counted CPU time.
    Fixed { epoch: i64 },
    /// The host's clocks.
    Wall,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::Fixed {
            epoch: DEFAULT_EPOCH,
        }
    }
}

/// Per-mod clock state.
pub struct ModClock {
    pub clock: Clock,
    /// Instructions this mod's state executed (charged by the count hook).
    pub instructions: Rc<Cell<u64>>,
    started: Instant,
}

impl ModClock {
    pub fn new(clock: Clock, instructions: Rc<Cell<u64>>) -> Self {
        ModClock {
            clock,
            instructions,
            started: Instant::now(),
        }
    }

    fn now(&self) -> i64 {
        match self.clock {
            Clock::Fixed { epoch } => epoch,
            Clock::Wall => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0),
        }
    }

    fn cpu(&self) -> f64 {
        match self.clock {
            Clock::Fixed { .. } => self.instructions.get() as f64 / VIRTUAL_HZ,
            Clock::Wall => self.started.elapsed().as_secs_f64(),
        }
    }
}

/// Days since 1970-01-01 for a proleptic Gregorian date (month 1..12, any day).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `(year, month 1..12, day 1..31)` of a day number.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tm {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub min: i64,
    pub sec: i64,
    /// 1 = Sunday (Lua's `wday`).
    pub wday: i64,
    /// 1 = January 1st.
    pub yday: i64,
}

pub fn breakdown(t: i64) -> Tm {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Tm {
        year,
        month,
        day,
        hour: secs / 3600,
        min: secs % 3600 / 60,
        sec: secs % 60,
        wday: (days + 4).rem_euclid(7) + 1,
        yday: days - days_from_civil(year, 1, 1) + 1,
    }
}

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `os.date` formatting (the C locale's strftime subset Lua 5.1 mods use).
pub fn format(fmt: &str, t: i64) -> Result<String, String> {
    let tm = breakdown(t);
    let day_name = DAYS[(tm.wday - 1).clamp(0, 6) as usize];
    let month_name = MONTHS[(tm.month - 1).clamp(0, 11) as usize];
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = chars.next() else {
            return Err("invalid conversion specifier '%'".to_owned());
        };
        let piece = match spec {
            'a' => day_name[..3].to_owned(),
            'A' => day_name.to_owned(),
            'b' | 'h' => month_name[..3].to_owned(),
            'B' => month_name.to_owned(),
            'c' => format!(
                "{} {} {:2} {:02}:{:02}:{:02} {}",
                &day_name[..3],
                &month_name[..3],
                tm.day,
                tm.hour,
                tm.min,
                tm.sec,
                tm.year
            ),
            'd' => format!("{:02}", tm.day),
            'e' => format!("{:2}", tm.day),
            'H' => format!("{:02}", tm.hour),
            'I' => format!("{:02}", (tm.hour + 11) % 12 + 1),
            'j' => format!("{:03}", tm.yday),
            'm' => format!("{:02}", tm.month),
            'M' => format!("{:02}", tm.min),
            'p' => (if tm.hour < 12 { "AM" } else { "PM" }).to_owned(),
            'S' => format!("{:02}", tm.sec),
            'w' => (tm.wday - 1).to_string(),
            'x' => format!(
                "{:02}/{:02}/{:02}",
                tm.month,
                tm.day,
                tm.year.rem_euclid(100)
            ),
            'X' | 'T' => format!("{:02}:{:02}:{:02}", tm.hour, tm.min, tm.sec),
            'y' => format!("{:02}", tm.year.rem_euclid(100)),
            'Y' => tm.year.to_string(),
            'F' => format!("{}-{:02}-{:02}", tm.year, tm.month, tm.day),
            'Z' => "UTC".to_owned(),
            'z' => "+0000".to_owned(),
            '%' => "%".to_owned(),
            other => return Err(format!("invalid conversion specifier '%{other}'")),
        };
        out.push_str(&piece);
    }
    Ok(out)
}

fn field(t: &Table, key: &str, default: Option<i64>) -> mlua::Result<i64> {
    match t.get::<LuaValue>(key)? {
        LuaValue::Nil => default
            .ok_or_else(|| mlua::Error::runtime(format!("field '{key}' missing in date table"))),
        LuaValue::Integer(i) => Ok(i),
        LuaValue::Number(n) if n.is_finite() => Ok(n.floor() as i64),
        _ => Err(mlua::Error::runtime(format!(
            "field '{key}' is not a number in date table"
        ))),
    }
}

/// `os.time{year=…, month=…, day=…, hour=12, min=0, sec=0}` read as UTC (out-of-range fields
/// normalise, as with C's `mktime`).
fn time_of(t: &Table) -> mlua::Result<i64> {
    let year = field(t, "year", None)?;
    let month = field(t, "month", None)?;
    let day = field(t, "day", None)?;
    let hour = field(t, "hour", Some(12))?;
    let min = field(t, "min", Some(0))?;
    let sec = field(t, "sec", Some(0))?;
    if [year, month, day, hour, min, sec]
        .iter()
        .any(|v| v.abs() > 1_000_000_000)
    {
        return Err(mlua::Error::runtime("date field out of range"));
    }
    let y = year + (month - 1).div_euclid(12);
    let m = (month - 1).rem_euclid(12) + 1;
    let days = days_from_civil(y, m, 1) + day - 1;
    Ok(days * 86_400 + hour * 3600 + min * 60 + sec)
}

/// Build the cut-down `os` table.
pub fn install(lua: &Lua, clock: Rc<ModClock>) -> mlua::Result<Table> {
    let os = lua.create_table()?;
    let c = clock.clone();
    os.set(
        "time",
        lua.create_function(move |_, t: Option<Table>| match t {
            None => Ok(c.now() as f64),
            Some(t) => Ok(time_of(&t)? as f64),
        })?,
    )?;
    let c = clock.clone();
    os.set("clock", lua.create_function(move |_, ()| Ok(c.cpu()))?)?;
    os.set(
        "difftime",
        lua.create_function(|_, (a, b): (f64, Option<f64>)| Ok(a - b.unwrap_or(0.0)))?,
    )?;
    let c = clock;
    os.set(
        "date",
        lua.create_function(move |lua, (fmt, t): (Option<String>, Option<f64>)| {
            let fmt = fmt.unwrap_or_else(|| "%c".to_owned());
            let t = match t {
                Some(t) if t.is_finite() => t.floor() as i64,
                Some(_) => return Err(mlua::Error::runtime("bad argument #2 to 'date'")),
                None => c.now(),
            };
            let fmt = fmt.strip_prefix('!').unwrap_or(&fmt);
            if fmt.starts_with("*t") {
                let tm = breakdown(t);
                let out = lua.create_table()?;
                out.set("year", tm.year)?;
                out.set("month", tm.month)?;
                out.set("day", tm.day)?;
                out.set("hour", tm.hour)?;
                out.set("min", tm.min)?;
                out.set("sec", tm.sec)?;
                out.set("wday", tm.wday)?;
                out.set("yday", tm.yday)?;
                out.set("isdst", false)?;
                return Ok(LuaValue::Table(out));
            }
            let text = format(fmt, t).map_err(mlua::Error::runtime)?;
            Ok(LuaValue::String(lua.create_string(text)?))
        })?,
    )?;
    Ok(os)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trip() {
        let tm = breakdown(DEFAULT_EPOCH);
        assert_eq!(
            (tm.year, tm.month, tm.day, tm.wday, tm.yday),
            (2000, 1, 1, 7, 1)
        );
        assert_eq!(
            format("%Y-%m-%d %H:%M:%S %A", 1_700_000_000).unwrap(),
            "2023-11-14 22:13:20 Tuesday"
        );
        let lua = Lua::new();
        let instr = Rc::new(Cell::new(250_000_000));
        let os = install(&lua, Rc::new(ModClock::new(Clock::default(), instr))).unwrap();
        lua.globals().set("os", os).unwrap();
        let t: f64 = lua
            .load("return os.time{year=2023, month=11, day=14, hour=22, min=13, sec=20}")
            .eval()
            .unwrap();
        assert_eq!(t, 1_700_000_000.0);
        let t: f64 = lua.load("return os.time()").eval().unwrap();
        assert_eq!(t, DEFAULT_EPOCH as f64);
        let c: f64 = lua.load("return os.clock()").eval().unwrap();
        assert_eq!(c, 2.5);
        let d: String = lua.load("return os.date('!%d/%m', 0)").eval().unwrap();
        assert_eq!(d, "01/01");
        assert!(lua.load("return os.date('%Q')").eval::<String>().is_err());
    }
}
