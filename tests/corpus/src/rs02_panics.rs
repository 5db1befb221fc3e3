// Panics and unwinding: catch_unwind, Drop impls running during unwinding,
// resume_unwind, panics with custom payloads, Result and the ? operator,
// Option combinators, arithmetic overflow checks, bounds checks, RefCell
// borrow panics, and a panic hook.
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

pub struct Noisy {
    pub name: &'static str,
    pub log: Rc<RefCell<Vec<String>>>,
}

impl Drop for Noisy {
    fn drop(&mut self) {
        self.log.borrow_mut().push(format!("drop {}", self.name));
    }
}

#[derive(Debug)]
pub enum AppError {
    Parse(std::num::ParseIntError),
    Negative(i64),
    TooBig { value: i64, limit: i64 },
}

impl From<std::num::ParseIntError> for AppError {
    fn from(e: std::num::ParseIntError) -> Self {
        AppError::Parse(e)
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Parse(e) => write!(f, "parse: {e}"),
            AppError::Negative(v) => write!(f, "negative: {v}"),
            AppError::TooBig { value, limit } => write!(f, "{value} > {limit}"),
        }
    }
}

pub fn parse_checked(s: &str, limit: i64) -> Result<i64, AppError> {
    let v: i64 = s.trim().parse()?;
    if v < 0 {
        return Err(AppError::Negative(v));
    }
    if v > limit {
        return Err(AppError::TooBig { value: v, limit });
    }
    Ok(v)
}

pub fn sum_all(items: &[&str]) -> Result<i64, AppError> {
    items.iter().map(|s| parse_checked(s, 1000)).sum()
}

#[inline(never)]
pub fn deep_panic(depth: u32, log: &Rc<RefCell<Vec<String>>>) -> u32 {
    let _guard = Noisy { name: if depth % 2 == 0 { "even" } else { "odd" }, log: log.clone() };
    if depth == 0 {
        panic!("bottom reached");
    }
    deep_panic(depth - 1, log) + 1
}

pub struct CustomPayload {
    pub code: i32,
}

#[inline(never)]
pub fn index_it(v: &[u8], i: usize) -> u8 {
    v[i]
}

#[inline(never)]
pub fn checked_overflow(a: u8, b: u8) -> Option<u8> {
    a.checked_add(b).and_then(|s| s.checked_mul(2)).filter(|s| *s != 0)
}

pub fn run() -> Vec<String> {
    let log = Rc::new(RefCell::new(Vec::new()));
    let prev_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));

    let r1 = panic::catch_unwind(AssertUnwindSafe(|| deep_panic(4, &log)));
    let msg = match &r1 {
        Err(p) => p.downcast_ref::<&str>().map(|s| s.to_string()).unwrap_or_default(),
        Ok(_) => String::new(),
    };
    log.borrow_mut().push(format!("caught: {msg}"));

    let r2 = panic::catch_unwind(|| {
        panic::panic_any(CustomPayload { code: 42 });
    });
    if let Err(p) = r2 {
        if let Some(c) = p.downcast_ref::<CustomPayload>() {
            log.borrow_mut().push(format!("custom {}", c.code));
        }
    }

    let r3 = panic::catch_unwind(|| index_it(&[1, 2, 3], 7));
    log.borrow_mut().push(format!("bounds ok={}", r3.is_ok()));

    let cell = RefCell::new(5);
    let r4 = panic::catch_unwind(AssertUnwindSafe(|| {
        let _b1 = cell.borrow_mut();
        let _b2 = cell.borrow_mut();
    }));
    log.borrow_mut().push(format!("refcell ok={}", r4.is_ok()));

    let r5 = panic::catch_unwind(|| {
        let inner = panic::catch_unwind(|| panic!("inner {}", 1));
        if let Err(p) = inner {
            panic::resume_unwind(p);
        }
    });
    log.borrow_mut().push(format!("resumed ok={}", r5.is_ok()));

    panic::set_hook(prev_hook);

    for input in [&["1", "2", "3"][..], &["4", "x"], &["-1"], &["5000"]] {
        match sum_all(input) {
            Ok(v) => log.borrow_mut().push(format!("sum {v}")),
            Err(e) => log.borrow_mut().push(format!("error {e}")),
        }
    }
    log.borrow_mut().push(format!("{:?} {:?}", checked_overflow(100, 20), checked_overflow(200, 100)));
    let v = log.borrow().clone();
    v
}
