//! The input checks of a stackless function, made before its body changes: how the frame
//! intrinsics connect (a statepoint's frame token is a layout or an accessor of one, an accessor
//! reads a statepoint, ...), what each callee is declared to take and return against what the
//! statepoint passes and reads, and the explicit slots of each frame. Every refusal points at the
//! user's instruction, or at the operand at fault, and names the user's values and blocks.
//!
//! What only the lowered body shows (a frame pointer used after its call, a GC pointer live across a
//! call without a slot) is found later; `Origins` remembers what those refusals need of the input:
//! its block labels, and which of the user's values each of llcoro's values stands for.

use super::{Kind, Layout, PREFIXES, Returns, Save, Statepoint, kind_of};
use crate::diag::Finding;
use codespan_reporting::diagnostic::Severity;
use cranelift_entity::SecondaryMap;
use llir::ir::{Block, Function, Inst, Opcode, Value};
use llir::layout::DataLayout;
use llir::parser::Signature;
use llir::types::{Type, TypeData, TypeTable};
use llir::{Error, Span};
use rustc_hash::{FxHashMap, FxHashSet};

/// What a refusal needs of the input once the body has changed.
pub struct Origins {
    /// Each input block's label (`%entry`, `%3`).
    labels: SecondaryMap<Block, String>,
    /// For a block llcoro made by splitting one: the input block whose tail it holds.
    from: SecondaryMap<Block, Option<Block>>,
    /// llcoro's values that replaced the user's (the frame and result after a call, a frame load).
    stands_for: FxHashMap<Value, Value>,
    /// The input block of each user instruction llcoro removed in favour of its own.
    was_in: FxHashMap<Inst, Block>,
}

impl Origins {
    pub fn new(f: &Function) -> Origins {
        let named = |b: Block| f.blocks[b].name.as_deref().filter(|n| !llir::print::is_numbered(n));
        let slots = f.layout.iter().any(|&b| named(b).is_none()).then(|| llir::print::Slots::compute(f));
        let mut labels = SecondaryMap::new();
        for &b in &f.layout {
            labels[b] = match (named(b), &slots) {
                (Some(n), _) => format!("%{}", quoted(n)),
                (None, Some(s)) => format!("%{}", s.block(b)),
                (None, None) => String::new(),
            };
        }
        Origins { labels, from: SecondaryMap::new(), stands_for: FxHashMap::default(), was_in: FxHashMap::default() }
    }

    /// `new` holds the tail of `b` (a call's continuation).
    pub fn split(&mut self, b: Block, new: Block) {
        self.from[new] = Some(self.input_block(b));
    }

    /// llcoro's value `new` replaces the user's `user` (the first one, when several are replaced),
    /// whose instruction is about to go.
    pub fn replaced(&mut self, f: &Function, new: Value, user: Value) {
        self.stands_for.entry(new).or_insert(user);
        if let Some(i) = f.value_inst(user)
            && let Some(b) = f.insts[i].block
        {
            self.was_in.insert(i, self.input_block(b));
        }
    }

    fn input_block(&self, b: Block) -> Block {
        self.from[b].unwrap_or(b)
    }

    /// The user's value `v` stands for (itself, unless llcoro made it).
    pub fn user_value(&self, v: Value) -> Value {
        self.stands_for.get(&v).copied().unwrap_or(v)
    }

    /// `%name` of the user's value `v` stands for.
    pub fn name(&self, f: &Function, v: Value) -> String {
        value_label(f, self.user_value(v))
    }

    /// The user's instruction that defines what `v` stands for, if an instruction does.
    pub fn def(&self, f: &Function, v: Value) -> Option<Inst> {
        f.value_inst(self.user_value(v))
    }

    /// An error at instruction `at` (or at `span` within it), in the input block it is in.
    pub fn error_at(
        &self,
        f: &Function,
        at: Inst,
        span: Option<Span>,
        code: &'static str,
        msg: String,
        help: &str,
    ) -> Finding {
        let block = f.insts[at].block.map(|b| self.input_block(b)).or_else(|| self.was_in.get(&at).copied());
        let place = match block {
            Some(b) => format!("in {}, block {}: ", f.name, self.labels[b]),
            None => format!("in {}: ", f.name),
        };
        let span = span.unwrap_or(f.insts[at].span);
        Finding {
            severity: Severity::Error,
            error: Error::new(code, span, format!("{place}{msg}")).label("here").help(help),
        }
    }
}

/// `%name`, quoted when LLVM would quote it.
pub fn value_label(f: &Function, v: Value) -> String {
    match f.values[v].name.as_deref() {
        Some(n) => format!("%{}", quoted(n)),
        None => "a value llcoro made".into(),
    }
}

fn quoted(n: &str) -> String {
    let plain = !n.is_empty() && n.bytes().all(|c| c.is_ascii_alphanumeric() || b"-$._".contains(&c));
    if plain { n.to_string() } else { format!("\"{n}\"") }
}

/// Where operand `v` of instruction `i` is spelled: its last (`last`) or first occurrence in the
/// instruction's text, or None when it is not spelled there (a value llcoro made).
pub fn operand_span(f: &Function, src: &str, i: Inst, v: Value, last: bool) -> Option<Span> {
    let span = f.insts[i].span;
    let text = src.get(span.start as usize..span.end as usize)?;
    let needle = match (f.const_text(v, src), f.values[v].name.as_deref()) {
        (Some(c), _) => c.to_string(),
        (None, Some(n)) => format!("%{}", quoted(n)),
        (None, None) => return None,
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || b"-$._\"".contains(&c);
    let bounded = |at: usize| {
        let before = at
            .checked_sub(1)
            .and_then(|k| text.as_bytes().get(k))
            .is_none_or(|&c| !ident(c) || needle.starts_with('%'));
        let after = text.as_bytes().get(at + needle.len()).is_none_or(|&c| !ident(c));
        before && after
    };
    let mut hits = text.match_indices(needle.as_str()).map(|(k, _)| k).filter(|&k| bounded(k));
    let at = if last { hits.last() } else { hits.next() }?;
    Some(Span::new(span.start + at as u32, span.start + (at + needle.len()) as u32))
}

/// The frame intrinsics and how they connect, checked.
pub struct Checked {
    pub calls: Vec<(Inst, Kind)>,
    pub layouts: FxHashMap<Inst, Layout>,
    pub saves: Vec<Save>,
    pub statepoints: Vec<Statepoint>,
}

/// A callee's declared signature by its global name.
pub type Signatures<'a> = &'a dyn Fn(&str, &mut TypeTable) -> Option<Signature>;

/// Checks every frame intrinsic of `f` before anything changes; all refusals at once.
pub fn check(
    f: &Function,
    types: &mut TypeTable,
    dl: &DataLayout,
    src: &str,
    signature: Signatures<'_>,
    o: &Origins,
) -> Result<Checked, Vec<Finding>> {
    let calls = intrinsics(f, src, o)?;
    let mut errors = Vec::new();
    let (layouts, mut refused) = layouts(f, &calls, src, o, &mut errors);
    let c = Context { f, src, o, calls: &calls, layouts: &layouts };
    let statepoints = c.statepoints(types, signature, &mut refused, &mut errors);
    c.tokens(types, &refused, &mut errors);
    c.token_uses(&mut errors);
    let saves = c.saves(&refused, &mut errors);
    c.spill_offsets(&statepoints, &mut errors);
    if errors.is_empty() {
        c.slots(types, dl, &saves, &mut errors);
    }
    if errors.is_empty() { Ok(Checked { calls, layouts, saves, statepoints }) } else { Err(errors) }
}

/// Every frame intrinsic call, by kind, in body order.
fn intrinsics(f: &Function, src: &str, o: &Origins) -> Result<Vec<(Inst, Kind)>, Vec<Finding>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (_, i) in f.inst_iter() {
        let Some(name) = f.callee_name(i, src) else { continue };
        if !PREFIXES.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        match kind_of(name) {
            Some(k) if f.insts[i].op == Opcode::Call => out.push((i, k)),
            Some(_) => errors.push(o.error_at(
                f,
                i,
                None,
                "stackless-invoke",
                "a frame intrinsic called with invoke".into(),
                "call frame intrinsics with `call`; they do not throw",
            )),
            None => errors.push(o.error_at(
                f,
                i,
                None,
                "stackless-unknown",
                format!("{name} is not a frame intrinsic llcoro knows"),
                "use spillsz, layout, save, statepoint, accessor, sp, load, result or return (docs/stackless.md)",
            )),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

pub fn const_operand(f: &Function, i: Inst, k: usize, src: &str) -> Option<i64> {
    f.insts[i].call_args().get(k).and_then(|&v| f.const_int(v, src)).and_then(|c| i64::try_from(c).ok())
}

/// The layouts, and those refused (whose statepoints and saves then say nothing more).
fn layouts(
    f: &Function,
    calls: &[(Inst, Kind)],
    src: &str,
    o: &Origins,
    errors: &mut Vec<Finding>,
) -> (FxHashMap<Inst, Layout>, FxHashSet<Inst>) {
    let mut out = FxHashMap::default();
    let mut refused = FxHashSet::default();
    for &(i, k) in calls {
        if k != Kind::Layout {
            continue;
        }
        let args = f.insts[i].call_args();
        let (Some(&sp), Some(ra)) = (args.first(), const_operand(f, i, 1, src)) else {
            refused.insert(i);
            errors.push(o.error_at(
                f,
                i,
                None,
                "stackless-layout",
                "a frame layout needs the frame pointer and a constant return-address offset".into(),
                "write `layout(ptr %sp, i32 RA_OFFSET, i32 SPILL_OFFSET)` (or without the spill offset on the return side)",
            ));
            continue;
        };
        let spill = match args.get(2) {
            None => None,
            Some(&s) => match const_operand(f, i, 2, src) {
                Some(v) if (0..=i64::from(i32::MAX)).contains(&v) => Some(v),
                Some(v) => {
                    refused.insert(i);
                    errors.push(o.error_at(
                        f,
                        i,
                        operand_span(f, src, i, s, true),
                        "stackless-layout",
                        format!("the spill-area offset {v} is not in 0..=2147483647"),
                        "put the spill area after the frame pointer, at an offset the table's 32-bit field holds",
                    ));
                    continue;
                }
                None => {
                    refused.insert(i);
                    errors.push(o.error_at(
                        f,
                        i,
                        operand_span(f, src, i, s, true),
                        "stackless-layout",
                        format!("the spill-area offset {} of this frame layout is not a constant", value_label(f, s)),
                        "give the spill area's byte offset as an integer constant",
                    ));
                    continue;
                }
            },
        };
        out.insert(i, Layout { inst: i, sp, ra, spill });
    }
    (out, refused)
}

/// The layout a frame token stands for: a layout call itself, or an accessor (the relocated frame
/// keeps the layout of the frame it was before the call).
pub fn layout_of(f: &Function, v: Value, layouts: &FxHashMap<Inst, Layout>, src: &str) -> Option<Inst> {
    let mut v = v;
    for _ in 0..1024 {
        let i = f.value_inst(v)?;
        if layouts.contains_key(&i) {
            return Some(i);
        }
        // Only an accessor stands for a frame: accessor(statepoint) → the statepoint's frame token.
        let stp = statepoint_of_accessor(f, i, src)?;
        v = *f.insts[stp].call_args().last()?;
    }
    None
}

/// The statepoint `i` is the accessor of, if it is one.
fn statepoint_of_accessor(f: &Function, i: Inst, src: &str) -> Option<Inst> {
    if f.callee_name(i, src).and_then(kind_of) != Some(Kind::Accessor) {
        return None;
    }
    f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)).filter(|&s| is_kind(f, s, src, Kind::Statepoint))
}

fn is_kind(f: &Function, i: Inst, src: &str, k: Kind) -> bool {
    f.callee_name(i, src).and_then(kind_of) == Some(k)
}

fn is_pointer(types: &TypeTable, t: Type) -> bool {
    matches!(types.get(t), TypeData::Ptr(_) | TypeData::TypedPtr(..))
}

/// How a callee returning `t` hands back the frame: `{ptr, T}`, `{ptr}` or `ptr`.
pub fn returns_of(types: &TypeTable, t: Type) -> Option<Returns> {
    match types.get(t) {
        TypeData::Ptr(_) | TypeData::TypedPtr(..) => Some(Returns::Bare),
        TypeData::Struct { fields, .. } => match fields.as_ref() {
            [p] if is_pointer(types, *p) => Some(Returns::Wrapped),
            [p, r] if is_pointer(types, *p) => Some(Returns::Pair(*r)),
            _ => None,
        },
        _ => None,
    }
}

/// A description of what a value is, for a message: `%x, a ptr` or `%t, a token`.
fn what(f: &Function, types: &TypeTable, v: Value) -> String {
    format!("{} ({})", value_label(f, v), types.display(f.values[v].ty))
}

struct Context<'a> {
    f: &'a Function,
    src: &'a str,
    o: &'a Origins,
    calls: &'a [(Inst, Kind)],
    layouts: &'a FxHashMap<Inst, Layout>,
}

impl Context<'_> {
    fn of_kind(&self, k: Kind) -> impl Iterator<Item = Inst> + '_ {
        self.calls.iter().filter(move |&&(_, kind)| kind == k).map(|&(i, _)| i)
    }

    /// The calls of kind `k` whose first operand is `token`.
    fn reading(&self, k: Kind, token: Inst) -> Vec<Inst> {
        let f = self.f;
        self.of_kind(k)
            .filter(|&i| f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)) == Some(token))
            .collect()
    }

    /// Each statepoint with its frame's layout and what its callee returns; those refused join
    /// `bad` (their accessors and results are then not checked again).
    fn statepoints(
        &self,
        types: &mut TypeTable,
        signature: Signatures<'_>,
        bad: &mut FxHashSet<Inst>,
        errors: &mut Vec<Finding>,
    ) -> Vec<Statepoint> {
        let (f, src, o) = (self.f, self.src, self.o);
        let mut out = Vec::new();
        for i in self.of_kind(Kind::Statepoint) {
            let args = f.insts[i].call_args();
            let (Some(&callee), Some(&token), true) = (args.first(), args.last(), args.len() >= 2) else {
                bad.insert(i);
                errors.push(o.error_at(
                    f,
                    i,
                    None,
                    "stackless-statepoint-layout",
                    "this statepoint has no frame token: its operands are the callee, its arguments and a frame token"
                        .into(),
                    "pass the callee, its arguments, then the token a `gc.frame.layout` call returned",
                ));
                continue;
            };
            let at = operand_span(f, src, i, token, true);
            let layout = match layout_of(f, token, self.layouts, src) {
                None if self.comes_from_refused(token, bad) => {
                    bad.insert(i);
                    continue;
                }
                None => {
                    bad.insert(i);
                    errors.push(o.error_at(
                        f,
                        i,
                        at,
                        "stackless-statepoint-layout",
                        format!(
                            "this statepoint's frame operand {} is not the token of a frame layout, nor an accessor of one",
                            what(f, types, token)
                        ),
                        "pass the callee, its arguments, then the token a `gc.frame.layout` call returned (or the \
                         accessor of an earlier statepoint)",
                    ));
                    continue;
                }
                Some(l) if self.layouts.get(&l).is_some_and(|l| l.spill.is_none()) => {
                    bad.insert(i);
                    errors.push(o.error_at(
                        f,
                        i,
                        at,
                        "stackless-statepoint-layout",
                        format!("this statepoint's frame {} is a layout without a spill area", value_label(f, token)),
                        "give the layout a spill-area offset: `gc.frame.layout(ptr %sp, i32 RA, i32 SPILL)`",
                    ));
                    continue;
                }
                Some(l) => l,
            };
            match self.returns(types, signature, i, callee, &args[1..args.len() - 1]) {
                Ok(returns) => out.push(Statepoint { inst: i, layout, callee, returns }),
                Err(e) => {
                    bad.insert(i);
                    errors.extend(e);
                }
            }
        }
        out
    }

    /// Does frame token `token` come from a layout or statepoint already refused?
    fn comes_from_refused(&self, token: Value, refused: &FxHashSet<Inst>) -> bool {
        let (f, src) = (self.f, self.src);
        let mut v = token;
        for _ in 0..1024 {
            let Some(d) = f.value_inst(v) else { return false };
            if refused.contains(&d) {
                return true;
            }
            let stp = if is_kind(f, d, src, Kind::Statepoint) { Some(d) } else { statepoint_of_accessor(f, d, src) };
            let Some(stp) = stp else { return false };
            if refused.contains(&stp) {
                return true;
            }
            let Some(&t) = f.insts[stp].call_args().last() else { return false };
            v = t;
        }
        false
    }

    /// What statepoint `i`'s callee returns: from its declaration, which the arguments passed and
    /// the results read must agree with; or, for a callee the module does not declare, from the
    /// `gc.frame.result` calls that read it.
    fn returns(
        &self,
        types: &mut TypeTable,
        signature: Signatures<'_>,
        i: Inst,
        callee: Value,
        args: &[Value],
    ) -> Result<Returns, Vec<Finding>> {
        let (f, src, o) = (self.f, self.src, self.o);
        let results = self.reading(Kind::Result, i);
        let name = f.const_text(callee, src).filter(|n| n.starts_with('@'));
        let sig = name.and_then(|n| signature(n, types));
        let callee_at = operand_span(f, src, i, callee, false);
        let name = name.unwrap_or_default();
        let Some(sig) = sig else {
            let name = if name.is_empty() { value_label(f, callee) } else { name.to_string() };
            return self.returns_undeclared(types, i, callee_at, &name, &results);
        };
        let ret = types.display(sig.ret);
        let Some(returns) = returns_of(types, sig.ret) else {
            return Err(vec![o.error_at(
                f,
                i,
                callee_at,
                "stackless-callee-type",
                format!("{name} returns {ret}: a stackless callee returns its caller's frame pointer first"),
                "declare the callee as returning `{ptr, T}` (the frame pointer and the result), `{ptr}` or `ptr`",
            )]);
        };
        let mut errors: Vec<Finding> =
            self.check_arguments(types, i, callee_at, name, &sig, args).into_iter().collect();
        errors.extend(self.check_results(types, name, &ret, returns, &results));
        if errors.is_empty() { Ok(returns) } else { Err(errors) }
    }

    /// What statepoint `i`'s callee `name`, which the module does not declare, returns: what the
    /// `results` that read it say, when they agree.
    fn returns_undeclared(
        &self,
        types: &TypeTable,
        i: Inst,
        callee_at: Option<Span>,
        name: &str,
        results: &[Inst],
    ) -> Result<Returns, Vec<Finding>> {
        let (f, o) = (self.f, self.o);
        let Some((&first, rest)) = results.split_first() else {
            return Err(vec![o.error_at(
                f,
                i,
                callee_at,
                "stackless-callee-type",
                format!(
                    "cannot tell what this statepoint's callee {name} returns: the module does not declare it, and \
                     no `gc.frame.result` reads it",
                ),
                "read its result with `gc.frame.result`, or call a function declared in the module as returning \
                 `{ptr, T}`, `{ptr}` or `ptr`",
            )]);
        };
        let t = self.result_type(types, first);
        let errors: Vec<Finding> = rest
            .iter()
            .filter(|&&r| self.result_type(types, r) != t)
            .map(|&r| {
                o.error_at(
                    f,
                    r,
                    None,
                    "stackless-result-type",
                    format!(
                        "this result is read as {}, but another result of the same statepoint as {}",
                        types.display(self.result_type(types, r)),
                        types.display(t)
                    ),
                    "read each statepoint's result as one type: the type its callee returns",
                )
            })
            .collect();
        if errors.is_empty() { Ok(Returns::Pair(t)) } else { Err(errors) }
    }

    /// Statepoint `i` passes `args` to `name` after the frame pointer: refused unless its
    /// declaration `sig` takes the frame pointer first and then those.
    fn check_arguments(
        &self,
        types: &TypeTable,
        i: Inst,
        callee_at: Option<Span>,
        name: &str,
        sig: &Signature,
        args: &[Value],
    ) -> Option<Finding> {
        let f = self.f;
        let passed: Vec<Type> = args.iter().map(|&a| f.values[a].ty).collect();
        let takes_frame = sig.params.first().is_some_and(|&p| is_pointer(types, p));
        let rest = sig.params.get(1..).unwrap_or(&[]);
        let agrees = rest.len() <= passed.len()
            && (sig.vararg || rest.len() == passed.len())
            && rest.iter().zip(&passed).all(|(a, b)| a == b);
        if takes_frame && agrees {
            return None;
        }
        let show = |ts: &[Type]| ts.iter().map(|&t| types.display(t)).collect::<Vec<_>>().join(", ");
        let declared = format!("{}{}", show(&sig.params), if sig.vararg { ", ..." } else { "" });
        let msg = if takes_frame {
            format!("this statepoint passes ({}) to {name}, declared as taking (ptr sp, {})", show(&passed), show(rest))
        } else {
            format!(
                "{name} is declared as taking ({declared}): a stackless callee takes its caller's frame pointer first"
            )
        };
        Some(self.o.error_at(
            f,
            i,
            callee_at,
            "stackless-callee-type",
            msg,
            "pass the callee the arguments its declaration takes after the frame pointer (which llcoro passes)",
        ))
    }

    /// The `results` read of a callee `name` declared as returning `ret` (`returns`) that do not
    /// read what it returns.
    fn check_results(
        &self,
        types: &TypeTable,
        name: &str,
        ret: &str,
        returns: Returns,
        results: &[Inst],
    ) -> Vec<Finding> {
        let mut errors = Vec::new();
        for &r in results {
            let got = types.display(self.result_type(types, r));
            let msg = match returns {
                Returns::Pair(t) if t == self.result_type(types, r) => continue,
                Returns::Pair(t) => {
                    format!(
                        "this result is read as {got}, but {name} returns {ret}: its result is {}",
                        types.display(t)
                    )
                }
                Returns::Wrapped | Returns::Bare => {
                    format!("{name} returns {ret}, only the frame pointer: there is no result to read")
                }
            };
            errors.push(self.o.error_at(
                self.f,
                r,
                None,
                "stackless-result-type",
                msg,
                "read the result as the type the callee's declaration returns after the frame pointer",
            ));
        }
        errors
    }

    /// The type a `gc.frame.result` call reads (void for one that reads nothing).
    fn result_type(&self, types: &TypeTable, r: Inst) -> Type {
        let f = self.f;
        f.insts[r].result.map_or(types.void, |v| f.values[v].ty)
    }

    /// The token operands of accessors, `frame.sp`, loads, results and returns; a load's offset.
    fn tokens(&self, types: &TypeTable, bad: &FxHashSet<Inst>, errors: &mut Vec<Finding>) {
        let (f, src, o) = (self.f, self.src, self.o);
        for &(i, kind) in self.calls {
            let args = f.insts[i].call_args();
            let token = args.first().copied();
            let def = token.and_then(|t| f.value_inst(t));
            let is = |k: Kind| def.is_some_and(|d| is_kind(f, d, src, k));
            // A token from a layout or statepoint already refused says nothing more.
            if token.is_some_and(|t| self.comes_from_refused(t, bad)) {
                continue;
            }
            let at = token.and_then(|t| operand_span(f, src, i, t, false));
            let shown = token.map_or_else(|| "nothing".to_string(), |t| what(f, types, t));
            let (code, msg, help) = match kind {
                Kind::Accessor | Kind::Result if !is(Kind::Statepoint) => (
                    "stackless-token",
                    format!("this {} reads {shown}, which is not the token of a statepoint", name(kind)),
                    "pass the token a `gc.frame.statepoint` call returned",
                ),
                Kind::Sp if !is(Kind::Statepoint) && !is(Kind::Accessor) => (
                    "stackless-sp-token",
                    format!("`frame.sp` reads the frame pointer of a statepoint or of its accessor, not of {shown}"),
                    "pass the token a `gc.frame.statepoint` or `gc.frame.accessor` call returned",
                ),
                Kind::Load if !is(Kind::Accessor) => (
                    "stackless-load-token",
                    format!(
                        "this frame load reads {shown}, not an accessor: after a statepoint the frame may have moved"
                    ),
                    "load from `gc.frame.accessor(token %statepoint)`, the frame wherever the call left it",
                ),
                Kind::Load if const_operand(f, i, 1, src).is_none() => (
                    "stackless-load",
                    "a frame load needs an accessor token and a constant offset".into(),
                    "write `load(token %accessor, i32 OFFSET)` with the token of a `gc.frame.accessor` call",
                ),
                Kind::Return => match self.return_fault(types, i) {
                    Some(msg) => ("stackless-return", msg, RETURN_HELP),
                    None => continue,
                },
                _ => continue,
            };
            // A fault of the token is shown at the token; the others at the whole call.
            let of_token = !(code == "stackless-load" || (kind == Kind::Return && self.returns_layout(i)));
            let at = if of_token { at } else { None };
            errors.push(o.error_at(f, i, at, code, msg, help));
        }
    }

    /// Every use of a frame token (a layout's, a statepoint's or an accessor's) by anything but a
    /// frame intrinsic: llcoro replaces the tokens, so such a use (a misspelt intrinsic, say)
    /// would be left naming nothing.
    fn token_uses(&self, errors: &mut Vec<Finding>) {
        let (f, src, o) = (self.f, self.src, self.o);
        let tokens: FxHashSet<Inst> = self
            .calls
            .iter()
            .filter(|&&(_, k)| matches!(k, Kind::Layout | Kind::Statepoint | Kind::Accessor))
            .map(|&(i, _)| i)
            .collect();
        let intrinsic: FxHashSet<Inst> = self.calls.iter().map(|&(i, _)| i).collect();
        for (_, i) in f.inst_iter() {
            if intrinsic.contains(&i) {
                continue;
            }
            let Some(&t) = f.insts[i].args.iter().find(|&&a| f.value_inst(a).is_some_and(|d| tokens.contains(&d)))
            else {
                continue;
            };
            let what = match f.callee_name(i, src) {
                Some(callee) => format!("{callee}, which is not a frame intrinsic,"),
                None => "an instruction that is not a frame intrinsic".to_string(),
            };
            errors.push(o.error_at(
                f,
                i,
                operand_span(f, src, i, t, false),
                "stackless-token-use",
                format!("the frame token {} is passed to {what} and would be left dangling", value_label(f, t)),
                "pass frame tokens only to the `llvm.gc.frame.*` and `llvm.frame.*` intrinsics (docs/stackless.md)",
            ));
        }
    }

    /// Does `frame.return` call `i` read the token of a layout?
    fn returns_layout(&self, i: Inst) -> bool {
        let f = self.f;
        f.insts[i].call_args().first().and_then(|&t| f.value_inst(t)).is_some_and(|d| self.layouts.contains_key(&d))
    }

    /// What is wrong with `frame.return` call `i`, if anything: its token is not a layout, or what
    /// it returns does not hold the frame pointer and its value.
    fn return_fault(&self, types: &TypeTable, i: Inst) -> Option<String> {
        let f = self.f;
        let args = f.insts[i].call_args();
        let token = args.first().copied();
        if !self.returns_layout(i) {
            let shown = token.map_or_else(|| "nothing".to_string(), |t| what(f, types, t));
            return Some(format!("this `frame.return` reads {shown}, which is not the token of a frame layout"));
        }
        let rty = f.insts[i].result.map(|r| f.values[r].ty)?;
        let value = args.get(1).map(|&v| f.values[v].ty);
        match (returns_of(types, rty), value, args.len()) {
            (Some(Returns::Pair(t)), Some(v), 2) if t == v => None,
            (Some(Returns::Wrapped | Returns::Bare), None, 1) => None,
            _ => Some(format!(
                "this `frame.return` makes {} from {}",
                types.display(rty),
                match value {
                    Some(v) => format!("the frame pointer and {}", types.display(v)),
                    None => "the frame pointer alone".into(),
                }
            )),
        }
    }

    fn saves(&self, bad: &FxHashSet<Inst>, errors: &mut Vec<Finding>) -> Vec<Save> {
        let (f, src, o) = (self.f, self.src, self.o);
        let mut out = Vec::new();
        for i in self.of_kind(Kind::Save) {
            let args = f.insts[i].call_args();
            let token = args.first().copied();
            let layout = token.and_then(|t| layout_of(f, t, self.layouts, src));
            if let (Some(layout), Some(&value), Some(offset)) = (layout, args.get(1), const_operand(f, i, 2, src)) {
                out.push(Save { inst: i, layout, value, offset });
                continue;
            }
            // From a layout or statepoint already refused: that one is at fault.
            if token.is_some_and(|t| self.comes_from_refused(t, bad)) {
                continue;
            }
            let at = match layout {
                None => token.and_then(|t| operand_span(f, src, i, t, false)),
                Some(_) => None,
            };
            errors.push(o.error_at(
                f,
                i,
                at,
                "stackless-save",
                match (layout, token) {
                    (None, Some(t)) => format!(
                        "this frame save's token {} is neither a frame layout nor an accessor of one",
                        value_label(f, t)
                    ),
                    _ => "a frame save needs a layout token, a value and a constant offset".into(),
                },
                "write `save(token %layout, <value>, i32 OFFSET)` with the token of a `layout` call (or an accessor)",
            ));
        }
        out
    }

    /// One function keeps its spill area at one offset.
    fn spill_offsets(&self, statepoints: &[Statepoint], errors: &mut Vec<Finding>) {
        let (f, src, o) = (self.f, self.src, self.o);
        let spill = |s: &Statepoint| self.layouts.get(&s.layout).and_then(|l| l.spill);
        let Some(first) = statepoints.first() else { return };
        if let Some(other) = statepoints.iter().find(|s| spill(s) != spill(first)) {
            let token = f.insts[other.inst].call_args().last().copied();
            errors.push(o.error_at(
                f,
                other.inst,
                token.and_then(|t| operand_span(f, src, other.inst, t, true)),
                "stackless-spill-offset",
                format!(
                    "this statepoint puts the spill area at {}, but the statepoint {} puts it at {}",
                    spill(other).unwrap_or(0),
                    f.insts[first.inst].result.map_or_else(|| "before it".into(), |r| value_label(f, r)),
                    spill(first).unwrap_or(0)
                ),
                "give every frame layout of one function the same spill-area offset",
            ));
        }
    }

    /// Explicit slots of one frame must not overlap each other (unless they are the same slot), the
    /// return-address slot or the spill area.
    fn slots(&self, types: &TypeTable, dl: &DataLayout, saves: &[Save], errors: &mut Vec<Finding>) {
        let (f, o) = (self.f, self.o);
        let ptr_size = dl.pointer_size(0) as i64;
        let range = |s: &Save| (s.offset, s.offset + dl.store_size(types, f.values[s.value].ty) as i64);
        let same_frame = |a: Inst, b: Inst| matches!((self.layouts.get(&a), self.layouts.get(&b)), (Some(x), Some(y)) if x.sp == y.sp || x.inst == y.inst);
        for (k, a) in saves.iter().enumerate() {
            let (a0, a1) = range(a);
            let mut clash = |what: String| {
                errors.push(o.error_at(
                    f,
                    a.inst,
                    None,
                    "stackless-slot-overlap",
                    what,
                    "give every explicit slot of a frame its own bytes, apart from the return address and the spill area",
                ))
            };
            if let Some(lay) = self.layouts.get(&a.layout) {
                if a0 < lay.ra + ptr_size && lay.ra < a1 {
                    clash(format!("this save's bytes {a0}..{a1} overlap the return-address slot at {}", lay.ra));
                    return;
                }
                if let Some(sp) = lay.spill
                    && a1 > sp
                {
                    clash(format!("this save's bytes {a0}..{a1} reach into the spill area at {sp}"));
                    return;
                }
            }
            for b in &saves[..k] {
                if !same_frame(a.layout, b.layout) {
                    continue;
                }
                let (b0, b1) = range(b);
                if !(a0 == b0 && a1 == b1) && a0 < b1 && b0 < a1 {
                    clash(format!("this save's bytes {a0}..{a1} overlap another save's bytes {b0}..{b1}"));
                    return;
                }
            }
        }
    }
}

const RETURN_HELP: &str = "write `frame.return(token %layout, T value)` returning `{ptr, T}`, with the layout of the \
                           caller's frame, or `frame.return(token %layout)` returning `{ptr}` or `ptr`";

/// How a message names an intrinsic.
fn name(k: Kind) -> &'static str {
    match k {
        Kind::Accessor => "`gc.frame.accessor`",
        Kind::Result => "`gc.frame.result`",
        _ => "frame intrinsic",
    }
}
