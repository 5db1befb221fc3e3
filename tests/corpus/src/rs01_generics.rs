// Generic Rust: traits with associated types and default methods, trait
// objects (dyn) with vtables, generic structs/enums, iterator adaptor
// chains, closures (Fn/FnMut/FnOnce), operator overloading, slices,
// pattern matching, i128/u128 and f32/f64 arithmetic.
use std::collections::HashMap;
use std::fmt;
use std::ops::{Add, Mul};

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> &'static str;
    fn describe(&self) -> String {
        format!("{} with area {:.2}", self.name(), self.area())
    }
}

pub struct Circle {
    pub r: f64,
}
pub struct Rect {
    pub w: f64,
    pub h: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
    fn name(&self) -> &'static str {
        "circle"
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
    fn name(&self) -> &'static str {
        "rect"
    }
    fn describe(&self) -> String {
        format!("{}x{} rect", self.w, self.h)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

impl<T: Add<Output = T>> Add for V2<T> {
    type Output = V2<T>;
    fn add(self, o: Self) -> Self {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

impl<T: Mul<Output = T> + Copy> Mul<T> for V2<T> {
    type Output = V2<T>;
    fn mul(self, k: T) -> Self {
        V2 { x: self.x * k, y: self.y * k }
    }
}

impl<T: fmt::Display> fmt::Display for V2<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub trait Container {
    type Item;
    fn get(&self, i: usize) -> Option<&Self::Item>;
    fn first(&self) -> Option<&Self::Item> {
        self.get(0)
    }
}

pub struct Stack<T> {
    items: Vec<T>,
}

impl<T> Container for Stack<T> {
    type Item = T;
    fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i)
    }
}

#[derive(Debug)]
pub enum Expr {
    Num(i64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

pub fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => *n,
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Mul(a, b) => eval(a).wrapping_mul(eval(b)),
        Expr::Neg(a) => -eval(a),
    }
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

pub fn largest<T: PartialOrd + Copy>(xs: &[T]) -> Option<T> {
    let mut it = xs.iter().copied();
    let first = it.next()?;
    Some(it.fold(first, |m, x| if x > m { x } else { m }))
}

pub fn apply_all<F: Fn(i32) -> i32>(fs: &[F], v: i32) -> i32 {
    fs.iter().fold(v, |acc, f| f(acc))
}

pub fn make_adder(n: i32) -> impl Fn(i32) -> i32 {
    move |x| x + n
}

pub fn boxed_ops() -> Vec<Box<dyn Fn(i32) -> i32>> {
    vec![Box::new(|x| x * 2), Box::new(make_adder(7)), Box::new(|x: i32| x.pow(2))]
}

pub fn word_freq(text: &str) -> Vec<(String, usize)> {
    let mut m: HashMap<&str, usize> = HashMap::new();
    for w in text.split_whitespace() {
        *m.entry(w).or_insert(0) += 1;
    }
    let mut v: Vec<(String, usize)> = m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

pub fn wide_math(a: u128, b: i128, f: f32) -> (u128, i128, f64) {
    (a.wrapping_mul(3) ^ (a >> 7), b / 7 - (b % 5), (f as f64).sqrt().mul_add(2.0, 1.0))
}

pub fn iter_chain(n: u32) -> u64 {
    (1..=n)
        .filter(|x| x % 3 != 0)
        .map(|x| x as u64 * x as u64)
        .zip((0..).step_by(2))
        .take_while(|&(sq, _)| sq < 10_000)
        .map(|(sq, k)| sq + k)
        .rev_sum()
}

trait RevSum: Iterator<Item = u64> + Sized {
    fn rev_sum(self) -> u64 {
        let v: Vec<u64> = self.collect();
        v.into_iter().rev().enumerate().map(|(i, x)| x.rotate_left(i as u32 % 8)).sum()
    }
}
impl<I: Iterator<Item = u64>> RevSum for I {}

pub fn demo() -> String {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.5 }), Box::new(Rect { w: 2.0, h: 3.0 })];
    let descs: Vec<String> = shapes.iter().map(|s| s.describe()).collect();
    let v = V2 { x: 1.5f32, y: 2.0 } + V2 { x: 0.5, y: -1.0 } * 2.0;
    let vi = V2 { x: 3i64, y: 4 } + V2::default();
    let st = Stack { items: vec!['a', 'b'] };
    let e = Expr::Add(Box::new(Expr::Num(4)), Box::new(Expr::Mul(Box::new(Expr::Num(3)), Box::new(Expr::Neg(Box::new(Expr::Num(2)))))));
    let ops = boxed_ops();
    let mut counter = 0;
    let mut bump = || {
        counter += 1;
        counter
    };
    bump();
    bump();
    let owned = String::from("moved");
    let consume = move || owned.len();
    format!(
        "{:?} {:.3} {} {} {:?} {} {} {:?} {} {:?} {} {:?}",
        descs,
        total_area(&shapes),
        v,
        vi,
        st.first(),
        eval(&e),
        apply_all(&[|x| x + 1, |x| x * 10], 4),
        largest(&[3.5, -1.0, 9.25]),
        ops.iter().map(|f| f(3)).sum::<i32>(),
        word_freq("a b a c b a").first(),
        counter + consume() as i32,
        wide_math(u128::MAX / 3, -1_000_000_000_000_000_000_000i128, 2.0)
    ) + &iter_chain(200).to_string()
}
