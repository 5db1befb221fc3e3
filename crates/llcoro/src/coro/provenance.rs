//! Where a coroutine's handle goes, for heap elision of C++ coroutines whose handle lives in a task
//! object: a small symbolic interpreter over the paths of the module's functions.
//!
//! Three questions, all answered by running code on abstract values (the frame, null, pointers into
//! objects the interpreter made, integers, or unknown) and following calls into functions defined
//! in the module:
//! - **Ramp.** Does every path of the ramp up to its return leave the frame pointer in the return
//!   value, or in the `sret` object at a fixed offset, without letting the `sret` pointer escape?
//!   (`get_return_object` → `from_promise` → `coro.promise(.., from = true)` is how C++ does it.)
//!   Or return the promise pointer itself (a task that keeps `this` of its promise)?
//! - **Method.** Given the frame in a cell of an object, what does a call with a pointer to that
//!   object do: leave the cell alone, or destroy the frame on every path?
//! - **Caller.** Does a function that makes the coroutine once destroy it on every path out,
//!   through whatever copies, rebuilt handles and comparisons it takes there? Here the interpreter
//!   trusts only the caller's own memory: a pointer stored anywhere else, or given to the ramp or
//!   to code it does not follow, is lost, and the promise's cells are forgotten whenever coroutine
//!   code may have run (a resume, a destroy, or unknown code once the frame got out).
//!
//! A path that comes back to a loop header in the state of an earlier arrival (the same phi values
//! and memory) is done: it goes where that one went. Anything the interpreter cannot follow (a loop
//! whose state keeps changing, a loop with two entries, an unknown callee that gets a tracked
//! pointer, too many paths) makes the answer "don't know", and nothing is elided.

use crate::coro::intrinsics::{Intr, intr_of};
use llir::Module;
use llir::ir::{Block, Extra, Function, Inst, Opcode, Value, ValueKind};
use llir::layout::DataLayout;
use llir::lexer::Tok;
use llir::module::ItemKind;
use llir::types::{Type, TypeTable};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Every defined function's name and item, for `Prover::new`.
pub fn names(m: &Module) -> FxHashMap<&str, usize> {
    m.definitions().map(|i| (m.item_name(i), i)).collect()
}

/// How far the interpreter goes before it gives up.
const MAX_DEPTH: u32 = 8;
const MAX_STEPS: u32 = 20_000;
const MAX_PATHS: u32 = 256;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Sym {
    Frame,
    Null,
    /// A pointer `off` bytes into object `obj`.
    Ptr(u32, i64),
    Int(i128),
    Unknown,
}

/// Where the ramp leaves the frame pointer for its caller.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandleOut {
    /// In the return value.
    Returned,
    /// In the object its parameter `param` (an `sret` pointer) points to, `off` bytes in.
    InSret { param: usize, off: i64 },
    /// The return value is the frame's promise pointer (a task object that keeps `this` of the
    /// promise, from which `from_promise` gets the handle back).
    PromiseReturned,
}

/// What a call does to a frame kept in a cell of an object it gets a pointer to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    Keeps,
    Destroys,
    Unknown,
}

#[derive(Clone, Default)]
struct State {
    mem: FxHashMap<(u32, i64), Sym>,
    /// Objects whose cells are no longer known (an unknown call got a pointer to them).
    clobbered: Vec<u32>,
    destroyed: bool,
    escaped: bool,
    /// `caller` proofs: the frame or its promise pointer went where code the interpreter does not
    /// follow can find it, so such code may resume the coroutine and change the promise.
    frame_out: bool,
    /// `caller` proofs: the ramp has been called on this path.
    made: bool,
}

/// A path being followed.
#[derive(Clone)]
struct Path {
    block: Block,
    /// The block it came from.
    pred: Option<Block>,
    /// The values and memory so far.
    vals: FxHashMap<Value, Sym>,
    st: State,
    /// The blocks it went through.
    blocks: Vec<Block>,
    /// Its arrivals at loop headers.
    visits: Vec<Visit>,
}

impl Path {
    /// The path at `f`'s entry, with the values the caller fixed beforehand (`pre`) and the
    /// arguments.
    fn start(f: &Function, args: &[Sym], pre: &FxHashMap<Value, Sym>, st: State) -> Option<Path> {
        let entry = f.entry()?;
        let mut vals = pre.clone();
        for (k, &p) in f.params.iter().enumerate() {
            vals.insert(p, args.get(k).copied().unwrap_or(Sym::Unknown));
        }
        Some(Path { block: entry, pred: None, vals, st, blocks: vec![entry], visits: Vec::new() })
    }

    /// Goes on to each of `next`: the last takes this path's state; only the others need copies.
    fn fork(self, next: &[Block], work: &mut Vec<Path>) {
        let Some((&last, others)) = next.split_last() else { return };
        let from = self.block;
        for &s in others {
            work.push(self.clone().enter(from, s));
        }
        work.push(self.enter(from, last));
    }

    fn enter(mut self, from: Block, to: Block) -> Path {
        self.blocks.push(to);
        self.block = to;
        self.pred = Some(from);
        self
    }
}

/// A path's arrival at a loop header: the objects made before it (ids up to `made`), its phis'
/// values, and the memory.
#[derive(Clone)]
struct Visit {
    block: Block,
    made: u32,
    phis: Vec<(Value, Sym)>,
    state: State,
}

/// `State::older`: cells and clobbered objects in order, destroyed, escaped, frame_out.
type Older = (Vec<((u32, i64), Sym)>, Vec<u32>, bool, bool, bool, bool);

/// How many times a path may arrive at one loop header in states that differ.
const MAX_TURNS: usize = 4;

impl State {
    /// Marks object `o` as no longer known (once: states are copied at every fork).
    fn clobber(&mut self, o: u32) {
        if !self.clobbered.contains(&o) {
            self.clobbered.push(o);
        }
    }

    /// `v` went where a `caller` proof does not look: an object it points to is lost, and the
    /// frame or its promise (object `fp`) got out.
    fn lose(&mut self, v: Sym, fp: u32) {
        match v {
            Sym::Ptr(o, _) if o == fp => self.frame_out = true,
            Sym::Ptr(o, _) => self.clobber(o),
            Sym::Frame => self.frame_out = true,
            _ => {}
        }
    }

    /// Forgets the cells of the frame's promise (object `fp`): coroutine code may have run.
    fn forget(&mut self, fp: u32) {
        self.mem.retain(|&(o, _), _| o != fp);
    }

    /// The memory of objects `made` or older, in a fixed order, for comparing the states of two
    /// arrivals at a loop header: objects made since the first arrival are reachable only through
    /// values the loop makes again before using them, or through phis and older memory, which are
    /// compared as they are.
    fn older(&self, made: u32) -> Older {
        let mut mem: Vec<((u32, i64), Sym)> =
            self.mem.iter().filter(|((o, _), _)| *o <= made).map(|(k, v)| (*k, *v)).collect();
        mem.sort_unstable_by_key(|&(k, _)| k);
        let mut clobbered: Vec<u32> = self.clobbered.iter().copied().filter(|&o| o <= made).collect();
        clobbered.sort_unstable();
        clobbered.dedup();
        (mem, clobbered, self.destroyed, self.escaped, self.frame_out, self.made)
    }
}

/// The loop headers of `f` (targets of edges from blocks they dominate), or None when `f` has a
/// loop with more than one entry: there an arrival's phis and memory need not decide what follows.
fn loop_headers(f: &Function) -> Option<FxHashSet<Block>> {
    let cfg = llir::analysis::cfg::Cfg::compute(f);
    let dom = llir::analysis::dom::DomTree::compute(f, &cfg);
    let mut headers = FxHashSet::default();
    // An edge back in the depth-first order closes a cycle; with one entry per loop its target
    // dominates its source.
    for &b in &cfg.rpo {
        for &s in f.successors(b) {
            if cfg.rpo_index[s] <= cfg.rpo_index[b] {
                if !dom.dominates(s, b) {
                    return None;
                }
                headers.insert(s);
            }
        }
    }
    Some(headers)
}

/// What one path of a call came back with.
struct Exit {
    state: State,
    ret: Sym,
    /// Left by `resume`: an exception on its way out.
    unwinding: bool,
}

/// The callees proofs have read, parsed once per worker: thousands of coroutines share the same
/// few promise and awaiter methods. Only valid with the type table it was filled with.
#[derive(Default)]
pub struct Parsed {
    bodies: FxHashMap<usize, Option<Rc<Function>>>,
    /// Read on first use (`Prover::has_fn_attr`).
    headers: Option<Headers>,
    /// Module functions whose text has a `ret` (`Prover::never_returns`).
    returns: FxHashMap<usize, bool>,
    /// `Prover::effect` answers by callee item, argument, argument count and cell: every caller
    /// that awaits the same task type asks about the same methods.
    effects: FxHashMap<(usize, usize, usize, i64), Effect>,
    /// `Prover::destroy_count` answers by function item.
    destroy_counts: FxHashMap<usize, Option<u32>>,
}

/// The module's declarations and attribute groups by name, for what a callee's attributes say.
struct Headers {
    declared: FxHashMap<Box<str>, usize>,
    groups: FxHashMap<Box<str>, usize>,
    /// Answers given, by function item and attribute: every call a caller makes asks.
    said: FxHashMap<(usize, &'static str), bool>,
}

/// C library functions LLVM's library-call inference marks `nounwind` (BuildLibCalls), when the
/// module only declares them: clang's own declarations of them often do not say so.
const LIBC_NOUNWIND: [&str; 16] = [
    "@printf",
    "@fprintf",
    "@sprintf",
    "@snprintf",
    "@vprintf",
    "@vfprintf",
    "@puts",
    "@putchar",
    "@fputs",
    "@fputc",
    "@putc",
    "@fwrite",
    "@fflush",
    "@strlen",
    "@strcmp",
    "@memcmp",
];

pub struct Prover<'a> {
    m: &'a Module,
    dl: &'a DataLayout,
    by_name: &'a FxHashMap<&'a str, usize>,
    parsed: &'a mut Parsed,
    next_obj: u32,
    steps: u32,
    /// The object whose pointer must not escape (the ramp's `sret` object).
    watched: Option<u32>,
    /// A ramp whose calls are not followed but give the frame where its `HandleOut` says
    /// (`wrapper`).
    made_by: Option<(String, HandleOut)>,
    /// Objects that are allocas: memory a store to a global's own address cannot touch.
    locals: FxHashSet<u32>,
    /// The `sret` objects `effect` gives a method (`effect_of`): the method's own result, which no
    /// pointer of the caller's reaches.
    results: FxHashSet<u32>,
    /// The object standing for the tracked frame's promise: `coro.promise` of the frame, and the
    /// promise alloca of a ramp being followed.
    fp: u32,
    /// A `caller` proof is running: pointers stored where unknown code can find them, or given
    /// to the ramp, are lost, and resuming the coroutine forgets its promise's cells.
    caller: bool,
    /// A `ramp` proof is running: the `coro.begin` of the function under proof is the frame.
    in_ramp: bool,
}

impl<'a> Prover<'a> {
    /// `by_name` maps each defined function's name to its item (`names`).
    /// `parsed` must have been filled with the same type table as every later call's `types`.
    pub fn new(
        m: &'a Module,
        dl: &'a DataLayout,
        by_name: &'a FxHashMap<&'a str, usize>,
        parsed: &'a mut Parsed,
    ) -> Prover<'a> {
        Prover {
            m,
            dl,
            by_name,
            parsed,
            next_obj: 1,
            steps: 0,
            watched: None,
            made_by: None,
            locals: FxHashSet::default(),
            results: FxHashSet::default(),
            fp: 1,
            caller: false,
            in_ramp: false,
        }
    }

    pub fn layout(&self) -> &'a DataLayout {
        self.dl
    }

    /// The module's declarations and attribute groups, read on first use.
    fn headers(&mut self) -> &mut Headers {
        let m = self.m;
        self.parsed.headers.get_or_insert_with(|| {
            let named = |k: ItemKind| {
                m.items.iter().enumerate().filter(move |(_, it)| it.kind == k).map(|(i, _)| (m.item_name(i).into(), i))
            };
            Headers {
                declared: named(ItemKind::Declare).collect(),
                groups: named(ItemKind::AttrGroup).collect(),
                said: FxHashMap::default(),
            }
        })
    }

    /// When the module declares `llvm.lifetime.start.p0` and `.end.p0` (clang does at -O1 and
    /// above), whether they take the size first (LLVM 21 and earlier) or only the pointer.
    pub fn lifetime_takes_size(&mut self) -> Option<bool> {
        let m = self.m;
        let h = self.headers();
        let start = *h.declared.get("@llvm.lifetime.start.p0")?;
        h.declared.get("@llvm.lifetime.end.p0")?;
        Some(m.item_text(start).contains("(i64"))
    }

    /// Does function `name` (defined or declared in the module) carry attribute `attr` in its
    /// header, spelled out or through one of its attribute groups?
    fn has_fn_attr(&mut self, name: &str, attr: &'static str) -> bool {
        let (m, by_name) = (self.m, self.by_name);
        let h = self.headers();
        let Some(&i) = by_name.get(name).or_else(|| h.declared.get(name)) else { return false };
        if let Some(&b) = h.said.get(&(i, attr)) {
            return b;
        }
        let head = m.item_head(i);
        let words = |t: &'a str| t.split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '{' | '}'));
        let b = words(head)
            .any(|w| w == attr || h.groups.get(w).is_some_and(|&g| words(m.item_text(g)).any(|x| x == attr)));
        h.said.insert((i, attr), b);
        b
    }

    /// Does a call of `name` never come back (it may still unwind)? Said by `noreturn`, or by a
    /// module function with no `ret`. Its tokens are read, not parsed: callers call many functions,
    /// and a parsed body kept for each one of them costs more than the answer.
    pub fn never_returns(&mut self, name: &str) -> bool {
        if self.has_fn_attr(name, "noreturn") {
            return true;
        }
        let Some(&i) = self.by_name.get(name) else { return false };
        let m = self.m;
        !*self.parsed.returns.entry(i).or_insert_with(|| {
            let span = m.items[i].span;
            let mut lx = llir::lexer::Lexer::new(&m.src, span.start as usize, span.end as usize);
            loop {
                let tk = lx.next_token();
                match tk.kind {
                    Tok::Eof => break false,
                    // `ret` is no other word of a function; a block named so is a `Label`.
                    Tok::Ident if &m.src[tk.start as usize..tk.end as usize] == "ret" => break true,
                    _ => {}
                }
            }
        })
    }

    /// Does the module define `name`?
    pub fn defines(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Can a call of `name` not throw? Said by `nounwind`, or a C library function the module only
    /// declares.
    pub fn cannot_unwind(&mut self, name: &str) -> bool {
        self.has_fn_attr(name, "nounwind") || (!self.by_name.contains_key(name) && LIBC_NOUNWIND.contains(&name))
    }

    /// Does module function `name` only pass its work on to one of `targets` (functions the module
    /// does not define), with nothing else a program could see? Its own allocas, loads, stores into
    /// its allocas, debug and lifetime intrinsics, one call of a target, and returns of that call's
    /// result (a class's `operator new` calling the global one with an alignment, say).
    pub fn forwards_to(&mut self, name: &str, targets: &[&str], types: &mut TypeTable) -> bool {
        let Some(g) = self.function(name, types) else { return false };
        let src = self.m.src.as_str();
        let mut call: Option<Option<Value>> = None;
        for (_, i) in g.inst_iter() {
            let d = &g.insts[i];
            let ok = match d.op {
                Opcode::Alloca | Opcode::Load | Opcode::Ret => true,
                Opcode::Store => {
                    d.args.get(1).and_then(|&p| g.value_inst(p)).is_some_and(|a| g.insts[a].op == Opcode::Alloca)
                }
                Opcode::Call => match g.callee_name(i, src) {
                    Some(n) if n.starts_with("@llvm.dbg.") || n.starts_with("@llvm.lifetime.") => true,
                    Some(n) if call.is_none() && targets.contains(&n) && !self.by_name.contains_key(n) => {
                        call = Some(d.result);
                        true
                    }
                    _ => false,
                },
                _ => d.is_debug(),
            };
            if !ok {
                return false;
            }
        }
        let Some(result) = call else { return false };
        g.inst_iter()
            .filter(|&(_, i)| g.insts[i].op == Opcode::Ret)
            .all(|(_, i)| g.insts[i].args.first().is_none_or(|&v| Some(v) == result))
    }

    /// Does a call of module function `name` do nothing a program could see but destroy one
    /// coroutine, once (`effects::destroys_and_calls`, through the module functions it calls)? A
    /// task's destructor testing its handle and destroying it. Which coroutine is `effect`'s
    /// question.
    pub fn only_destroys_once(&mut self, name: &str, types: &mut TypeTable) -> bool {
        self.destroy_count(name, types, 0) == Some(1)
    }

    /// How many coroutines a call of `name` destroys when it does nothing else; `None` when it
    /// may do something else, or its definition is one the linker may replace with another.
    fn destroy_count(&mut self, name: &str, types: &mut TypeTable, depth: u32) -> Option<u32> {
        const DEPTH: u32 = 8;
        let &i = self.by_name.get(name)?;
        if let Some(&n) = self.parsed.destroy_counts.get(&i) {
            return n;
        }
        if depth > DEPTH || self.m.definition_replaceable(i) {
            return None;
        }
        // A call back into a function being counted is recursion: no answer.
        self.parsed.destroy_counts.insert(i, None);
        let g = self.function(name, types)?;
        let src = self.m.src.as_str();
        let n = crate::coro::effects::destroys_and_calls(&g, src).and_then(|(calls, mut n)| {
            let calls: Vec<String> = calls.into_iter().map(str::to_string).collect();
            for c in calls {
                n += self.destroy_count(&c, types, depth + 1)?;
            }
            Some(n)
        });
        self.parsed.destroy_counts.insert(i, n);
        n
    }

    fn function(&mut self, name: &str, types: &mut TypeTable) -> Option<Rc<Function>> {
        let &i = self.by_name.get(name)?;
        if let Some(f) = self.parsed.bodies.get(&i) {
            return f.clone();
        }
        let f = self.m.parse_function_with(i, types).ok().map(Rc::new);
        self.parsed.bodies.insert(i, f.clone());
        f
    }

    /// Where ramp `f` (presplit, with promise alloca `promise`) leaves its frame pointer.
    pub fn ramp(&mut self, f: &Function, promise: Option<Value>, types: &mut TypeTable) -> Option<HandleOut> {
        let src = self.m.src.as_str();
        let promise_obj = self.fresh();
        self.fp = promise_obj;
        let sret: Option<usize> =
            (0..f.header.params.len()).find(|&k| f.header.params[k].attrs.get(src).contains("sret"));
        let mut args = vec![Sym::Unknown; f.params.len()];
        let sret_obj = sret.map(|k| {
            let o = self.fresh();
            args[k] = Sym::Ptr(o, 0);
            o
        });
        self.watched = sret_obj;
        self.steps = 0;
        let mut pre: FxHashMap<Value, Sym> = FxHashMap::default();
        if let Some(p) = promise {
            pre.insert(p, Sym::Ptr(promise_obj, 0));
        }
        if let Some(k) = sret
            && !used_only_before_suspends(f, f.params[k], src)
        {
            return None;
        }
        self.in_ramp = true;
        let exits = self.run(f, &args, State::default(), 0, types, &pre);
        self.in_ramp = false;
        let mut exits = exits?;
        self.watched = None;
        if exits.iter().any(|e| e.state.escaped) {
            return None;
        }
        // A ramp that throws gives its caller no task object (the caller unwinds instead).
        exits.retain(|e| !e.unwinding);
        if exits.is_empty() {
            return None;
        }
        if exits.iter().all(|e| e.ret == Sym::Frame) {
            return Some(HandleOut::Returned);
        }
        if exits.iter().all(|e| e.ret == Sym::Ptr(promise_obj, 0)) {
            return Some(HandleOut::PromiseReturned);
        }
        let (k, o) = (sret?, sret_obj?);
        // The one cell of the sret object holding the frame on every path.
        let first = &exits[0].state;
        let off = first.mem.iter().find(|&(&(ob, _), &v)| ob == o && v == Sym::Frame).map(|(&(_, off), _)| off)?;
        exits
            .iter()
            .all(|e| !e.state.clobbered.contains(&o) && e.state.mem.get(&(o, off)) == Some(&Sym::Frame))
            .then_some(HandleOut::InSret { param: k, off })
    }

    /// Where `g`, which is no coroutine, leaves for its caller the frame of the coroutine it makes by
    /// calling `ramp` (which leaves it as `out` says): what `ramp` answers for a ramp.
    pub fn wrapper(&mut self, g: &Function, ramp: &str, out: HandleOut, types: &mut TypeTable) -> Option<HandleOut> {
        self.made_by = Some((ramp.to_string(), out));
        let r = self.ramp(g, None, types);
        self.made_by = None;
        r
    }

    /// What calling `callee` with `args` (one of which points at an object whose cell `cell` holds
    /// the frame) does to that frame.
    pub fn effect(&mut self, callee: &str, arg: usize, nargs: usize, cell: i64, types: &mut TypeTable) -> Effect {
        // The answer depends on the module alone unless a proof of another kind is running.
        let key = self.by_name.get(callee).map(|&i| (i, arg, nargs, cell));
        let plain = self.made_by.is_none() && !self.caller && !self.in_ramp;
        if plain && let Some(e) = key.and_then(|k| self.parsed.effects.get(&k)) {
            return *e;
        }
        let e = self.effect_of(callee, arg, nargs, cell, types);
        if plain && let Some(k) = key {
            self.parsed.effects.insert(k, e);
        }
        e
    }

    fn effect_of(&mut self, callee: &str, arg: usize, nargs: usize, cell: i64, types: &mut TypeTable) -> Effect {
        let Some(g) = self.function(callee, types) else { return Effect::Unknown };
        self.fp = self.fresh();
        let obj = self.fresh();
        let mut args = vec![Sym::Unknown; nargs.max(g.params.len())];
        // An `sret` pointer is a fresh object the callee returns its value in (`noalias`: the
        // caller's object cannot be reached through it), so writing the result there (a method
        // returning a `std::optional` copied out of the promise) keeps what is tracked.
        let src = self.m.src.as_str();
        for (k, p) in g.header.params.iter().enumerate() {
            if k != arg
                && p.attrs.get(src).contains("sret")
                && let Some(a) = args.get_mut(k)
            {
                let o = self.fresh();
                self.results.insert(o);
                *a = Sym::Ptr(o, 0);
            }
        }
        if let Some(a) = args.get_mut(arg) {
            *a = Sym::Ptr(obj, 0);
        }
        let mut st = State::default();
        st.mem.insert((obj, cell), Sym::Frame);
        self.steps = 0;
        let Some(exits) = self.run(&g, &args, st, 0, types, &FxHashMap::default()) else {
            return Effect::Unknown;
        };
        if exits.is_empty() {
            return Effect::Unknown;
        }
        if exits.iter().all(|e| e.state.destroyed) {
            return Effect::Destroys;
        }
        let kept = |e: &Exit| {
            !e.state.destroyed
                && !e.state.clobbered.contains(&obj)
                && e.state.mem.get(&(obj, cell)) == Some(&Sym::Frame)
        };
        if exits.iter().all(kept) { Effect::Keeps } else { Effect::Unknown }
    }

    /// Does `g`, no coroutine, destroy on every path out of it the coroutine it makes by calling
    /// `ramp` (which leaves the frame as `out` says)? Paths that never call the ramp make nothing
    /// to destroy. For callers whose destroy the task-object check (`elide`) cannot see: through a
    /// handle rebuilt from the promise pointer, a copy of the handle, or a comparison of the two.
    /// The caller must call the ramp once, outside any loop.
    pub fn destroys_made(&mut self, g: &Function, ramp: &str, out: HandleOut, types: &mut TypeTable) -> bool {
        self.made_by = Some((ramp.to_string(), out));
        self.caller = true;
        self.watched = None;
        self.steps = 0;
        self.fp = self.fresh();
        let args = vec![Sym::Unknown; g.params.len()];
        let exits = self.run(g, &args, State::default(), 0, types, &FxHashMap::default());
        self.made_by = None;
        self.caller = false;
        exits.is_some_and(|exits| {
            exits.iter().any(|e| e.state.made) && exits.iter().all(|e| e.state.destroyed || !e.state.made)
        })
    }

    /// Is `p` a place in the caller's own memory, which a `caller` proof follows: an alloca no
    /// unknown code has the address of?
    fn own_cell(&self, st: &State, p: Sym) -> bool {
        matches!(p, Sym::Ptr(ob, _) if self.locals.contains(&ob) && ob != self.fp && !st.clobbered.contains(&ob))
    }

    fn fresh(&mut self) -> u32 {
        self.next_obj += 1;
        self.next_obj
    }

    /// Runs `f` from its entry on every path (forking at unknown branches); `None` when it cannot.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        f: &Function,
        args: &[Sym],
        st: State,
        depth: u32,
        types: &mut TypeTable,
        pre: &FxHashMap<Value, Sym>,
    ) -> Option<Vec<Exit>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let start = Path::start(f, args, pre, st)?;
        // Loops are followed once the first one is met (the run starts again, knowing the headers):
        // a path arriving at a header in the state of an earlier arrival goes where that one went.
        let mut headers: Option<FxHashSet<Block>> = None;
        let mut exits = Vec::new();
        let mut paths = 0u32;
        let mut work = vec![start.clone()];
        while let Some(mut path) = work.pop() {
            paths += 1;
            if paths > MAX_PATHS {
                return None;
            }
            let phis = self.phi_values(f, &path);
            if headers.as_ref().is_some_and(|h| h.contains(&path.block)) && self.arrived_before(&mut path, &phis)? {
                continue;
            }
            path.vals.extend(phis);
            let next = self.block(f, &mut path, &mut exits, depth, types, pre)?;
            if headers.is_none() && next.iter().any(|s| path.blocks.contains(s)) {
                // The first loop: start again, recording arrivals at the headers.
                headers = Some(loop_headers(f)?);
                exits.clear();
                work.clear();
                work.push(start.clone());
                continue;
            }
            path.fork(&next, &mut work);
        }
        Some(exits)
    }

    /// What the phis of the path's block take along the edge it came by, read all at once.
    fn phi_values(&self, f: &Function, path: &Path) -> Vec<(Value, Sym)> {
        let src = self.m.src.as_str();
        f.blocks[path.block]
            .insts
            .iter()
            .filter(|&&i| f.insts[i].op == Opcode::Phi)
            .filter_map(|&i| {
                let d = &f.insts[i];
                let k = d.blocks.iter().position(|&x| Some(x) == path.pred)?;
                Some((d.result?, self.val(f, &path.vals, *d.args.get(k)?, src)))
            })
            .collect()
    }

    /// A path at a loop header with phis `phis`: true when an earlier arrival in the same state
    /// (phis, and the memory of the objects made before the first arrival) went on from here, so
    /// this path is done; else the arrival is recorded. `None` after `MAX_TURNS` arrivals that
    /// differ.
    fn arrived_before(&self, path: &mut Path, phis: &[(Value, Sym)]) -> Option<bool> {
        let earlier: Vec<&Visit> = path.visits.iter().filter(|v| v.block == path.block).collect();
        if let Some(first) = earlier.first() {
            let now = path.st.older(first.made);
            if earlier.iter().any(|v| v.phis == phis && v.state.older(first.made) == now) {
                return Some(true);
            }
            if earlier.len() >= MAX_TURNS {
                return None;
            }
        }
        let visit = Visit { block: path.block, made: self.next_obj, phis: phis.to_vec(), state: path.st.clone() };
        path.visits.push(visit);
        Some(false)
    }

    /// Follows the path through its block (its phis already read), adding where it leaves `f` to
    /// `exits`; the successors it may go on to. `None` when a limit is reached.
    fn block(
        &mut self,
        f: &Function,
        path: &mut Path,
        exits: &mut Vec<Exit>,
        depth: u32,
        types: &mut TypeTable,
        pre: &FxHashMap<Value, Sym>,
    ) -> Option<Vec<Block>> {
        let src = self.m.src.as_str();
        let mut next: Vec<Block> = Vec::new();
        for &i in &f.blocks[path.block].insts {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return None;
            }
            let d = &f.insts[i];
            match d.op {
                Opcode::Phi => {}
                Opcode::Ret => {
                    let ret = d.args.first().map_or(Sym::Unknown, |&v| self.val(f, &path.vals, v, src));
                    exits.push(Exit { state: path.st.clone(), ret, unwinding: false });
                }
                Opcode::Resume => exits.push(Exit { state: path.st.clone(), ret: Sym::Unknown, unwinding: true }),
                Opcode::Unreachable => {}
                Opcode::Br | Opcode::Switch => next.extend_from_slice(self.branch_targets(f, i, &path.vals)),
                Opcode::Call | Opcode::Invoke => {
                    let r = self.call(f, i, &mut path.vals, &mut path.st, depth, types)?;
                    if let Some(res) = d.result {
                        path.vals.insert(res, r);
                    }
                    if d.op == Opcode::Invoke {
                        // Both ways out: what a landing pad does counts too.
                        next.extend(d.blocks.iter().copied());
                    }
                }
                _ => {
                    let r = self.step(f, i, &path.vals, &mut path.st, types, src)?;
                    // What the caller fixed beforehand (the promise alloca) stays.
                    if let Some(res) = d.result
                        && !pre.contains_key(&res)
                    {
                        path.vals.insert(res, r);
                    }
                }
            }
        }
        Some(next)
    }

    /// Where branch `i` goes: the successor a known condition picks (for a switch, the case's
    /// position among the operands is its block's), otherwise every one, each a path.
    fn branch_targets<'f>(&self, f: &'f Function, i: Inst, vals: &FxHashMap<Value, Sym>) -> &'f [Block] {
        let src = self.m.src.as_str();
        let d = &f.insts[i];
        let cond = d.args.first().map_or(Sym::Unknown, |&v| self.val(f, vals, v, src));
        let pick = match (d.op, cond) {
            (Opcode::Br, _) if d.args.is_empty() => Some(0),
            (Opcode::Br, Sym::Int(c)) => Some(if c != 0 { 0 } else { 1 }),
            (Opcode::Switch, Sym::Int(c)) => {
                Some((1..d.args.len()).find(|&k| f.const_int(d.args[k], src) == Some(c)).unwrap_or(0))
            }
            _ => None,
        };
        match pick.and_then(|k| d.blocks.get(k)) {
            Some(t) => std::slice::from_ref(t),
            None => &d.blocks,
        }
    }

    fn val(&self, f: &Function, vals: &FxHashMap<Value, Sym>, v: Value, src: &str) -> Sym {
        if let Some(&s) = vals.get(&v) {
            return s;
        }
        match f.values[v].kind {
            ValueKind::Const(_) | ValueKind::BlockConst(_) => match f.const_text(v, src) {
                Some("null") => Sym::Null,
                _ => f.const_int(v, src).map_or(Sym::Unknown, Sym::Int),
            },
            _ => Sym::Unknown,
        }
    }

    /// Non-call instructions.
    fn step(
        &mut self,
        f: &Function,
        i: Inst,
        vals: &FxHashMap<Value, Sym>,
        st: &mut State,
        types: &TypeTable,
        src: &str,
    ) -> Option<Sym> {
        let d = &f.insts[i];
        let a = |k: usize| d.args.get(k).map_or(Sym::Unknown, |&v| self.val(f, vals, v, src));
        Some(match d.op {
            Opcode::Alloca => {
                let o = self.fresh();
                self.locals.insert(o);
                Sym::Ptr(o, 0)
            }
            Opcode::Load => match a(0) {
                Sym::Ptr(o, off) if !st.clobbered.contains(&o) => {
                    st.mem.get(&(o, off)).copied().unwrap_or(Sym::Unknown)
                }
                _ => Sym::Unknown,
            },
            Opcode::Store => {
                self.store(f, i, (a(0), a(1)), st, types, src);
                Sym::Unknown
            }
            Opcode::GetElementPtr => match a(0) {
                Sym::Ptr(o, off) => {
                    let Extra::Gep { source } = d.extra else { return Some(Sym::Unknown) };
                    match self.gep_offset(f, i, source, types, vals, src) {
                        Some(x) => Sym::Ptr(o, off + x),
                        None => Sym::Unknown,
                    }
                }
                Sym::Frame => Sym::Unknown,
                _ => Sym::Unknown,
            },
            Opcode::BitCast | Opcode::AddrSpaceCast => a(0),
            Opcode::ICmp => {
                let Extra::Cmp { pred } = &d.extra else { return Some(Sym::Unknown) };
                compare(pred.as_str(), a(0), a(1))
            }
            Opcode::Xor => match (a(0), a(1)) {
                (Sym::Int(p), Sym::Int(q)) => Sym::Int((p ^ q) & 1),
                _ => Sym::Unknown,
            },
            Opcode::ZExt | Opcode::Trunc => match a(0) {
                Sym::Int(p) => Sym::Int(p & 1),
                _ => Sym::Unknown,
            },
            Opcode::Select => match a(0) {
                Sym::Int(c) => a(if c != 0 { 1 } else { 2 }),
                _ => Sym::Unknown,
            },
            Opcode::ExtractValue | Opcode::InsertValue => Sym::Unknown,
            // `#dbg_*` records describe values; they do nothing with them.
            Opcode::DbgRecord => Sym::Unknown,
            _ => {
                self.opaque(f, i, vals, st, src);
                Sym::Unknown
            }
        })
    }

    /// Store `i` of value `v` at `p` (its operands' symbols).
    fn store(&self, f: &Function, i: Inst, (v, p): (Sym, Sym), st: &mut State, types: &TypeTable, src: &str) {
        let d = &f.insts[i];
        // The watched pointer may sit in an object the interpreter tracks (clang keeps the
        // sret pointer in an alloca); anywhere else it escapes.
        if let Sym::Ptr(o, _) = v
            && Some(o) == self.watched
            && !matches!(p, Sym::Ptr(..))
        {
            st.escaped = true;
        }
        // A `caller` proof follows only the caller's own memory: a pointer stored anywhere
        // else (the promise, a global, unknown memory) may be used by code it does not see.
        if self.caller && !self.own_cell(st, p) {
            st.lose(v, self.fp);
        }
        match p {
            Sym::Ptr(o, off) => {
                let size = d.args.first().map_or(8, |&x| self.dl.store_size(types, f.values[x].ty)) as i64;
                st.mem.retain(|&(ob, c), _| ob != o || c + 8 <= off || off + size <= c);
                st.mem.insert((o, off), v);
            }
            // A store to a global variable itself leaves the allocas alone; a store through
            // any other unknown pointer could hit any cell.
            _ if d.args.get(1).and_then(|&x| f.const_text(x, src)).is_some_and(is_global_name) => {
                let locals = &self.locals;
                st.mem.retain(|&(ob, _), _| locals.contains(&ob));
            }
            _ => st.mem.clear(),
        }
    }

    /// An instruction the interpreter does not model: what it gets may escape.
    fn opaque(&self, f: &Function, i: Inst, vals: &FxHashMap<Value, Sym>, st: &mut State, src: &str) {
        let args = &f.insts[i].args;
        // Anything else that gets a watched pointer lets it escape (ptrtoint, ...).
        if args.iter().any(|&x| matches!(self.val(f, vals, x, src), Sym::Ptr(o, _) if Some(o) == self.watched)) {
            st.escaped = true;
        }
        // In a `caller` proof, so does every pointer: an integer of it can come back.
        if self.caller {
            for &x in args {
                st.lose(self.val(f, vals, x, src), self.fp);
            }
        }
    }

    /// Byte offset of a GEP whose indices are all known integers.
    fn gep_offset(
        &self,
        f: &Function,
        i: Inst,
        source: Type,
        types: &TypeTable,
        vals: &FxHashMap<Value, Sym>,
        src: &str,
    ) -> Option<i64> {
        let idx: Vec<i64> = f.insts[i]
            .args
            .get(1..)?
            .iter()
            .map(|&v| match self.val(f, vals, v, src) {
                Sym::Int(c) => i64::try_from(c).ok(),
                _ => None,
            })
            .collect::<Option<_>>()?;
        self.dl.gep_offset(types, source, &idx)
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        f: &Function,
        i: Inst,
        vals: &mut FxHashMap<Value, Sym>,
        st: &mut State,
        depth: u32,
        types: &mut TypeTable,
    ) -> Option<Sym> {
        let src = self.m.src.as_str();
        let d = &f.insts[i];
        if d.is_debug() {
            return Some(Sym::Unknown);
        }
        let args: Vec<Sym> = d.call_args().iter().map(|&v| self.val(f, vals, v, src)).collect();
        if let Some((ramp, out)) = &self.made_by
            && f.callee_name(i, src) == Some(ramp.as_str())
        {
            let out = *out;
            return self.ramp_call(st, &args, out);
        }
        if let Some(r) = self.intrinsic_call(f, i, st, &args, depth) {
            return Some(r);
        }
        let name = f.callee_name(i, src).unwrap_or("");
        if name.starts_with("@llvm.lifetime") || name.starts_with("@llvm.dbg") || name.starts_with("@llvm.assume") {
            return Some(Sym::Unknown);
        }
        if !args.iter().any(|a| self.tracked(st, a)) {
            return Some(self.untracked_call(st, &args));
        }
        if name.starts_with("@llvm.memcpy") || name.starts_with("@llvm.memmove") || name.starts_with("@llvm.memset") {
            self.memory_intrinsic(f, i, name, st, &args);
            return Some(Sym::Unknown);
        }
        let Some(g) = self.function(name, types) else {
            return self.unknown_call(st, &args);
        };
        // Code too deep or too branchy to follow counts as unknown code.
        let Some(exits) = self.run(&g, &args, st.clone(), depth + 1, types, &FxHashMap::default()) else {
            return self.unknown_call(st, &args);
        };
        merge_exits(st, &exits)
    }

    /// A call of the ramp under proof: what it gives back where `out` says, having kept (in a
    /// `caller` proof) what it was given.
    fn ramp_call(&self, st: &mut State, args: &[Sym], out: HandleOut) -> Option<Sym> {
        let arg = |k: usize| args.get(k).copied().unwrap_or(Sym::Unknown);
        if self.caller {
            // Two coroutines from one call site would be one `Frame` here.
            if st.made {
                return None;
            }
            st.made = true;
            // The coroutine may keep what it was given, and write there when resumed.
            let sret = match out {
                HandleOut::InSret { param, .. } => Some(param),
                _ => None,
            };
            for (k, a) in args.iter().enumerate() {
                if let Sym::Ptr(o, _) = a
                    && Some(k) != sret
                {
                    st.clobber(*o);
                }
            }
        }
        match out {
            HandleOut::Returned => Some(Sym::Frame),
            HandleOut::PromiseReturned => Some(Sym::Ptr(self.fp, 0)),
            HandleOut::InSret { param, off } => match arg(param) {
                Sym::Ptr(o, base) if !st.clobbered.contains(&o) => {
                    st.mem.insert((o, base + off), Sym::Frame);
                    Some(Sym::Unknown)
                }
                _ => None,
            },
        }
    }

    /// A coroutine intrinsic's result and effect, or None when `i` calls none.
    fn intrinsic_call(&self, f: &Function, i: Inst, st: &mut State, args: &[Sym], depth: u32) -> Option<Sym> {
        let src = self.m.src.as_str();
        let arg = |k: usize| args.get(k).copied().unwrap_or(Sym::Unknown);
        let k = intr_of(f, i, src)?;
        let promise_dir = f.insts[i].call_args().get(2).and_then(|&v| f.const_int(v, src));
        // The promise of the frame followed is memory of its own: writing there (an awaiter
        // storing its continuation) touches no object of the caller's.
        if k == Intr::Promise && arg(0) == Sym::Frame && promise_dir == Some(0) {
            return Some(Sym::Ptr(self.fp, 0));
        }
        Some(match k {
            // The frame followed is the one the ramp under proof begins; another coroutine's
            // ramp, followed as a callee, makes some other frame.
            Intr::Begin if depth == 0 && self.in_ramp => Sym::Frame,
            Intr::Begin => Sym::Unknown,
            // In the ramp a suspend takes the default edge: back to the caller.
            Intr::Suspend => Sym::Int(-1),
            Intr::End | Intr::IsInRamp => Sym::Int(if k == Intr::End { 0 } else { 1 }),
            Intr::Promise => match (arg(0), promise_dir) {
                (Sym::Ptr(o, 0), Some(1)) if o == self.fp => Sym::Frame,
                _ => Sym::Unknown,
            },
            // Whatever runs of the coroutine may change its promise.
            Intr::Destroy => {
                if arg(0) == Sym::Frame {
                    st.destroyed = true;
                }
                st.forget(self.fp);
                Sym::Unknown
            }
            Intr::Resume => {
                st.forget(self.fp);
                Sym::Unknown
            }
            _ => Sym::Unknown,
        })
    }

    /// Does `s` point at something tracked? A method's result object holding nothing tracked is
    /// out of reach like unknown memory (a move constructor writing it from a pointer the promise
    /// held): the callee may only overwrite it.
    fn tracked(&self, st: &State, s: &Sym) -> bool {
        let holds_tracked =
            |o: u32| st.mem.iter().any(|(&(ob, _), v)| ob == o && matches!(v, Sym::Ptr(..) | Sym::Frame));
        matches!(s, Sym::Frame) || matches!(s, Sym::Ptr(o, _) if !self.results.contains(o) || holds_tracked(*o))
    }

    /// A call given nothing tracked: it may only overwrite the objects it gets.
    fn untracked_call(&self, st: &mut State, args: &[Sym]) -> Sym {
        let out: Vec<u32> = args.iter().filter_map(|a| if let Sym::Ptr(o, _) = a { Some(*o) } else { None }).collect();
        st.mem.retain(|&(ob, _), _| !out.contains(&ob));
        // It cannot reach what is tracked (nothing it gets points there); assume it returns
        // something unknown. (Globals holding tracked pointers would be escapes, caught at the
        // store.) In a `caller` proof, it may resume the coroutine if the frame got out.
        if st.frame_out {
            st.forget(self.fp);
        }
        Sym::Unknown
    }

    /// `llvm.memcpy`/`memmove`/`memset` (`name`) on tracked memory.
    fn memory_intrinsic(&self, f: &Function, i: Inst, name: &str, st: &mut State, args: &[Sym]) {
        let src = self.m.src.as_str();
        let arg = |k: usize| args.get(k).copied().unwrap_or(Sym::Unknown);
        // A copy of known size between tracked objects copies the cells; anything else
        // forgets the destination.
        let len = f.insts[i].call_args().get(2).and_then(|&v| f.const_int(v, src)).map(|n| n as i64);
        if self.caller
            && !self.own_cell(st, arg(0))
            && let Sym::Ptr(so, _) = arg(1)
        {
            // What the copy carries out of the caller's memory is out of sight.
            let carried: Vec<Sym> = st.mem.iter().filter(|&(&(ob, _), _)| ob == so).map(|(_, &v)| v).collect();
            for v in carried {
                st.lose(v, self.fp);
            }
        }
        match (arg(0), arg(1), len) {
            (Sym::Ptr(o, off), Sym::Ptr(so, soff), Some(n)) if !name.starts_with("@llvm.memset") => {
                let cells: Vec<(i64, Sym)> = st
                    .mem
                    .iter()
                    .filter(|&(&(ob, c), _)| ob == so && c >= soff && c < soff + n)
                    .map(|(&(_, c), &v)| (c - soff, v))
                    .collect();
                if st.clobbered.contains(&so) {
                    st.clobber(o);
                }
                st.mem.retain(|&(ob, c), _| ob != o || c + 8 <= off || off + n <= c);
                for (c, v) in cells {
                    st.mem.insert((o, off + c), v);
                }
            }
            (Sym::Ptr(o, off), _, Some(n)) => st.mem.retain(|&(ob, c), _| ob != o || c + 8 <= off || off + n <= c),
            (Sym::Ptr(o, _), _, _) => st.clobber(o),
            _ => st.mem.clear(),
        }
    }

    /// Unknown code with a tracked pointer: its objects are lost, the watched one escapes, and
    /// nothing is known if it gets the frame.
    fn unknown_call(&self, st: &mut State, args: &[Sym]) -> Option<Sym> {
        if self.caller {
            st.frame_out = true;
            st.forget(self.fp);
        }
        for a in args {
            if let Sym::Ptr(o, _) = a {
                st.clobber(*o);
                if Some(*o) == self.watched {
                    st.escaped = true;
                }
            }
            if *a == Sym::Frame {
                return None;
            }
        }
        Some(Sym::Unknown)
    }
}

/// `icmp pred x, y` of two symbols: known when both point into one object, or at the frame
/// and null, or are integers (then only for `eq` and `ne`).
fn compare(pred: &str, x: Sym, y: Sym) -> Sym {
    let eq = match (x, y) {
        (Sym::Frame, Sym::Null) | (Sym::Null, Sym::Frame) | (Sym::Ptr(..), Sym::Null) => Some(false),
        (Sym::Null, Sym::Null) | (Sym::Frame, Sym::Frame) => Some(true),
        // Two places in one object (the promise pointer kept in a task object against
        // `&h.promise()`).
        (Sym::Ptr(a, p), Sym::Ptr(b, q)) if a == b => Some(p == q),
        (Sym::Int(p), Sym::Int(q)) if matches!(pred, "eq" | "ne") => Some(p == q),
        _ => None,
    };
    match (eq, pred) {
        (Some(e), "eq") => Sym::Int(e as i128),
        (Some(e), "ne") => Sym::Int(!e as i128),
        _ => Sym::Unknown,
    }
}

/// Merges the paths a followed callee came back by into `st`: what all agree on; None when they
/// disagree on whether the frame was destroyed or made. A callee that never comes back
/// (`std::terminate` in `unhandled_exception`) ends this path; going on from it only adds a path
/// that cannot happen, which can make the answer less precise but not wrong.
fn merge_exits(st: &mut State, exits: &[Exit]) -> Option<Sym> {
    let Some((first, rest)) = exits.split_first() else { return Some(Sym::Unknown) };
    let mut merged = first.state.clone();
    let mut ret = first.ret;
    for e in rest {
        merged.mem.retain(|k, v| e.state.mem.get(k) == Some(v));
        for &o in &e.state.clobbered {
            merged.clobber(o);
        }
        merged.destroyed &= e.state.destroyed;
        merged.escaped |= e.state.escaped;
        merged.frame_out |= e.state.frame_out;
        if e.ret != ret {
            ret = Sym::Unknown;
        }
        if e.state.destroyed != first.state.destroyed || e.state.made != first.state.made {
            return None;
        }
    }
    *st = merged;
    Some(ret)
}

/// Are `p` and the copies of it loaded back from allocas it is stored in used only in blocks no
/// suspend leads to (so the coroutine, once suspended, cannot reach what `p` points to)?
fn used_only_before_suspends(f: &Function, p: Value, src: &str) -> bool {
    let mut after: Vec<Block> = f
        .inst_iter()
        .filter(|&(_, i)| intr_of(f, i, src) == Some(Intr::Suspend))
        .map(|(b, _)| b)
        .flat_map(|b| f.successors(b).to_vec())
        .collect();
    let mut reached: rustc_hash::FxHashSet<Block> = rustc_hash::FxHashSet::default();
    while let Some(b) = after.pop() {
        if reached.insert(b) {
            after.extend(f.successors(b).iter().copied());
        }
    }
    let mut ptrs = vec![p];
    let mut k = 0;
    while k < ptrs.len() {
        let cur = ptrs[k];
        k += 1;
        for (b, i) in f.inst_iter() {
            let d = &f.insts[i];
            if !d.args.contains(&cur) || d.is_debug() {
                continue;
            }
            if reached.contains(&b) {
                return false;
            }
            // A copy kept in an alloca: follow the loads of it.
            if d.op == Opcode::Store
                && d.args.first() == Some(&cur)
                && let Some(&slot) = d.args.get(1)
                && f.value_inst(slot).is_some_and(|s| f.insts[s].op == Opcode::Alloca)
            {
                for (_, l) in f.inst_iter() {
                    if f.insts[l].op == Opcode::Load
                        && f.insts[l].args.first() == Some(&slot)
                        && let Some(r) = f.insts[l].result
                        && !ptrs.contains(&r)
                    {
                        ptrs.push(r);
                    }
                }
            }
            if ptrs.len() > 64 {
                return false;
            }
        }
    }
    true
}

/// `@name` or `@"name"`: the address of a global itself, not an expression on it.
fn is_global_name(t: &str) -> bool {
    t.strip_prefix('@').is_some_and(|r| !r.is_empty() && !r.contains([' ', '(', ',']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_global_name_is_the_global_itself() {
        assert!(is_global_name("@live"));
        assert!(is_global_name("@_ZL4live"));
        assert!(!is_global_name("@\"a b\""));
        assert!(!is_global_name("getelementptr (i8, ptr @g, i64 8)"));
        assert!(!is_global_name("%p"));
        assert!(!is_global_name("@"));
    }

    const MODULE: &str = r#"
%task = type { ptr }
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.promise(ptr, i32, i1)
declare void @llvm.coro.destroy(ptr)
declare void @llvm.coro.resume(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare ptr @malloc(i64)
declare void @opaque(ptr)

define void @make(ptr sret(%task) %out, ptr %p) {
  %h = call ptr @llvm.coro.promise(ptr %p, i32 8, i1 true)
  %f = getelementptr %task, ptr %out, i32 0, i32 0
  store ptr %h, ptr %f
  ret void
}

define void @ramp(ptr sret(%task) %out) presplitcoroutine {
entry:
  %promise = alloca i64
  %id = call token @llvm.coro.id(i32 8, ptr %promise, ptr null, ptr null)
  %mem = call ptr @malloc(i64 32)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @make(ptr sret(%task) %out, ptr %promise)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %ret [ i8 0, label %body  i8 1, label %ret ]
body:
  br label %ret
ret:
  ret void
}

define ptr @promise_ramp() presplitcoroutine {
entry:
  %promise = alloca i64
  %id = call token @llvm.coro.id(i32 8, ptr %promise, ptr null, ptr null)
  %mem = call ptr @malloc(i64 32)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %r = call ptr @self_of(ptr %promise)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %ret [ i8 0, label %ret  i8 1, label %ret ]
ret:
  ret ptr %r
}

define ptr @self_of(ptr %this) { ret ptr %this }

define void @dtor(ptr %this) {
  %h = load ptr, ptr %this
  %live = icmp ne ptr %h, null
  br i1 %live, label %kill, label %done
kill:
  %h2 = load ptr, ptr %this
  call void @llvm.coro.destroy(ptr %h2)
  br label %done
done:
  ret void
}

define void @step(ptr %this) {
  %h = load ptr, ptr %this
  call void @llvm.coro.resume(ptr %h)
  ret void
}

define void @take_value(ptr sret([24 x i8]) %out, ptr %this) {
  %h = load ptr, ptr %this
  call void @llvm.coro.resume(ptr %h)
  %p = call ptr @llvm.coro.promise(ptr %h, i32 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %p, i64 24, i1 false)
  store i64 0, ptr %out
  ret void
}

define void @take_moved(ptr sret([8 x i8]) %out, ptr %this) {
  %h = load ptr, ptr %this
  %p = call ptr @llvm.coro.promise(ptr %h, i32 8, i1 false)
  %v = load ptr, ptr %p
  call void @move_from(ptr %out, ptr %v)
  ret void
}

define void @move_from(ptr %dst, ptr %src) {
  %x = load ptr, ptr %src
  store ptr %x, ptr %dst
  store ptr null, ptr %src
  ret void
}

define void @write_through(ptr %out, ptr %this) {
  %h = load ptr, ptr %this
  store i64 0, ptr %out
  ret void
}

define void @release(ptr %this) {
  store ptr null, ptr %this
  ret void
}

define void @leak(ptr %this) {
  call void @opaque(ptr %this)
  ret void
}

declare i1 @llvm.coro.done(ptr)
declare i1 @more()
declare ptr @_Znwm(i64)
declare void @_ZdlPv(ptr)
declare void @halt() #0
@count = global i64 0

define void @drain(ptr %this) {
entry:
  %this.addr = alloca ptr
  store ptr %this, ptr %this.addr
  br label %loop
loop:
  %t = load ptr, ptr %this.addr
  %h = load ptr, ptr %t
  %d = call i1 @llvm.coro.done(ptr %h)
  br i1 %d, label %out, label %body
body:
  %t2 = load ptr, ptr %this.addr
  %h2 = load ptr, ptr %t2
  call void @llvm.coro.resume(ptr %h2)
  br label %loop
out:
  ret void
}

define void @new_each_turn(ptr %this) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %this, %entry ], [ %q, %loop ]
  %q = alloca i8
  %go = call i1 @more()
  br i1 %go, label %loop, label %out
out:
  ret void
}

define void @two_entries(ptr %this, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %go = call i1 @more()
  br i1 %go, label %b, label %out
b:
  br label %a
out:
  ret void
}

define ptr @fwd_new(i64 %n) {
  %n.addr = alloca i64
  store i64 %n, ptr %n.addr
  %k = load i64, ptr %n.addr
  %p = call ptr @_Znwm(i64 %k)
  ret ptr %p
}

define ptr @counting_new(i64 %n) {
  %c = load i64, ptr @count
  %c1 = add i64 %c, 1
  store i64 %c1, ptr @count
  %p = call ptr @_Znwm(i64 %n)
  ret ptr %p
}

define void @fails() {
  call void @halt()
  unreachable
}

define void @one_line() { ret void }

define void @spins() {
entry:
  br label %ret
ret:
  br label %ret
}

attributes #0 = { noreturn nounwind }
"#;

    fn with_prover(check: impl FnOnce(&mut Prover<'_>, &Module, &mut TypeTable)) {
        let m = Module::parse(MODULE.to_string()).map_err(|e| e.0).expect("parses");
        let dl = DataLayout::from_module_text(&m.src);
        let names = names(&m);
        let mut types = m.types.clone();
        let mut parsed = Parsed::default();
        let mut p = Prover::new(&m, &dl, &names, &mut parsed);
        check(&mut p, &m, &mut types);
    }

    /// Ramp `name` of `MODULE`, and its first alloca (the promise).
    fn ramp_of(m: &Module, types: &mut TypeTable, name: &str) -> (Function, Option<Value>) {
        let i = m.definitions().find(|&i| m.item_name(i) == name).expect("the ramp");
        let f = m.parse_function_with(i, types).expect("parses");
        let promise =
            f.inst_iter().find_map(|(_, x)| (f.insts[x].op == Opcode::Alloca).then_some(f.insts[x].result)?);
        (f, promise)
    }

    #[test]
    fn the_ramp_leaves_its_frame_in_the_sret_object() {
        with_prover(|p, m, types| {
            let (f, promise) = ramp_of(m, types, "@ramp");
            assert_eq!(p.ramp(&f, promise, types), Some(HandleOut::InSret { param: 0, off: 0 }));
            // Without knowing which alloca is the promise, coro.promise proves nothing.
            assert_eq!(p.ramp(&f, None, types), None);
        });
    }

    /// A task object keeping the promise's `this` (`task{this}` in `get_return_object`).
    #[test]
    fn the_ramp_returns_its_promise_pointer() {
        with_prover(|p, m, types| {
            let (f, promise) = ramp_of(m, types, "@promise_ramp");
            assert_eq!(p.ramp(&f, promise, types), Some(HandleOut::PromiseReturned));
        });
    }

    #[test]
    fn what_methods_do_to_a_frame_in_their_object() {
        with_prover(|p, _, types| {
            assert_eq!(p.effect("@dtor", 0, 1, 0, types), Effect::Destroys, "the null test is decided");
            assert_eq!(p.effect("@step", 0, 1, 0, types), Effect::Keeps);
            assert_eq!(p.effect("@release", 0, 1, 0, types), Effect::Unknown, "the handle is overwritten");
            assert_eq!(p.effect("@leak", 0, 1, 0, types), Effect::Unknown, "unknown code gets the object");
            assert_eq!(p.effect("@missing", 0, 1, 0, types), Effect::Unknown);
            // A value copied out of the promise into the `sret` object (`std::optional<T>
            // operator()()`): that object is not the caller's task object.
            assert_eq!(p.effect("@take_value", 1, 2, 0, types), Effect::Keeps);
            assert_eq!(p.effect("@take_value", 0, 2, 0, types), Effect::Unknown, "the object is the sret one");
            // Moved in from a pointer the promise held (`unique_ptr`'s move constructor): a callee
            // that gets the result object and unknown pointers only reaches no tracked object.
            assert_eq!(p.effect("@take_moved", 1, 2, 0, types), Effect::Keeps);
            assert_eq!(p.effect("@write_through", 1, 2, 0, types), Effect::Unknown, "a plain pointer may be it");
        });
    }

    #[test]
    fn loops_are_followed_while_their_state_settles() {
        with_prover(|p, _, types| {
            // The second arrival at the header is in the first one's state.
            assert_eq!(p.effect("@drain", 0, 1, 0, types), Effect::Keeps);
            // A phi that points at a new object on every turn: given up after a few.
            assert_eq!(p.effect("@new_each_turn", 0, 1, 0, types), Effect::Unknown);
            // A loop entered at two blocks is not followed.
            assert_eq!(p.effect("@two_entries", 0, 2, 0, types), Effect::Unknown);
        });
    }

    #[test]
    fn what_callee_headers_and_bodies_say() {
        with_prover(|p, _, types| {
            assert!(p.forwards_to("@fwd_new", &["@_Znwm"], types));
            assert!(!p.forwards_to("@fwd_new", &["@malloc"], types));
            assert!(!p.forwards_to("@counting_new", &["@_Znwm"], types), "it writes a global");
            assert!(p.never_returns("@halt"), "declared noreturn");
            assert!(p.never_returns("@fails"), "no ret");
            assert!(!p.never_returns("@step"));
            assert!(!p.never_returns("@one_line"), "a ret wherever it is written");
            assert!(p.never_returns("@spins"), "a block named ret is no ret");
            assert!(p.cannot_unwind("@halt") && p.cannot_unwind("@printf"));
            assert!(!p.cannot_unwind("@opaque") && !p.cannot_unwind("@step"));
        });
    }
}
