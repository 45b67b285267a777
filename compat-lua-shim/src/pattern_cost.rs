//! The work of a Lua 5.1 pattern match, measured before the C matcher runs it.
//!
//! Lua's matcher backtracks without a step counter: `("a"):rep(5000):find(".-.-.-b")` is one VM
//! instruction and hours of C time. [`Cost`] walks the same backtracking search (the pattern
//! language of the Lua 5.1 manual §5.4.1: classes, sets, the four quantifiers, captures and
//! position captures, back-references `%1`–`%9`, `%b`, `%f`, the anchors) and counts its steps
//! up to a limit, so `charged` can refuse a match that would overrun the operation budget
//! before the C matcher starts. The C matcher still produces every result the mod sees; this
//! walk only decides what the call costs, so a corner where it differs from the C matcher
//! changes a charge, never an answer.
//!
//! It also bounds the matcher's recursion ([`MAX_DEPTH`]): Lua 5.1 recurses once per
//! quantified item or capture with no limit of its own, so a long enough pattern overflows the
//! C stack.

/// Nested matcher calls one pattern may need (`lua.max_pattern_depth`; Lua 5.2+ has the same
/// bound as "pattern too complex").
pub const MAX_DEPTH: u32 = 200;

const MAX_CAPTURES: usize = 32;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;

/// Why a walk stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// More steps than the limit.
    Limit,
    /// Deeper than [`MAX_DEPTH`].
    Depth,
    /// A malformed pattern (the C matcher reports it with its own message).
    Malformed,
}

/// One walk over a subject and a pattern, counting steps.
pub struct Cost<'a> {
    s: &'a [u8],
    p: &'a [u8],
    caps: [(usize, isize); MAX_CAPTURES],
    level: usize,
    depth: u32,
    /// Steps taken so far (every matcher call and every subject byte a loop tests).
    pub steps: u64,
    limit: u64,
}

type Step<T> = Result<T, Stop>;

impl<'a> Cost<'a> {
    pub fn new(s: &'a [u8], p: &'a [u8], limit: u64) -> Self {
        Cost {
            s,
            p,
            caps: [(0, 0); MAX_CAPTURES],
            level: 0,
            depth: 0,
            steps: 0,
            limit,
        }
    }

    fn step(&mut self, n: u64) -> Step<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limit {
            Err(Stop::Limit)
        } else {
            Ok(())
        }
    }

    /// One attempt at subject position `at` with the whole pattern from `from`: the end of the
    /// match, if any.
    pub fn attempt(&mut self, at: usize, from: usize) -> Step<Option<usize>> {
        self.level = 0;
        self.walk(at, from)
    }

    /// `string.find`/`string.match` from `init` (0-based, already clamped): the match end.
    pub fn find(&mut self, init: usize) -> Step<Option<(usize, usize)>> {
        let anchored = self.p.first() == Some(&b'^');
        let from = usize::from(anchored);
        let mut at = init;
        loop {
            if let Some(end) = self.attempt(at, from)? {
                return Ok(Some((at, end)));
            }
            at += 1;
            if anchored || at > self.s.len() {
                return Ok(None);
            }
        }
    }

    /// `gmatch`'s next match from `at` (the pattern's `^` is not an anchor there): the match
    /// start and end.
    pub fn next_match(&mut self, mut at: usize) -> Step<Option<(usize, usize)>> {
        while at <= self.s.len() {
            if let Some(end) = self.attempt(at, 0)? {
                return Ok(Some((at, end)));
            }
            at += 1;
        }
        Ok(None)
    }

    /// The whole `gsub` scan with at most `max` replacements.
    pub fn gsub(&mut self, max: u64) -> Step<()> {
        let anchored = self.p.first() == Some(&b'^');
        let from = usize::from(anchored);
        let (mut at, mut n) = (0usize, 0u64);
        while n < max {
            let end = self.attempt(at, from)?;
            if end.is_some() {
                n += 1;
            }
            match end {
                Some(e) if e > at => at = e,
                _ if at < self.s.len() => at += 1,
                _ => break,
            }
            if anchored {
                break;
            }
        }
        Ok(())
    }

    fn walk(&mut self, at: usize, from: usize) -> Step<Option<usize>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(Stop::Depth);
        }
        let out = self.walk_inner(at, from);
        self.depth -= 1;
        out
    }

    fn walk_inner(&mut self, mut si: usize, mut pi: usize) -> Step<Option<usize>> {
        let (s, p) = (self.s, self.p);
        loop {
            self.step(1)?;
            let Some(&c) = p.get(pi) else {
                return Ok(Some(si));
            };
            match c {
                b'(' => {
                    return if p.get(pi + 1) == Some(&b')') {
                        self.open(si, pi + 2, CAP_POSITION)
                    } else {
                        self.open(si, pi + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.close(si, pi + 1),
                b'$' if pi + 1 == p.len() => {
                    return Ok((si == s.len()).then_some(si));
                }
                b'%' if p.get(pi + 1) == Some(&b'b') => {
                    let (Some(&open), Some(&shut)) = (p.get(pi + 2), p.get(pi + 3)) else {
                        return Err(Stop::Malformed);
                    };
                    match self.balance(si, open, shut)? {
                        Some(e) => {
                            si = e;
                            pi += 4;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                b'%' if p.get(pi + 1) == Some(&b'f') => {
                    pi += 2;
                    if p.get(pi) != Some(&b'[') {
                        return Err(Stop::Malformed);
                    }
                    let ep = self.class_end(pi)?;
                    let prev = if si == 0 { 0 } else { s[si - 1] };
                    let cur = s.get(si).copied().unwrap_or(0);
                    if !self.in_set(prev, pi, ep - 1) && self.in_set(cur, pi, ep - 1) {
                        pi = ep;
                        continue;
                    }
                    return Ok(None);
                }
                b'%' if p.get(pi + 1).is_some_and(u8::is_ascii_digit) => {
                    let (start, len) = self.capture(p[pi + 1])?;
                    self.step(1 + len as u64 / 8)?;
                    if s.len() - si >= len && s[start..start + len] == s[si..si + len] {
                        si += len;
                        pi += 2;
                        continue;
                    }
                    return Ok(None);
                }
                _ => {}
            }
            let ep = self.class_end(pi)?;
            let here = si < s.len() && self.single(s[si], pi, ep);
            match p.get(ep) {
                Some(b'?') => {
                    if here {
                        if let Some(e) = self.walk(si + 1, ep + 1)? {
                            return Ok(Some(e));
                        }
                    }
                    pi = ep + 1;
                }
                Some(b'*') => return self.greedy(si, pi, ep),
                Some(b'+') => {
                    return if here {
                        self.greedy(si + 1, pi, ep)
                    } else {
                        Ok(None)
                    };
                }
                Some(b'-') => return self.lazy(si, pi, ep),
                _ => {
                    if !here {
                        return Ok(None);
                    }
                    si += 1;
                    pi = ep;
                }
            }
        }
    }

    fn greedy(&mut self, si: usize, pi: usize, ep: usize) -> Step<Option<usize>> {
        let mut n = 0;
        while si + n < self.s.len() && self.single(self.s[si + n], pi, ep) {
            n += 1;
        }
        self.step(n as u64)?;
        loop {
            if let Some(e) = self.walk(si + n, ep + 1)? {
                return Ok(Some(e));
            }
            if n == 0 {
                return Ok(None);
            }
            n -= 1;
        }
    }

    fn lazy(&mut self, mut si: usize, pi: usize, ep: usize) -> Step<Option<usize>> {
        loop {
            if let Some(e) = self.walk(si, ep + 1)? {
                return Ok(Some(e));
            }
            if si < self.s.len() && self.single(self.s[si], pi, ep) {
                si += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn open(&mut self, si: usize, pi: usize, what: isize) -> Step<Option<usize>> {
        if self.level >= MAX_CAPTURES {
            return Err(Stop::Malformed);
        }
        self.caps[self.level] = (si, what);
        self.level += 1;
        let out = self.walk(si, pi)?;
        if out.is_none() {
            self.level -= 1;
        }
        Ok(out)
    }

    fn close(&mut self, si: usize, pi: usize) -> Step<Option<usize>> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.caps[l].1 == CAP_UNFINISHED)
        else {
            return Err(Stop::Malformed);
        };
        self.caps[l].1 = (si - self.caps[l].0) as isize;
        let out = self.walk(si, pi)?;
        if out.is_none() {
            self.caps[l].1 = CAP_UNFINISHED;
        }
        Ok(out)
    }

    fn capture(&self, digit: u8) -> Step<(usize, usize)> {
        let l = usize::from(digit.wrapping_sub(b'1'));
        match self.caps.get(l) {
            Some(&(start, len)) if l < self.level && len >= 0 => Ok((start, len as usize)),
            _ => Err(Stop::Malformed),
        }
    }

    fn balance(&mut self, si: usize, open: u8, shut: u8) -> Step<Option<usize>> {
        let s = self.s;
        if s.get(si) != Some(&open) {
            return Ok(None);
        }
        let mut depth = 1u64;
        for (i, &c) in s.iter().enumerate().skip(si + 1) {
            if c == shut {
                depth -= 1;
                if depth == 0 {
                    self.step((i - si) as u64)?;
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        self.step((s.len() - si) as u64)?;
        Ok(None)
    }

    /// The index just past the single class starting at `pi`.
    fn class_end(&self, pi: usize) -> Step<usize> {
        let p = self.p;
        match p[pi] {
            b'%' => {
                if pi + 1 >= p.len() {
                    Err(Stop::Malformed)
                } else {
                    Ok(pi + 2)
                }
            }
            b'[' => {
                let mut i = pi + 1;
                if p.get(i) == Some(&b'^') {
                    i += 1;
                }
                // The first member may be `]` itself.
                loop {
                    let Some(&c) = p.get(i) else {
                        return Err(Stop::Malformed);
                    };
                    i += 1;
                    if c == b'%' {
                        i += 1;
                    }
                    match p.get(i) {
                        Some(b']') => return Ok(i + 1),
                        Some(_) => {}
                        None => return Err(Stop::Malformed),
                    }
                }
            }
            _ => Ok(pi + 1),
        }
    }

    fn single(&self, c: u8, pi: usize, ep: usize) -> bool {
        match self.p[pi] {
            b'.' => true,
            b'%' => class(c, self.p[pi + 1]),
            b'[' => self.in_set(c, pi, ep - 1),
            lit => lit == c,
        }
    }

    /// Is `c` in the set `[`…`]` spanning `open..=shut`?
    fn in_set(&self, c: u8, open: usize, shut: usize) -> bool {
        let p = self.p;
        let mut i = open + 1;
        let negated = p.get(i) == Some(&b'^');
        if negated {
            i += 1;
        }
        while i < shut {
            if p[i] == b'%' && i + 1 < shut {
                if class(c, p[i + 1]) {
                    return !negated;
                }
                i += 2;
            } else if p.get(i + 1) == Some(&b'-') && i + 2 < shut {
                if (p[i]..=p[i + 2]).contains(&c) {
                    return !negated;
                }
                i += 3;
            } else {
                if p[i] == c {
                    return !negated;
                }
                i += 1;
            }
        }
        negated
    }
}

/// `%a`, `%d`, … (the C locale); an upper-case letter is the complement, any other character
/// stands for itself.
fn class(c: u8, cl: u8) -> bool {
    let hit = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t'..=b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    hit != cl.is_ascii_uppercase()
}

/// Does `p` use any pattern syntax (Lua's `SPECIALS`)? Without it `find` is a plain search.
pub fn has_specials(p: &[u8]) -> bool {
    p.iter().any(|c| b"^$*+?.([%-".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(s: &str, p: &str) -> Option<(usize, usize)> {
        Cost::new(s.as_bytes(), p.as_bytes(), u64::MAX)
            .find(0)
            .unwrap()
    }

    #[test]
    fn agrees_with_lua_on_ordinary_patterns() {
        assert_eq!(find("hello world", "o w"), Some((4, 7)));
        assert_eq!(find("hello world", "%a+$"), Some((6, 11)));
        assert_eq!(find("key = value", "^(%w+)%s*=%s*(%w+)$"), Some((0, 11)));
        assert_eq!(find("x(a(b)c)y", "%b()"), Some((1, 8)));
        assert_eq!(find("THE (quick) fox", "%f[%a]%a+"), Some((0, 3)));
        assert_eq!(find("abcabc", "(abc)%1"), Some((0, 6)));
        assert_eq!(find("aaab", "a-b"), Some((0, 4)));
        assert_eq!(find("[x]", "[]]"), Some((2, 3)));
        assert_eq!(find("a-b", "[%-]"), Some((1, 2)));
        assert_eq!(find("abc", "^b"), None);
        assert_eq!(find("", "()"), Some((0, 0)));
        assert_eq!(find("A1", "%U%D"), None);
        assert_eq!(find("aB", "[^%l]"), Some((1, 2)));
    }

    #[test]
    fn backtracking_is_counted_and_stopped_at_the_limit() {
        let s = "a".repeat(2_000);
        let mut walk = Cost::new(s.as_bytes(), b".-.-.-b", 1_000_000);
        assert_eq!(walk.find(0), Err(Stop::Limit));
        // A linear pattern over the same subject stays cheap.
        let mut walk = Cost::new(s.as_bytes(), b"%a+", 1_000_000);
        assert_eq!(walk.find(0), Ok(Some((0, 2_000))));
        assert!(walk.steps < 5_000, "{}", walk.steps);
    }

    #[test]
    fn deep_recursion_is_refused() {
        let s = "a".repeat(1_000);
        let p = "a?".repeat(1_000);
        let mut walk = Cost::new(s.as_bytes(), p.as_bytes(), u64::MAX);
        assert_eq!(walk.find(0), Err(Stop::Depth));
    }

    #[test]
    fn malformed_patterns_are_left_to_the_c_matcher() {
        for p in ["[a", "%", "%b", "%1", "a)"] {
            let mut walk = Cost::new(b"abc", p.as_bytes(), u64::MAX);
            assert_eq!(walk.find(0), Err(Stop::Malformed), "{p}");
        }
    }
}
