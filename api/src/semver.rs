//! Minimal semantic versions and ranges for manifest `game_version` and dependency ranges.
//!
//! Supported range grammar (npm-style subset): alternatives joined by `||`; each alternative is
//! space-separated comparators that must all hold. A comparator is `>=V`, `>V`, `<=V`, `<V`,
//! `=V`, a bare `V` (exact), `^V`, `~V`, `*`/`x`, or an x-range (`1.x`, `1.2.x`, `1`, `1.2`).
//! Pre-releases order before their release (`1.0.0-dev < 1.0.0`); unlike npm, a pre-release
//! version is not excluded from ranges that name no pre-release (documented simplification).

use std::cmp::Ordering;

/// `MAJOR.MINOR.PATCH[-PRE][+BUILD]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
}

impl Version {
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim().trim_start_matches('v');
        let text = text.split('+').next()?;
        let (core, pre) = match text.split_once('-') {
            Some((c, p)) => (c, p.split('.').map(str::to_owned).collect()),
            None => (text, Vec::new()),
        };
        let mut parts = core.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        Some(Version {
            major,
            minor,
            patch,
            pre,
        })
    }

    /// The development engine marker (`0.0.0-dev`): range checks are skipped for it.
    pub fn is_dev(&self) -> bool {
        self.major == 0 && self.minor == 0 && self.patch == 0 && self.pre == ["dev"]
    }
}

fn cmp_pre(a: &[String], b: &[String]) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    for (x, y) in a.iter().zip(b) {
        let ord = match (x.parse::<u64>(), y.parse::<u64>()) {
            (Ok(p), Ok(q)) => p.cmp(&q),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            _ => x.cmp(y),
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| cmp_pre(&self.pre, &other.pre))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Comparator {
    op: Op,
    version: Version,
}

impl Comparator {
    fn holds(&self, v: &Version) -> bool {
        let ord = v.cmp(&self.version);
        match self.op {
            Op::Ge => ord != Ordering::Less,
            Op::Gt => ord == Ordering::Greater,
            Op::Le => ord != Ordering::Greater,
            Op::Lt => ord == Ordering::Less,
            Op::Eq => ord == Ordering::Equal,
        }
    }
}

/// A parsed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    alternatives: Vec<Vec<Comparator>>,
}

fn v(major: u64, minor: u64, patch: u64) -> Version {
    Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
    }
}

/// Parse `1`, `1.2`, `1.2.3`, with `x`/`*` wildcards, into (version, how many parts were given).
fn partial(text: &str) -> Option<(Version, usize)> {
    if let Some(full) = Version::parse(text) {
        return Some((full, 3));
    }
    let mut nums = Vec::new();
    for part in text.split('.') {
        if matches!(part, "x" | "X" | "*") {
            break;
        }
        nums.push(part.parse::<u64>().ok()?);
    }
    if nums.len() > 3 {
        return None;
    }
    let get = |i: usize| nums.get(i).copied().unwrap_or(0);
    Some((v(get(0), get(1), get(2)), nums.len()))
}

fn upper_bound(base: &Version, given: usize) -> Option<Version> {
    match given {
        0 => None,
        1 => Some(v(base.major + 1, 0, 0)),
        2 => Some(v(base.major, base.minor + 1, 0)),
        _ => Some(v(base.major, base.minor, base.patch + 1)),
    }
}

fn comparators(token: &str) -> Option<Vec<Comparator>> {
    let c = |op, version| Comparator { op, version };
    let (op, rest) = if let Some(r) = token.strip_prefix(">=") {
        (Some(Op::Ge), r)
    } else if let Some(r) = token.strip_prefix("<=") {
        (Some(Op::Le), r)
    } else if let Some(r) = token.strip_prefix('>') {
        (Some(Op::Gt), r)
    } else if let Some(r) = token.strip_prefix('<') {
        (Some(Op::Lt), r)
    } else if let Some(r) = token.strip_prefix('=') {
        (Some(Op::Eq), r)
    } else {
        (None, token)
    };
    if let Some(op) = op {
        let (version, _) = partial(rest.trim())?;
        return Some(vec![c(op, version)]);
    }
    if let Some(r) = token.strip_prefix('^') {
        let (base, given) = partial(r)?;
        let upper = if base.major > 0 || given == 1 {
            v(base.major + 1, 0, 0)
        } else if base.minor > 0 || given == 2 {
            v(0, base.minor + 1, 0)
        } else {
            v(0, 0, base.patch + 1)
        };
        return Some(vec![c(Op::Ge, base), c(Op::Lt, upper)]);
    }
    if let Some(r) = token.strip_prefix('~') {
        let (base, given) = partial(r)?;
        let upper = if given <= 1 {
            v(base.major + 1, 0, 0)
        } else {
            v(base.major, base.minor + 1, 0)
        };
        return Some(vec![c(Op::Ge, base), c(Op::Lt, upper)]);
    }
    let (base, given) = partial(token)?;
    if given == 3 {
        return Some(vec![c(Op::Eq, base)]);
    }
    let mut out = vec![c(Op::Ge, base.clone())];
    if let Some(upper) = upper_bound(&base, given) {
        out.push(c(Op::Lt, upper));
    }
    Some(out)
}

impl Range {
    pub fn parse(text: &str) -> Option<Range> {
        let mut alternatives = Vec::new();
        for alt in text.split("||") {
            let mut all = Vec::new();
            let tokens: Vec<&str> = alt.split_whitespace().collect();
            if tokens.is_empty() {
                all.push(Comparator {
                    op: Op::Ge,
                    version: v(0, 0, 0),
                });
                // An empty alternative matches everything, pre-releases included.
                all[0].version.pre = vec!["0".into()];
            }
            let mut i = 0;
            while i < tokens.len() {
                // Allow "X - Y" hyphen ranges.
                if tokens.get(i + 1) == Some(&"-") {
                    let (lo, _) = partial(tokens[i])?;
                    let (hi, given) = partial(tokens.get(i + 2)?)?;
                    all.push(Comparator {
                        op: Op::Ge,
                        version: lo,
                    });
                    match (given, upper_bound(&hi, given)) {
                        (3, _) => all.push(Comparator {
                            op: Op::Le,
                            version: hi,
                        }),
                        (_, Some(upper)) => all.push(Comparator {
                            op: Op::Lt,
                            version: upper,
                        }),
                        _ => {}
                    }
                    i += 3;
                    continue;
                }
                all.extend(comparators(tokens[i])?);
                i += 1;
            }
            alternatives.push(all);
        }
        Some(Range { alternatives })
    }

    pub fn matches(&self, version: &Version) -> bool {
        self.alternatives
            .iter()
            .any(|alt| alt.iter().all(|c| c.holds(version)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(range: &str, version: &str) -> bool {
        Range::parse(range)
            .unwrap()
            .matches(&Version::parse(version).unwrap())
    }

    #[test]
    fn ranges_seen_in_real_manifests() {
        assert!(m("0.0.0-dev || >=0.1.0 <2.0.0", "0.1.0"));
        assert!(m("0.0.0-dev || >=0.1.0 <2.0.0", "0.0.0-dev"));
        assert!(!m("0.0.0-dev || >=0.1.0 <2.0.0", "2.0.0"));
        assert!(m(">=0.0.0-0 <2.0.0", "0.1.0"));
        assert!(m("^1.2.0", "1.9.9"));
        assert!(!m("^1.2.0", "2.0.0"));
        assert!(m("~1.2.3", "1.2.9"));
        assert!(!m("~1.2.3", "1.3.0"));
        assert!(m("1.x", "1.4.0"));
        assert!(m("*", "3.0.0"));
        assert!(m("1.0.0 - 2.0.0", "2.0.0"));
        assert!(!m("1.0.0", "1.0.1"));
        assert!(Range::parse(">=banana").is_none());
        assert!(Version::parse("0.0.0-dev").unwrap().is_dev());
        assert!(Version::parse("1.0.0-dev").unwrap() < Version::parse("1.0.0").unwrap());
    }
}
