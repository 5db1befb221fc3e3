//! Which blocks can run, from chosen roots, when every branch whose condition is known takes its
//! one successor: conditional constant propagation restricted to phis and branch conditions.
//!
//! A condition is known when it is an integer constant, or a phi whose incoming values along the
//! edges that can run are one integer constant. That is the shape of clang's cleanup destinations
//! (`%d = phi i32 [ 0, %resumed ], [ 2, %destroyed ]` then `switch i32 %d`): a part entered on a
//! destroy edge never runs the code behind the resume case, however large.
//!
//! Optimistic, as sparse conditional constant propagation is: a phi is unknown until an edge into
//! its block can run, a constant while every such edge brings the same one, and overdefined after.
//! Values only fall in that order, so the sets only grow, and each phi and terminator is visited a
//! bounded number of times.

use crate::ir::{Block, Function, Inst, Opcode, Value, ValueKind};
use crate::types::{TypeData, TypeTable};
use cranelift_entity::SecondaryMap;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

/// What a phi or a condition is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Known {
    /// No edge into the phi's block can run yet.
    #[default]
    Nothing,
    /// The bits of an integer constant, zero-extended from its width.
    Int(u128),
    /// Anything.
    Any,
}

impl Known {
    fn meet(self, o: Known) -> Known {
        match (self, o) {
            (Known::Nothing, x) | (x, Known::Nothing) => x,
            (Known::Int(a), Known::Int(b)) if a == b => Known::Int(a),
            _ => Known::Any,
        }
    }
}

/// The result: blocks that can run, and the terminators decided to one successor.
pub struct Executable {
    runs: SecondaryMap<Block, bool>,
    decided: SecondaryMap<Block, Option<Block>>,
}

impl Executable {
    /// Whether `b` can run.
    pub fn runs(&self, b: Block) -> bool {
        self.runs[b]
    }

    /// The one successor `b`'s conditional terminator can take, when its condition is known.
    pub fn decided(&self, b: Block) -> Option<Block> {
        self.decided[b]
    }

    /// The blocks of `f` that run whose terminator is decided, with the one successor it takes, in
    /// layout order: what a pass narrows to `br`s (`Function::branch_only_to`).
    pub fn decided_branches(&self, f: &Function) -> Vec<(Block, Block)> {
        f.layout.iter().filter(|&&b| self.runs[b]).filter_map(|&b| Some((b, self.decided[b]?))).collect()
    }

    /// Computes what can run in `f` entered at `roots`. Phis of a root block count as overdefined:
    /// a root is entered by an edge the function does not show.
    pub fn compute(f: &Function, types: &TypeTable, src: &str, roots: &[Block]) -> Executable {
        if !f.layout.iter().any(|&b| decidable(f, b)) {
            // No condition can be known (the usual case): what runs is what is reachable.
            let mut decided = SecondaryMap::with_capacity(f.blocks.len());
            decided.resize(f.blocks.len());
            return Executable { runs: f.reachable_along(roots, &|_| None), decided };
        }
        let mut s = Solver::new(f, types, src);
        for &r in roots {
            s.root(r);
        }
        s.run();
        Executable { runs: s.runs, decided: s.decided }
    }
}

/// Whether `b` ends in a conditional branch or switch on a constant or a phi: the only terminators
/// the solver can decide.
fn decidable(f: &Function, b: Block) -> bool {
    let Some(t) = f.terminator(b) else { return false };
    let d = &f.insts[t];
    matches!(d.op, Opcode::Br | Opcode::Switch)
        && d.args
            .first()
            .is_some_and(|&c| f.is_const(c) || f.value_inst(c).is_some_and(|i| f.insts[i].op == Opcode::Phi))
}

struct Solver<'a> {
    f: &'a Function,
    types: &'a TypeTable,
    src: &'a str,
    runs: SecondaryMap<Block, bool>,
    roots: SecondaryMap<Block, bool>,
    edges: FxHashSet<(Block, Block)>,
    /// Phis' states (kept by phi: a function has few, and a table per value would be large).
    known: FxHashMap<Value, Known>,
    decided: SecondaryMap<Block, Option<Block>>,
    /// Phis and conditional terminators that read each phi.
    users: FxHashMap<Value, SmallVec<[Inst; 2]>>,
    blocks: Vec<Block>,
    insts: Vec<Inst>,
}

impl<'a> Solver<'a> {
    fn new(f: &'a Function, types: &'a TypeTable, src: &'a str) -> Self {
        let mut users: FxHashMap<Value, SmallVec<[Inst; 2]>> = FxHashMap::default();
        for &b in &f.layout {
            let readers = f.blocks[b]
                .insts
                .iter()
                .copied()
                .take_while(|&i| matches!(f.insts[i].op, Opcode::Phi | Opcode::DbgRecord))
                .chain(f.terminator(b))
                .filter(|&i| matches!(f.insts[i].op, Opcode::Phi | Opcode::Br | Opcode::Switch));
            for i in readers {
                for &a in &f.insts[i].args {
                    if f.value_inst(a).is_some_and(|d| f.insts[d].op == Opcode::Phi) {
                        users.entry(a).or_default().push(i);
                    }
                }
            }
        }
        let n = f.blocks.len();
        let mut runs = SecondaryMap::with_capacity(n);
        runs.resize(n);
        let mut roots = SecondaryMap::with_capacity(n);
        roots.resize(n);
        let mut decided = SecondaryMap::with_capacity(n);
        decided.resize(n);
        Solver {
            f,
            types,
            src,
            runs,
            roots,
            edges: FxHashSet::default(),
            known: FxHashMap::default(),
            decided,
            users,
            blocks: Vec::new(),
            insts: Vec::new(),
        }
    }

    fn root(&mut self, b: Block) {
        self.roots[b] = true;
        if !self.runs[b] {
            self.runs[b] = true;
            self.blocks.push(b);
        }
    }

    fn run(&mut self) {
        loop {
            self.solve();
            // A condition still unknown in a block that runs (a cycle of phis with nothing from
            // outside it) is taken as anything, so that no edge is left out unsoundly.
            let f = self.f;
            let stuck: Vec<Value> = f
                .layout
                .iter()
                .filter(|&&b| self.runs[b])
                .filter_map(|&b| f.terminator(b))
                .filter(|&t| matches!(f.insts[t].op, Opcode::Br | Opcode::Switch))
                .filter_map(|t| f.insts[t].args.first().copied())
                .filter(|&c| self.value(c) == Known::Nothing)
                .collect();
            if stuck.is_empty() {
                return;
            }
            for c in stuck {
                self.known.insert(c, Known::Any);
                if let Some(users) = self.users.get(&c) {
                    self.insts.extend(users.iter().copied());
                }
            }
        }
    }

    fn solve(&mut self) {
        loop {
            if let Some(b) = self.blocks.pop() {
                let f = self.f;
                let phis = f.blocks[b]
                    .insts
                    .iter()
                    .copied()
                    .take_while(|&i| matches!(f.insts[i].op, Opcode::Phi | Opcode::DbgRecord));
                self.insts.extend(phis.filter(|&i| f.insts[i].op == Opcode::Phi));
                self.insts.extend(f.terminator(b));
            } else if let Some(i) = self.insts.pop() {
                self.visit(i);
            } else {
                break;
            }
        }
    }

    fn visit(&mut self, i: Inst) {
        let f = self.f;
        let Some(b) = f.insts[i].block.filter(|&b| self.runs[b]) else { return };
        if f.insts[i].op == Opcode::Phi {
            self.visit_phi(i, b);
        } else {
            self.visit_terminator(i, b);
        }
    }

    fn visit_phi(&mut self, i: Inst, b: Block) {
        let f = self.f;
        let Some(r) = f.insts[i].result else { return };
        let now = if self.roots[b] {
            Known::Any
        } else {
            let d = &f.insts[i];
            d.args
                .iter()
                .zip(&d.blocks)
                .filter(|&(_, &p)| self.edges.contains(&(p, b)))
                .fold(Known::Nothing, |acc, (&v, _)| acc.meet(self.value(v)))
        };
        if now != self.known.get(&r).copied().unwrap_or_default() {
            self.known.insert(r, now);
            if let Some(users) = self.users.get(&r) {
                self.insts.extend(users.iter().copied());
            }
        }
    }

    fn visit_terminator(&mut self, i: Inst, b: Block) {
        let f = self.f;
        let d = &f.insts[i];
        let cond = match d.op {
            Opcode::Br | Opcode::Switch if !d.args.is_empty() => d.args.first().map(|&c| self.value(c)),
            _ => None,
        };
        let take: SmallVec<[Block; 2]> = match (d.op, cond) {
            (_, Some(Known::Nothing)) => SmallVec::new(),
            (Opcode::Br, Some(Known::Int(c))) => {
                let k = if c == 1 { 0 } else { 1 };
                d.blocks.get(k).copied().into_iter().collect()
            }
            (Opcode::Switch, Some(Known::Int(c))) => {
                let hit = d.args.iter().zip(&d.blocks).skip(1).find(|&(&v, _)| self.value(v) == Known::Int(c));
                match hit {
                    Some((_, &t)) => SmallVec::from_elem(t, 1),
                    // A case whose value is not a plain constant could still match: not decided.
                    None if d.args.iter().skip(1).any(|&v| !matches!(self.value(v), Known::Int(_))) => {
                        d.blocks.iter().copied().collect()
                    }
                    None => d.blocks.first().copied().into_iter().collect(),
                }
            }
            _ => d.blocks.iter().copied().collect(),
        };
        if let (Some(Known::Int(_)), [one]) = (cond, take.as_slice()) {
            self.decided[b] = Some(*one);
        } else if !take.is_empty() {
            self.decided[b] = None;
        }
        for s in take {
            if self.edges.insert((b, s)) {
                if self.runs[s] {
                    // A new edge into a running block: its phis see one more incoming value.
                    let phis = f.blocks[s]
                        .insts
                        .iter()
                        .copied()
                        .take_while(|&x| matches!(f.insts[x].op, Opcode::Phi | Opcode::DbgRecord));
                    self.insts.extend(phis.filter(|&x| f.insts[x].op == Opcode::Phi));
                } else {
                    self.runs[s] = true;
                    self.blocks.push(s);
                }
            }
        }
    }

    /// What value `v` is known to be: an integer constant's bits, a phi's current state, or anything.
    fn value(&self, v: Value) -> Known {
        let f = self.f;
        match &f.values[v].kind {
            ValueKind::Const(_) => match (self.types.get(f.values[v].ty), f.const_int(v, self.src)) {
                (TypeData::Int(w), Some(n)) if *w >= 1 && *w <= 128 => {
                    let mask = if *w == 128 { u128::MAX } else { (1u128 << w) - 1 };
                    Known::Int(n as u128 & mask)
                }
                _ => Known::Any,
            },
            ValueKind::Inst(d) if f.insts[*d].op == Opcode::Phi => match f.insts[*d].block {
                Some(b) if self.runs[b] => self.known.get(&v).copied().unwrap_or_default(),
                _ => Known::Any,
            },
            _ => Known::Any,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;

    /// Parses `body` as `@f(i8 %x)` and computes what runs from the blocks named in `roots`; returns
    /// the names of the blocks that run, and of each decided block with its one successor.
    fn run(body: &str, roots: &[&str]) -> (Vec<String>, Vec<(String, String)>) {
        let src = format!("define void @f(i8 %x) {{\n{body}}}\n");
        let mut m = Module::parse(src).map_err(|e| e.0).expect("parses");
        let f = m.parse_function(0).expect("function");
        let name = |b: Block| f.blocks[b].name.as_deref().unwrap_or("?").to_string();
        let by_name = |n: &str| f.layout.iter().copied().find(|&b| name(b) == n).expect("block");
        let roots: Vec<Block> = roots.iter().map(|n| by_name(n)).collect();
        let ex = Executable::compute(&f, &m.types, &m.src, &roots);
        let runs = f.layout.iter().copied().filter(|&b| ex.runs(b)).map(name).collect();
        let decided = ex.decided_branches(&f).into_iter().map(|(b, to)| (name(b), name(to))).collect();
        (runs, decided)
    }

    const CLEANUP_DEST: &str = "entry:\n  br label %join\nresumed:\n  br label %join\ndestroyed:\n  br label %join\njoin:\n  %d = phi i32 [ 0, %resumed ], [ 2, %destroyed ], [ 0, %entry ]\n  switch i32 %d, label %cleanup [ i32 0, label %body ]\nbody:\n  br label %cleanup\ncleanup:\n  ret void\n";

    #[test]
    fn a_destroy_edge_decides_its_cleanup_destination() {
        let (runs, decided) = run(CLEANUP_DEST, &["destroyed"]);
        assert_eq!(runs, ["destroyed", "join", "cleanup"]);
        assert_eq!(decided, [("join".to_string(), "cleanup".to_string())]);
    }

    #[test]
    fn two_constants_along_edges_that_run_decide_nothing() {
        let (runs, decided) = run(CLEANUP_DEST, &["resumed", "destroyed"]);
        assert_eq!(runs, ["resumed", "destroyed", "join", "body", "cleanup"]);
        assert!(decided.is_empty(), "{decided:?}");
        // From the entry alone the phi is 0: the resume side.
        let (runs, decided) = run(CLEANUP_DEST, &["entry"]);
        assert_eq!(runs, ["entry", "join", "body", "cleanup"]);
        assert_eq!(decided, [("join".to_string(), "body".to_string())]);
    }

    #[test]
    fn constants_compare_by_their_bits_in_the_type() {
        let body = "entry:\n  br label %j\nj:\n  %d = phi i8 [ -1, %entry ]\n  switch i8 %d, label %other [ i8 255, label %hit ]\nhit:\n  ret void\nother:\n  ret void\n";
        let (runs, _) = run(body, &["entry"]);
        assert_eq!(runs, ["entry", "j", "hit"]);
        let body = "entry:\n  br i1 true, label %a, label %b\na:\n  ret void\nb:\n  ret void\n";
        let (runs, decided) = run(body, &["entry"]);
        assert_eq!(runs, ["entry", "a"]);
        assert_eq!(decided, [("entry".to_string(), "a".to_string())]);
    }

    #[test]
    fn a_loop_back_edge_with_another_value_undecides_the_header() {
        // The header's phi is 0 on entry and 1 once the latch runs: both sides run.
        let body = "entry:\n  br label %h\nh:\n  %k = phi i32 [ 0, %entry ], [ 1, %latch ]\n  switch i32 %k, label %out [ i32 0, label %latch ]\nlatch:\n  br label %h\nout:\n  ret void\n";
        let (runs, decided) = run(body, &["entry"]);
        assert_eq!(runs, ["entry", "h", "latch", "out"]);
        assert!(decided.is_empty(), "{decided:?}");
    }

    #[test]
    fn unknown_conditions_and_root_phis_take_every_edge() {
        // `%x` is a parameter; the root's phi is entered by an edge the function does not show.
        let body = "entry:\n  br label %r\nr:\n  %p = phi i8 [ 1, %entry ]\n  switch i8 %p, label %a [ i8 1, label %b ]\na:\n  switch i8 %x, label %c [ i8 0, label %b ]\nb:\n  ret void\nc:\n  ret void\n";
        let (runs, decided) = run(body, &["r"]);
        assert_eq!(runs, ["r", "a", "b", "c"]);
        assert!(decided.is_empty(), "{decided:?}");
    }
}
